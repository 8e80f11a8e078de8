#!/usr/bin/env python3
"""Sync at scale, measured with the built `signalstore` and a real PostgreSQL.

For each replica count N: N databases, each with its own long-running `signalstore sync`
process, against one server (a schema of its own per N). CHANGES inserts into `orders` are made
across the replicas (an equal share each, by Python's sqlite3 in transactions of BATCH rows,
taking turns), and the time is measured from the first write until every replica holds every
row. Reported per N: that time, its ratio to N = 2, the most server connections seen at once
(pg_stat_activity), and the CPU seconds the sync processes (also per entry applied: each
replica applies the other replicas' share) and the server used.

Usage (a server of its own, as .ci/postgres starts one):
    eval "$(.ci/postgres start)"; swift build -c release --traits Sync --product signalstore
    python3 Benchmarks/sync_scale.py .build/release/signalstore [CHANGES] [COUNTS]
for example `... 10000 1,2,10,50`.
"""
import os, shutil, sqlite3, subprocess, sys, tempfile, threading, time, uuid

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/signalstore"
CHANGES = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
COUNTS = [int(n) for n in (sys.argv[3] if len(sys.argv) > 3 else "1,2,10,50").split(",")]
BATCH = 20
BASE_URL = os.environ["SIGNALSTORE_TEST_POSTGRES_URL"]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS   # utime + stime


def server_cpu_seconds():
    """CPU of every PostgreSQL process of this cluster (its backends come and go)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() != "postgres":
                    continue
            total += cpu_seconds(pid)
            with open(f"/proc/{pid}/stat") as stat:   # children that ended (closed backends)
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[13]) + int(fields[14])) / TICKS
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


class Psql:
    """One `psql` session for every look at the server: starting one per look (a process, a
    backend and a login each 0.2 s) took 4-6 % of the CPU the sync processes were measured on."""

    def __init__(self):
        self.process = subprocess.Popen(["psql", BASE_URL, "-Atq"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def scalar(self, sql):
        self.process.stdin.write(sql + ";\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def close(self):
        self.process.stdin.close()
        self.process.wait()


CONNECTIONS = {}


def drop_schema(schema):
    subprocess.run(["psql", BASE_URL, "-qc", f"SET client_min_messages = warning; DROP SCHEMA IF EXISTS {schema} CASCADE"], stdout=subprocess.DEVNULL)


def count(path):
    """The rows in `orders`, over one connection per database kept open (opening one per look
    at 50 databases every 20 ms also took CPU from the processes measured)."""
    try:
        if path not in CONNECTIONS:
            CONNECTIONS[path] = sqlite3.connect(path, timeout=10, isolation_level=None)
        return CONNECTIONS[path].execute("SELECT count(*) FROM orders").fetchone()[0]
    except sqlite3.OperationalError:
        return -1


def run(replicas):
    folder = tempfile.mkdtemp()
    schema = "s_" + uuid.uuid4().hex[:12]
    url = BASE_URL + "&schema=" + schema
    paths = [os.path.join(folder, f"r{i}.sqlite") for i in range(replicas)]
    procs = []
    try:
        for path in paths:
            subprocess.run([BINARY, "migrate", "--db", path, "--migrations", "Migrations"], check=True, stdout=subprocess.DEVNULL)
        procs = [subprocess.Popen([BINARY, "sync", "--postgres", url, "--db", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for path in paths]
        # Every process is connected and idle before the clock starts.
        subprocess.run(["sqlite3", paths[0], "INSERT INTO orders (id, purchase_num, status) VALUES (0, 0, 'warm')"], check=True)
        deadline = time.monotonic() + 120
        while any(count(p) != 1 for p in paths):
            if time.monotonic() > deadline:
                raise SystemExit(f"{replicas} replicas: the warm-up row did not reach every replica in 120 s")
            time.sleep(0.05)
        connections = [0]
        stop = threading.Event()
        server = Psql()
        backends = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"

        def watch_connections():
            while not stop.is_set():
                connections[0] = max(connections[0], int(server.scalar(backends)) - 1)
                stop.wait(0.2)

        connections[0] = int(server.scalar(backends)) - 1
        watcher = threading.Thread(target=watch_connections)
        watcher.start()
        cpu_before = sum(cpu_seconds(p.pid) for p in procs)
        server_before = server_cpu_seconds()
        start = time.monotonic()
        shares = [list(range(1 + i, CHANGES + 1, replicas)) for i in range(replicas)]
        databases = [sqlite3.connect(p, timeout=30, isolation_level=None) for p in paths]
        for offset in range(0, max(len(s) for s in shares), BATCH):
            for db, share in zip(databases, shares):
                rows = share[offset:offset + BATCH]
                if rows:
                    db.execute("BEGIN IMMEDIATE")
                    db.executemany("INSERT INTO orders (id, purchase_num, status) VALUES (?, ?, 'scale')", [(i, i % 7) for i in rows])
                    db.execute("COMMIT")
        written = time.monotonic()
        deadline = written + 600
        while any(count(p) != CHANGES + 1 for p in paths):
            if time.monotonic() > deadline:
                raise SystemExit(f"{replicas} replicas: not converged 600 s after the writes: {[count(p) for p in paths]}")
            time.sleep(0.02)
        done = time.monotonic()
        stop.set()
        watcher.join()
        server.close()
        cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu_before
        server = server_cpu_seconds() - server_before
        return done - start, written - start, connections[0], cpu, server
    finally:
        for db in CONNECTIONS.values():
            db.close()
        CONNECTIONS.clear()
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait()
        # A 50-replica run leaves ~260 MB of databases and a schema of 10,000 log entries: runs
        # in turns would fill the disk.
        shutil.rmtree(folder, ignore_errors=True)
        drop_schema(schema)


def main():
    results = {n: run(n) for n in COUNTS}
    reference = results.get(2, results[COUNTS[0]])[0]
    print(f"{CHANGES:,} inserts made across N replicas, each with its own `signalstore sync` process, one PostgreSQL 15 (fsync=off), 2 cores")
    print("| replicas | all hold every row | × the time of 2 | writing took | server connections (most at once) | CPU: sync processes | per entry applied | CPU: server |")
    print("|---|---|---|---|---|---|---|---|")
    for n in COUNTS:
        total, writing, connections, cpu, server = results[n]
        applied = CHANGES * (n - 1)   # each replica applies the others' share
        per_entry = f"{cpu / applied * 1e6:.0f} µs" if applied else "—"
        print(f"| {n} | {total:.2f} s | {total / reference:.2f}× | {writing:.2f} s | {connections} | {cpu:.1f} s | {per_entry} | {server:.1f} s |")


if __name__ == "__main__":
    main()
