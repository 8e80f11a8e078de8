#!/usr/bin/env python3
"""`signalstore inspect` with many open live table pages while commits stream in.

Usage: inspector_viewers.py SIGNALSTORE_BINARY MIGRATIONS_DIR [VIEWERS] [COMMITS_PER_SECOND] [SECONDS] [PAGE]

Builds a database with 100,000 orders and starts the inspector. VIEWERS (50) viewers each do what
an open table page's script does (PAGE, `/tables/orders` by default; row 1 is on it): follow `/events`, and after each event wait 150 ms,
then load the page again (one load at a time; an event during a load asks for one more). A Python
`sqlite3` writer commits COMMITS_PER_SECOND (20) one-row updates a second for SECONDS (10).
Prints the server's CPU time over the run (as a share of one core), the page loads the viewers
made, and, after the writer stops, whether every viewer's last page shows the last value written.
"""
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from inspector_http import get, request, shop_database, start_inspector

BINARY, MIGRATIONS = sys.argv[1], sys.argv[2]
VIEWERS = int(sys.argv[3]) if len(sys.argv) > 3 else 50
RATE = float(sys.argv[4]) if len(sys.argv) > 4 else 20
SECONDS = float(sys.argv[5]) if len(sys.argv) > 5 else 10
PAGE = sys.argv[6] if len(sys.argv) > 6 else "/tables/orders"


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")




class Viewer(threading.Thread):
    """One open live page: an event stream, and a reload 150 ms after events."""

    def __init__(self, port, token):
        super().__init__(daemon=True)
        self.port, self.token = port, token
        self.stream = socket.create_connection(("127.0.0.1", port))
        self.stream.sendall(request(port, token, "/events"))
        self.stream.settimeout(0.05)
        self.loads, self.last_page, self.running = 0, b"", True

    def run(self):
        buffer = b""
        while self.running:
            try:
                data = self.stream.recv(1 << 16)
            except socket.timeout:
                continue
            if not data:
                return
            buffer += data
            if b"\nid: " not in buffer:
                continue
            buffer = b""
            time.sleep(0.15)
            try:   # events that came during the wait and the load ask for one more load
                while self.stream.recv(1 << 16):
                    pass
            except socket.timeout:
                pass
            self.last_page = get(self.port, self.token, PAGE)
            self.loads += 1

    def stop(self):
        self.running = False
        self.join()
        self.stream.close()


def main():
    with tempfile.TemporaryDirectory() as folder:
        path = shop_database(BINARY, MIGRATIONS, folder, 100_000)
        process, port, token = start_inspector(BINARY, path)
        try:
            viewers = [Viewer(port, token) for _ in range(VIEWERS)]
            for viewer in viewers:
                viewer.start()
            time.sleep(1)
            before, started = cpu_seconds(process.pid), time.monotonic()
            writer = sqlite3.connect(path, isolation_level=None)
            commits = 0
            while time.monotonic() - started < SECONDS:
                commits += 1
                # Row 1 changes each time: it is the first row in the table's order, and the
                # first in an order by purchase_num, descending.
                writer.execute("UPDATE orders SET purchase_num = ?, note = ? WHERE id = 1", (200000 + commits, f"commit {commits}"))
                time.sleep(max(0, started + commits / RATE - time.monotonic()))
            time.sleep(1)
            used, elapsed = cpu_seconds(process.pid) - before, time.monotonic() - started
            loads = sum(viewer.loads for viewer in viewers)
            for viewer in viewers:
                viewer.stop()
            current = sum(f"commit {commits}<".encode() in viewer.last_page for viewer in viewers)
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=10)
        print(f"| {VIEWERS} live `{PAGE}` viewers (100,000 rows), {commits} commits at {RATE:g}/s | value |")
        print("|---|---|")
        print(f"| server CPU over the run ({elapsed:.1f} s) | {used:.2f} s: {used / elapsed * 100:.0f}% of a core |")
        print(f"| page loads by the viewers | {loads:,} ({loads / commits:.1f} a commit) |")
        print(f"| viewers whose last page shows the last commit | {current} of {VIEWERS} |")


if __name__ == "__main__":
    main()
