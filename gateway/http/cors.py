"""Cross-origin browser calls, for the origins in ``server.cors_origins`` only.

A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) is answered here, before any
credential check, since browsers send it without one: 204, with the ``Access-Control-Allow-*``
headers for a listed origin and none for another (the browser then refuses the call). An actual
response to a listed origin gets ``Access-Control-Allow-Origin`` (that origin, never ``*``),
``Access-Control-Allow-Credentials`` and ``Access-Control-Expose-Headers`` naming the
``X-Memorelay-*`` response headers. Requests from other origins pass unchanged, without any.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

_METHODS = b"GET, POST, PUT, PATCH, DELETE, OPTIONS"
_EXPOSED = (
    b"x-memorelay-memories, x-memorelay-learning, x-memorelay-overhead-ms, x-memorelay-memory-tokens, "
    b"retry-after, x-request-id"
)
_MAX_AGE = b"600"


class CorsMiddleware:
    def __init__(self, app: ASGIApp, origins: Iterable[str]) -> None:
        self.app = app
        self.origins = frozenset(o.encode("latin-1") for o in origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin = requested_method = None
        for name, value in scope["headers"]:
            if name == b"origin":
                origin = value
            elif name == b"access-control-request-method":
                requested_method = value
        if origin is None:
            await self.app(scope, receive, send)
            return
        listed = origin in self.origins
        if scope["method"] == "OPTIONS" and requested_method is not None:
            await self._preflight(scope, send, origin if listed else None)
            return
        if not listed:
            await self.app(scope, receive, send)
            return

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                exposed = (b"access-control-expose-headers", _EXPOSED)
                message["headers"] = [*message.get("headers", []), *_allow(origin), exposed]
            await send(message)

        await self.app(scope, receive, send_with_cors)

    async def _preflight(self, scope: Scope, send: Send, origin: bytes | None) -> None:
        headers: list[tuple[bytes, bytes]] = []
        if origin is None:
            headers.append((b"vary", b"Origin"))
        else:
            asked = next((v for n, v in scope["headers"] if n == b"access-control-request-headers"), None)
            headers += _allow(origin)
            headers += [(b"access-control-allow-methods", _METHODS), (b"access-control-max-age", _MAX_AGE)]
            if asked:  # the origin is trusted: let it send the headers its SDK needs
                headers.append((b"access-control-allow-headers", asked))
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


def _allow(origin: bytes) -> list[tuple[bytes, bytes]]:
    return [
        (b"access-control-allow-origin", origin),
        (b"access-control-allow-credentials", b"true"),
        (b"vary", b"Origin"),
    ]
