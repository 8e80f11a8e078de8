"""What the inspector harnesses share: starting `signalstore inspect`, and plain HTTP/1.1 requests
that carry its token as the cookie a browser would hold."""
import re
import socket
import subprocess


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
