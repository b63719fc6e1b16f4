"""The console-link operations: ``POST /api/console-links`` (the app, for one of its users) and
``POST /api/admin/console-links`` (the operator, for any tenant and user).

Declared here, beside the other API operations, so ``/openapi.json`` documents them without
knowing the console; the console's routes hand in the endpoints of its ``LinkMinter`` that
answer them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from gateway.api import request_models as rq
from gateway.api import response_models as rs
from gateway.api.operation import Endpoint, Operation


async def _declared_only(request: Request) -> Response:
    raise RuntimeError("an operation declared for /openapi.json only")


def console_link_operations(
    for_caller: Endpoint = _declared_only, for_any: Endpoint = _declared_only
) -> list[Operation]:
    """The routes of both endpoints and their part of ``/openapi.json`` (which needs only the
    declarations, so it names no endpoint)."""
    return [
        Operation(
            "POST",
            "/api/console-links",
            for_caller,
            "A link that opens the /me/ page of the caller's user (X-Memorelay-User)",
            "user",
            status=201,
            response=rs.ConsoleLink,
        ),
        Operation(
            "POST",
            "/api/admin/console-links",
            for_any,
            "A link that opens the /me/ page of any tenant's user",
            "admin",
            body=rq.ConsoleLinkFor,
            status=201,
            response=rs.ConsoleLink,
        ),
    ]
