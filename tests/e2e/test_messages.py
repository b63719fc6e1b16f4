"""``POST /v1/messages`` (and ``count_tokens``) through the official ``anthropic`` SDK."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anthropic
import httpx
import pytest

from gateway.memory import MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, HIGH, learner, learning, log_entries, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection
from tests.servers import free_port

KEY = "sk-ant-app"
QUESTION = "Which Neovim plugins suit me?"
WEATHER_TOOL: Any = {
    "name": "get_weather",
    "description": "Weather in a city",
    "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@contextmanager
def anthropic_gateway(gateway: GatewayFactory, upstream_url: str, **overrides: Any) -> Iterator[str]:
    root = upstream_url.removesuffix("/v1")
    upstreams = {"anthropic": {"api_base": root}, **overrides.pop("upstreams", {})}
    with gateway(upstreams=upstreams, **overrides) as url:
        yield url


def client(url: str, user: str | None = "alice", key: str = KEY, **headers: str) -> anthropic.Anthropic:
    default = {"X-Memorelay-User": user} if user else {}
    return anthropic.Anthropic(base_url=url, api_key=key, max_retries=0, default_headers={**default, **headers})


def seed(url: str, user: str = "alice", key: str = KEY) -> None:
    # the same key as a bearer token names the same tenant as it does in x-api-key
    add(user_client(url, user, key), "Editor", "The user edits code in Neovim with LazyVim.", category="technical")


def memories(url: str, user: str) -> list[dict[str, Any]]:
    return user_client(url, user, KEY).get("/api/memories").json()["data"]  # type: ignore[no-any-return]


def sent(fake: FakeUpstream) -> dict[str, Any]:
    body = fake.on("/v1/messages")[-1].body
    assert body is not None
    return body


def test_plain_memory_goes_into_the_system_string(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    with anthropic_gateway(gateway, upstream_url, filters=[memory_injection()]) as url:
        seed(url)
        raw = client(url, **{"anthropic-beta": "fake-beta-2025"}).messages.with_raw_response.create(
            model="claude-sonnet-4-5",
            max_tokens=100,
            system="Be brief.",
            messages=[{"role": "user", "content": QUESTION}],
            metadata={"user_id": "ignored-when-the-header-names-one"},
        )
        # Claude Code and older SDKs send x-api-key: the same key names the same tenant
        as_api_key = httpx.post(
            url + "/v1/messages",
            json={"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": [{"role": "user", "content": QUESTION}]},
            headers={"x-api-key": KEY, "anthropic-version": "2023-06-01", "x-memorelay-user": "alice"},
        )
    assert as_api_key.headers["x-memorelay-memories"] == "1"
    assert fake.on("/v1/messages")[-1].headers["x-api-key"] == KEY
    assert "authorization" not in fake.on("/v1/messages")[-1].headers
    body = fake.on("/v1/messages")[0].body
    assert body is not None
    received = fake.on("/v1/messages")[0].headers
    assert isinstance(body["system"], str) and body["system"].startswith("Be brief.\n\n" + MEMORY_BLOCK_START)
    assert "LazyVim" in body["system"] and body["max_tokens"] == 100
    assert body["messages"] == [{"role": "user", "content": QUESTION}]
    assert received["authorization"] == f"Bearer {KEY}" and "x-api-key" not in received  # as the SDK sent it
    assert received["anthropic-version"] and received["anthropic-beta"] == "fake-beta-2025"
    assert not any(h.startswith("x-memorelay-") for h in received)
    assert raw.headers["x-memorelay-memories"] == "1" and raw.headers["request-id"] == "req_fake"
    assert float(raw.headers["x-memorelay-overhead-ms"]) >= 0
    message = raw.parse()
    assert message.content[0].type == "text" and message.content[0].text == f"echo: {QUESTION}"


def test_beta_messages_keep_their_query_and_headers(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    # Claude Code calls /v1/messages?beta=true with anthropic-beta flags
    headers = {"x-api-key": KEY, "anthropic-beta": "fake-beta-2025", "x-memorelay-user": "alice"}
    request: Any = {"model": "claude-sonnet-4-5", "max_tokens": 10, "messages": [{"role": "user", "content": QUESTION}]}
    with anthropic_gateway(gateway, upstream_url, filters=[memory_injection()]) as url:
        seed(url)
        message = client(url).beta.messages.create(
            model="claude-sonnet-4-5", max_tokens=10, betas=["fake-beta-2025"], messages=request["messages"]
        )
        raw = httpx.post(url + "/v1/messages?beta=true", json=request, headers=headers)
        counted = httpx.post(url + "/v1/messages/count_tokens?beta=true", json=request, headers=headers)
    assert message.content[0].type == "text" and raw.status_code == 200 and counted.json() == {"input_tokens": 42}
    sdk, plain = fake.on("/v1/messages")
    count = fake.on("/v1/messages/count_tokens")[0]
    assert sdk.headers["anthropic-beta"] == plain.headers["anthropic-beta"] == count.headers["anthropic-beta"]
    assert plain.query == count.query == "beta=true"
    assert plain.body is not None and "LazyVim" in plain.body["system"]


def test_cached_system_blocks_keep_their_prefix(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    system: Any = [
        {"type": "text", "text": "You are a coding assistant. " * 20, "cache_control": {"type": "ephemeral"}},
    ]
    with anthropic_gateway(gateway, upstream_url, filters=[memory_injection()]) as url:
        seed(url)
        client(url).messages.create(
            model="claude-sonnet-4-5", max_tokens=100, system=system, messages=[{"role": "user", "content": QUESTION}]
        )
    blocks = sent(fake)["system"]
    assert blocks[0] == system[0] and len(blocks) == 2
    assert blocks[1]["type"] == "text" and "LazyVim" in blocks[1]["text"] and "cache_control" not in blocks[1]


def test_last_user_placement_prefixes_the_latest_user_text(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    with anthropic_gateway(gateway, upstream_url, filters=[memory_injection(placement="last_user")]) as url:
        seed(url)
        client(url).messages.create(
            model="claude-sonnet-4-5",
            max_tokens=100,
            system="Be brief.",
            messages=[{"role": "user", "content": QUESTION}],
        )
    body = sent(fake)
    assert body["system"] == "Be brief."
    content = body["messages"][0]["content"]
    assert content.startswith(MEMORY_BLOCK_START) and content.endswith("\n\n" + QUESTION) and "LazyVim" in content


def test_stream_relayed_unchanged_with_thinking(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    request = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 2000,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [{"role": "user", "content": "Tell me about Neovim"}],
        "stream": True,
    }
    direct = httpx.post(upstream_url + "/messages", json=request).content
    with anthropic_gateway(gateway, upstream_url, filters=[memory_injection()]) as url:
        seed(url)
        with client(url).messages.stream(
            model="claude-sonnet-4-5",
            max_tokens=2000,
            thinking={"type": "enabled", "budget_tokens": 1024},
            messages=[{"role": "user", "content": "Tell me about Neovim"}],
        ) as stream:
            text = "".join(stream.text_stream)
            final = stream.get_final_message()
        relayed = httpx.post(url + "/v1/messages", json=request, headers={"x-api-key": KEY}).content
    assert relayed == direct  # nothing to inject without a user: the upstream's bytes
    assert text == "echo: Tell me about Neovim"
    assert [b.type for b in final.content] == ["thinking", "text"]
    assert final.content[0].signature == "sig_fake"  # type: ignore[union-attr]
    assert "LazyVim" in fake.on("/v1/messages")[1].body["system"]  # type: ignore[index]


def test_tool_use_blocks_pass_untouched(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    question: Any = {"role": "user", "content": "Weather in Paris for my Neovim trip?"}
    with anthropic_gateway(gateway, upstream_url, filters=[memory_injection()]) as url:
        seed(url)
        c = client(url)
        first = c.messages.create(model="claude-sonnet-4-5", max_tokens=100, tools=[WEATHER_TOOL], messages=[question])
        use = first.content[0]
        assert first.stop_reason == "tool_use" and use.type == "tool_use" and use.name == "get_weather"
        history: Any = [
            question,
            {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]},
        ]
        second = c.messages.create(model="claude-sonnet-4-5", max_tokens=100, tools=[WEATHER_TOOL], messages=history)
    assert second.content[0].type == "text" and second.content[0].text == "tool said: sunny"
    body = sent(fake)
    assert body["tools"] == [WEATHER_TOOL] and body["messages"] == history
    assert "LazyVim" in body["system"]  # the tool loop keeps the memory of the question that started it


def test_gateway_key_as_x_api_key_or_bearer(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    overrides: Any = {
        "auth": {"keys": [{"key": "gw-key", "tenant": "app1"}]},
        "upstreams": {"anthropic": {"api_base": upstream_url.removesuffix("/v1"), "api_key": "sk-ant-upstream"}},
        "filters": [memory_injection()],
    }
    with anthropic_gateway(gateway, upstream_url, **overrides) as url:
        seed(url, key="gw-key")
        as_api_key = client(url, key="gw-key").messages.with_raw_response.create(
            model="claude-sonnet-4-5", max_tokens=10, messages=[{"role": "user", "content": QUESTION}]
        )
        bearer = anthropic.Anthropic(
            base_url=url, auth_token="gw-key", max_retries=0, default_headers={"X-Memorelay-User": "alice"}
        )
        bearer.messages.create(
            model="claude-sonnet-4-5", max_tokens=10, messages=[{"role": "user", "content": QUESTION}]
        )
        with pytest.raises(anthropic.AuthenticationError) as caught:
            client(url, key="wrong").messages.create(
                model="claude-sonnet-4-5", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
            )
        raw_api_key = httpx.post(
            url + "/v1/messages",
            json={"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": [{"role": "user", "content": QUESTION}]},
            headers={"x-api-key": "gw-key", "x-memorelay-user": "alice"},
        )
        counted = client(url, key="gw-key").messages.count_tokens(
            model="claude-sonnet-4-5", messages=[{"role": "user", "content": "hi"}]
        )
    assert as_api_key.headers["x-memorelay-memories"] == "1"
    assert raw_api_key.status_code == 200 and raw_api_key.headers["x-memorelay-memories"] == "1"
    for r in fake.on("/v1/messages") + fake.on("/v1/messages/count_tokens"):
        assert r.headers["x-api-key"] == "sk-ant-upstream" and "authorization" not in r.headers, r.headers
        assert "gw-key" not in str(r.headers)
    assert "LazyVim" in str(fake.on("/v1/messages")[1].body)
    assert caught.value.body == {
        "type": "error",
        "error": {"type": "authentication_error", "message": "invalid gateway key"},
    }
    assert counted.input_tokens == 42


def test_opt_out_headers(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    with anthropic_gateway(gateway, upstream_url, filters=learning(model="heuristic")) as url:
        seed(url)
        opted = client(url, **{"X-Memorelay-Opt-Out": "injection, learning"}).messages.with_raw_response.create(
            model="claude-sonnet-4-5", max_tokens=10, messages=[{"role": "user", "content": QUESTION}]
        )
        by_metadata = client(url, None).messages.with_raw_response.create(
            model="claude-sonnet-4-5",
            max_tokens=10,
            messages=[{"role": "user", "content": QUESTION}],
            metadata={"user_id": "alice"},
        )
        nobody = client(url, None).messages.with_raw_response.create(
            model="claude-sonnet-4-5", max_tokens=10, messages=[{"role": "user", "content": QUESTION}]
        )
    assert opted.headers["x-memorelay-memories"] == "0"
    assert opted.headers["x-memorelay-learning"] == "skipped; reason=opt-out"
    assert by_metadata.headers["x-memorelay-memories"] == "1"
    assert nobody.headers["x-memorelay-learning"] == "skipped; reason=no-user"
    first, second, third = (r.body for r in fake.on("/v1/messages"))
    assert first is not None and "system" not in first
    assert second is not None and "LazyVim" in second["system"]
    assert third is not None and "system" not in third


def test_errors_keep_anthropic_shape(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    with anthropic_gateway(gateway, upstream_url, filters=learning(model="heuristic")) as url:
        with pytest.raises(anthropic.RateLimitError) as caught:
            client(url).messages.create(model="error-429", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
        bad = httpx.post(url + "/v1/messages", json={"model": "m", "messages": []}, headers={"x-api-key": KEY})
        broken = httpx.post(
            url + "/v1/messages", content=b"{not json", headers={"x-api-key": KEY, "content-type": "application/json"}
        )
    assert caught.value.status_code == 429
    assert caught.value.body == {"type": "error", "error": {"type": "rate_limit_error", "message": "fake 429"}}
    assert caught.value.response.headers["request-id"] == "req_fake"
    assert caught.value.response.headers["x-memorelay-learning"] == "skipped; reason=upstream-error"
    assert bad.status_code == 400 and bad.json()["type"] == "error"
    assert bad.json()["error"]["type"] == "invalid_request_error" and "messages" in bad.json()["error"]["message"]
    assert broken.status_code == 400 and broken.json()["error"]["type"] == "invalid_request_error"


def test_unreachable_anthropic_upstream_answers_502_in_anthropic_shape(gateway: GatewayFactory) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    with gateway(upstreams={"anthropic": {"api_base": dead}}) as url:
        with pytest.raises(anthropic.APIStatusError) as caught:
            client(url).messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
        counted = httpx.post(url + "/v1/messages/count_tokens", json={"model": "m"}, headers={"x-api-key": KEY})
    assert caught.value.status_code == 502
    assert caught.value.body["type"] == "error" and caught.value.body["error"]["type"] == "api_error"  # type: ignore[index]
    assert counted.status_code == 502 and counted.json()["error"]["type"] == "api_error"


def test_streamed_turn_is_learned_once(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    with anthropic_gateway(
        gateway, upstream_url, filters=learning(model="heuristic"), auth={"admin_key": ADMIN}
    ) as url:
        with client(url, "erin").messages.with_streaming_response.create(
            model="claude-sonnet-4-5",
            max_tokens=100,
            messages=[{"role": "user", "content": "I prefer tabs over spaces. We use PostgreSQL 15 for everything."}],
            stream=True,
        ) as r:
            assert r.headers["x-memorelay-learning"] == "queued"
            for _ in r.iter_lines():
                pass
        found = wait_for(lambda: len(memories(url, "erin")) >= 2 and memories(url, "erin"))
        entries = wait_for(lambda: log_entries(url))
    assert len(entries) == 1 and len(entries[0]["added"]) == 2 and len(found) == 2
    text = " ".join(m["content"] for m in found)
    assert "tabs" in text and "PostgreSQL 15" in text


def test_llm_learner_asks_the_conversations_own_model_on_the_anthropic_upstream(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    items = [{"title": "Prefers dark mode", "content": "The user prefers dark mode.", "category": "user_preference"}]
    fake.responder = learner(HIGH, items)
    with anthropic_gateway(gateway, upstream_url, filters=learning(), auth={"admin_key": ADMIN}) as url:
        client(url, "bob").messages.create(
            model="claude-sonnet-4-5", max_tokens=100, messages=[{"role": "user", "content": "I prefer dark mode."}]
        )
        found = wait_for(lambda: memories(url, "bob"))
    assert found[0]["title"] == "Prefers dark mode"
    asks = fake.on("/v1/messages")[1:]
    assert len(asks) == 1 and all(r.headers["authorization"] == f"Bearer {KEY}" for r in asks)
    assert all(r.body is not None and r.body["model"] == "claude-sonnet-4-5" for r in asks)
    assert fake.chats() == []


def test_other_messages_sub_paths_go_to_the_anthropic_upstream(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    # the Anthropic upstream is the fake's echo route, so only a call relayed there is echoed
    anthropic_base = upstream_url + "/echo/anthropic"
    headers = {"x-api-key": KEY, "anthropic-version": "2023-06-01"}
    with anthropic_gateway(gateway, upstream_url, upstreams={"anthropic": {"api_base": anthropic_base}}) as url:
        listed = httpx.get(url + "/v1/messages/batches?limit=2", headers=headers)
        created = httpx.post(url + "/v1/messages/batches", json={"requests": []}, headers=headers)
        cancelled = httpx.post(url + "/v1/messages/batches/msgbatch_01/cancel", headers=headers)
        climbing = httpx.get(url + "/v1/messages/%2e%2e/models", headers=headers)
    assert listed.status_code == 207, listed.text
    assert listed.json()["path"] == "/v1/echo/anthropic/v1/messages/batches" and listed.json()["query"] == "limit=2"
    assert created.json()["body"] == '{"requests":[]}'
    assert cancelled.json()["path"] == "/v1/echo/anthropic/v1/messages/batches/msgbatch_01/cancel"
    assert all(r.headers["x-api-key"] == KEY and "authorization" not in r.headers for r in fake.received)
    assert climbing.status_code == 400 and climbing.json()["type"] == "error"  # Anthropic's error shape


def test_a_learning_model_on_another_upstream_never_gets_the_anthropic_credential(
    gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str
) -> None:
    # learning.model names a model of the default upstream: the Messages turn's key must not go there
    items = [{"title": "Prefers dark mode", "content": "The user prefers dark mode.", "category": "user_preference"}]
    fake.responder = learner(HIGH, items)
    root = upstream_url.removesuffix("/v1")
    keys = {"default": {"api_key": "sk-default"}, "anthropic": {"api_base": root, "api_key": "sk-ant-operator"}}
    gateway_keys = {"keys": [{"key": "gw-app", "tenant": "app"}], "admin_key": ADMIN}
    options = {"upstreams": keys, "filters": learning(model="gpt-learner"), "auth": gateway_keys}
    with anthropic_gateway(gateway, upstream_url, **options) as url:
        client(url, "bob", key="gw-app").messages.create(
            model="claude-sonnet-4-5", max_tokens=100, messages=[{"role": "user", "content": "I prefer dark mode."}]
        )
        wait_for(lambda: fake.chats())
    assert [r.headers.get("authorization") for r in fake.chats()] == ["Bearer sk-default"]
    # pass-through: the caller's Anthropic key is not sent to the default upstream either
    fake.reset()
    fake.responder = learner(HIGH, items)
    with anthropic_gateway(gateway, upstream_url, filters=learning(model="gpt-learner")) as url:
        client(url, "carol").messages.create(
            model="claude-sonnet-4-5", max_tokens=100, messages=[{"role": "user", "content": "I prefer dark mode."}]
        )
        wait_for(lambda: memories(url, "carol"))  # learned offline: no credential for the default upstream
    assert all(KEY not in str(r.headers) for r in fake.received if not r.path.endswith("/messages"))
    assert fake.chats() == []
