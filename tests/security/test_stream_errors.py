"""A /v1/messages stream the upstream breaks off ends with Anthropic's own error event, which
the anthropic SDK raises as an API error rather than a transport error."""

from __future__ import annotations

from collections.abc import Iterator

import anthropic
import httpx
import openai
import pytest

from gateway.http.streaming import BROKEN_SSE
from tests.conftest import GatewayFactory
from tests.fault_upstream import FaultUpstream


@pytest.fixture
def broken(request: pytest.FixtureRequest) -> Iterator[str]:
    # cut between events (truncate), or halfway through one (truncate_mid_event)
    upstream = FaultUpstream(fault=getattr(request, "param", "truncate"))
    with upstream.serve() as url:
        yield url


@pytest.mark.parametrize("broken", ["truncate", "truncate_mid_event"], indirect=True)
def test_the_anthropic_sdk_raises_an_api_error(gateway: GatewayFactory, broken: str) -> None:
    upstreams = {"anthropic": {"api_base": broken.removesuffix("/v1")}}
    with gateway(upstreams=upstreams) as url:
        c = anthropic.Anthropic(base_url=url, api_key="sk-ant", max_retries=0)
        with pytest.raises(anthropic.APIStatusError) as caught:
            with c.messages.stream(model="claude", max_tokens=10, messages=[{"role": "user", "content": "hi"}]) as s:
                for _ in s:
                    pass
    assert caught.value.body == {
        "type": "error",
        "error": {"type": "api_error", "message": "the upstream stream broke off before its end"},
    }


def test_the_openai_sdk_still_gets_an_openai_error(gateway: GatewayFactory, broken: str) -> None:
    with gateway(upstreams={"default": {"api_base": broken}}) as url:
        c = openai.OpenAI(base_url=url + "/v1", api_key="sk", max_retries=0)
        with pytest.raises(openai.APIError) as caught:
            for _ in c.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True):
                pass
    assert "broke off" in caught.value.message


@pytest.mark.parametrize("broken", ["truncate_mid_event"], indirect=True)
def test_the_error_event_stands_alone_after_a_half_event(gateway: GatewayFactory, broken: str) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    received = b""
    with gateway(upstreams={"default": {"api_base": broken}}) as url:
        auth = {"authorization": "Bearer sk"}
        with httpx.stream("POST", url + "/v1/chat/completions", json=body, headers=auth, timeout=30) as r:
            with pytest.raises(httpx.TransportError):  # the response is still never finished
                for part in r.iter_raw():
                    received += part
    half, _, rest = received.rpartition(b"event: content_block_delta\ndata: ")[2].partition(b"\n")
    assert half and not half.endswith(b"}")  # the upstream's half event, as it was sent ...
    assert rest == b"event: ping\n\n" + BROKEN_SSE  # ... ended, and then the error on its own
