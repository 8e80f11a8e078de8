"""What the inspector harnesses share: starting `signalstore inspect`, and plain HTTP/1.1 requests
that carry its token as the cookie a browser would hold."""
import os
import re
import socket
import sqlite3
import subprocess


def shop_database(binary, migrations, folder, rows, purchase_modulo=None):
    """A database of `rows` orders made by `signalstore migrate` and one SQL insert; its path.
    Order x has purchase_num x (x % `purchase_modulo` when given)."""
    path = os.path.join(folder, "shop.sqlite")
    subprocess.run([binary, "migrate", "--db", path, "--migrations", migrations], check=True, capture_output=True)
    purchase = f"x % {purchase_modulo}" if purchase_modulo else "x"
    with sqlite3.connect(path) as connection:
        connection.execute(f"""
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {rows})
            INSERT INTO orders (id, purchase_num, status, note) SELECT x, {purchase}, 'status ' || (x % 7), 'note ' || x FROM n""")
    return path


def start_inspector(binary, path):
    """Starts `signalstore inspect` on `path` on a free port; returns (process, port, token)."""
    process = subprocess.Popen([binary, "inspect", "--db", path, "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    process.stdout.readline()
    match = re.search(r":(\d+)/\?token=([0-9a-f]+)", process.stdout.readline())
    return process, int(match.group(1)), match.group(2)


def request(port, token, path):
    """The bytes of a GET of `path` with the inspector's cookie."""
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Cookie: signalstore_inspector_{port}={token}\r\nConnection: close\r\n\r\n").encode()


def get(port, token, path):
    """The whole reply to a GET of `path`."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(request(port, token, path))
        data = b""
        while chunk := connection.recv(1 << 16):
            data += chunk
    return data
