"""Which peers may say who the client is: uvicorn's proxy-header options from
``server.trusted_proxies``.

The wrong-key limit (``gateway.auth_throttle``) counts failures per client address, and HTTPS
links and cookies follow the request's scheme. Behind a reverse proxy both come from the
proxy's X-Forwarded-For / X-Forwarded-Proto, but only a proxy the operator listed may set them:
anyone else could send a new address with every guess. uvicorn trusts 127.0.0.1 (or
``FORWARDED_ALLOW_IPS``) by default, which lets any local process do that; with no proxy listed
memorelay reads no forwarded header at all."""

from __future__ import annotations

from typing import Any

from gateway.config import ServerConfig


def proxy_options(server: ServerConfig) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.Config``."""
    if not server.trusted_proxies:
        return {"proxy_headers": False, "forwarded_allow_ips": []}
    return {"proxy_headers": True, "forwarded_allow_ips": list(server.trusted_proxies)}
