#!/usr/bin/env python3
"""Instructions per statement that change capture adds, counted by callgrind (stable on a noisy
machine): Python's sqlite3 runs N statements in one transaction on three copies of a database
made by `signalstore migrate` (no triggers, capture without the eviction staging, full capture);
the count of a run with 0 statements is subtracted, so the interpreter's own cost cancels out.

Usage (from Benchmarks/, after `swift build` in the package root):  python3 capture_instructions.py
"""
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from callgrind import total_instructions

STATEMENTS = 2000
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, ".build", "debug", "signalstore")


def make(directory, variant):
    path = os.path.join(directory, f"{variant}.sqlite")
    subprocess.run([CLI, "migrate", "--db", path, "--migrations", os.path.join(ROOT, "Migrations")],
                   check=True, stdout=subprocess.DEVNULL)
    db = sqlite3.connect(path, isolation_level=None)
    triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, sql in triggers:
        staging = re.search(r":(stage-insert|evict-insert|stage-update|evict-update)$", name)
        if variant == "none" or (variant == "without_evictions" and staging):
            db.execute(f'DROP TRIGGER "{name}"')
        elif variant == "without_evictions" and "_signalstore_evictions" in sql:
            header, body = sql.split(" BEGIN ", 1)
            kept = [s for s in body[:-len("END")].split("; ") if s and "_signalstore_evictions" not in s]
            db.execute(f'DROP TRIGGER "{name}"')
            db.execute(header + " BEGIN " + "".join(s + "; " for s in kept) + "END")
    db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) "
               "INSERT INTO orders (id, purchase_num, status) SELECT i, 0, 'open' FROM n")
    db.close()
    return path


def workload(path, operation, count):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    for i in range(1, count + 1):
        if operation == "insert":
            db.execute("INSERT INTO customers (id, name, email) VALUES (?, 'name', ?)", (i, f"c{i}@example.com"))
        else:
            db.execute("UPDATE orders SET purchase_num = ? WHERE id = ?", (i, i % 100 + 1))
    db.execute("COMMIT")


def instructions(path, operation, count):
    copy = path + f".{operation}{count}"
    shutil.copy(path, copy)
    return total_instructions([sys.executable, os.path.abspath(__file__), "--workload", copy, operation, str(count)],
                              copy + ".callgrind")


def main():
    if sys.argv[1:2] == ["--workload"]:
        workload(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    with tempfile.TemporaryDirectory() as directory:
        variants = {v: make(directory, v) for v in ("none", "without_evictions", "full")}
        print(f"| statement (Python sqlite3, {STATEMENTS:,} in one transaction) | no triggers | journal without evictions | full capture | full / without evictions |")
        print("|---|---:|---:|---:|---:|")
        for operation, label in (("insert", "INSERT into `customers` (rowid + UNIQUE email)"),
                                 ("update", "UPDATE `orders.purchase_num` by id")):
            per = {}
            for variant, path in variants.items():
                per[variant] = (instructions(path, operation, STATEMENTS) - instructions(path, operation, 0)) / STATEMENTS
            print(f"| {label} | {per['none']:,.0f} instr | {per['without_evictions']:,.0f} instr | "
                  f"{per['full']:,.0f} instr | {per['full'] / per['without_evictions']:.2f}× |")


if __name__ == "__main__":
    main()
