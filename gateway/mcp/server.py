"""The MCP protocol side of ``/mcp``: the official SDK's low-level server over streamable HTTP.

The only module that imports the ``mcp`` SDK (about 0.7 s of imports), so ``McpEndpoint``
loads it on the first ``/mcp`` request rather than at start-up. Stateless, with JSON
answers: every POST carries its own credentials and is served on its own, so any replica
can answer any call and no session outlives a request. The caller was authenticated by the
endpoint before the SDK saw the request (``CALLER_KEY`` in the ASGI scope).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.shared.exceptions import MCPError
from starlette.types import ASGIApp

from gateway.mcp.arguments import BY_NAME, TOOLS
from gateway.mcp.caller import McpCaller
from gateway.mcp.tools import MemoryTools

CALLER_KEY = "memorelay.mcp_caller"
PROFILE_URI = "memorelay://profile"
_INSTRUCTIONS = (
    "memorelay is this user's long-term memory, shared with their chat apps. Read the 'profile' resource "
    "(or call the profile tool) at the start of a session, 'recall' before answering from what you know "
    "about the user, and 'remember' a fact the user wants kept."
)


def _caller(ctx: ServerRequestContext[Any, Any]) -> McpCaller:
    request = ctx.request
    caller = getattr(request, "scope", {}).get(CALLER_KEY)
    if not isinstance(caller, McpCaller):  # only reachable through McpEndpoint, which sets it
        raise MCPError(code=types.INVALID_REQUEST, message="unauthenticated request")
    return caller


def build_server(tools: MemoryTools, version: str) -> Server[Any]:
    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t.name,
                    description=t.description,
                    input_schema=t.input_schema(),
                    annotations=types.ToolAnnotations(
                        read_only_hint=t.read_only, destructive_hint=t.destructive, open_world_hint=False
                    ),
                )
                for t in TOOLS
            ]
        )

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in BY_NAME:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"unknown tool {params.name[:64]!r}; the tools are {', '.join(BY_NAME)}",
            )
        answer = await tools.call(_caller(ctx), params.name, dict(params.arguments or {}))
        return types.CallToolResult(
            content=[types.TextContent(text=answer.text)],
            structured_content=answer.data if not answer.error else None,
            is_error=answer.error,
        )

    async def list_resources(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=PROFILE_URI,
                    name="profile",
                    description="The user's pinned memories and most used facts, as one memory block.",
                    mime_type="text/markdown",
                )
            ]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        if params.uri != PROFILE_URI:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown resource; the one resource is {PROFILE_URI}")
        answer = await tools.call(_caller(ctx), "profile", {})
        if answer.error:
            raise MCPError(code=types.INTERNAL_ERROR, message=answer.text)
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=PROFILE_URI, mime_type="text/markdown", text=answer.text)]
        )

    return Server(
        "memorelay",
        version=version,
        instructions=_INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
    )


class McpServer:
    """The SDK's session manager, run in a task of its own from ``start`` to ``stop``."""

    def __init__(self, tools: MemoryTools, *, max_body_bytes: int, version: str) -> None:
        self._manager = StreamableHTTPSessionManager(
            app=build_server(tools, version),
            json_response=True,
            stateless=True,
            max_request_body_size=max_body_bytes,
        )
        self.asgi: ASGIApp = self._manager.handle_request
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        ready = asyncio.Event()

        async def run() -> None:
            async with self._manager.run():
                ready.set()
                await self._stop.wait()

        self._task = asyncio.ensure_future(run())
        waiting = asyncio.ensure_future(ready.wait())
        await asyncio.wait({self._task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if self._task.done():
            self._task.result()  # raises what kept the manager from starting

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
