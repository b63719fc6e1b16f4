"""A TCP relay on loopback that a test can pause, to take a real PostgreSQL out of reach the
way a stopped host or a network partition does: while paused, connections stay open and bytes
stop moving in both directions (new connections are accepted and wait too); on resume every
held byte moves on, in order."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


class TcpFault:
    def __init__(self, target: tuple[str, int] | str) -> None:
        self.target = target
        self.flowing = threading.Event()
        self.flowing.set()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._closed = False
        self.refusing = False
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def pause(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def cut(self) -> None:
        """Like a stopped server: open connections are reset and new ones closed at once."""
        self.refusing = True
        for s in list(self._sockets):
            s.close()
        self._sockets.clear()

    def restore(self) -> None:
        self.refusing = False

    def close(self) -> None:
        self._closed = True
        self.flowing.set()
        self._listener.close()
        for s in list(self._sockets):
            s.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            if isinstance(self.target, str):  # a Unix socket (the embedded server listens on one)
                server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                server.connect(self.target)
            else:
                server = socket.create_connection(self.target)
            self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                self.flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


@contextmanager
def relayed(url: str) -> Iterator[tuple[str, TcpFault]]:
    """``url`` (a ``postgresql://`` URL) through a pausable relay: the relay's URL and the relay."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    socket_dir = query.pop("host", None)
    port = parts.port or 5432
    if socket_dir is not None and socket_dir.startswith("/"):
        fault = TcpFault(f"{socket_dir}/.s.PGSQL.{port}")
    else:
        assert parts.hostname is not None
        fault = TcpFault((parts.hostname, port))
    userinfo = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    netloc = f"{userinfo}127.0.0.1:{fault.port}"
    try:
        yield urlunsplit((parts.scheme, netloc, parts.path, urlencode(query), parts.fragment)), fault
    finally:
        fault.close()
