#!/usr/bin/env python3
"""What finding a run's rows that hold no register costs, in SQLite instructions per key
(callgrind, stable on this noisy machine), by the length of the statement's `IN` list.

`StampTable.rowsWithRegisters` reads which of a run of inserts' rows hold a register here, one
statement per up to 500 keys; a shorter run fills the list with `NULL`s. SQLite builds a table
of the list's values each time the statement runs, the `NULL`s included, so the list's length
costs whatever the run's. At 50 replicas a run is a batch of about 225 entries.

Each length runs the statement 100 times with 225 keys in a stamps table of about 28,600 rows
(made as sync makes it); the same script without the statement is subtracted, so Python's own
work (building the keys) cancels out. Python's binding of each value stays in.

Usage (from Benchmarks/): python3 register_lookup_instructions.py
"""
import os
import shutil
import sqlite3
import sys
import tempfile

from callgrind import total_instructions

KEYS = 225
RUNS = 100


def probe(path, slots, runs):
    """The statement with `slots` values, run `runs` times (0 slots: only the keys built)."""
    db = sqlite3.connect(path)
    sql = "SELECT DISTINCT row_key FROM _signalstore_sync_stamps WHERE tbl = ? AND row_key IN (%s)" % ", ".join("?" * max(slots, 1))
    for run in range(runs):
        arguments = ["orders"] + ['[{"i":%d}]' % (run * 1000 + i) for i in range(KEYS)] + [None] * max(0, slots - KEYS)
        if slots:
            db.execute(sql, arguments).fetchall()


def main():
    if len(sys.argv) == 4:
        probe(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
        return
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "stamps.sqlite")
        db = sqlite3.connect(path)
        db.execute("""CREATE TABLE _signalstore_sync_stamps (
            tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, hlc INTEGER NOT NULL,
            origin TEXT NOT NULL, value TEXT, base_hlc INTEGER, base_origin TEXT, base_value TEXT,
            PRIMARY KEY (tbl, row_key, col))""")
        db.executemany("INSERT INTO _signalstore_sync_stamps VALUES (?, ?, '', 1, ?, ?, NULL, NULL, NULL)",
                       [("orders", '[{"i":%d}]' % i, "o" * 36, "x" * 200) for i in range(0, 200_000, 7)])
        db.commit()
        db.close()
        out = os.path.join(folder, "callgrind.out")

        def count(slots, runs):
            return total_instructions([sys.executable, __file__, path, str(slots), str(runs)], out)

        keys_only = (count(0, RUNS) - count(0, 0)) / RUNS
        print(f"{KEYS} keys per statement, SQLite instructions per key (callgrind):")
        for slots in (KEYS, 256, 500):
            per_run = (count(slots, RUNS) - count(slots, 0)) / RUNS - keys_only
            print(f"  IN list of {slots}: {per_run / KEYS:,.0f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
