"""The user memory API, ``/api/memories…``: the calling user's own memories.

Same credentials and user header as chat. A user sees own personal memories plus
the tenant's shared and system ones, and changes or deletes only their own. Requests are
validated by the models in ``request_models``; answers have the shapes in ``response_models``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from gateway.api import request_models as rq
from gateway.api import response_models as rs
from gateway.api.common import (
    caller_identity,
    decided,
    json_response,
    memory_page,
    no_content,
    review_page,
    services_of,
    shown,
)
from gateway.api.operation import Operation, routes_of
from gateway.api.validation import parse_body, parse_query
from gateway.errors import BadRequest, GatewayError, NotFound
from gateway.learning.upkeep.reflection import reflection_json
from gateway.memory import MemoryValidationError, NewMemory, derive_kind
from gateway.memory_export import export_csv, export_json, export_markdown

_EXPORT_ALL = 1_000_000


class PermissionDenied(GatewayError):
    status_code = 403
    error_type = "permission_error"
    code = "permission_denied"


def invalid(exc: MemoryValidationError) -> BadRequest:
    return BadRequest(str(exc), code=getattr(exc, "code", None), param=getattr(exc, "field", None))


def new_memory(body: rq.MemoryCreate) -> NewMemory:
    tags = body.tags or []
    subcategory = body.subcategory or ""
    kind = body.kind or derive_kind(body.category, subcategory, body.title, body.content, tags)
    return NewMemory(
        title=body.title,
        content=body.content,
        category=body.category,
        subcategory=subcategory,
        tags=tags,
        pinned=body.pinned,
        kind=kind,
    )


async def list_memories(request: Request) -> Response:
    tenant, user = caller_identity(request)
    query = parse_query(request, rq.MemoryListQuery)
    page = await memory_page(
        services_of(request).memory,
        tenant,
        user,
        query.q.strip(),
        limit=query.limit,
        offset=query.offset,
        category=query.category,
        scope=query.scope,
        include_disabled=query.include_disabled,
        kind=query.kind,
    )
    return json_response(page)


async def create_memory(request: Request) -> Response:
    tenant, user = caller_identity(request)
    body = await parse_body(request, rq.MemoryCreate)
    try:
        services = services_of(request)
        cap = (
            services.config.memory.max_manual_memories_per_user
        )  # 429 past it: manual adds cannot crowd out the learned memories
        created = await services.memory.add(tenant, user, new_memory(body), actor=f"user:{user}", manual_cap=cap)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    return json_response(created.to_json(), 201)


async def get_memory(request: Request) -> Response:
    tenant, user = caller_identity(request)
    memory_id = request.path_params["id"]
    found = await services_of(request).memory.get(tenant, user, memory_id)
    if found is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    return json_response(found.to_json())


async def _owned(request: Request) -> tuple[str, str, str]:
    tenant, user = caller_identity(request)
    memory_id = request.path_params["id"]
    found = await services_of(request).memory.get(tenant, user, memory_id)
    if found is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    if found.scope != "personal":
        raise PermissionDenied(f"memory {shown(memory_id)} is {found.scope}: only an operator can change it")
    return tenant, user, memory_id


async def patch_memory(request: Request) -> Response:
    tenant, user, memory_id = await _owned(request)
    changes = (await parse_body(request, rq.MemoryPatch)).changes()
    try:
        updated = await services_of(request).memory.update(tenant, user, memory_id, changes, actor=f"user:{user}")
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    if updated is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    return json_response(updated.to_json())


async def delete_memory(request: Request) -> Response:
    tenant, user, memory_id = await _owned(request)
    if not await services_of(request).memory.delete(tenant, user, memory_id, actor=f"user:{user}"):
        raise NotFound(f"no memory {shown(memory_id)}")
    return no_content()


async def delete_all(request: Request) -> Response:
    tenant, user = caller_identity(request)
    parse_query(request, rq.DeleteAllQuery)
    services = services_of(request)
    await services.memory.delete_all(tenant, user, actor=f"user:{user}")
    await services.learning.wipe_dead_payloads(tenant=tenant, user_id=user)  # nothing of theirs kept
    return no_content()


async def memory_uses(request: Request) -> Response:
    tenant, user = caller_identity(request)
    memory_id = request.path_params["id"]
    query = parse_query(request, rq.PageQuery)
    found = await services_of(request).memory.uses(tenant, user, memory_id, limit=query.limit, offset=query.offset)
    if found is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    data, total = found
    return json_response({"data": data, "total": total})


async def stats(request: Request) -> Response:
    tenant, user = caller_identity(request)
    return json_response((await services_of(request).memory.stats(tenant, user)).to_json())


async def get_settings(request: Request) -> Response:
    tenant, user = caller_identity(request)
    return json_response(await services_of(request).memory.get_settings(tenant, user))


async def put_settings(request: Request) -> Response:
    tenant, user = caller_identity(request)
    body = await parse_body(request, rq.SettingsUpdate)
    return json_response(await services_of(request).memory.put_settings(tenant, user, body.model_dump()))


async def export(request: Request) -> Response:
    tenant, user = caller_identity(request)
    query = parse_query(request, rq.ExportQuery)
    items, _ = await services_of(request).memory.list(
        tenant, user, include_disabled=True, personal_only=True, limit=_EXPORT_ALL
    )
    if query.format == "markdown":
        return Response(export_markdown(user, items), media_type="text/markdown; charset=utf-8")
    if query.format == "csv":
        return Response(
            export_csv(items),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": 'attachment; filename="memories.csv"'},
        )
    data: dict[str, Any] = export_json(tenant, user, items)
    return json_response(data)


async def reflection(request: Request) -> Response:
    tenant, user = caller_identity(request)
    latest = await services_of(request).memory.latest_reflection(tenant, user)
    if latest is None:
        raise NotFound("no reflection report yet: one is written after each consolidation round")
    return json_response(reflection_json(latest))


async def reviews(request: Request) -> Response:
    tenant, user = caller_identity(request)
    query = parse_query(request, rq.ReviewQuery)
    return json_response(await review_page(services_of(request).memory, tenant, user, query))


async def _decide(request: Request, accept: bool) -> Response:
    tenant, user = caller_identity(request)
    memory = services_of(request).memory
    review_id = request.path_params["id"]
    actor = f"user:{user}"
    return json_response(await decided(memory, review_id, accept, tenant=tenant, user_id=user, actor=actor))


async def accept_review(request: Request) -> Response:
    return await _decide(request, True)


async def reject_review(request: Request) -> Response:
    return await _decide(request, False)


def memory_operations() -> list[Operation]:
    def op(method: str, path: str, endpoint: Any, summary: str, **more: Any) -> Operation:
        return Operation(method, "/api/memories" + path, endpoint, summary, "user", **more)

    return [
        op("GET", "", list_memories, "List or search own memories", query=rq.MemoryListQuery, response=rs.MemoryPage),
        op(
            "POST",
            "",
            create_memory,
            "Add a personal memory",
            body=rq.MemoryCreate,
            status=201,
            response=rs.Memory,
            errors=(409, 429),
        ),
        op("DELETE", "", delete_all, "Delete all own personal memories", query=rq.DeleteAllQuery, status=204),
        op("GET", "/stats", stats, "Totals of own memories", response=rs.UserStats),
        op("GET", "/settings", get_settings, "Own memory settings", response=rs.Settings),
        op(
            "PUT", "/settings", put_settings, "Change own memory settings", body=rq.SettingsUpdate, response=rs.Settings
        ),
        op(
            "GET",
            "/export",
            export,
            "Export own personal memories (JSON; Markdown with format=markdown; CSV with format=csv: "
            "a header row, tags joined by ';', a cell starting with = + - @ prefixed with ')",
            query=rq.ExportQuery,
            response=rs.Export,
            alternatives={"text/markdown": {"type": "string"}, "text/csv": {"type": "string"}},
        ),
        # before "/{id}", which would take "reviews" or "reflection" for a memory id
        op(
            "GET",
            "/reflection",
            reflection,
            "Own latest reflection report: what the memory learned, merged, consolidated, superseded, "
            "let fade, used most and left unused over its period (404 before the first round)",
            response=rs.Reflection,
            errors=(404,),
        ),
        op(
            "GET",
            "/reviews",
            reviews,
            "Own supersedes waiting for review (learning.review: queue), with both memories",
            query=rq.ReviewQuery,
            response=rs.ReviewPage,
        ),
        op(
            "POST",
            "/reviews/{id}/accept",
            accept_review,
            "Accept a supersede: the new memory is enabled, the old one disabled with a reason naming it",
            response=rs.Review,
            errors=(409,),
        ),
        op(
            "POST",
            "/reviews/{id}/reject",
            reject_review,
            'Reject a supersede: the old memory stays, the new one stays disabled ("rejected")',
            response=rs.Review,
            errors=(409,),
        ),
        op("GET", "/{id}", get_memory, "One visible memory", response=rs.Memory),
        op(
            "PATCH",
            "/{id}",
            patch_memory,
            "Change an own memory",
            body=rq.MemoryPatch,
            response=rs.Memory,
            errors=(403, 409),
        ),
        op(
            "GET",
            "/{id}/uses",
            memory_uses,
            "Own uses of a visible memory: which responses it went into (citation log)",
            query=rq.PageQuery,
            response=rs.MemoryUsePage,
        ),
        op("DELETE", "/{id}", delete_memory, "Delete an own memory", status=204, errors=(403,)),
    ]


def memory_routes() -> list[BaseRoute]:
    return routes_of(memory_operations())
