#!/usr/bin/env python3
"""`signalstore inspect` in a real browser: headless Chromium driven through Selenium.

Usage: inspector_browser_test.py SIGNALSTORE_BINARY MIGRATIONS_DIR SCREENSHOT_PATH

What it checks, each the way a user meets it:
- the page loads with the printed token and is refused without it (or with a wrong one);
- a write by the real `sqlite3` shell appears in the live feed and in the open table within 1 s;
- values that look like markup render as text: the DOM holds their characters, no element or
  script comes from them;
- with --allow-writes a row's history offers revert: the preview shows what it would write, the
  confirmation writes it (checked with sqlite3); without --allow-writes there is no revert at all;
- the list of tables beside every page; a foreign-key value opens the row it refers to, whose page
  links to the rows that refer to it; the schema view shows the key's action;
- a 1,500-row transaction is one line in the live feed and on the feed page, and opens;
- tables named `café` and `sl/ash` open from the list; a 1 MB value is cut in the feed and in its
  cell, and one click shows it whole;
- a screenshot of the change feed is saved to SCREENSHOT_PATH, and one of a table page beside it
  (`-table.png`).
Exits non-zero on the first failure, naming it.
"""
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

BINARY, MIGRATIONS, SCREENSHOT = sys.argv[1], sys.argv[2], sys.argv[3]
HOSTILE_SCRIPT = "<script>window.pwned = 1</script>"
HOSTILE_IMAGE = '"><img src=x onerror="window.pwned = 2">'


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print(f"ok: {message}")


