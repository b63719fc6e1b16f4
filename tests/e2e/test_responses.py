"""``POST /v1/responses`` through the official ``openai`` SDK: memory, learning, relay, errors."""

from __future__ import annotations

from typing import Any

import httpx
import openai
import pytest

from gateway.memory import MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, log_entries, memories, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection

QUESTION = "Which Neovim plugins suit me?"
WEATHER_TOOL: Any = {
    "type": "function",
    "name": "get_weather",
    "description": "Weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def client(url: str, user: str | None = "alice", **headers: str) -> openai.OpenAI:
    default = {"X-Memorelay-User": user} if user else {}
    return openai.OpenAI(base_url=url + "/v1", api_key="sk-app", max_retries=0, default_headers={**default, **headers})


def seed(url: str, user: str = "alice") -> None:
    add(user_client(url, user), "Editor", "The user edits code in Neovim with LazyVim.", category="technical")


def sent(fake: FakeUpstream) -> dict[str, Any]:
    body = fake.on("/v1/responses")[-1].body
    assert body is not None
    return body


def test_plain_memory_goes_after_instructions(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=[memory_injection()]) as url:
        seed(url)
        raw = client(url).responses.with_raw_response.create(
            model="gpt-4o-mini", input=QUESTION, instructions="Be brief.", store=False, metadata={"k": "v"}
        )
    body = sent(fake)
    assert body["instructions"].startswith("Be brief.\n\n" + MEMORY_BLOCK_START)
    assert "LazyVim" in body["instructions"]
    assert body["input"] == QUESTION and body["store"] is False and body["metadata"] == {"k": "v"}
    assert raw.headers["x-memorelay-memories"] == "1"
    assert int(raw.headers["x-memorelay-memory-tokens"]) > 0
    assert float(raw.headers["x-memorelay-overhead-ms"]) >= 0
    assert raw.headers["x-fake-upstream"] == "yes"
    response = raw.parse()
    assert response.output_text == f"echo: {QUESTION}"
    assert response.model_extra is not None and response.model_extra["x_vendor_field"] == {"kept": True}


def test_last_user_placement_puts_a_system_item_before_the_latest_user_item(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    items: Any = [
        {"role": "user", "content": "Hello"},
        {"role": "assistant", "content": "Hi, how can I help?"},
        {"role": "user", "content": [{"type": "input_text", "text": QUESTION}]},
    ]
    with gateway(filters=[memory_injection(placement="last_user")]) as url:
        seed(url)
        client(url).responses.create(model="gpt-4o-mini", input=items)
        client(url).responses.create(model="gpt-4o-mini", input=QUESTION)
    listed, plain = (r.body for r in fake.on("/v1/responses"))
    assert listed is not None and plain is not None
    assert [i["role"] for i in listed["input"]] == ["user", "assistant", "system", "user"]
    assert "LazyVim" in listed["input"][2]["content"] and "instructions" not in listed
    assert listed["input"][3] == items[2]
    assert plain["input"][0]["role"] == "system" and plain["input"][1] == {"role": "user", "content": QUESTION}


def test_stream_events_relayed_unchanged(gateway: GatewayFactory, fake: FakeUpstream, upstream_url: str) -> None:
    request = {"model": "gpt-4o-mini", "input": "Tell me about Neovim", "stream": True}
    direct = httpx.post(upstream_url + "/responses", json=request).content
    with gateway(filters=[memory_injection()]) as url:
        seed(url)
        with client(url).responses.with_streaming_response.create(
            model="gpt-4o-mini", input="Tell me about Neovim", stream=True
        ) as r:
            assert r.headers["x-memorelay-memories"] == "1"
            types = [event.type for event in r.parse()]
        # without a memory to inject, the bytes are exactly the upstream's
        relayed = httpx.post(url + "/v1/responses", json=request, headers={"authorization": "Bearer sk-app"}).content
    assert relayed == direct
    assert types[0] == "response.created" and types[-1] == "response.completed"
    assert types.count("response.output_text.delta") == 5  # "echo: Tell me about Neovim"
    assert "LazyVim" in fake.on("/v1/responses")[1].body["instructions"]  # type: ignore[index]


def test_tools_and_previous_response_id(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=[memory_injection()]) as url:
        seed(url)
        c = client(url)
        first = c.responses.create(
            model="gpt-4o-mini", input="Weather in Paris for my Neovim trip?", tools=[WEATHER_TOOL]
        )
        call = first.output[0]
        assert call.type == "function_call" and call.name == "get_weather"
        raw = c.responses.with_raw_response.create(
            model="gpt-4o-mini",
            previous_response_id=first.id,
            input=[{"type": "function_call_output", "call_id": call.call_id, "output": "sunny"}],
            tools=[WEATHER_TOOL],
        )
    assert raw.parse().output_text == "tool said: sunny"
    first_sent, second_sent = (r.body for r in fake.on("/v1/responses"))
    assert first_sent is not None and second_sent is not None
    assert first_sent["tools"] == [WEATHER_TOOL] and "LazyVim" in first_sent["instructions"]
    # a tool output is no user turn: nothing to search for, the request passes untouched
    assert second_sent["previous_response_id"] == "resp_fake" and "instructions" not in second_sent
    assert second_sent["input"] == [{"type": "function_call_output", "call_id": "call_fake", "output": "sunny"}]
    assert raw.headers["x-memorelay-memories"] == "0"


def test_streamed_turn_with_previous_response_id_is_learned_once(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        with client(url, "erin").responses.with_streaming_response.create(
            model="gpt-4o-mini",
            previous_response_id="resp_earlier",
            input=[{"role": "user", "content": "I prefer tabs over spaces. We use PostgreSQL 15 for everything."}],
            stream=True,
        ) as r:
            assert r.headers["x-memorelay-learning"] == "queued"
            for _ in r.iter_lines():
                pass
        found = wait_for(lambda: len(memories(url, "erin")) >= 2 and memories(url, "erin"))
        entries = wait_for(lambda: log_entries(url))
    assert len(entries) == 1 and len(entries[0]["added"]) == 2
    assert len(found) == 2
    text = " ".join(m["content"] for m in found)
    assert "tabs" in text and "PostgreSQL 15" in text


def test_a_tool_output_alone_is_not_learned(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic")) as url:
        raw = client(url).responses.with_raw_response.create(
            model="gpt-4o-mini",
            previous_response_id="resp_earlier",
            input=[{"type": "function_call_output", "call_id": "call_fake", "output": "I live in Paris"}],
        )
    assert raw.parse().output_text == "tool said: I live in Paris"
    assert raw.headers["x-memorelay-learning"] == "skipped; reason=no-user-turn"


def test_opt_out_and_no_user(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic")) as url:
        seed(url)
        opted = client(url, **{"X-Memorelay-Opt-Out": "all"}).responses.with_raw_response.create(
            model="gpt-4o-mini", input=QUESTION, instructions="Be brief."
        )
        anonymous = client(url, None).responses.with_raw_response.create(model="gpt-4o-mini", input=QUESTION)
        body_user = client(url, None).responses.with_raw_response.create(
            model="gpt-4o-mini", input=QUESTION, user="alice"
        )
    assert opted.headers["x-memorelay-memories"] == "0"
    assert opted.headers["x-memorelay-learning"] == "skipped; reason=opt-out"
    assert anonymous.headers["x-memorelay-learning"] == "skipped; reason=no-user"
    assert body_user.headers["x-memorelay-memories"] == "1"
    first, second, third = (r.body for r in fake.on("/v1/responses"))
    assert first is not None and first["instructions"] == "Be brief."
    assert second is not None and "instructions" not in second
    assert third is not None and "LazyVim" in third["instructions"]
    assert not any("x-memorelay-opt-out" in r.headers for r in fake.on("/v1/responses"))


def test_upstream_error_keeps_its_shape(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic")) as url:
        with pytest.raises(openai.RateLimitError) as caught:
            client(url).responses.create(model="error-429", input="hi")
        bad = httpx.post(url + "/v1/responses", json={"model": "m", "input": 5}, headers={"authorization": "Bearer k"})
    assert caught.value.status_code == 429
    assert caught.value.body == {"message": "fake 429", "type": "fake_error", "param": None, "code": "fake"}
    assert caught.value.response.headers["x-fake-upstream"] == "yes"
    assert caught.value.response.headers["x-memorelay-learning"] == "skipped; reason=upstream-error"
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "input"


def test_retrieve_and_delete_stay_verbatim_relays(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=[memory_injection()]) as url:
        c = client(url)
        assert c.responses.retrieve("resp_123").id == "resp_123"
        c.responses.delete("resp_123")
    assert [(r.path, r.headers["authorization"]) for r in fake.received] == [
        ("/v1/responses/resp_123", "Bearer sk-app"),
        ("/v1/responses/resp_123", "Bearer sk-app"),
    ]
