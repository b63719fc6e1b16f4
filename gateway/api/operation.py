"""One API operation: method, path, endpoint and the models it reads and answers.

The routes and the OpenAPI document (``gateway.api.openapi``) are both made from the same lists of
operations, so the document cannot name a model that the endpoint does not validate with.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

Endpoint = Callable[[Request], Awaitable[Response]]
Security = Literal["user", "admin"]


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    path: str
    endpoint: Endpoint
    summary: str
    security: Security
    query: type[BaseModel] | None = None
    body: type[BaseModel] | None = None
    status: int = 200
    # None: no body (204)
    response: type[BaseModel] | None = None
    # other media types the answer may have, each with its JSON Schema
    alternatives: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    # error statuses beyond those implied (400, 401, 404 on a path with an id, 413 with a body)
    errors: tuple[int, ...] = ()
    # JSON Schemas of path parameters that are not just any string
    path_schemas: Mapping[str, dict[str, Any]] = field(default_factory=dict)


def routes_of(operations: Iterable[Operation]) -> list[BaseRoute]:
    """One route per path, in the order paths first appear, answering each of its methods.

    One route per path (not per method) makes a 405's ``Allow`` header list every method
    of the path, as RFC 9110 §15.5.6 asks."""
    by_path: dict[str, dict[str, Endpoint]] = {}
    for op in operations:
        by_path.setdefault(op.path, {})[op.method] = op.endpoint
    return [Route(path, _dispatch(methods), methods=list(methods)) for path, methods in by_path.items()]


def _dispatch(methods: dict[str, Endpoint]) -> Endpoint:
    async def dispatch(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        return await methods[method](request)

    return dispatch
