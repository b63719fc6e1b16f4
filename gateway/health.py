"""Liveness, readiness and metrics endpoints."""

from __future__ import annotations

import hmac

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gateway.auth import bearer_token
from gateway.errors import Unauthorized, error_bytes
from gateway.services import Services


async def healthz(request: Request) -> Response:
    return Response(b'{"status":"ok"}', media_type="application/json")


async def readyz(request: Request) -> Response:
    services: Services = request.app.state.services
    started = bool(getattr(request.app.state, "started", False))
    checks = {
        "store": services.memory.ready,
        # reachable: answered any HTTP request lately (cached a few seconds, short timeout)
        "upstream": started and await services.upstreams.default.reachable(),
        "started": started,
    }
    ready = all(checks.values())
    # still loading in the background; the gateway already serves meanwhile (injection fails
    # open on its timeout, learning jobs wait for the scrubber), so these do not gate readiness
    learning = services.learning_service
    warming = [
        name
        for name, done in (
            ("embedder", services.memory.warm),
            ("pii_scrubber", learning is None or learning.scrubber_loaded),
        )
        if not done
    ]
    body = orjson.dumps({"status": "ready" if ready else "not_ready", "checks": checks, "warming": warming})
    return Response(body, 200 if ready else 503, media_type="application/json")


async def metrics(request: Request) -> Response:
    """Prometheus text; behind ``Authorization: Bearer <server.metrics_token>`` when one is set."""
    services: Services = request.app.state.services
    token = services.config.server.metrics_token.get_secret_value()
    if token:
        # read like the gateway and admin keys: any case of the scheme, constant-time compare,
        # and a wrong token (not a missing one) counts towards the wrong-key limit
        given = bearer_token(request.headers.get("authorization"))
        if given is not None:
            services.auth.throttle.check()
        if given is None or not hmac.compare_digest(given.encode(), token.encode()):
            if given is not None:
                services.auth.throttle.failed("metrics token")
            refused = Unauthorized("GET /metrics needs 'Authorization: Bearer <server.metrics_token>'")
            headers = {"www-authenticate": 'Bearer realm="metrics"'}
            return Response(error_bytes(refused), 401, headers=headers, media_type="application/json")
    return Response(services.metrics.render(), media_type=services.metrics.content_type)
