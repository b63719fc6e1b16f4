"""What the user and admin APIs share: identity, JSON bodies, query parameters, responses."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway.api.request_models import ReviewQuery
from gateway.chat.identity import resolve_user
from gateway.errors import BadRequest, PayloadTooLarge
from gateway.http.asgi import header_dict, parse_json_object, require_json
from gateway.memory import Memory, MemoryService
from gateway.services import Services
from gateway.store import Review


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
    require_json(header_dict(request.scope), raw)
    return parse_json_object(raw)


def json_response(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status, media_type="application/json")


def no_content() -> Response:
    return Response(status_code=204)


def shown(value: str, limit: int = 64) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters: a 404 must not echo
    a 10 KB id back."""
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
    everyone: bool = False,
    kind: str | None = None,
) -> dict[str, Any]:
    """One page of a user's visible memories: ranked by retrieval with a query (each with its
    ``relevance``), newest first without one. The body of both the user and the admin lists.
    Each memory carries ``uses``: the responses it went into, the user's own (``everyone``: all
    users', for operators), counted for the whole page in one read."""
    if query:
        found = await memory.search(
            tenant,
            user,
            query,
            limit=offset + limit,
            category=category,
            scope=scope,
            include_disabled=include_disabled,
            kind=kind,
            floor=True,
        )
        page = [dict(s.memory.to_json(), relevance=round(s.relevance, 6)) for s in found[offset:]]
        total = len(found)
    else:
        items, total = await memory.list(
            tenant,
            user,
            category=category,
            scope=scope,
            include_disabled=include_disabled,
            limit=limit,
            offset=offset,
            personal_only=scope == "personal",
            kind=kind,
        )
        page = [m.to_json() for m in items]
    counts = await memory.use_counts(tenant, user, [m["id"] for m in page], everyone=everyone)
    for m in page:
        m["uses"] = counts[m["id"]]
    return {"data": page, "total": total}


def review_json(review: Review, old: Memory | None, new: Memory | None) -> dict[str, Any]:
    """A review as ``response_models.Review`` describes it."""
    return {
        "id": review.id,
        "tenant": review.tenant,
        "user_id": review.user_id,
        "old_memory_id": review.old_id,
        "new_memory_id": review.new_id,
        "reason": review.reason,
        "state": review.state,
        "created_at": review.created_at,
        "decided_by": review.decided_by,
        "decided_at": review.decided_at,
        "old": old.to_json() if old else None,
        "new": new.to_json() if new else None,
    }


async def review_page(
    memory: MemoryService, tenant: str | None, user_id: str | None, query: ReviewQuery
) -> dict[str, Any]:
    found, total = await memory.reviews(tenant, user_id, query.state, limit=query.limit, offset=query.offset)
    return {"data": [review_json(*row) for row in found], "total": total}


async def decided(
    memory: MemoryService, review_id: str, accept: bool, *, tenant: str | None, user_id: str | None, actor: str
) -> dict[str, Any]:
    """Accept or reject a review; answers it with both memories as they are now."""
    review = await memory.decide_review(review_id, accept, tenant=tenant, user_id=user_id, actor=actor)
    found = await memory.store.fetch([review.old_id, review.new_id])
    return review_json(review, found.get(review.old_id), found.get(review.new_id))
