#!/usr/bin/env python3
"""A writer beside `signalstore revert --dry-run`: how long one autocommit UPDATE waits.

Usage: revert_beside_writer.py SIGNALSTORE_BINARY MIGRATIONS_DIR [ROWS] [RANGE_END]

Builds a database of ROWS (100,000) orders with 200-character notes, inserted in one Python
`sqlite3` transaction, then updated three times (every row, two columns each time): about
7 x ROWS journal entries. Then previews the revert of seq 1...RANGE_END (10,000 inserts), once
as it is (later entries changed the same rows: a conflict, found by reading every later
entry) and once with --overwrite-later-changes (the statements run, in a transaction rolled
back). Meanwhile a Python thread updates one row every 5 ms and records its longest wait.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

BINARY, MIGRATIONS = sys.argv[1], sys.argv[2]
ROWS = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
RANGE_END = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000


def preview_beside_writer(path, extra):
    writer = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
    waits, stop = [], threading.Event()

    def write():
        while not stop.is_set():
            began = time.monotonic()
            writer.execute("UPDATE orders SET purchase_num = purchase_num WHERE id = ?", (ROWS,))
            waits.append(time.monotonic() - began)
            time.sleep(0.005)

    thread = threading.Thread(target=write)
    thread.start()
    time.sleep(0.3)
    began = time.monotonic()
    result = subprocess.run([BINARY, "revert", "--db", path, "--dry-run", f"1...{RANGE_END}"] + extra, capture_output=True, text=True)
    took = time.monotonic() - began
    time.sleep(0.3)
    stop.set()
    thread.join()
    writer.close()
    outcome = "a conflict" if result.returncode == 1 else f"exit {result.returncode}"
    return took, outcome, len(waits), max(waits)


def main():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "big.sqlite")
        subprocess.run([BINARY, "migrate", "--db", path, "--migrations", MIGRATIONS], check=True, capture_output=True)
        with sqlite3.connect(path) as connection:
            connection.executemany("INSERT INTO orders (id, purchase_num, status, note) VALUES (?, ?, 'open', ?)",
                                   ((i, i, "x" * 200) for i in range(1, ROWS + 1)))
        for round in range(3):
            with sqlite3.connect(path) as connection:
                connection.execute(f"UPDATE orders SET status = 's{round}', purchase_num = purchase_num + 1")
        print(f"| preview of seq 1...{RANGE_END:,} ({ROWS:,} orders, every row updated 3 times since) | preview took | writer's longest wait (writes) |")
        print("|---|---|---|")
        for label, extra in [("as it is", []), ("--overwrite-later-changes", ["--overwrite-later-changes"])]:
            took, outcome, writes, longest = preview_beside_writer(path, extra)
            print(f"| {label} ({outcome}) | {took:.2f} s | {longest * 1000:.0f} ms ({writes} writes) |")


if __name__ == "__main__":
    main()
