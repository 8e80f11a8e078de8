#!/usr/bin/env python3
"""`signalstore inspect` on a 1,000,000-row table with a 1,000,000-entry change feed.

Usage: inspector_scale.py SIGNALSTORE_BINARY MIGRATIONS_DIR [ROWS]

Builds the database once in a temporary folder (the rows go in through SignalStore's capture
triggers, so the feed holds one entry per row), starts the inspector, and opens each page in
headless Chromium (Selenium, as .ci/browser sets up). For each page it reports the time to first
contentful paint as the browser measures it (the goal: at most 1 s), and the server's resident
memory before and after (VmRSS, and the peak VmHWM) — including while a 50,000-row transaction
streams into an open live feed. Prints a Markdown table.
"""
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

BINARY, MIGRATIONS = sys.argv[1], sys.argv[2]
ROWS = int(sys.argv[3]) if len(sys.argv) > 3 else 1_000_000


def build(path):
    subprocess.run([BINARY, "migrate", "--db", path, "--migrations", MIGRATIONS], check=True, capture_output=True)
    start = time.monotonic()
    with sqlite3.connect(path) as connection:
        connection.execute(f"""
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {ROWS})
            INSERT INTO orders (id, purchase_num, status, note)
            SELECT x, x % 100, 'status ' || (x % 7), CASE WHEN x % 5 = 0 THEN NULL ELSE 'note ' || x END FROM n""")
    print(f"built {ROWS:,} rows and {ROWS:,} feed entries in {time.monotonic() - start:.0f} s", file=sys.stderr)


def memory(pid):
    """(VmRSS, VmHWM) of `pid`, in MiB."""
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmRSS", "VmHWM"))


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def first_paint(driver, url):
    """Opens `url` and returns the first contentful paint in seconds, as the browser measured it."""
    driver.get(url)
    for _ in range(100):
        paints = driver.execute_script(
            "return performance.getEntriesByType('paint').filter(p => p.name === 'first-contentful-paint').map(p => p.startTime)")
        if paints:
            return paints[0] / 1000
        time.sleep(0.02)
    raise RuntimeError(f"no first contentful paint for {url}")


def main():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "big.sqlite")
        build(path)
        process = subprocess.Popen([BINARY, "inspect", "--db", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        process.stdout.readline()
        url = process.stdout.readline().strip()
        base = re.match(r"(http://[^/]+)/", url).group(1)
        driver = browser()
        rows = []
        try:
            driver.get(url)  # sets the token's cookie
            idle = memory(process.pid)
            pages = [
                ("overview (counts every table's rows)", "/"),
                ("table, first page", "/tables/orders"),
                ("table sorted by an unindexed column", "/tables/orders?sort=note&desc=1"),
                ("table filtered (status = 'status 3')", "/tables/orders?where=status&op=eq&value=status%203"),
                ("change feed, newest", "/feed"),
                ("change feed filtered to a table with no entries", "/feed?table=customers"),
                ("a row's history", f"/history/orders/{ROWS // 2}"),
            ]
            for name, page in pages:
                times = [first_paint(driver, base + page) for _ in range(3)]
                rows.append((name, max(times)))
            # The 20th page by key: each page follows the previous one's link.
            driver.get(base + "/tables/orders?sort=purchase_num")
            for _ in range(19):
                driver.get(driver.find_element(By.ID, "next-page").get_attribute("href"))
            rows.append(("20th page of a sort by purchase_num", first_paint(driver, driver.current_url)))
            browsing = memory(process.pid)
            # A big foreign transaction while the live feed is open.
            driver.get(base + "/feed")
            time.sleep(1)
            start = time.monotonic()
            with sqlite3.connect(path) as connection:
                connection.execute("UPDATE orders SET purchase_num = purchase_num + 1 WHERE id <= 50000")
            for _ in range(500):
                if driver.find_elements(By.CSS_SELECTOR, "#feed-rows a.group-link"):
                    break
                time.sleep(0.02)
            shown = time.monotonic() - start
            streaming = memory(process.pid)
        finally:
            driver.quit()
            process.send_signal(signal.SIGINT)
            process.wait(timeout=10)
        print(f"| page ({ROWS:,} rows, {ROWS:,} feed entries) | first contentful paint, worst of 3 |")
        print("|---|---|")
        for name, seconds in rows:
            print(f"| {name} | {seconds * 1000:.0f} ms |")
        print(f"| 50,000-row sqlite3 transaction into the open live feed: shown (as one line) after | {shown * 1000:.0f} ms |")
        print()
        print("| server memory | VmRSS | VmHWM (peak) |")
        print("|---|---|---|")
        print(f"| started | {idle[0]:.0f} MiB | {idle[1]:.0f} MiB |")
        print(f"| after every page above | {browsing[0]:.0f} MiB | {browsing[1]:.0f} MiB |")
        print(f"| after the 50,000-row transaction streamed | {streaming[0]:.0f} MiB | {streaming[1]:.0f} MiB |")


if __name__ == "__main__":
    main()
