"""Hostile or unusual request input gets a 400 in OpenAI's shape, never a 500 (issue 7 items 4, 8, 9)."""

from __future__ import annotations

import httpx
import orjson
import pytest

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

AUTH = {"authorization": "Bearer sk-app"}


def nested(depth: int) -> bytes:
    return b"[" * (depth - 1) + b"{}" + b"]" * (depth - 1)


def chat_body(extra: bytes) -> bytes:
    return b'{"model":"m","messages":[{"role":"user","content":"hi"}],"x_vendor":' + extra + b"}"


@pytest.mark.parametrize("depth", [130, 255, 300, 1000])
def test_over_deep_json_is_a_400_for_chat_and_the_memory_api(
    gateway: GatewayFactory, fake: FakeUpstream, depth: int
) -> None:
    with gateway() as url:
        chat = httpx.post(url + "/v1/chat/completions", content=chat_body(nested(depth)), headers=AUTH)
        api = httpx.post(
            url + "/api/memories",
            content=b'{"title":"t","content":"c","category":"user_preference","x":' + nested(depth) + b"}",
            headers={**AUTH, "x-memorelay-user": "alice"},
        )
    for r in (chat, api):
        assert r.status_code == 400, r.text
        assert "nests deeper than 128" in r.json()["error"]["message"]
    assert fake.chats() == []


def test_json_at_the_depth_limit_is_relayed(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway() as url:
        r = httpx.post(url + "/v1/chat/completions", content=chat_body(nested(126)), headers=AUTH)
    assert r.status_code == 200, r.text
    assert fake.last_chat().body == orjson.loads(chat_body(nested(126)))
