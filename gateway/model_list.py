"""``GET /v1/models``: the upstream's models plus the configured aliases."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway.errors import GatewayError
from gateway.http.asgi import header_dict
from gateway.services import Services
from gateway.upstreams.headers import request_headers

log = logging.getLogger("memorelay.models")


async def list_models(request: Request) -> Response:
    services: Services = request.app.state.services
    headers = header_dict(request.scope)
    caller = services.auth.caller(headers)
    data: list[dict[str, Any]] = []
    try:
        forwarded = request_headers(
            headers, caller.upstream_authorization, identity_encoding=True, drop=caller.issued_headers
        )
        response = await services.upstreams.default.open_relay("GET", "/models", b"", forwarded, b"")
        raw = await response.read()
        if response.is_success:
            upstream = orjson.loads(raw).get("data")
            data = [m for m in upstream if isinstance(m, dict)] if isinstance(upstream, list) else []
        elif not services.upstreams.aliases:
            return Response(raw, response.status_code, media_type="application/json")
    except (GatewayError, orjson.JSONDecodeError, AttributeError) as exc:
        if not services.upstreams.aliases:
            raise
        log.warning("upstream model list unavailable: %s", exc)
    known = {m.get("id") for m in data}
    for name in services.upstreams.aliases:
        if name not in known:
            data.append({"id": name, "object": "model", "created": 0, "owned_by": "memorelay"})
    return Response(orjson.dumps({"object": "list", "data": data}), media_type="application/json")
