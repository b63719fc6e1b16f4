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
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.access_log import AccessLogMiddleware
from gateway.api import admin_routes, memory_routes
from gateway.chain import ChatContext, ChatFilter, ChatResponse, build_chain
from gateway.chat import ChatEndpoint
from gateway.config import Config
from gateway.console import console_routes
from gateway.errors import GatewayError, error_body, error_bytes
from gateway.filter_loader import build_filters
from gateway.health import healthz, metrics, readyz
from gateway.model_list import list_models
from gateway.passthrough import PassthroughEndpoint
from gateway.services import Services

log = logging.getLogger("memorelay")

CHAT_PATH = "/v1/chat/completions"
_ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


class ChatFastPath:
    """Sends ``POST /v1/chat/completions`` straight to its endpoint, skipping routing.

    The chat route is the hot path; Starlette's router and exception middleware
    cost measurable time per request there (bench/relay.py) and it handles its
    own errors.
    """

    def __init__(self, app: ASGIApp, chat: ChatEndpoint, access_log: bool) -> None:
        self.app = app
        self.chat: ASGIApp = AccessLogMiddleware(chat) if access_log else chat

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == CHAT_PATH and scope["method"] == "POST":
            await self.chat(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def create_app(config: Config) -> ASGIApp:
    services = Services.create(config)
    filters = build_filters(config, services)

    async def terminal(ctx: ChatContext) -> ChatResponse:
        return await services.upstreams.for_model(ctx.model).chat(ctx)

    chain = build_chain(filters, terminal, services.metrics.time_filter)
    chat = ChatEndpoint(services, chain)
    routes: list[BaseRoute] = [
        Route(CHAT_PATH, chat, methods=["POST"]),
        Route("/v1/models", list_models, methods=["GET"]),
        Route("/v1/{path:path}", PassthroughEndpoint(services), methods=_ALL_METHODS),
        *memory_routes(),
        *admin_routes(),
        *console_routes(config),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
    ]
    middleware = [Middleware(AccessLogMiddleware)] if config.server.access_log else []
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={
            GatewayError: _gateway_error,
            HTTPException: _http_error,
            Exception: _unexpected_error,
        },
        lifespan=_lifespan(services, filters),
    )
    app.state.services = services
    app.state.filters = filters
    return ChatFastPath(app, chat, config.server.access_log)


def _lifespan(services: Services, filters: list[ChatFilter]) -> Any:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await services.start()
        started: list[Any] = []
        checkpoints: asyncio.Future[None] | None = None
        try:
            for f in filters:
                start = getattr(f, "start", None)
                if start is not None:
                    await start()
                started.append(f)
            app.state.started = True
            checkpoints = asyncio.ensure_future(_checkpoint_every(services))
            yield
        finally:
            app.state.started = False
            if checkpoints is not None:
                checkpoints.cancel()
            for f in reversed(started):
                stop = getattr(f, "stop", None)
                if stop is not None:
                    try:
                        await stop()
                    except Exception:  # boundary: one filter must not block the others' stop
                        log.exception("filter %s failed to stop", getattr(f, "name", f))
            await services.close()

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
    if exc.status_code == 404:
        message, code = f"unknown route {request.method} {request.url.path}", "not_found"
    elif exc.status_code == 405:
        message, code = (
            f"method {request.method} not allowed on {request.url.path}",
            "method_not_allowed",
        )
    else:
        message, code = str(exc.detail), None
    return _json(
        exc.status_code,
        orjson.dumps(error_body(message, "invalid_request_error", code)),
        dict(exc.headers) if exc.headers else None,
    )


async def _unexpected_error(request: Request, exc: Exception) -> Response:
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    body = error_body("internal gateway error", "server_error", "internal_error")
    return _json(500, orjson.dumps(body))
