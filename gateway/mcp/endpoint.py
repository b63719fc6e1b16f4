"""``/mcp``: the MCP server on the gateway's own port, credentials and user identity.

Every request is authenticated before the MCP SDK sees it, exactly as a chat is: a gateway
key (or, in pass-through mode, the caller's own credential) names the tenant, and
``X-Memorelay-User`` the end user (an MCP client sends both as configured headers);
``X-Memorelay-Conversation`` and ``X-Memorelay-Opt-Out`` apply too. A refused request gets
its HTTP status (401, 400) with a JSON-RPC error body; nothing reaches the tools. The SDK is
imported, and its session manager started, on the first request (``gateway.mcp.server``),
so a gateway whose clients never use MCP pays nothing for it at start-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from importlib import metadata
from typing import TYPE_CHECKING

import orjson

from gateway.chat import ChatFilter
from gateway.chat.identity import OPT_OUT_HEADER, parse_opt_out, resolve_conversation, resolve_user
from gateway.errors import BadRequest, GatewayError
from gateway.http.asgi import JSON_HEADER, Receive, Scope, Send, header_dict, send_bytes
from gateway.mcp.caller import InjectionOptions, McpCaller
from gateway.services import Services

if TYPE_CHECKING:
    from gateway.mcp.server import McpServer

# JSON-RPC "invalid request": what the SDK itself answers for requests refused over HTTP
_INVALID_REQUEST = -32600


class McpEndpoint:
    """Pure ASGI app for ``/mcp``; ``stop`` (from the app lifespan) ends the MCP server."""

    def __init__(self, services: Services, injection: InjectionOptions) -> None:
        self.services = services
        self.injection = injection
        self._server: McpServer | None = None
        self._lock = asyncio.Lock()

    @classmethod
    def for_chain(cls, services: Services, filters: Sequence[ChatFilter]) -> McpEndpoint:
        """``recall`` follows the configured injection filter's options (its defaults without one)."""
        injection = InjectionOptions()
        for f in filters:
            options = getattr(f, "options", None) if f.name == "memory_injection" else None
            if options is not None:
                injection = InjectionOptions(options.top_k, options.budget_percent, options.max_tokens)
                break
        return cls(services, injection)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        try:
            caller = self._caller(header_dict(scope))
        except GatewayError as exc:
            body = {"jsonrpc": "2.0", "id": None, "error": {"code": _INVALID_REQUEST, "message": str(exc)}}
            await send_bytes(send, exc.status_code, orjson.dumps(body), [JSON_HEADER])
            return
        from gateway.mcp.server import CALLER_KEY

        server = await self._started()
        await server.asgi({**scope, CALLER_KEY: caller}, receive, send)

    def _caller(self, headers: dict[str, str]) -> McpCaller:
        tenant = self.services.auth.caller(headers).tenant
        user = resolve_user(headers, None)
        if user is None:
            raise BadRequest(
                "the X-Memorelay-User header is required: configure the MCP client to send it with the "
                "end user's id, as the app does on chat requests",
                param="X-Memorelay-User",
            )
        return McpCaller(tenant, user, resolve_conversation(headers), parse_opt_out(headers.get(OPT_OUT_HEADER)))

    async def _started(self) -> McpServer:
        if self._server is not None:
            return self._server
        async with self._lock:
            if self._server is None:
                # the SDK and the learning pipeline's commands: imported on first use
                from gateway.mcp.server import McpServer
                from gateway.mcp.tools import MemoryTools

                server = McpServer(
                    MemoryTools(self.services, self.injection),
                    max_body_bytes=self.services.config.server.max_body_bytes,
                    version=_version(),
                )
                await server.start()
                self._server = server
        return self._server

    async def stop(self) -> None:
        if self._server is not None:
            await self._server.stop()


def _version() -> str:
    try:
        return metadata.version("memorelay")
    except metadata.PackageNotFoundError:
        return "0"
