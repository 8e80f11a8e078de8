#!/usr/bin/env python3
"""`signalstore inspect` with many live clients: one foreign transaction fanned out to all of them.

Usage: inspector_clients.py SIGNALSTORE_BINARY MIGRATIONS_DIR [CLIENTS] [ROWS] [RUNS]

Builds a database with 50,000 orders, starts the inspector, and opens CLIENTS (200) live streams
(`/events`, as each open feed page does). Then, RUNS times: a Python `sqlite3` transaction of
ROWS (2,000) single-row inserts; the time from its commit until every client has received it
(the event whose id is the transaction's last seq), and meanwhile the answer time of the table
page `/tables/orders` asked for every 20 ms. The server's memory (VmRSS) is sampled throughout.
A tenth of the clients never read (their socket buffers fill), as a stalled browser tab would.
Prints a Markdown table.
"""
import os
import re
import selectors
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from inspector_http import get, request, shop_database, start_inspector

BINARY, MIGRATIONS = sys.argv[1], sys.argv[2]
CLIENTS = int(sys.argv[3]) if len(sys.argv) > 3 else 200
ROWS = int(sys.argv[4]) if len(sys.argv) > 4 else 2_000
RUNS = int(sys.argv[5]) if len(sys.argv) > 5 else 3


def memory(pid):
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return int(fields["VmRSS"].split()[0]) / 1024




class Streams:
    """CLIENTS open `/events` connections read by one thread; `seen[i]` is the newest id client i got."""

    def __init__(self, port, token):
        self.selector = selectors.DefaultSelector()
        self.seen = {}
        self.buffers = {}
        self.lock = threading.Lock()
        self.sockets = []
        for index in range(CLIENTS):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(request(port, token, "/events"))
            self.sockets.append(connection)
            if index % 10 == 9:
                continue  # never read: a stalled tab
            connection.setblocking(False)
            self.selector.register(connection, selectors.EVENT_READ, index)
            self.seen[index] = 0
            self.buffers[index] = b""
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            for key, _ in self.selector.select(timeout=0.1):
                index = key.data
                try:
                    data = key.fileobj.recv(1 << 20)
                except BlockingIOError:
                    continue
                if not data:
                    self.selector.unregister(key.fileobj)
                    continue
                buffer = self.buffers[index] + data
                ids = re.findall(rb"\nid: (\d+)\n", buffer)
                with self.lock:
                    if ids:
                        self.seen[index] = max(self.seen[index], int(ids[-1]))
                self.buffers[index] = buffer[-64:]

    def all_reached(self, seq):
        with self.lock:
            return all(value >= seq for value in self.seen.values())

    def connected(self):
        return all(b"connected" in self.buffers[index] or self.seen[index] for index in self.buffers)

    def close(self):
        self.running = False
        self.thread.join()
        for connection in self.sockets:
            connection.close()


def main():
    with tempfile.TemporaryDirectory() as folder:
        path = shop_database(BINARY, MIGRATIONS, folder, 50_000, purchase_modulo=100)
        process, port, token = start_inspector(BINARY, path)
        results = []
        try:
            streams = Streams(port, token)
            deadline = time.monotonic() + 30
            while not streams.connected() and time.monotonic() < deadline:
                time.sleep(0.05)
            started = memory(process.pid)
            next_id = 50_001
            for run in range(RUNS):
                samples, page_times = [], []
                stop = threading.Event()

                def sample():
                    while not stop.is_set():
                        samples.append(memory(process.pid))
                        begin = time.monotonic()
                        reply = get(port, token, "/tables/orders")
                        assert b" 200 " in reply.split(b"\r\n", 1)[0], reply[:200]
                        page_times.append(time.monotonic() - begin)
                        time.sleep(0.02)

                sampler = threading.Thread(target=sample)
                sampler.start()
                with sqlite3.connect(path) as connection:
                    for n in range(ROWS):
                        connection.execute("INSERT INTO orders (id, purchase_num, status) VALUES (?, ?, 'new')", (next_id + n, n))
                    last_seq = None
                committed = time.monotonic()
                with sqlite3.connect(path) as connection:
                    last_seq = connection.execute("SELECT max(seq) FROM _signalstore_changes").fetchone()[0]
                while not streams.all_reached(last_seq):
                    if time.monotonic() - committed > 60:
                        raise RuntimeError("not every client received the transaction within 60 s")
                    time.sleep(0.002)
                delivered = time.monotonic() - committed
                time.sleep(0.5)
                stop.set()
                sampler.join()
                next_id += ROWS
                results.append((delivered, max(page_times), statistics.median(page_times), max(samples)))
            ended = memory(process.pid)
            streams.close()
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=10)
        readers = len(streams.seen)
        runs = " | ".join(f"run {n + 1}" for n in range(RUNS))
        print(f"| {CLIENTS} live clients ({readers} reading, {CLIENTS - readers} stalled), a {ROWS:,}-row sqlite3 transaction | {runs} |")
        print("|---|" + "---|" * RUNS)
        print("| delivered to every reading client after the commit | " + " | ".join(f"{r[0] * 1000:.0f} ms" for r in results) + " |")
        print("| `/tables/orders` (50,000 rows) meanwhile, worst / median | " + " | ".join(f"{r[1] * 1000:.0f} / {r[2] * 1000:.0f} ms" for r in results) + " |")
        print("| server memory, peak during the run (VmRSS) | " + " | ".join(f"{r[3]:.0f} MiB" for r in results) + " |")
        print(f"\nserver memory with the clients connected: {started:.0f} MiB before the runs, {ended:.0f} MiB after")


if __name__ == "__main__":
    main()
