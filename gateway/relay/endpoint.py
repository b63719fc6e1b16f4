"""Any other ``/v1/*`` path, relayed verbatim to the default upstream (SPEC §2), except the
account-level ones ``gateway.relay.policy`` refuses when tenants share the operator's key.

``/v1/messages/*`` is not one: it goes to ``upstreams.anthropic`` (``gateway.dialects.anthropic_relay``).
"""

from __future__ import annotations

from gateway.errors import GatewayError
from gateway.http.asgi import (
    ClientDisconnected,
    Receive,
    Scope,
    Send,
    encode_headers,
    header_dict,
    read_body,
    send_error,
)
from gateway.http.streaming import relay_stream
from gateway.relay.paths import relay_path
from gateway.relay.policy import check_caller_relay
from gateway.services import Services
from gateway.upstreams.headers import request_headers, response_headers

ROUTE = "/v1/*"


class PassthroughEndpoint:
    def __init__(self, services: Services) -> None:
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        services = self.services
        upstream = services.upstreams.default
        try:
            headers = header_dict(scope)
            caller = services.auth.caller(headers)
            body = await read_body(receive, services.config.server.max_body_bytes, headers)
            path = relay_path(scope["path"], scope.get("raw_path"), "/v1")
            relay = services.config.upstreams.default.relay
            check_caller_relay(scope["method"], scope["path"], caller, "default", relay)
            forwarded = request_headers(
                headers, caller.upstream_authorization, identity_encoding=False, drop=caller.issued_headers
            )
            response = await upstream.open_relay(scope["method"], path, scope["query_string"], forwarded, body)
        except ClientDisconnected:
            return
        except GatewayError as exc:
            services.metrics.requests.labels(ROUTE, exc.status_code).inc()
            await send_error(send, exc)
            return
        services.metrics.requests.labels(ROUTE, response.status_code).inc()
        out = encode_headers(response_headers(response.header_items(), decoded=False))
        await relay_stream(response.status_code, out, response.chunks(), send, receive)
