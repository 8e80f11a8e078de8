#!/usr/bin/env python3
"""Sync on a real network's troubles, measured with the built `signalstore` and a real PostgreSQL.

1. Recovery: two `signalstore sync` processes; the server is restarted (`pg_ctl restart`) N times,
   idle and under writes; after each restart a sqlite3 insert on A is timed until it is on B.
   Reported: the time from the server accepting connections again to the row on B.
2. A big transaction: one sqlite3 transaction of ROWS inserts on A; the time until B holds them
   all, whether either process reported `offline` meanwhile, and each sync process's peak
   memory (VmHWM).
3. Memory against transaction size: for each of SIZES, a fresh replica whose one sync process
   stamps and uploads a transaction of that many rows; its peak memory once the server holds
   them all.

Usage (a server of its own, as .ci/postgres starts one):
    eval "$(.ci/postgres start)"; swift build -c release --traits Sync --product signalstore
    python3 Benchmarks/sync_network.py .build/release/signalstore [RESTARTS] [ROWS] [SIZES]
for example `... 10 50000 20000,100000,300000`.
"""
import os, shutil, sqlite3, subprocess, sys, tempfile, time, uuid

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/signalstore"
RESTARTS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
ROWS = int(sys.argv[3]) if len(sys.argv) > 3 else 50_000
SIZES = [int(n) for n in (sys.argv[4] if len(sys.argv) > 4 else "20000,100000,300000").split(",")]
BASE_URL = os.environ["SIGNALSTORE_TEST_POSTGRES_URL"]
SCHEMA = "b_" + uuid.uuid4().hex[:12]
URL = BASE_URL + "&schema=" + SCHEMA
DATA = os.path.join(os.environ["SIGNALSTORE_TEST_POSTGRES_DIR"], "data")
PG_BIN = next(d for d in ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin") if os.path.exists(d))
AS_POSTGRES = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def pg_ctl(*args):
    subprocess.run(AS_POSTGRES + [f"{PG_BIN}/pg_ctl", "-D", DATA, "-w", "-t", "30", *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def clean_up(folder, schema):
    """Removes a run's databases and its schema on the server: a 50,000-row run leaves about
    100 MB of each, and runs in turns would fill the disk."""
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run(["psql", BASE_URL, "-qc", f"SET client_min_messages = warning; DROP SCHEMA IF EXISTS {schema} CASCADE"], stdout=subprocess.DEVNULL)


def count(path, sql):
    with sqlite3.connect(path, timeout=10) as db:
        return db.execute(sql).fetchone()[0]


def wait_for(path, sql, expected, timeout=60):
    # One connection for the whole wait: opening one every 5 ms (reading the schema and the
    # WAL index each time) took a third of one of this machine's two cores from the processes
    # measured.
    deadline = time.monotonic() + timeout
    db = sqlite3.connect(path, timeout=10)
    try:
        while time.monotonic() < deadline:
            try:
                if db.execute(sql).fetchone()[0] == expected:
                    return time.monotonic()
            except sqlite3.OperationalError:
                pass
            time.sleep(0.005)
    finally:
        db.close()
    raise SystemExit(f"timed out waiting for {sql} = {expected} on {path}")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))


def main():
    folder = tempfile.mkdtemp()
    a, b = os.path.join(folder, "a.sqlite"), os.path.join(folder, "b.sqlite")
    logs = {}
    procs = []
    try:
        for path in (a, b):
            subprocess.run([BINARY, "migrate", "--db", path, "--migrations", "Migrations"], check=True, stdout=subprocess.DEVNULL)
        for path in (a, b):
            logs[path] = open(path + ".log", "w+")
            procs.append(subprocess.Popen([BINARY, "sync", "--postgres", URL, "--db", path, "--json"], stdout=logs[path], stderr=subprocess.STDOUT))
        next_id = 1
        subprocess.run(["sqlite3", a, f"INSERT INTO orders (id, purchase_num, status) VALUES ({next_id}, 0, 'warm')"], check=True)
        wait_for(b, "SELECT count(*) FROM orders", 1)
        recoveries = []
        for restart in range(RESTARTS):
            time.sleep(0.3 if restart % 2 else 1.5)   # half idle for a while, half just after a write
            pg_ctl("restart", "-m", "fast")   # down about 0.3–0.6 s; -w returns once it accepts connections
            up = time.monotonic()
            next_id += 1
            subprocess.run(["sqlite3", a, f".timeout 5000", f"INSERT INTO orders (id, purchase_num, status) VALUES ({next_id}, 0, 'after restart')"], check=True)
            recoveries.append(wait_for(b, "SELECT count(*) FROM orders", next_id) - up)
        recoveries.sort()
        if recoveries:
            print(f"recovery after {RESTARTS} restarts (server up → row on B): median {recoveries[len(recoveries) // 2]:.2f} s, max {recoveries[-1]:.2f} s")

        for log in logs.values():
            log.truncate(0)
        base = count(b, "SELECT count(*) FROM orders")
        statements = ["BEGIN;"] + [f"INSERT INTO orders (id, purchase_num, status) VALUES ({100_000 + i}, {i}, 'bulk');" for i in range(ROWS)] + ["COMMIT;"]
        cpu_before = [cpu_seconds(p.pid) for p in procs]
        start = time.monotonic()
        subprocess.run(["sqlite3", a], input="\n".join(statements), text=True, check=True)
        committed = time.monotonic()
        # Watch for the transaction's last row by its key, then count once: counting every row
        # every 5 ms took a good part of one of this machine's two cores from the processes
        # measured. B commits the log's entries in order, so the last row comes last.
        done = wait_for(b, f"SELECT count(*) FROM orders WHERE id = {100_000 + ROWS - 1}", 1, timeout=120)
        if count(b, "SELECT count(*) FROM orders") != base + ROWS:
            done = wait_for(b, "SELECT count(*) FROM orders", base + ROWS, timeout=120)
        offline = any("offline" in open(path + ".log").read() for path in (a, b))
        print(f"{ROWS:,}-row transaction: committed on A in {committed - start:.2f} s, on B {done - committed:.2f} s after the commit; "
              f"offline reported: {'yes' if offline else 'no'}; CPU of the sync processes meanwhile: "
              + ", ".join(f"{cpu_seconds(p.pid) - before:.2f} s" for p, before in zip(procs, cpu_before))
              + "; peak memory of the sync processes: "
              + ", ".join(f"{peak_kib(p.pid) / 1024:.0f} MiB" for p in procs))
    finally:
        for p in procs:
            p.terminate()
            p.wait()
        for log in logs.values():
            log.close()
        clean_up(folder, SCHEMA)


def memory_curve():
    peaks = []
    for rows in SIZES:
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "m.sqlite")
        schema = "m_" + uuid.uuid4().hex[:12]
        log = open(path + ".log", "w")
        process = None
        try:
            subprocess.run([BINARY, "migrate", "--db", path, "--migrations", "Migrations"], check=True, stdout=subprocess.DEVNULL)
            process = subprocess.Popen([BINARY, "sync", "--postgres", BASE_URL + "&schema=" + schema, "--db", path],
                                       stdout=log, stderr=log)
            # The transaction starts once sync is running: a sync that starts while a long
            # transaction holds the file stops after its lock timeout (`--timeout`).
            started = time.monotonic()
            while "synced" not in open(path + ".log").read():
                if process.poll() is not None or time.monotonic() - started > 60:
                    raise SystemExit("sync did not start: " + open(path + ".log").read().strip())
                time.sleep(0.05)
            statements = ["BEGIN;"] + [f"INSERT INTO orders (id, purchase_num, status) VALUES ({i}, {i}, 'bulk');" for i in range(rows)] + ["COMMIT;"]
            subprocess.run(["sqlite3", path], input="\n".join(statements), text=True, check=True)
            deadline = time.monotonic() + 600
            while True:
                stored = subprocess.run(["psql", BASE_URL, "-Atc", f"SELECT count(*) FROM {schema}.log"], capture_output=True, text=True).stdout.strip()
                if stored.isdigit() and int(stored) >= rows:
                    break
                if time.monotonic() > deadline:
                    raise SystemExit(f"{rows} rows did not reach the server in 600 s")
                time.sleep(0.1)
            peaks.append(peak_kib(process.pid) / 1024)
        finally:
            if process:
                process.terminate()
                process.wait()
            log.close()
            clean_up(folder, schema)
    print("peak memory of one sync process uploading a transaction of " + " / ".join(f"{n:,}" for n in SIZES) + " rows: "
          + " / ".join(f"{peak:.0f}" for peak in peaks) + " MiB")


if __name__ == "__main__":
    main()
    memory_curve()
