"""The operator API, ``/api/admin/…``, behind ``auth.admin_key``.

Users and their memories, shared/system memories, promote, stats, audit log,
learning log and the editable learning prompts. Requests are validated by the models in
``request_models``; answers have the shapes in ``response_models``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from gateway.api import request_models as rq
from gateway.api import response_models as rs
from gateway.api.common import decided, json_response, memory_page, no_content, review_page, services_of, shown
from gateway.api.memories import invalid, new_memory
from gateway.api.operation import Endpoint, Operation, routes_of
from gateway.api.validation import parse_body, parse_query
from gateway.chat.identity import MAX_ID_LENGTH
from gateway.errors import BadRequest, GatewayError, NotFound
from gateway.http.asgi import header_dict
from gateway.learning.upkeep.reflection import reflection_json
from gateway.memory import MemoryValidationError
from gateway.store.prompts import PROMPT_NAMES, PromptName

ACTOR = "admin"


class Conflict(GatewayError):
    """The request is valid but the memory's state forbids it (promote a shared memory)."""

    status_code = 409
    error_type = "invalid_request_error"
    code = "conflict"


def admin_only(endpoint: Endpoint) -> Endpoint:
    async def guarded(request: Request) -> Response:
        services_of(request).auth.require_admin(header_dict(request.scope))
        return await endpoint(request)

    guarded.__name__ = endpoint.__name__
    return guarded


def _path_user(request: Request) -> str:
    """The ``{user}`` of the path, by the rules of a user id everywhere else."""
    try:
        return rq.identifier(str(request.path_params["user"]))
    except ValueError as exc:
        raise BadRequest(f"'user' {exc}", param="user") from None


async def users(request: Request) -> Response:
    query = parse_query(request, rq.TenantQuery)
    found = await services_of(request).memory.list_users(query.tenant)
    return json_response({"data": found, "total": len(found)})


async def user_memories(request: Request) -> Response:
    query = parse_query(request, rq.UserMemoriesQuery)
    page = await memory_page(
        services_of(request).memory,
        query.tenant,
        _path_user(request),
        query.q.strip(),
        limit=query.limit,
        offset=query.offset,
        category=query.category,
        scope="personal",
        include_disabled=query.include_disabled,
        everyone=True,
        kind=query.kind,
    )
    return json_response(page)


async def add_user_memory(request: Request) -> Response:
    tenant = parse_query(request, rq.TenantRequiredQuery).tenant
    body = await parse_body(request, rq.MemoryCreate)
    try:
        created = await services_of(request).memory.add(tenant, _path_user(request), new_memory(body), actor=ACTOR)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    return json_response(created.to_json(), 201)


async def add_tenant_memory(request: Request) -> Response:
    """A shared or system memory for every user of a tenant."""
    body = await parse_body(request, rq.TenantMemoryCreate)
    item = replace(
        new_memory(body),
        scope=body.scope,
        source=body.source or ("system" if body.scope == "system" else "manual"),
        score=1.0 if body.score is None else body.score,
    )
    try:
        created = await services_of(request).memory.add(body.tenant, "", item, actor=ACTOR)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    return json_response(created.to_json(), 201)


async def get_memory(request: Request) -> Response:
    memory_id = request.path_params["id"]
    found = await services_of(request).memory.admin_get(memory_id)
    if found is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    return json_response(found.to_json())


async def patch_memory(request: Request) -> Response:
    memory_id = request.path_params["id"]
    changes = (await parse_body(request, rq.AdminMemoryPatch)).changes()
    try:
        updated = await services_of(request).memory.admin_update(memory_id, changes, actor=ACTOR)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    if updated is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    return json_response(updated.to_json())


async def delete_memory(request: Request) -> Response:
    memory_id = request.path_params["id"]
    if not await services_of(request).memory.admin_delete(memory_id, actor=ACTOR):
        raise NotFound(f"no memory {shown(memory_id)}")
    return no_content()


async def promote(request: Request) -> Response:
    memory_id = request.path_params["id"]
    found = await services_of(request).memory.admin_get(memory_id)
    if found is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    if found.scope != "personal":
        raise Conflict(f"memory {shown(memory_id)} is already {found.scope}")
    try:
        promoted = await services_of(request).memory.promote(memory_id, actor=ACTOR)
    except MemoryValidationError as exc:  # its text steers the assistant (memory_poisoning)
        raise invalid(exc) from exc
    if promoted is None:
        raise NotFound(f"no memory {shown(memory_id)}")
    return json_response(promoted.to_json())


async def stats(request: Request) -> Response:
    services = services_of(request)
    tenant = parse_query(request, rq.TenantQuery).tenant
    counts = await services.memory.admin_stats(tenant)
    return json_response({**counts.to_json(), "learning": await services.learning.stats(tenant)})


async def audit_log(request: Request) -> Response:
    query = parse_query(request, rq.TenantPageQuery)
    rows, total = await services_of(request).memory.audit_log(
        tenant=query.tenant, limit=query.limit, offset=query.offset
    )
    return json_response({"data": [r.to_json() for r in rows], "total": total})


async def learning_log(request: Request) -> Response:
    query = parse_query(request, rq.TenantPageQuery)
    rows, total = await services_of(request).learning.log_entries(
        tenant=query.tenant, limit=query.limit, offset=query.offset
    )
    return json_response({"data": rows, "total": total})


