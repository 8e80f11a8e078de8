#!/usr/bin/env python3
"""The CLI on a 200,000-entry change feed, against the sqlite3 shell on the same database, in
one run: time to the first line, total time and peak memory (max RSS) of printing the feed.

Usage (from Benchmarks/, after `swift build -c release` in the package root):
    python3 cli_streaming.py
"""
import os
import resource
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, ".build", "release", "signalstore")
ENTRIES = 200_000


def measure(command):
    """(seconds to the first line, seconds in all, max RSS in MB, bytes printed)."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    first = None
    printed = 0
    while True:
        chunk = process.stdout.read1(65536)
        if not chunk:
            break
        if first is None and b"\n" in chunk:
            first = time.monotonic() - started
        printed += len(chunk)
    _, status, usage = os.wait4(process.pid, 0)
    return first, time.monotonic() - started, usage.ru_maxrss / 1024, printed


def main():
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "feed.sqlite")
        subprocess.run([CLI, "migrate", "--db", path, "--migrations", os.path.join(ROOT, "Migrations")], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["sqlite3", path, f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {ENTRIES}) "
                        "INSERT INTO orders (id, purchase_num, status, note) SELECT i, i % 50, 'open', 'bulk order ' || i FROM n"], check=True)
        rows = [
            ("signalstore changes", [CLI, "changes", "--db", path]),
            ("signalstore changes --json", [CLI, "changes", "--json", "--db", path]),
            ("signalstore get orders", [CLI, "get", "orders", "--db", path]),
            ("sqlite3: SELECT * FROM _signalstore_changes", ["sqlite3", path, "SELECT * FROM _signalstore_changes"]),
            ("sqlite3 -json: SELECT * FROM _signalstore_changes", ["sqlite3", "-json", path, "SELECT * FROM _signalstore_changes"]),
        ]
        print(f"| {ENTRIES:,} entries | first line | total | max RSS | output |")
        print("|---|---:|---:|---:|---:|")
        for label, command in rows:
            first, total, rss, printed = measure(command)
            print(f"| `{label}` | {first * 1000:.0f} ms | {total:.2f} s | {rss:.0f} MB | {printed / 1e6:.0f} MB |")


if __name__ == "__main__":
    main()
