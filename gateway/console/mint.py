"""Minting console links: the endpoints of ``POST /api/console-links`` (the app, for one of its
users) and ``POST /api/admin/console-links`` (the operator, for any tenant and user), whose
operations ``gateway.api.console_links`` declares."""

from __future__ import annotations

import ipaddress
import time

from starlette.requests import Request
from starlette.responses import Response

from gateway.api import request_models as rq
from gateway.api.common import caller_identity, json_response, services_of
from gateway.api.validation import parse_body
from gateway.config import ConsoleConfig
from gateway.console.links import Links
from gateway.errors import ServiceUnavailable
from gateway.http.asgi import header_dict

OPEN_PATH = "/me/open"


class LinkMinter:
    def __init__(self, config: ConsoleConfig, links: Links, listen_host: str = "127.0.0.1") -> None:
        self.public_url = config.public_url
        self.links = links
        # server.host: on a wildcard address the socket's own address is no public one
        self.listen_host = listen_host

    async def _link(self, request: Request, tenant: str, user: str) -> Response:
        if not self.public_url and is_wildcard(self.listen_host):
            raise ServiceUnavailable(
                f"set console.public_url: this server listens on every address ({self.listen_host}), "
                "so it cannot tell which one users reach"
            )
        token, expires = await self.links.mint(tenant, user)
        base = self.public_url or server_base(request)
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


def is_wildcard(host: str) -> bool:
    """Whether ``host`` (server.host) means every address (0.0.0.0, ::, or empty)."""
    try:
        return not host or ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False  # a name: it resolves to the addresses it is reached at


def server_base(request: Request) -> str:
    """The address this server listens on (never the request's ``Host``, which the caller
    chooses: a link minted from it could send a user's token to any host)."""
    server = request.scope.get("server")
    if not server:
        raise ServiceUnavailable("set console.public_url: this server's own address is unknown")
    host, port = server
    host = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(request.url.scheme)
    return f"{request.url.scheme}://{host}" + ("" if port in (None, default) else f":{port}")