def _prompt_name(request: Request) -> PromptName:
    name = str(request.path_params["name"])
    for known in PROMPT_NAMES:
        if name == known:
            return known
    raise NotFound(f"no prompt {shown(name)} (prompts: {', '.join(PROMPT_NAMES)})")


async def get_prompt(request: Request) -> Response:
    name = _prompt_name(request)
    text, source = await services_of(request).learning.get_prompt(name)
    return json_response({"name": name, "prompt": text, "source": source})


async def put_prompt(request: Request) -> Response:
    name = _prompt_name(request)
    body = await parse_body(request, rq.PromptUpdate)
    if body.prompt is None:
        await services_of(request).learning.reset_prompt(name)
    else:
        await services_of(request).learning.put_prompt(name, body.prompt, actor=ACTOR)
    text, source = await services_of(request).learning.get_prompt(name)
    return json_response({"name": name, "prompt": text, "source": source})


_USER = {"user": {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH, "pattern": f"^{rq.ID_PATTERN}$"}}
_PROMPT = {"name": {"type": "string", "enum": list(PROMPT_NAMES)}}


async def reviews(request: Request) -> Response:
    query = parse_query(request, rq.TenantReviewQuery)
    return json_response(await review_page(services_of(request).memory, query.tenant, None, query))


async def reflections(request: Request) -> Response:
    query = parse_query(request, rq.ReflectionQuery)
    found, total = await services_of(request).memory.reflections(
        query.tenant, query.user, limit=query.limit, offset=query.offset, kind=query.kind
    )
    return json_response({"data": [reflection_json(r) for r in found], "total": total})


async def accept_review(request: Request) -> Response:
    memory, review_id = services_of(request).memory, request.path_params["id"]
    return json_response(await decided(memory, review_id, True, tenant=None, user_id=None, actor=ACTOR))


async def reject_review(request: Request) -> Response:
    memory, review_id = services_of(request).memory, request.path_params["id"]
    return json_response(await decided(memory, review_id, False, tenant=None, user_id=None, actor=ACTOR))


def admin_operations() -> list[Operation]:
    def op(method: str, path: str, endpoint: Endpoint, summary: str, **more: Any) -> Operation:
        return Operation(method, "/api/admin" + path, admin_only(endpoint), summary, "admin", **more)

    return [
        op("GET", "/users", users, "Users with personal memories", query=rq.TenantQuery, response=rs.UserPage),
        op(
            "GET",
            "/users/{user}/memories",
            user_memories,
            "A user's personal memories in one tenant",
            query=rq.UserMemoriesQuery,
            response=rs.MemoryPage,
            path_schemas=_USER,
        ),
        op(
            "POST",
            "/users/{user}/memories",
            add_user_memory,
            "Add a personal memory for a user",
            query=rq.TenantRequiredQuery,
            body=rq.MemoryCreate,
            status=201,
            response=rs.Memory,
            errors=(409, 429),
            path_schemas=_USER,
        ),
        op(
            "POST",
            "/memories",
            add_tenant_memory,
            "Add a shared or system memory for a tenant",
            body=rq.TenantMemoryCreate,
            status=201,
            response=rs.Memory,
        ),
        op("GET", "/memories/{id}", get_memory, "Any memory", response=rs.Memory),
        op(
            "PATCH",
            "/memories/{id}",
            patch_memory,
            "Change any memory",
            body=rq.AdminMemoryPatch,
            response=rs.Memory,
            errors=(409,),
        ),
        op("DELETE", "/memories/{id}", delete_memory, "Delete any memory", status=204),
        op("POST", "/memories/{id}/promote", promote, "Personal to shared", response=rs.Memory, errors=(409,)),
        op(
            "GET",
            "/stats",
            stats,
            "Totals, per category and kind, learned per day",
            query=rq.TenantQuery,
            response=rs.AdminStats,
        ),
        op(
            "GET",
            "/audit-log",
            audit_log,
            "Every change, newest first",
            query=rq.TenantPageQuery,
            response=rs.AuditPage,
        ),
        op(
            "GET",
            "/learning-log",
            learning_log,
            "Every learning job, newest first",
            query=rq.TenantPageQuery,
            response=rs.LearningLogPage,
        ),
        op(
            "GET",
            "/reviews",
            reviews,
            "Supersedes waiting for review (learning.review: queue), oldest first, with both memories",
            query=rq.TenantReviewQuery,
            response=rs.ReviewPage,
        ),
        op("POST", "/reviews/{id}/accept", accept_review, "Accept a supersede", response=rs.Review, errors=(409,)),
        op("POST", "/reviews/{id}/reject", reject_review, "Reject a supersede", response=rs.Review, errors=(409,)),
        op(
            "GET",
            "/reflections",
            reflections,
            "Reflection reports per user and per tenant (user empty), newest first",
            query=rq.ReflectionQuery,
            response=rs.ReflectionPage,
        ),
        op("GET", "/prompts/{name}", get_prompt, "A learning prompt", response=rs.Prompt, path_schemas=_PROMPT),
        op(
            "PUT",
            "/prompts/{name}",
            put_prompt,
            "Replace a learning prompt, or reset it with null",
            body=rq.PromptUpdate,
            response=rs.Prompt,
            path_schemas=_PROMPT,
        ),
    ]


def admin_routes() -> list[BaseRoute]:
    return routes_of(admin_operations())
