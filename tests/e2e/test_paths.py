"""Relayed /v1/* paths never escape ``api_base``, checked on the wire."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from tests.conftest import GatewayFactory
from tests.fault_upstream import FaultUpstream, raw_http

ESCAPES = [
    "/v1/../internal/admin",
    "/v1/./models",
    "/v1/files/../../internal",
    "/v1/%2e%2e/internal/admin",
    "/v1/%2E%2e/internal",
    "/v1/.%2e/internal",
    "/v1/..%2finternal/admin",
    "/v1/files%2F..%2F..%2Finternal",
    "/v1/files%2finternal",
    "/v1/..\\internal",
    "/v1/files%5c..%5cinternal",
    "/v1/files%3Fx=1",
    "/v1/files%23frag",
    "/v1/%252e%252e/internal",
    "/v1/files/%zz",
    "/v1/files/..;/internal",
]


@pytest.fixture
def fault() -> Iterator[tuple[FaultUpstream, str]]:
    upstream = FaultUpstream()
    with upstream.serve() as url:
        yield upstream, url


def _get(url: str, target: str) -> tuple[int, bytes]:
    request = f"GET {target} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer sk-caller\r\nconnection: close\r\n\r\n"
    reply = raw_http(url, request.encode())
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


@pytest.mark.parametrize("target", ESCAPES)
def test_escaping_paths_are_refused_and_never_reach_the_upstream(
    gateway: GatewayFactory, fault: tuple[FaultUpstream, str], target: str
) -> None:
    upstream, upstream_url = fault
    with gateway(upstreams={"default": {"api_base": upstream_url, "api_key": "sk-operator"}}) as url:
        status, body = _get(url, target)
    assert upstream.requests == []
    assert status == 400, body
    error = orjson.loads(body)["error"]
    assert error["type"] == "invalid_request_error" and error["code"] == "invalid_path"


def test_a_plain_path_and_query_go_out_byte_for_byte(gateway: GatewayFactory, fault: tuple[FaultUpstream, str]) -> None:
    upstream, upstream_url = fault
    # every caller shares the operator's key here, so the account-level path is opted in
    upstreams = {"default": {"api_base": upstream_url, "api_key": "sk-operator", "relay": ["/v1/files/*"]}}
    with gateway(upstreams=upstreams) as url:
        status, _ = _get(url, "/v1/files/file%20a%C3%A9/content?purpose=a%2Fb&x=%3F")
    assert status == 200
    assert [r.target for r in upstream.requests] == ["/v1/files/file%20a%C3%A9/content?purpose=a%2Fb&x=%3F"]
    assert upstream.requests[0].headers["authorization"] == "Bearer sk-operator"
