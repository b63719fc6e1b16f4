"""Access log lines: method, path, status, duration. Never bodies, queries or credentials.

Method and path come from the client, decoded (``%0A`` is a line feed by then), so they are
written escaped: control characters, line breaks and backslashes as ``\\n``, ``\\x1b`` …, and one
request can never write a second, forged line.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp

from gateway.http.asgi import Message, Receive, Scope, Send

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
            log.info("%s %s %s %.1fms", escaped(scope["method"]), escaped(scope["path"]), status, ms)


def escaped(value: str) -> str:
    """``value`` with every non-printable character and backslash written as an escape."""
    if value.isprintable() and "\\" not in value:
        return value
    return value.encode("unicode_escape").decode("ascii")
