"""A /v1/messages stream the upstream breaks off ends with Anthropic's own error event, which
the anthropic SDK raises as an API error rather than a transport error."""

from __future__ import annotations

from collections.abc import Iterator

import anthropic
import openai
import pytest

from tests.conftest import GatewayFactory
from tests.fault_upstream import FaultUpstream


@pytest.fixture
def broken() -> Iterator[str]:
    upstream = FaultUpstream(fault="truncate")
    with upstream.serve() as url:
        yield url


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
