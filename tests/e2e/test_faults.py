"""Upstream faults through the gateway, from a raw-socket upstream.

Every fault ends in a clear OpenAI-shaped 502/504, or, once the response has begun, in an
aborted stream the client cannot take for a finished one; never a hang or a traceback,
and a broken answer is never learned.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import learning, memories, wait_for
from tests.fault_upstream import Fault, FaultUpstream

MESSAGES: list[ChatCompletionMessageParam] = [
    {"role": "user", "content": "I prefer tabs over spaces. We use PostgreSQL 15 for everything."}
]
AUTH = {"authorization": "Bearer sk-app"}


@pytest.fixture
def fault() -> Iterator[tuple[FaultUpstream, str]]:
    upstream = FaultUpstream()
    with upstream.serve() as url:
        yield upstream, url


@pytest.fixture
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.WARNING)
    yield
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


def _config(upstream_url: str) -> dict[str, object]:
    return {
        "upstreams": {"default": {"api_base": upstream_url}},
        "server": {"upstream_timeout_s": 1, "connect_timeout_s": 1},
    }


def _chat(url: str, stream: bool, user: str = "alice") -> openai.OpenAI:
    return openai.OpenAI(
        base_url=url + "/v1", api_key="sk-app", max_retries=0, timeout=10, default_headers={"x-memorelay-user": user}
    )


BEFORE_HEADERS: list[tuple[Fault, int, str]] = [
    ("reset", 502, "upstream_unreachable"),
    ("stall", 504, "upstream_timeout"),
]


@pytest.mark.usefixtures("no_tracebacks")
@pytest.mark.parametrize(("kind", "status", "code"), BEFORE_HEADERS)
@pytest.mark.parametrize("route", ["chat", "chat-stream", "passthrough"])
def test_a_fault_before_the_headers_is_a_clear_502_or_504(
    gateway: GatewayFactory, fault: tuple[FaultUpstream, str], kind: Fault, status: int, code: str, route: str
) -> None:
    upstream, upstream_url = fault
    upstream.fault = kind
    body = {"model": "m", "messages": MESSAGES, "stream": route == "chat-stream"}
    path = "/v1/completions" if route == "passthrough" else "/v1/chat/completions"
    with gateway(**_config(upstream_url)) as url:
        started = time.monotonic()
        r = httpx.post(url + path, json=body, headers=AUTH, timeout=10)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code and r.json()["error"]["type"] == "upstream_error"
    assert time.monotonic() - started < 8
    assert len(upstream.requests) == 1


@pytest.mark.usefixtures("no_tracebacks")
def test_broken_chat_streams_raise_in_the_sdk_and_are_never_learned(
    gateway: GatewayFactory, fault: tuple[FaultUpstream, str]
) -> None:
    upstream, upstream_url = fault
    with gateway(filters=learning(model="heuristic"), **_config(upstream_url)) as url:
        broken: list[tuple[Fault, str, str]] = [("truncate", "alice", "partial answer"), ("stall_body", "carol", "")]
        for kind, user, text in broken:
            upstream.fault = kind
            received: list[str] = []
            with pytest.raises(openai.APIError, match="broke off"):
                for event in _chat(url, True, user).chat.completions.create(model="m", messages=MESSAGES, stream=True):
                    received.extend(c.delta.content or "" for c in event.choices)
            assert "".join(received) == text
        # garbage events are relayed as sent (the gateway is transparent) but yield nothing to learn
        upstream.fault = "garbage_sse"
        body = {"model": "m", "messages": MESSAGES, "stream": True}
        headers = {**AUTH, "x-memorelay-user": "dave"}
        with httpx.stream("POST", url + "/v1/chat/completions", json=body, headers=headers, timeout=10) as r:
            raw = r.read()
        assert r.status_code == 200 and raw.endswith(b"data: [DONE]\n\n") and b"{not json" in raw
        # a complete answer afterwards is learned: by then a broken one would have been too
        upstream.fault = "ok"
        _chat(url, False, user="bob").chat.completions.create(model="m", messages=MESSAGES)
        wait_for(lambda: memories(url, "bob"))
        assert [memories(url, user) for user in ("alice", "carol", "dave")] == [[], [], []]


@pytest.mark.usefixtures("no_tracebacks")
@pytest.mark.parametrize("stream", [False, True])
def test_a_cut_passthrough_body_is_aborted_not_finished(
    gateway: GatewayFactory, fault: tuple[FaultUpstream, str], stream: bool
) -> None:
    upstream, upstream_url = fault
    upstream.fault = "truncate"
    with gateway(**_config(upstream_url)) as url:
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.post(url + "/v1/completions", json={"model": "m", "stream": stream}, headers=AUTH, timeout=10)
        # the gateway still serves the next request on the same upstream
        upstream.fault = "ok"
        assert httpx.post(url + "/v1/completions", json={"model": "m"}, headers=AUTH, timeout=10).status_code == 200


@pytest.mark.usefixtures("no_tracebacks")
def test_a_truncated_plain_chat_body_is_a_502(gateway: GatewayFactory, fault: tuple[FaultUpstream, str]) -> None:
    upstream, upstream_url = fault
    upstream.fault = "truncate"
    with gateway(**_config(upstream_url)) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"model": "m", "messages": MESSAGES}, headers=AUTH)
    assert r.status_code == 502 and r.json()["error"]["code"] == "upstream_unreachable"