def wait_until(condition, timeout, what):
    """Polls `condition` until it is true; returns the seconds it took, fails after `timeout`."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.02)
    fail(f"{what} (waited {timeout} s)")


def make_database(folder):
    """A migrated database with a customer and three orders, two of them holding markup and referring to the customer."""
    path = os.path.join(folder, "app.sqlite")
    subprocess.run([BINARY, "migrate", "--db", path, "--migrations", MIGRATIONS], check=True, capture_output=True)
    sqlite("INSERT INTO customers (id, name) VALUES (9000, 'Ada <b>Lovelace</b>');"
           "INSERT INTO orders (id, purchase_num, status, note, customer_id) VALUES "
           f"(1, 1, 'new', '{HOSTILE_SCRIPT}', 9000), (2, 2, 'null', '{HOSTILE_IMAGE}', 9000), (3, 3, '', NULL, NULL)", path)
    return path


def sqlite(sql, path):
    """Runs `sql` in the real sqlite3 shell: a foreign writer."""
    subprocess.run(["sqlite3", path, sql], check=True)


class Inspector:
    """A running `signalstore inspect`, stopped with Ctrl-C (SIGINT) as a user stops it."""

    def __init__(self, database, *flags):
        self.process = subprocess.Popen([BINARY, "inspect", "--db", database, *flags],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.process.stdout.readline()  # "SignalStore inspector for …"
        line = self.process.stdout.readline().strip()
        match = re.fullmatch(r"(http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{64})", line)
        if not match:
            self.stop()
            fail(f"inspect printed no URL with a token: {line!r}")
        self.base, self.token = match.group(1), match.group(2)

    def url(self, path, token=True):
        joiner = "&" if "?" in path else "?"
        return self.base + path + (f"{joiner}token={self.token}" if token else "")

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail("inspect did not stop within 10 s of Ctrl-C")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def text(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector).text


def shows(driver, selector, needle):
    """Whether the element `selector` finds holds `needle`; false while a navigation has not drawn it yet."""
    try:
        return needle in text(driver, selector)
    except (NoSuchElementException, StaleElementReferenceException):
        return False


def cell_texts(driver, selector):
    """The text of each element `selector` finds, read in one step (the live page replaces its rows)."""
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)", selector)


def no_alert(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def check_token(driver, inspector):
    driver.get(inspector.url("/", token=False))
    check("needs its token" in text(driver, "#message") and not driver.find_elements(By.ID, "tables"),
          "without the token the page is refused")
    driver.get(inspector.base + "/?token=" + "0" * 64)
    check("needs its token" in text(driver, "#message"), "a wrong token is refused")
    driver.get(inspector.url("/"))
    check(driver.find_elements(By.ID, "tables") and "token" not in driver.current_url,
          "the printed URL opens the overview, and the token leaves the address bar")


def check_hostile_values(driver, inspector):
    driver.get(inspector.url("/tables/orders"))
    texts = [cell.get_attribute("textContent") for cell in driver.find_elements(By.CSS_SELECTOR, "#rows td[data-type=text]")]
    check(HOSTILE_SCRIPT in texts and HOSTILE_IMAGE in texts, "markup in a value is shown as its characters")
    check(not driver.find_elements(By.CSS_SELECTOR, "main img, main script"), "no element comes from a value")
    check(driver.execute_script("return window.pwned === undefined") and no_alert(driver), "no script from a value ran")
    types = {cell.get_attribute("textContent"): cell.get_attribute("data-type")
             for cell in driver.find_elements(By.CSS_SELECTOR, "#rows tr:nth-child(2) td, #rows tr:nth-child(3) td")}
    check(types.get("null") == "text" and types.get("NULL") == "null" and types.get("") == "text",
          "the text 'null', NULL and empty text are told apart")


def check_live(driver, inspector, database):
    driver.get(inspector.url("/feed"))
    wait_until(lambda: text(driver, "#live-status") == "live", 5, "the feed page connects to its live events")
    head = int(driver.find_element(By.CSS_SELECTOR, "#feed-rows tr").get_attribute("data-seq"))
    sqlite("UPDATE orders SET purchase_num = 41 WHERE id = 3", database)
    seconds = wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f"#feed-rows tr[data-seq='{head + 1}']"), 1.0,
                         "a sqlite3 write appears in the live feed within 1 s")
    check("purchase_num: 3 → 41" in text(driver, f"#feed-rows tr[data-seq='{head + 1}'] .detail"),
          f"a sqlite3 write appears in the live feed within 1 s ({seconds:.2f} s)")
    sqlite("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1500) "
           "INSERT INTO customers (id, name) SELECT x, 'customer ' || x FROM n", database)
    last = head + 1 + 1_500
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, f"#feed-rows tr.group[data-seq='{last}'] a.group-link"), 2.0,
               "a 1,500-row transaction in the live feed becomes one line linking to its entries")
    line = driver.find_element(By.CSS_SELECTOR, f"#feed-rows tr.group[data-seq='{last}']")
    check("1,500 entries written together" in line.text and "1,500 inserts into customers" in line.text,
          f"the transaction's line says what it holds: {line.text!r}")
    members = driver.find_elements(By.CSS_SELECTOR, f"#feed-rows tr.member[data-group='{head + 2}']")
    check(len(members) == 20 and not any(row.is_displayed() for row in members),
          "the line keeps its first 20 entries, closed")
    line.find_element(By.CSS_SELECTOR, "button.toggle").click()
    check(all(row.is_displayed() for row in members), "opening the line shows its entries")
    print("ok: a 1,500-row transaction in the live feed is one line that opens")
    driver.get(inspector.url("/feed"))
    line = driver.find_element(By.CSS_SELECTOR, f"#feed-rows tr.group[data-seq='{last}']")
    check("1,500 entries written together" in line.text, "the feed page groups the transaction too")
    line.find_element(By.CSS_SELECTOR, "a.group-link").click()
    wait_until(lambda: "each on its own line" in text(driver, "main"), 5, "the line's link lists its entries")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#feed-rows tr[data-seq]")) == 100, "one entry a line, 100 a page")
    driver.get(inspector.url("/tables/orders"))
    wait_until(lambda: text(driver, "#live-status") == "live", 5, "the table page connects to its live events")
    sqlite("UPDATE orders SET purchase_num = 42 WHERE id = 3", database)
    seconds = wait_until(lambda: "42" in cell_texts(driver, "#rows tr:nth-child(3) td"), 1.0,
                         "a sqlite3 write appears in the open table within 1 s")
    print(f"ok: a sqlite3 write appears in the open table within 1 s ({seconds:.2f} s)")
    # A commit that lands while the page is reloading for the one before: the reload is made to
    # take 600 ms in the page, so the second commit comes while it is on its way. The page must
    # still end on the second one, and say "live" only once it shows it.
    driver.execute_script("""
        const original = window.fetch;
        window.fetch = (...args) => original(...args).then((response) => new Promise((done) => setTimeout(() => done(response), 600)));
        """)
    sqlite("UPDATE orders SET purchase_num = 201 WHERE id = 2", database)
    wait_until(lambda: text(driver, "#live-status") == "updating…", 1.0, "a page reloading for a commit says so, not live")
    time.sleep(0.3)
    sqlite("UPDATE orders SET purchase_num = 202 WHERE id = 2", database)
    wait_until(lambda: "202" in cell_texts(driver, "#rows tr:nth-child(2) td") and text(driver, "#live-status") == "live", 4.0,
               "a commit that lands while the page reloads is shown too, and only then does the page say live")
    print("ok: a commit that lands while the page reloads is shown, and the page says live only then")


def check_relations(driver, inspector):
    driver.get(inspector.url("/tables/orders"))
    check(text(driver, "#table-list a[aria-current]") == "orders", "the list of tables beside the rows marks the open one")
    driver.find_element(By.CSS_SELECTOR, "#rows a.parent").click()
    wait_until(lambda: shows(driver, "h1", "customers row 9000"), 5, "a foreign-key value opens the row it refers to")
    check("Ada <b>Lovelace</b>" in cell_texts(driver, "#current td"), "the row it refers to is shown, markup as text")
    driver.find_element(By.CSS_SELECTOR, "#referring-rows a").click()
    wait_until(lambda: shows(driver, "#summary", "2 rows match"), 5, "the row's page links to the rows that refer to it")
    driver.find_element(By.CSS_SELECTOR, "#schema summary").click()
    check("ON DELETE SET NULL" in text(driver, "#schema"), "the schema view shows the foreign key's action")
    print("ok: foreign keys are links both ways, and the schema shows them")


def check_revert(driver, inspector, database):
    driver.get(inspector.url("/history/orders/3"))
    links = driver.find_elements(By.CSS_SELECTOR, "#history-rows a.revert")
    check(len(links) == 3, "with --allow-writes every history entry offers revert")
    links[-1].click()  # a click returns before the page it opens is drawn: wait for it
    wait_until(lambda: shows(driver, "#revert-entries", "purchase_num: 42 → 41"), 5, "the revert preview opens")
    check("would write 1 entry" in text(driver, "main"), "the revert preview shows what it would write")
    check(value(database, "SELECT purchase_num FROM orders WHERE id = 3") == 42, "the preview wrote nothing")
    driver.find_element(By.ID, "confirm-revert").click()
    wait_until(lambda: shows(driver, "#message", "Wrote 1 entry"), 5, "confirming reverts")
    print("ok: confirming reverts")
    check(value(database, "SELECT purchase_num FROM orders WHERE id = 3") == 41, "sqlite3 sees the reverted value")


def check_read_only(driver, inspector):
    driver.get(inspector.url("/history/orders/3"))
    check(driver.find_elements(By.ID, "history-rows") and not driver.find_elements(By.CSS_SELECTOR, "a.revert"),
          "without --allow-writes a history has no revert")
    driver.get(inspector.url("/feed"))
    check(not driver.find_elements(By.CSS_SELECTOR, "a.revert"), "without --allow-writes the feed has no revert")
    driver.get(inspector.url("/revert?from=1&to=1"))
    check("read-only" in text(driver, "#message"), "without --allow-writes /revert is refused")


def check_names_and_big_values(driver, inspector, database):
    """Tables named with any characters open from the list; a 1 MB value is cut everywhere, one click from whole."""
    driver.get(inspector.url("/feed"))
    details = [cell for cell in driver.find_elements(By.CSS_SELECTOR, "#feed-rows tr[data-seq] .detail")
               if "xxxxxxxx" in cell.get_attribute("textContent")]
    check(len(details) == 1 and len(details[0].get_attribute("textContent")) < 1_000
          and details[0].find_elements(By.CSS_SELECTOR, "a.expand"),
          "a 1 MB value is cut in the feed, with a link to the whole entry")
    driver.find_element(By.LINK_TEXT, "café").click()
    wait_until(lambda: shows(driver, "h1", "café"), 5, "a table named café opens from the list of tables")
    cell = driver.find_element(By.CSS_SELECTOR, "#rows tr:nth-child(2) td[data-type=text]")
    check(len(cell.text) < 300, "a 1 MB value is cut in its cell")
    cell.find_element(By.CSS_SELECTOR, "a.more").click()
    wait_until(lambda: driver.find_elements(By.ID, "whole-value"), 5, "the cut value's marker opens the whole value")
    check(driver.execute_script("return document.getElementById('whole-value').textContent.length") == 1_000_000,
          "the value's page holds it whole")
    driver.find_element(By.LINK_TEXT, "sl/ash").click()
    wait_until(lambda: shows(driver, "h1", "sl/ash"), 5, "a table named sl/ash opens from the list of tables")
    print("ok: tables named café and sl/ash open from the list; a 1 MB value is cut, one click from whole")


def value(database, sql):
    with sqlite3.connect(database) as connection:
        return connection.execute(sql).fetchone()[0]


def main():
    with tempfile.TemporaryDirectory() as folder:
        database = make_database(folder)
        driver = browser()
        try:
            inspector = Inspector(database, "--allow-writes")
            try:
                check_token(driver, inspector)
                check_hostile_values(driver, inspector)
                check_relations(driver, inspector)
                check_live(driver, inspector, database)
                check_revert(driver, inspector, database)
                driver.get(inspector.url("/feed"))
                wait_until(lambda: text(driver, "#live-status") == "live", 5, "the feed connects before the screenshot")
                driver.find_element(By.CSS_SELECTOR, "#feed-rows tr.group button.toggle").click()
                check(all(row.is_displayed() for row in driver.find_elements(By.CSS_SELECTOR, "#feed-rows tr.member")),
                      "a line of the feed page opens to its entries")
                os.makedirs(os.path.dirname(os.path.abspath(SCREENSHOT)), exist_ok=True)
                driver.save_screenshot(SCREENSHOT)
                print(f"ok: screenshot of the change feed saved to {SCREENSHOT}")
                driver.get(inspector.url("/tables/orders"))
                table_shot = re.sub(r"(\.png)?$", "-table.png", SCREENSHOT, count=1)
                driver.save_screenshot(table_shot)
                print(f"ok: screenshot of a table page saved to {table_shot}")
            finally:
                inspector.stop()
            sqlite('CREATE TABLE "café" (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE "sl/ash" (id INTEGER PRIMARY KEY);', database)
            # A writer that opens the file as a store captures the new tables from then on.
            subprocess.run([BINARY, "insert", "sl/ash", "id=7", "--db", database], check=True, capture_output=True)
            sqlite("INSERT INTO \"café\" VALUES (1, 'crème'); INSERT INTO \"café\" VALUES (2, printf('%.*c', 1000000, 'x'));", database)
            read_only = Inspector(database)
            try:
                check_read_only(driver, read_only)
                check_names_and_big_values(driver, read_only, database)
            finally:
                read_only.stop()
        finally:
            driver.quit()
    print("inspector browser tests: all passed")


if __name__ == "__main__":
    main()
