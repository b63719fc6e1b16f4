"""Access log lines: method, path, status, duration. Never bodies, queries or credentials."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp

from gateway.asgi import Message, Receive, Scope, Send

log = logging.getLogger("memorelay.access")


class AccessLogMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            ms = (time.perf_counter() - started) * 1000
            log.info("%s %s %s %.1fms", scope["method"], scope["path"], status, ms)
