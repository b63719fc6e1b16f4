"""Bodies of the model, memory and admin APIs must be declared JSON: a ``text/plain`` or form
post is what a web page can send cross-origin without a preflight, so it gets a 415."""

from __future__ import annotations

import anthropic
import httpx
import openai
import pytest

from tests.conftest import GatewayFactory
from tests.fake_upstream import FakeUpstream

CHAT = b'{"model": "m", "messages": [{"role": "user", "content": "I prefer tea."}]}'
POSTS = [
    ("/v1/chat/completions", CHAT),
    ("/v1/responses", b'{"model": "m", "input": "hi"}'),
    ("/v1/messages", b'{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}'),
    ("/v1/messages/count_tokens", b'{"model": "m", "messages": [{"role": "user", "content": "hi"}]}'),
    ("/api/memories", b'{"title": "Tea", "content": "The user likes tea.", "category": "user_preference"}'),
]
ADMIN = "admin-secret"


def _anthropic_upstream(upstream_url: str) -> dict[str, object]:
    return {"anthropic": {"api_base": upstream_url.removesuffix("/v1")}}


NOT_JSON = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]


@pytest.mark.parametrize("content_type", NOT_JSON)
def test_non_json_bodies_get_415(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str, content_type: str | None
) -> None:
    headers = {"authorization": "Bearer sk-app", "x-memorelay-user": "alice"}
    if content_type is not None:
        headers["content-type"] = content_type
    with gateway(upstreams=_anthropic_upstream(upstream_url), auth={"admin_key": ADMIN}) as url:
        answers = [httpx.post(url + path, content=body, headers=headers) for path, body in POSTS]
        admin = httpx.post(
            url + "/api/admin/memories",
            content=b'{"tenant": "t", "title": "T", "content": "C", "category": "business"}',
            headers={"authorization": f"Bearer {ADMIN}", **({"content-type": content_type} if content_type else {})},
        )
    assert fake.received == []
    for (path, _), r in zip(POSTS, answers, strict=True):
        assert r.status_code == 415, (path, r.text)
    assert answers[0].json()["error"]["code"] == "unsupported_media_type"
    assert answers[2].json()["type"] == "error"  # Anthropic's shape on its routes
    assert admin.status_code == 415


def test_json_with_a_charset_passes(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    headers = {"authorization": "Bearer sk-app", "content-type": "Application/JSON; charset=utf-8"}
    with gateway() as url:
        r = httpx.post(url + "/v1/chat/completions", content=CHAT, headers=headers)
    assert r.status_code == 200


def test_the_official_sdks_still_work(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    with gateway(upstreams=_anthropic_upstream(upstream_url)) as url:
        chat = openai.OpenAI(base_url=url + "/v1", api_key="sk-app", max_retries=0).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
        message = anthropic.Anthropic(base_url=url, api_key="sk-ant", max_retries=0).messages.create(
            model="claude", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
        )
    assert chat.choices[0].message.content == "echo: hi"
    assert message.content


def test_a_bodiless_post_needs_no_content_type(gateway: GatewayFactory) -> None:
    headers = {"authorization": "Bearer sk-app", "x-memorelay-user": "alice"}
    with gateway() as url:
        r = httpx.post(url + "/api/console-links", headers=headers)
    assert r.status_code == 201
