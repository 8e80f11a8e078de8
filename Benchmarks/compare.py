#!/usr/bin/env python3
"""Runs the benchmarks once (Signals and its peers in the same run) and prints a side-by-side
markdown table with ratios against the goals of the issues.

Usage (from Benchmarks/):  python3 compare.py            # run, then print the table
                           python3 compare.py --from DIR # print the table of an earlier run

Each benchmark iteration performs a fixed number of operations (the number in its name); the
table shows the median (p50) per operation.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

PEER = "OpenCombine"
OURS = "Signals"

# (row label, benchmark prefix, operations per iteration, unit, goal ratio ours/peer or None)
ROWS = [
    ("(a) CurrentValueSubject → map → filter → sink", "a_chain_1000_events", 1000, "ns/event", 1 / 5),
    ("(b) 1 subject, 1,000 subscribers", "b_fan-out_10000_deliveries", 10000, "ns/delivery", 1 / 4),
    ("(c) subscribe + dispose, replaying subject", "c_subscribe+dispose_1000_pairs", 1000, "ns/pair", 1 / 4),
    ("(d) heap per live subscription (100k live)", "d_memory_100000_live", 1, "bytes", 1 / 2),
    ("(e) subscribe with 1,000 live", "e_subscribe_1000_at_1000_live", 1000, "ns/subscribe", None),
    ("(e) subscribe with 100,000 live", "e_subscribe_1000_at_100000_live", 1000, "ns/subscribe", None),
]
ALLOCATION_ROWS = [("(a) allocations per event", "a_chain_1000_events", 1000),
                   ("(b) allocations per delivery", "b_fan-out_10000_deliveries", 10000)]


def run(directory):
    command = ["swift", "package", "--allow-writing-to-package-directory", "benchmark",
               "--format", "histogramPercentiles", "--path", directory, "--no-progress"]
    subprocess.run(command, check=True, cwd=os.path.dirname(os.path.abspath(__file__)),
                   stdout=subprocess.DEVNULL)


def p50(directory, prefix, library, metric):
    pattern = os.path.join(directory, f"*.{prefix}_•_{library}.{metric}.histogram.percentiles.tsv")
    files = glob.glob(pattern)
    if not files:
        sys.exit(f"error: no result for {prefix} / {library} / {metric} in {directory}; "
                 "did the benchmark run fail?")
    with open(files[0], encoding="utf-8") as handle:
        for line in handle:
            fields = line.split("\t")
            if fields[0] == "50":
                return float(fields[1])
    sys.exit(f"error: {files[0]} has no p50 line")


def fmt(value):
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def table(directory):
    lines = ["| measure | Signals | OpenCombine | ratio | goal | met |", "|---|---:|---:|---:|---:|:---:|"]
    for label, prefix, operations, unit, goal in ROWS:
        metric = "heap_bytes_per_subscription" if prefix.startswith("d_") else "wallClock"
        ours = p50(directory, prefix, OURS, metric) / operations
        peer = p50(directory, prefix, PEER, metric) / operations
        ratio = ours / peer
        goal_text = f"≤ {goal:.2f}" if goal else "—"
        met = ("yes" if ratio <= goal else "no") if goal else "—"
        lines.append(f"| {label} | {fmt(ours)} {unit} | {fmt(peer)} {unit} | {ratio:.2f} | {goal_text} | {met} |")
    growth = {}
    for library in (OURS, PEER):
        small = p50(directory, "e_subscribe_1000_at_1000_live", library, "wallClock")
        large = p50(directory, "e_subscribe_1000_at_100000_live", library, "wallClock")
        growth[library] = large / small
    met = "yes" if growth[OURS] <= 1.5 else "no"
    lines.append(f"| (e) growth 1k → 100k live | {growth[OURS]:.2f}× | {growth[PEER]:.2f}× | — | ≤ 1.5× | {met} |")
    for label, prefix, operations in ALLOCATION_ROWS:
        ours = p50(directory, prefix, OURS, "mallocCountTotal") / operations
        peer = p50(directory, prefix, PEER, "mallocCountTotal") / operations
        met = "yes" if ours == 0 else "no"
        lines.append(f"| {label} | {ours:g} | {peer:g} | — | 0 | {met} |")
    return "\n".join(lines)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--from":
        print(table(sys.argv[2]))
        return
    with tempfile.TemporaryDirectory() as directory:
        run(directory)
        print(table(directory))


if __name__ == "__main__":
    main()
