"""The user memory API, ``/api/memories…`` (SPEC §5): the calling user's own memories.

Same credentials and user header as chat. A user sees own personal memories plus
the tenant's shared and system ones, and changes or deletes only their own.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gateway.api.common import (
    MAX_PAGE,
    bool_param,
    caller_identity,
    choice_param,
    int_param,
    json_body,
    json_response,
    memory_page,
    no_content,
    services_of,
)
from gateway.errors import BadRequest, GatewayError, NotFound
from gateway.memory import CATEGORIES, SCOPES, MemoryValidationError
from gateway.memory_export import export_json, export_markdown, new_memory

_USER_KEYS = ("title", "content", "category", "subcategory", "tags")
_EXPORT_ALL = 1_000_000


class PermissionDenied(GatewayError):
    status_code = 403
    error_type = "permission_error"
    code = "permission_denied"


def invalid(exc: MemoryValidationError) -> BadRequest:
    return BadRequest(str(exc), param=getattr(exc, "field", None))


async def list_memories(request: Request) -> Response:
    tenant, user = caller_identity(request)
    memory = services_of(request).memory
    p = request.query_params
    limit = int_param(p, "limit", 50, 1, MAX_PAGE)
    offset = int_param(p, "offset", 0, 0, 10**9)
    category = choice_param(p, "category", CATEGORIES)
    scope = choice_param(p, "scope", SCOPES)
    include_disabled = bool_param(p, "include_disabled")
    query = (p.get("q") or "").strip()
    page = await memory_page(
        memory,
        tenant,
        user,
        query,
        limit=limit,
        offset=offset,
        category=category,
        scope=scope,
        include_disabled=include_disabled,
    )
    return json_response(page)


async def create_memory(request: Request) -> Response:
    tenant, user = caller_identity(request)
    try:
        item = new_memory(await json_body(request), allowed=_USER_KEYS)
        services = services_of(request)
        cap = services.config.memory.max_manual_memories_per_user  # 429 past it (issue 7 item 9)
        created = await services.memory.add(tenant, user, item, actor=f"user:{user}", manual_cap=cap)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    return json_response(created.to_json(), 201)


async def get_memory(request: Request) -> Response:
    tenant, user = caller_identity(request)
    found = await services_of(request).memory.get(tenant, user, request.path_params["id"])
    if found is None:
        raise NotFound(f"no memory {request.path_params['id']!r}")
    return json_response(found.to_json())


async def _owned(request: Request) -> tuple[str, str, str]:
    tenant, user = caller_identity(request)
    memory_id = request.path_params["id"]
    found = await services_of(request).memory.get(tenant, user, memory_id)
    if found is None:
        raise NotFound(f"no memory {memory_id!r}")
    if found.scope != "personal":
        raise PermissionDenied(f"memory {memory_id!r} is {found.scope}: only an operator can change it")
    return tenant, user, memory_id


async def patch_memory(request: Request) -> Response:
    tenant, user, memory_id = await _owned(request)
    changes = await json_body(request)
    try:
        updated = await services_of(request).memory.update(tenant, user, memory_id, changes, actor=f"user:{user}")
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    if updated is None:
        raise NotFound(f"no memory {memory_id!r}")
    return json_response(updated.to_json())


async def delete_memory(request: Request) -> Response:
    tenant, user, memory_id = await _owned(request)
    if not await services_of(request).memory.delete(tenant, user, memory_id, actor=f"user:{user}"):
        raise NotFound(f"no memory {memory_id!r}")
    return no_content()


async def delete_all(request: Request) -> Response:
    tenant, user = caller_identity(request)
    if not bool_param(request.query_params, "confirm"):
        raise BadRequest("deleting all memories needs ?confirm=true", param="confirm")
    await services_of(request).memory.delete_all(tenant, user, actor=f"user:{user}")
    return no_content()


async def stats(request: Request) -> Response:
    tenant, user = caller_identity(request)
    return json_response(await services_of(request).memory.stats(tenant, user))


async def get_settings(request: Request) -> Response:
    tenant, user = caller_identity(request)
    return json_response(await services_of(request).memory.get_settings(tenant, user))


async def put_settings(request: Request) -> Response:
    tenant, user = caller_identity(request)
    body = await json_body(request)
    unknown = sorted(set(body) - {"learning_enabled"})
    if unknown:
        raise BadRequest(f"unknown setting {unknown[0]!r}", param=unknown[0])
    if not isinstance(body.get("learning_enabled"), bool):
        raise BadRequest("'learning_enabled' must be true or false", param="learning_enabled")
    return json_response(await services_of(request).memory.put_settings(tenant, user, body))


async def export(request: Request) -> Response:
    tenant, user = caller_identity(request)
    fmt = choice_param(request.query_params, "format", ("json", "markdown")) or "json"
    items, _ = await services_of(request).memory.list(
        tenant, user, include_disabled=True, personal_only=True, limit=_EXPORT_ALL
    )
    if fmt == "markdown":
        return Response(export_markdown(user, items), media_type="text/markdown; charset=utf-8")
    data: dict[str, Any] = export_json(tenant, user, items)
    return json_response(data)


def memory_routes() -> list[BaseRoute]:
    return [
        Route("/api/memories", list_memories, methods=["GET"]),
        Route("/api/memories", create_memory, methods=["POST"]),
        Route("/api/memories", delete_all, methods=["DELETE"]),
        Route("/api/memories/stats", stats, methods=["GET"]),
        Route("/api/memories/settings", get_settings, methods=["GET"]),
        Route("/api/memories/settings", put_settings, methods=["PUT"]),
        Route("/api/memories/export", export, methods=["GET"]),
        Route("/api/memories/{id}", get_memory, methods=["GET"]),
        Route("/api/memories/{id}", patch_memory, methods=["PATCH"]),
        Route("/api/memories/{id}", delete_memory, methods=["DELETE"]),
    ]
