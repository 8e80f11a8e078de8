#!/usr/bin/env python3
"""Where applying another replica's insert goes, in SQLite instructions (callgrind, stable on
this noisy machine): the statements `RemoteApplier` runs per entry of a batch while nothing is
pending here (find the row, raise its insert register, read its later registers, write the row,
which fires the capture triggers), each run alone by Python's sqlite3 N times in one
transaction on a database made by `signalstore migrate`. Each step is measured as the difference
between running the steps up to it and the steps before it, so it meets the rows and registers
the earlier steps left, as in a real apply; the count of a run with 0 entries is subtracted, so
the interpreter's own cost cancels out.

The statements are the ones in `RemoteApplier.swift` and `StampTable.swift` (keep them equal);
the stamps table is created as sync creates it. In a run of inserts, a row that holds no
register here (most rows of another replica's big transaction) is only raised and written: the
run finds such rows with one read per 500 rows, which is left out here.

Usage (from Benchmarks/, after `swift build --product signalstore` in the package root):
    python3 apply_instructions.py
"""
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from callgrind import total_instructions

STATEMENTS = 2000
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, ".build", "debug", "signalstore")
ORIGIN = "15c2a5aa-4772-4d7f-abf1-fae4623504e4"

STAMPS = """CREATE TABLE IF NOT EXISTS _signalstore_sync_stamps (
    tbl TEXT NOT NULL, row_key TEXT NOT NULL, col TEXT NOT NULL, hlc INTEGER NOT NULL,
    origin TEXT NOT NULL, value TEXT, base_hlc INTEGER, base_origin TEXT, base_value TEXT,
    PRIMARY KEY (tbl, row_key, col))"""

LOOKUP = "SELECT rowid FROM orders WHERE id = ?"
RAISE = """INSERT INTO _signalstore_sync_stamps (tbl, row_key, col, hlc, origin, value, base_hlc, base_origin, base_value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?5, ?6)
ON CONFLICT (tbl, row_key, col) DO UPDATE SET hlc = excluded.hlc, origin = excluded.origin, value = excluded.value,
    base_hlc = excluded.hlc, base_origin = excluded.origin, base_value = excluded.value
WHERE excluded.hlc > hlc OR (excluded.hlc = hlc AND excluded.origin > origin)"""
LATER = "SELECT col, hlc, origin, value FROM _signalstore_sync_stamps WHERE tbl = ? AND row_key = ? AND col <> '#insert'"
WRITE = "INSERT INTO orders (created_at, customer_id, id, note, purchase_num, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"


def key(i):
    return f'[{{"i":{i}}}]'


def payload(i):
    return (f'{{"created_at":{{"r":"1795733324.5209978"}},"customer_id":null,"id":{{"i":{i}}},'
            f'"note":{{"t":"note {i}"}},"purchase_num":{{"i":{i}}},"status":{{"t":"open"}},"updated_at":null}}')


STEPS = {  # name: (label, statements of entry i)
    "lookup": ("find the row by its key", lambda i: [(LOOKUP, (i,))]),
    "raise": ("raise the insert register (upsert of the stamps row, the payload kept twice)",
              lambda i: [(RAISE, ("orders", key(i), "#insert", 117685179155742720 + i, ORIGIN, payload(i)))]),
    "later": ("read the row's later registers", lambda i: [(LATER, ("orders", key(i)))]),
    "write": ("write the row (the capture triggers fire)",
              lambda i: [(WRITE, (1795733324.5209978, None, i, f"note {i}", i, "open", None))]),
}


# In a run of 32 or more inserts of new rows (a big transaction on another replica), the
# applier writes the row with the connection's triggers off and journals it itself; the store's
# own-entry TEMP trigger is set aside meanwhile, so no trigger fires at all (`Journal.HandJournaling`).
JOURNAL = """INSERT INTO _signalstore_changes (table_name, row_id, operation, column_name, old_value, new_value, timestamp)
VALUES (?, ?, 'insert', NULL, NULL, ?, ((julianday('now') - 2440587.5) * 86400.0))"""


def entry(i):
    return (f'{{"id":{i},"purchase_num":{i},"status":"open","note":"note {i}","created_at":1795733324.5209978,'
            f'"updated_at":null,"customer_id":null}}')


BY_HAND = ("write the row and journal it by hand, in a run of inserts (no trigger fires)",
           lambda i: [(WRITE, (1795733324.5209978, None, i, f"note {i}", i, "open", None)), (JOURNAL, ("orders", i, entry(i)))])


def workload(path, steps, count):
    db = sqlite3.connect(path, isolation_level=None)
    statements = [STEPS[step][1] for step in list(STEPS)[:steps]]
    if steps > len(STEPS):   # the by-hand run: the three steps before (or only the raise), then BY_HAND
        before = list(STEPS)[:3] if steps == len(STEPS) + 1 else ["raise"]
        statements = [STEPS[step][1] for step in before] + [BY_HAND[1]]
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'orders'").fetchall():
            db.execute(f'DROP TRIGGER "{name}"')
    db.execute("BEGIN IMMEDIATE")
    for i in range(1, count + 1):
        for entry in statements:
            for sql, arguments in entry(i):
                db.execute(sql, arguments)
    db.execute("COMMIT")


def instructions(path, steps, count):
    copy = path + f".{steps}-{count}"
    shutil.copy(path, copy)
    return total_instructions([sys.executable, os.path.abspath(__file__), "--workload", copy, str(steps), str(count)],
                              copy + ".callgrind")


def main():
    if sys.argv[1:2] == ["--workload"]:
        workload(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "apply.sqlite")
        subprocess.run([CLI, "migrate", "--db", path, "--migrations", os.path.join(ROOT, "Migrations")],
                       check=True, stdout=subprocess.DEVNULL)
        db = sqlite3.connect(path, isolation_level=None)
        db.execute(STAMPS)
        db.close()
        print(f"| statement of one applied insert (Python sqlite3, {STATEMENTS:,} in one transaction) | instructions |")
        print("|---|---:|")
        base = instructions(path, 0, 0)
        before = 0.0
        for steps, (label, _) in enumerate(STEPS.values(), start=1):
            upto = (instructions(path, steps, STATEMENTS) - base) / STATEMENTS
            print(f"| {label} | {upto - before:,.0f} |")
            before = upto
        print(f"| all four | {before:,.0f} |")
        three = (instructions(path, 3, STATEMENTS) - base) / STATEMENTS
        by_hand = (instructions(path, len(STEPS) + 1, STATEMENTS) - base) / STATEMENTS
        print(f"| {BY_HAND[0]} | {by_hand - three:,.0f} |")
        print(f"| all four, in a run of inserts | {by_hand:,.0f} |")
        # A run's rows that hold no register here (one read per 500 rows finds them) skip the
        # lookup and the later registers.
        unregistered = (instructions(path, len(STEPS) + 2, STATEMENTS) - base) / STATEMENTS
        print(f"| raise and write by hand, a row with no register here in a run of inserts | {unregistered:,.0f} |")


if __name__ == "__main__":
    main()
