"""Minting console links: ``POST /api/console-links`` (the app, for one of its users) and
``POST /api/admin/console-links`` (the operator, for any tenant and user). Declared as API
operations, so ``/openapi.json`` documents them with the models that validate them."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response

from gateway.api import request_models as rq
from gateway.api import response_models as rs
from gateway.api.common import caller_identity, json_response, services_of
from gateway.api.operation import Operation
from gateway.api.validation import parse_body
from gateway.asgi import header_dict
from gateway.config import ConsoleConfig
from gateway.console.links import Links

OPEN_PATH = "/me/open"


class LinkMinter:
    def __init__(self, config: ConsoleConfig, links: Links) -> None:
        self.public_url = config.public_url
        self.links = links

    async def _link(self, request: Request, tenant: str, user: str) -> Response:
        token, expires = await self.links.mint(tenant, user)
        base = self.public_url or f"{request.url.scheme}://{request.url.netloc}"
        expires_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(expires))
        return json_response({"url": f"{base}{OPEN_PATH}?token={token}", "expires_at": expires_at}, 201)

    async def console_link(self, request: Request) -> Response:
        """The app's own credential and ``X-Memorelay-User``, as for chat."""
        tenant, user = caller_identity(request)
        return await self._link(request, tenant, user)

    async def console_link_for(self, request: Request) -> Response:
        services_of(request).auth.require_admin(header_dict(request.scope))
        body = await parse_body(request, rq.ConsoleLinkFor)
        return await self._link(request, body.tenant, body.user)


async def _declared_only(request: Request) -> Response:
    raise RuntimeError("an operation declared for /openapi.json only")


def console_link_operations(minter: LinkMinter | None) -> list[Operation]:
    """The routes of both endpoints and their part of ``/openapi.json`` (``gateway.api.openapi``,
    which needs only the declarations: ``minter`` None)."""
    return [
        Operation(
            "POST",
            "/api/console-links",
            _declared_only if minter is None else minter.console_link,
            "A link that opens the /me/ page of the caller's user (X-Memorelay-User)",
            "user",
            status=201,
            response=rs.ConsoleLink,
        ),
        Operation(
            "POST",
            "/api/admin/console-links",
            _declared_only if minter is None else minter.console_link_for,
            "A link that opens the /me/ page of any tenant's user",
            "admin",
            body=rq.ConsoleLinkFor,
            status=201,
            response=rs.ConsoleLink,
        ),
    ]
