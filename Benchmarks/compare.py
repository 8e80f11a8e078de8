#!/usr/bin/env python3
"""Runs the benchmarks once (Signals and SignalStore with their peers, in the same run) and
prints side-by-side markdown tables with ratios against the goals of the issues.

Usage (from Benchmarks/):  python3 compare.py            # run, then print the tables
                           python3 compare.py --from DIR # print the tables of an earlier run
                           python3 compare.py --only capture [--from DIR]
                               # one table (signals, store, models, capture); without --from,
                               # runs only its benchmarks

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


def run(directory, pattern=None):
    command = ["swift", "package", "--allow-writing-to-package-directory", "benchmark",
               "--format", "histogramPercentiles", "--path", directory, "--no-progress"]
    if pattern:
        command += ["--filter", pattern]
    subprocess.run(command, check=True, cwd=os.path.dirname(os.path.abspath(__file__)),
                   stdout=subprocess.DEVNULL)


def percentile(directory, prefix, library, metric, which="50"):
    pattern = os.path.join(directory, f"*.{prefix}_•_{library}.{metric}.histogram.percentiles.tsv")
    files = glob.glob(pattern)
    if not files:
        sys.exit(f"error: no result for {prefix} / {library} / {metric} in {directory}; "
                 "did the benchmark run fail?")
    with open(files[0], encoding="utf-8") as handle:
        for line in handle:
            fields = line.split("\t")
            if fields[0] == which:
                return float(fields[1])
    sys.exit(f"error: {files[0]} has no p{which} line")


def p50(directory, prefix, library, metric):
    return percentile(directory, prefix, library, metric)


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


def store_table(directory):
    """The SignalStore write path against raw SQLite and GRDB (µs per UPDATE)."""
    def update(library):
        return p50(directory, "f_" + library.split("|")[0], library.split("|")[1], "wallClock") / 100
    raw = update("raw_C_update_100|no_trigger")
    trigger = update("raw_C_update_100|journal_trigger")
    immediate = update("raw_C_update_100|journal_trigger_+_BEGIN_IMMEDIATE")
    grdb = update("GRDB_write_100|journal_trigger")
    ours = update("SignalStore_update_100|journal_trigger")
    latency50 = percentile(directory, "g_cross-process_latency", "default_interval", "latency_µs", "50")
    latency99 = percentile(directory, "g_cross-process_latency", "default_interval", "latency_µs", "99")
    idle = p50(directory, "h_idle_polling_1_s", "default_interval", "idle_CPU_‰_of_a_core")
    lines = ["| measure | value | ratio | goal | met |", "|---|---:|---:|---:|:---:|",
             f"| raw C UPDATE by id (autocommit, reused statement) | {raw:.1f} µs | — | — | — |",
             f"| raw C UPDATE + journal trigger | {trigger:.1f} µs | trigger overhead {trigger / raw:.2f}× | — | — |",
             f"| raw C BEGIN IMMEDIATE + UPDATE + COMMIT + trigger | {immediate:.1f} µs | {immediate / trigger:.2f}× raw+trigger | — | — |",
             f"| GRDB 7.10.0 write + cachedStatement + trigger | {grdb:.1f} µs | {grdb / trigger:.2f}× raw+trigger | — | — |",
             f"| SignalStore store.execute (BEGIN IMMEDIATE, trigger, feed) | {ours:.1f} µs | {ours / trigger:.2f}× raw+trigger, {ours / grdb:.2f}× GRDB | ≤ 1.15× raw+trigger | {'yes' if ours / trigger <= 1.15 else 'no'} |",
             f"| cross-process latency at 50 ms polling | median {latency50:.0f} ms, p99 {latency99:.0f} ms | — | ≤ interval | {'yes' if latency99 <= 50 else 'no'} |",
             f"| idle polling CPU | {idle / 10:.1f}% of a core | — | < 1% | {'yes' if idle < 10 else 'no'} |"]
    return "\n".join(lines)


def model_table(directory):
    """Models against raw SQLite and GRDB's ValueObservation."""
    def p(prefix, library, metric="wallClock"):
        return p50(directory, prefix, library, metric)
    raw_trigger = p("f_raw_C_update_100", "journal_trigger") / 100
    single = p("i_model_set_+_1_subscriber_100", "SignalStore") / 100
    grdb_single = p("i_GRDB_write_+_1_observation_100", "until_notified") / 100
    fan = p("j_model_set_+_1000_subscribers_1", "SignalStore")
    grdb_fan = p("j_GRDB_write_+_1000_observations_1", "until_notified")
    batch = p("k_100000_sets_in_one_transaction", "SignalStore")
    raw_batch = p("k_100000_sets_in_one_transaction", "raw_C_+_trigger")
    memory = p("l_memory_per_live_model_+_1_subscription", "SignalStore", "heap_bytes_per_model")
    fan_goal = 1.5 * single + 50
    lines = ["| measure | SignalStore | peer | ratio | goal | met |", "|---|---:|---:|---:|---:|:---:|",
             f"| (i) `order.purchaseNum = n`, 1 subscriber notified, vs raw C + trigger | {single:.1f} µs | {raw_trigger:.1f} µs | {single / raw_trigger:.2f} | ≤ 1.25 | {'yes' if single / raw_trigger <= 1.25 else 'no'} |",
             f"| (i) same, vs GRDB write + 1 ValueObservation until notified | {single:.1f} µs | {grdb_single:.1f} µs | {single / grdb_single:.2f} | ≤ 0.33 | {'yes' if single / grdb_single <= 1 / 3 else 'no'} |",
             f"| (j) one write, 1,000 subscribers notified, vs GRDB 1,000 observations | {fan:.0f} µs | {grdb_fan:,.0f} µs | {fan / grdb_fan:.4f} | ≤ 1.5 × single + 50 µs = {fan_goal:.0f} µs | {'yes' if fan <= fan_goal else 'no'} |",
             f"| (k) 100,000 sets in one transaction vs raw C in one transaction + trigger | {batch:,.0f} ms | {raw_batch:,.0f} ms | {batch / raw_batch:.2f} | ≤ 2 | {'yes' if batch / raw_batch <= 2 else 'no'} |",
             f"| (l) heap per live model with one subscription | {memory:,.0f} B | — | — | — | — |"]
    return "\n".join(lines)


