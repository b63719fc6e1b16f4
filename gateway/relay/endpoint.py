"""The verbatim relay endpoint: a path the chain does not run on, forwarded as sent.

Two routes use it. Any other ``/v1/*`` path goes to the default upstream; every method and
sub-path of ``/v1/messages/`` (``count_tokens``, ``batches`` …) goes to ``upstreams.anthropic``,
never to the default one. Both pass the same path guard (``gateway.relay.paths``), are
forwarded still encoded, and refuse the account-level paths ``gateway.relay.policy`` names
when tenants share the operator's key. What differs is a ``RelayRoute``: the upstream, how
the caller is authenticated and its credential forwarded, and the shape of the gateway's
own errors (Anthropic's on the Messages paths).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from gateway.auth import Caller
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
from gateway.metrics import Metrics
from gateway.relay.paths import relay_path
from gateway.relay.policy import check_caller_relay
from gateway.upstreams.headers import response_headers
from gateway.upstreams.openai_compatible import OpenAICompatibleUpstream

ROUTE = "/v1/*"
COUNT_TOKENS_PATH = "/v1/messages/count_tokens"
SUB_PATHS_ROUTE = "/v1/messages/{path:path}"
_OTHER_MESSAGES = "/v1/messages/*"  # metrics label of the other sub-paths (ids in them would explode its cardinality)


@dataclass(frozen=True, slots=True)
class RelayRoute:
    """What one relayed upstream needs: see the module docstring."""

    # ``upstreams.<name>``: the relay policy's and the config's name of the upstream
    name: str
    upstream: OpenAICompatibleUpstream
    caller_of: Callable[[Mapping[str, str]], Caller]
    forwarded: Callable[[Mapping[str, str], Caller], list[tuple[str, str]]]
    error_bytes: Callable[[GatewayError], bytes]
    # ``upstreams.<name>.relay``: the paths the operator opted in for a shared account
    opted_in: Iterable[str]
    # the path prefix the upstream's base URL lacks (the Anthropic base ends before /v1)
    prefix: str = ""
    # whether the upstream's body arrives decompressed (then its content-encoding is dropped)
    decoded: bool = False
    label: Callable[[str], str] = lambda path: ROUTE
    json_paths: frozenset[str] = frozenset()


def messages_label(path: str) -> str:
    return COUNT_TOKENS_PATH if path == COUNT_TOKENS_PATH else _OTHER_MESSAGES


class RelayEndpoint:
    """Pure ASGI: relays one request to ``route.upstream`` and streams the answer back."""

    def __init__(self, route: RelayRoute, metrics: Metrics, max_body_bytes: int) -> None:
        self.route = route
        self.metrics = metrics
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.route
        label = route.label(scope["path"])
        try:
            headers = header_dict(scope)
            caller = route.caller_of(headers)
            body = await read_body(receive, self.max_body_bytes, headers)
            path = route.prefix + relay_path(scope["path"], scope.get("raw_path"), "/v1")
            if scope["path"] in route.json_paths:
                require_json(headers, body)
            check_caller_relay(scope["method"], scope["path"], caller, route.name, route.opted_in)
            forwarded = route.forwarded(headers, caller)
            response = await route.upstream.open_relay(scope["method"], path, scope["query_string"], forwarded, body)
        except ClientDisconnected:
            return
        except GatewayError as exc:
            self.metrics.requests.labels(label, exc.status_code).inc()
            await send_bytes(send, exc.status_code, route.error_bytes(exc), [JSON_HEADER])
            return
        self.metrics.requests.labels(label, response.status_code).inc()
        out = encode_headers(response_headers(response.header_items(), decoded=route.decoded))
        await relay_stream(response.status_code, out, response.chunks(), send, receive)
