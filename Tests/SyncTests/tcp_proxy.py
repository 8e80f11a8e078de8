"""A TCP proxy for the sync tests that cuts every connection through it on SIGUSR1.

    python3 tcp_proxy.py TARGET_HOST TARGET_PORT

Prints the port it listens on (loopback), then forwards until killed. SIGUSR1 closes every open
connection at once, in both directions, like a network link going down; new connections are
accepted again right after, like the link coming back.
"""
import asyncio
import signal
import sys


async def main(target_host: str, target_port: int) -> None:
    open_writers: set[asyncio.StreamWriter] = set()

    def cut() -> None:
        for writer in list(open_writers):
            writer.transport.abort()
        open_writers.clear()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.transport.abort()

    async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host, target_port)
        except OSError:
            client_writer.transport.abort()
            return
        open_writers.update((client_writer, server_writer))
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
        open_writers.discard(client_writer)
        open_writers.discard(server_writer)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    # A parent may start us with signals blocked (Foundation's Process does): unblock ours.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, cut)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
