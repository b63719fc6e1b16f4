"""Minting console links: ``POST /api/console-links`` (the app, for one of its users) and
``POST /api/admin/console-links`` (the operator, for any tenant and user)."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response

from gateway.api.common import caller_identity, json_body, json_response, services_of
from gateway.asgi import header_dict
from gateway.config import ConsoleConfig
from gateway.console.links import LinkSigner
from gateway.errors import BadRequest
from gateway.identity import MAX_ID_LENGTH

OPEN_PATH = "/me/open"


class LinkMinter:
    def __init__(self, config: ConsoleConfig, signer: LinkSigner) -> None:
        self.public_url = config.public_url
        self.signer = signer

    def _link(self, request: Request, tenant: str, user: str) -> Response:
        token, expires = self.signer.mint(tenant, user)
        base = self.public_url or f"{request.url.scheme}://{request.url.netloc}"
        expires_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(expires))
        return json_response({"url": f"{base}{OPEN_PATH}?token={token}", "expires_at": expires_at}, 201)

    async def for_caller(self, request: Request) -> Response:
        """The app's own credential and ``X-Memorelay-User``, as for chat."""
        tenant, user = caller_identity(request)
        return self._link(request, tenant, user)

    async def for_admin(self, request: Request) -> Response:
        services_of(request).auth.require_admin(header_dict(request.scope))
        body = await json_body(request)
        values = []
        for name in ("tenant", "user"):
            value = body.get(name)
            if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_LENGTH:
                raise BadRequest(f"'{name}' is required: a non-empty string", param=name)
            values.append(value.strip())
        return self._link(request, values[0], values[1])
