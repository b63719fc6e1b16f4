"""``create_app(config)``: routes, pure-ASGI middleware, lifespan."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.api.admin import admin_routes
from gateway.api.memories import memory_routes
from gateway.api.openapi import openapi_routes
from gateway.auth_throttle import ClientAddressMiddleware
from gateway.backup_schedule import backup_every
from gateway.chat import ChatContext, ChatFilter, ChatResponse, Dialect, build_chain
from gateway.chat.endpoint import CallerOf, DialectEndpoint
from gateway.compose import compose
from gateway.config import Config
from gateway.console.routes import console_routes
from gateway.dialects import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES
from gateway.dialects.anthropic_auth import AnthropicCallers
from gateway.dialects.anthropic_messages import anthropic_error_bytes
from gateway.errors import GatewayError, error_body, error_bytes
from gateway.health import healthz, metrics, readyz
from gateway.http.access_log import AccessLogMiddleware, escaped
from gateway.http.cors import CorsMiddleware
from gateway.lifecycle import FilterPart, Loop, Part, StopOnly, run_parts
from gateway.mcp.endpoint import McpEndpoint
from gateway.model_list import list_models
from gateway.relay.endpoint import COUNT_TOKENS_PATH, SUB_PATHS_ROUTE, RelayEndpoint, RelayRoute, messages_label
from gateway.services import Services
from gateway.upstreams.headers import anthropic_headers, request_headers

log = logging.getLogger("memorelay")

CHAT_PATH = "/v1/chat/completions"
_ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


class ChatFastPath:
    """Sends ``POST`` to the chat routes (completions, responses, messages) straight to
    their endpoints, skipping routing.

    These are the hot path; Starlette's router and exception middleware cost
    measurable time per request there (bench/relay.py) and they handle their own errors.
    Other methods on these paths (``GET /v1/responses/{id}`` …) take the router.
    """

    def __init__(self, app: ASGIApp, posts: dict[str, ASGIApp], access_log: bool) -> None:
        self.app = app
        self.posts = {path: AccessLogMiddleware(ep) if access_log else ep for path, ep in posts.items()}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = self.posts.get(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if endpoint is not None:
            await endpoint(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def create_app(config: Config) -> ASGIApp:
    composition = compose(config)
    services, filters = composition.services, composition.filters

    async def terminal(ctx: ChatContext) -> ChatResponse:
        return await services.upstreams.send(ctx)

    # one chain for every dialect: filters never know which surface a request came in on
    chain = build_chain(filters, services.telemetry.traced_upstream(terminal), services.metrics.time_filter)

    def endpoint(dialect: Dialect, caller_of: CallerOf) -> DialectEndpoint:
        limit = config.server.max_body_bytes
        return DialectEndpoint(
            chain, dialect, caller_of, metrics=services.metrics, telemetry=services.telemetry, max_body_bytes=limit
        )

    chat = endpoint(CHAT_COMPLETIONS, services.auth.caller)
    anthropic = AnthropicCallers(services.auth, config.upstreams.anthropic.api_key.get_secret_value())
    anthropic_relay, passthrough = _relays(services, anthropic)
    mcp = McpEndpoint.for_chain(services, filters)
    posts: dict[str, ASGIApp] = {
        CHAT_PATH: chat,
        RESPONSES.route: endpoint(RESPONSES, services.auth.caller),
        ANTHROPIC_MESSAGES.route: endpoint(ANTHROPIC_MESSAGES, anthropic.caller),
        COUNT_TOKENS_PATH: anthropic_relay,
    }
    routes: list[BaseRoute] = [
        Route(CHAT_PATH, chat, methods=["POST"]),
        Route("/v1/models", list_models, methods=["GET"]),
        # every other /v1/messages/* path (batches …) belongs to the Anthropic upstream
        Route(SUB_PATHS_ROUTE, anthropic_relay, methods=_ALL_METHODS),
        Route("/v1/{path:path}", passthrough, methods=_ALL_METHODS),
        *memory_routes(),
        *admin_routes(),
        *openapi_routes(),
        *console_routes(config, services.backend),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/mcp", mcp),
    ]
    middleware = [Middleware(AccessLogMiddleware)] if config.server.access_log else []
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={
            GatewayError: _gateway_error,
            HTTPException: _http_error,
            ClientDisconnect: _client_gone,
            Exception: _unexpected_error,
        },
        lifespan=_lifespan(services, filters, mcp),
    )
    app.state.services = services
    app.state.filters = filters
    outer: ASGIApp = ChatFastPath(app, posts, config.server.access_log)
    if config.server.cors_origins:  # preflights are answered before any credential check
        outer = CorsMiddleware(outer, config.server.cors_origins)
    return ClientAddressMiddleware(outer)


def _relays(services: Services, anthropic: AnthropicCallers) -> tuple[RelayEndpoint, RelayEndpoint]:
    """The verbatim relays: ``/v1/messages/*`` to ``upstreams.anthropic``, any other ``/v1/*``
    path to the default upstream."""
    upstreams, config = services.upstreams, services.config
    messages = RelayRoute(
        "anthropic",
        upstreams.anthropic,
        anthropic.caller,
        lambda headers, caller: anthropic_headers(headers, caller.upstream_authorization, caller.issued_headers),
        anthropic_error_bytes,
        config.upstreams.anthropic.relay,
        prefix="/v1",
        decoded=True,
        label=messages_label,
        json_paths=frozenset({COUNT_TOKENS_PATH}),
    )
    default = RelayRoute(
        "default",
        upstreams.default,
        services.auth.caller,
        lambda headers, caller: request_headers(
            headers, caller.upstream_authorization, identity_encoding=False, drop=caller.issued_headers
        ),
        error_bytes,
        config.upstreams.default.relay,
    )
    limit = config.server.max_body_bytes
    return RelayEndpoint(messages, services.metrics, limit), RelayEndpoint(default, services.metrics, limit)


def _lifespan(services: Services, filters: list[ChatFilter], mcp: McpEndpoint) -> Any:
    """Start the parts in order (stores and upstreams, the filters, the loops), stop them in
    the reverse order; ``app.state.started`` tells ``/readyz`` the gateway serves."""
    parts: list[Part] = [services, *(FilterPart(f) for f in filters), StopOnly(mcp.stop)]
    parts.append(Loop(lambda: _checkpoint_every(services)))
    if services.config.backup.interval_h > 0:  # a backup cut short leaves only its temporary file, removed
        parts.append(Loop(lambda: backup_every(services.backend, services.config.backup)))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with run_parts(parts):
            app.state.started = True
            try:
                yield
            finally:
                app.state.started = False

    return lifespan


async def _checkpoint_every(services: Services) -> None:
    """Save the derived index files now and then, so a crash costs a shorter rebuild."""
    interval = services.config.memory.checkpoint_interval_s
    while True:
        await asyncio.sleep(interval)
        try:
            await services.memory.checkpoint()
        except Exception:  # boundary: SQLite stays the source of truth; retry next round
            log.exception("saving the vector index failed")


def _json(status: int, body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status, headers=headers, media_type="application/json")


async def _gateway_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, GatewayError)
    return _json(exc.status_code, error_bytes(exc))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    method, path = _echoed(request.method), _echoed(request.url.path)
    if exc.status_code == 404:
        message, code = f"unknown route {method} {path}", "not_found"
    elif exc.status_code == 405:
        message, code = f"method {method} not allowed on {path}", "method_not_allowed"
    else:
        message, code = str(exc.detail), None
    return _json(
        exc.status_code,
        orjson.dumps(error_body(message, "invalid_request_error", code)),
        dict(exc.headers) if exc.headers else None,
    )


async def _client_gone(request: Request, exc: Exception) -> Response:
    # the client left (or its body timed out) mid-request: nobody is there to answer
    return Response(status_code=400)


_MAX_ECHO = 120


def _echoed(value: str) -> str:
    """A request value quoted back in an error message, cut short (a 10 KB path is not echoed)."""
    return value if len(value) <= _MAX_ECHO else value[:_MAX_ECHO] + "…"


async def _unexpected_error(request: Request, exc: Exception) -> Response:
    log.error("unhandled error on %s %s", escaped(request.method), escaped(request.url.path), exc_info=exc)
    body = error_body("internal gateway error", "server_error", "internal_error")
    return _json(500, orjson.dumps(body))
