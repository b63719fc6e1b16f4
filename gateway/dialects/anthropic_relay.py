"""``/v1/messages/*`` (``count_tokens``, ``batches`` …): relayed verbatim to ``upstreams.anthropic`` (no chain).

Every method and sub-path of ``/v1/messages/`` goes to the Anthropic upstream, never to the
default OpenAI one. The path passes the same guard as pass-through (``gateway.relay.paths``) and is
forwarded still encoded; credentials follow the Messages route; the gateway's own errors use
Anthropic's shape.
"""

from __future__ import annotations

from gateway.dialects.anthropic_auth import AnthropicCallers
from gateway.dialects.anthropic_messages import anthropic_error_bytes
from gateway.errors import GatewayError
from gateway.http.asgi import (
    JSON_HEADER,
    ClientDisconnected,
    Receive,
    Scope,
    Send,
    encode_headers,
    header_dict,
    read_body,
    require_json,
    send_bytes,
)
from gateway.http.streaming import relay_stream
from gateway.relay.paths import relay_path
from gateway.relay.policy import check_caller_relay
from gateway.services import Services
from gateway.upstreams.headers import anthropic_headers, response_headers

COUNT_TOKENS_PATH = "/v1/messages/count_tokens"
SUB_PATHS_ROUTE = "/v1/messages/{path:path}"
_OTHER = "/v1/messages/*"  # metrics label of the other sub-paths (ids in them would explode its cardinality)


class AnthropicRelayEndpoint:
    def __init__(self, services: Services, callers: AnthropicCallers) -> None:
        self.services = services
        self.callers = callers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        services = self.services
        path = scope["path"]
        label = COUNT_TOKENS_PATH if path == COUNT_TOKENS_PATH else _OTHER
        try:
            headers = header_dict(scope)
            caller = self.callers.caller(headers)
            body = await read_body(receive, services.config.server.max_body_bytes, headers)
            path = "/v1" + relay_path(scope["path"], scope.get("raw_path"), "/v1")
            if scope["path"] == COUNT_TOKENS_PATH:
                require_json(headers, body)
            relay = services.config.upstreams.anthropic.relay
            check_caller_relay(scope["method"], scope["path"], caller, "anthropic", relay)
            forwarded = anthropic_headers(headers, caller.upstream_authorization, caller.issued_headers)
            response = await services.upstreams.anthropic.open_relay(
                scope["method"], path, scope["query_string"], forwarded, body
            )
        except ClientDisconnected:
            return
        except GatewayError as exc:
            services.metrics.requests.labels(label, exc.status_code).inc()
            await send_bytes(send, exc.status_code, anthropic_error_bytes(exc), [JSON_HEADER])
            return
        services.metrics.requests.labels(label, response.status_code).inc()
        out = encode_headers(response_headers(response.header_items(), decoded=True))
        await relay_stream(response.status_code, out, response.chunks(), send, receive)
