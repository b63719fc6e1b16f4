"""The operator API, ``/api/admin/…`` (SPEC §6), behind ``auth.admin_key``.

Users and their memories, shared/system memories, promote, stats, audit log,
learning log and the editable learning prompts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gateway.api.common import (
    MAX_PAGE,
    bool_param,
    choice_param,
    int_param,
    json_body,
    json_response,
    memory_page,
    no_content,
    services_of,
)
from gateway.api.memories import invalid
from gateway.asgi import header_dict
from gateway.errors import BadRequest, NotFound
from gateway.learning.prompts import PROMPT_NAMES, PromptName
from gateway.memory import CATEGORIES, MemoryValidationError
from gateway.memory_export import new_memory

Endpoint = Callable[[Request], Awaitable[Response]]
ACTOR = "admin"
_MAX_PROMPT = 20_000


def admin_only(endpoint: Endpoint) -> Endpoint:
    async def guarded(request: Request) -> Response:
        services_of(request).auth.require_admin(header_dict(request.scope))
        return await endpoint(request)

    guarded.__name__ = endpoint.__name__
    return guarded


def _tenant(request: Request, required: bool = False) -> str | None:
    tenant = request.query_params.get("tenant") or None
    if required and tenant is None:
        raise BadRequest("'tenant' query parameter is required", param="tenant")
    return tenant


def _page(request: Request) -> tuple[int, int]:
    p = request.query_params
    return int_param(p, "limit", 50, 1, MAX_PAGE), int_param(p, "offset", 0, 0, 10**9)


async def users(request: Request) -> Response:
    found = await services_of(request).memory.list_users(_tenant(request))
    return json_response({"data": found, "total": len(found)})


async def user_memories(request: Request) -> Response:
    tenant = _tenant(request, required=True)
    assert tenant is not None
    user = request.path_params["user"]
    limit, offset = _page(request)
    p = request.query_params
    memory = services_of(request).memory
    category = choice_param(p, "category", CATEGORIES)
    include_disabled = bool_param(p, "include_disabled")
    page = await memory_page(
        memory,
        tenant,
        user,
        (p.get("q") or "").strip(),
        limit=limit,
        offset=offset,
        category=category,
        scope="personal",
        include_disabled=include_disabled,
    )
    return json_response(page)


async def add_user_memory(request: Request) -> Response:
    tenant = _tenant(request, required=True)
    assert tenant is not None
    try:
        item = new_memory(
            await json_body(request),
            allowed=("title", "content", "category", "subcategory", "tags"),
        )
        created = await services_of(request).memory.add(tenant, request.path_params["user"], item, actor=ACTOR)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    return json_response(created.to_json(), 201)


async def add_tenant_memory(request: Request) -> Response:
    """A shared or system memory for every user of a tenant."""
    body = await json_body(request)
    tenant = body.pop("tenant", None)
    if not isinstance(tenant, str) or not tenant:
        raise BadRequest("'tenant' is required", param="tenant")
    scope = body.get("scope", "shared")
    if scope not in ("shared", "system"):
        raise BadRequest("'scope' must be shared or system", param="scope")
    body["scope"] = scope
    body.setdefault("source", "system" if scope == "system" else "manual")
    try:
        item = new_memory(
            body,
            allowed=(
                "title",
                "content",
                "category",
                "subcategory",
                "tags",
                "scope",
                "source",
                "score",
            ),
        )
        created = await services_of(request).memory.add(tenant, "", item, actor=ACTOR)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    return json_response(created.to_json(), 201)


async def get_memory(request: Request) -> Response:
    found = await services_of(request).memory.admin_get(request.path_params["id"])
    if found is None:
        raise NotFound(f"no memory {request.path_params['id']!r}")
    return json_response(found.to_json())


async def patch_memory(request: Request) -> Response:
    changes = await json_body(request)
    try:
        updated = await services_of(request).memory.admin_update(request.path_params["id"], changes, actor=ACTOR)
    except MemoryValidationError as exc:
        raise invalid(exc) from exc
    if updated is None:
        raise NotFound(f"no memory {request.path_params['id']!r}")
    return json_response(updated.to_json())


async def delete_memory(request: Request) -> Response:
    if not await services_of(request).memory.admin_delete(request.path_params["id"], actor=ACTOR):
        raise NotFound(f"no memory {request.path_params['id']!r}")
    return no_content()


async def promote(request: Request) -> Response:
    memory_id = request.path_params["id"]
    found = await services_of(request).memory.admin_get(memory_id)
    if found is None:
        raise NotFound(f"no memory {memory_id!r}")
    if found.scope != "personal":
        raise BadRequest(f"memory {memory_id!r} is already {found.scope}")
    promoted = await services_of(request).memory.promote(memory_id, actor=ACTOR)
    if promoted is None:
        raise NotFound(f"no memory {memory_id!r}")
    return json_response(promoted.to_json())


async def stats(request: Request) -> Response:
    services = services_of(request)
    data = await services.memory.admin_stats(_tenant(request))
    data["learning"] = await services.learning.stats(_tenant(request))
    return json_response(data)


async def audit_log(request: Request) -> Response:
    limit, offset = _page(request)
    rows, total = await services_of(request).memory.audit_log(tenant=_tenant(request), limit=limit, offset=offset)
    return json_response({"data": rows, "total": total})


async def learning_log(request: Request) -> Response:
    limit, offset = _page(request)
    rows, total = await services_of(request).learning.log_entries(tenant=_tenant(request), limit=limit, offset=offset)
    return json_response({"data": rows, "total": total})


def _prompt_name(request: Request) -> PromptName:
    name = str(request.path_params["name"])
    for known in PROMPT_NAMES:
        if name == known:
            return known
    raise NotFound(f"no prompt {name!r} (prompts: {', '.join(PROMPT_NAMES)})")


async def get_prompt(request: Request) -> Response:
    name = _prompt_name(request)
    text, source = await services_of(request).learning.get_prompt(name)
    return json_response({"name": name, "prompt": text, "source": source})


async def put_prompt(request: Request) -> Response:
    name = _prompt_name(request)
    body = await json_body(request)
    text = body.get("prompt")
    if text is None:
        await services_of(request).learning.reset_prompt(name)
    elif not isinstance(text, str) or not text.strip() or len(text) > _MAX_PROMPT:
        raise BadRequest(
            f"'prompt' must be a non-empty string of at most {_MAX_PROMPT} characters",
            param="prompt",
        )
    elif "{conversation}" not in text:
        raise BadRequest("'prompt' must contain the {conversation} placeholder", param="prompt")
    else:
        await services_of(request).learning.put_prompt(name, text, actor=ACTOR)
    text, source = await services_of(request).learning.get_prompt(name)
    return json_response({"name": name, "prompt": text, "source": source})


def admin_routes() -> list[BaseRoute]:
    def route(path: str, endpoint: Endpoint, method: str) -> Route:
        return Route("/api/admin" + path, admin_only(endpoint), methods=[method])

    return [
        route("/users", users, "GET"),
        route("/users/{user}/memories", user_memories, "GET"),
        route("/users/{user}/memories", add_user_memory, "POST"),
        route("/memories", add_tenant_memory, "POST"),
        route("/memories/{id}", get_memory, "GET"),
        route("/memories/{id}", patch_memory, "PATCH"),
        route("/memories/{id}", delete_memory, "DELETE"),
        route("/memories/{id}/promote", promote, "POST"),
        route("/stats", stats, "GET"),
        route("/audit-log", audit_log, "GET"),
        route("/learning-log", learning_log, "GET"),
        route("/prompts/{name}", get_prompt, "GET"),
        route("/prompts/{name}", put_prompt, "PUT"),
    ]
