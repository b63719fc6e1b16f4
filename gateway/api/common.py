"""What the user and admin APIs share: identity, JSON bodies, query parameters, responses."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway.asgi import header_dict, parse_json_object
from gateway.errors import BadRequest, PayloadTooLarge
from gateway.identity import resolve_user
from gateway.memory import MemoryService
from gateway.services import Services


def services_of(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def caller_identity(request: Request) -> tuple[str, str]:
    """(tenant, user) of a user API call: same credentials and user header as chat."""
    services = services_of(request)
    headers = header_dict(request.scope)
    tenant = services.auth.caller(headers).tenant
    user = resolve_user(headers, None)
    if user is None:
        raise BadRequest("the X-Memorelay-User header is required", param="X-Memorelay-User")
    return tenant, user


async def json_body(request: Request) -> dict[str, Any]:
    limit = services_of(request).config.server.max_body_bytes
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise PayloadTooLarge(f"request body over {limit} bytes (server.max_body_bytes)")
    return parse_json_object(raw)


def json_response(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status, media_type="application/json")


def no_content() -> Response:
    return Response(status_code=204)


def shown(value: str, limit: int = 64) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters: a 404 must not echo
    a 10 KB id back (issue 7)."""
    return repr(value if len(value) <= limit else value[:limit] + "…")


async def memory_page(
    memory: MemoryService,
    tenant: str,
    user: str,
    query: str,
    *,
    limit: int,
    offset: int,
    category: str | None,
    scope: str | None,
    include_disabled: bool,
) -> dict[str, Any]:
    """One page of a user's visible memories: ranked by retrieval with a query (each with its
    ``relevance``), newest first without one. The body of both the user and the admin lists."""
    if query:
        found = await memory.search(
            tenant, user, query, limit=offset + limit, category=category, scope=scope, include_disabled=include_disabled
        )
        page = [dict(s.memory.to_json(), relevance=round(s.relevance, 6)) for s in found[offset:]]
        return {"data": page, "total": len(found)}
    items, total = await memory.list(
        tenant,
        user,
        category=category,
        scope=scope,
        include_disabled=include_disabled,
        limit=limit,
        offset=offset,
        personal_only=scope == "personal",
    )
    return {"data": [m.to_json() for m in items], "total": total}