def capture_table(directory):
    """What change capture adds to raw C statements in one transaction (µs per statement)."""
    def cost(operation, variant):
        return p50(directory, f"m_{operation}_1000_in_one_transaction", variant, "wallClock") / 1000
    lines = ["| statement (raw C, 1,000 in one transaction, wall clock) | no triggers | journal without evictions | full capture | full / none | full / without evictions |",
             "|---|---:|---:|---:|---:|---:|"]
    for operation, label in (("insert", "INSERT into `customers` (rowid + UNIQUE email)"),
                             ("update", "UPDATE `orders.purchase_num` by id")):
        none, journal, full = (cost(operation, variant) for variant in ("no_triggers", "journal_without_evictions", "full_capture"))
        lines.append(f"| {label} | {none:.2f} µs | {journal:.2f} µs | {full:.2f} µs | {full / none:.2f}× | {full / journal:.2f}× |")
    return "\n".join(lines)


TABLES = {"signals": (table, "^[a-e] "), "store": (store_table, "^[f-h] "),
          "models": (model_table, "^[f-l] "), "capture": (capture_table, "^m ")}


def main():
    arguments = sys.argv[1:]
    only = None
    if arguments[:1] == ["--only"]:
        only, arguments = arguments[1], arguments[2:]
    names = [only] if only else list(TABLES)
    if len(arguments) == 2 and arguments[0] == "--from":
        print("\n\n".join(TABLES[name][0](arguments[1]) for name in names))
        return
    with tempfile.TemporaryDirectory() as directory:
        run(directory, TABLES[only][1] if only else None)
        print("\n\n".join(TABLES[name][0](directory) for name in names))


if __name__ == "__main__":
    main()
