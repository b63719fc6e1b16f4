"""Run an ASGI app with uvicorn on a free loopback port, in a thread (like httpx's tests)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from tests.waits import scaled


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ThreadServer(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # not allowed outside the main thread
        pass


@contextmanager
def serve_in_thread(app: Any, port: int | None = None, **options: Any) -> Iterator[str]:
    port = port or free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        loop="asyncio",
        timeout_graceful_shutdown=options.pop("timeout_graceful_shutdown", 2),
        **options,
    )
    server = ThreadServer(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + scaled(60)
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
