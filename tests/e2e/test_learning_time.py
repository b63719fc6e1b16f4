"""The conversation's time (``X-Memorelay-Time``) through the gateway, and the precision gate
on what an LLM learner proposes."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, HIGH, learner, learning, learning_calls, log_entries, memories, say, wait_for
from tests.fake_upstream import FakeUpstream


def test_yesterday_becomes_a_calendar_date_from_the_conversation_time(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        headers = say(
            url,
            "gina",
            "Yesterday I took my puppy to the vet.",
            headers={"X-Memorelay-Time": "2026-12-01T09:30:00Z"},
        )
        assert headers["x-memorelay-learning"] == "queued"
        found = wait_for(lambda: memories(url, "gina"), timeout=90)
    assert [m["content"] for m in found] == ["On 2026-11-30 the user took their puppy to the vet."]


def test_without_the_header_an_episode_is_dated_from_the_request(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "hal", "Last Friday I ran my first half marathon.")
        found = wait_for(lambda: memories(url, "hal"), timeout=90)
    (memory,) = found
    assert memory["content"].startswith("On 20") and "ran their first half marathon" in memory["content"]
    assert "Friday" not in memory["content"]


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/responses"])
def test_a_bad_time_header_is_a_400_in_openai_shape(gateway: GatewayFactory, fake: FakeUpstream, path: str) -> None:
    body = (
        {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}
        if path.endswith("completions")
        else {"model": "gpt-4o-mini", "input": "hi"}
    )
    with gateway(filters=learning(model="heuristic")) as url:
        r = httpx.post(
            url + path,
            json=body,
            headers={"authorization": "Bearer sk-app", "x-memorelay-user": "ivy", "x-memorelay-time": "last tuesday"},
        )
    assert r.status_code == 400
    error = r.json()["error"]
    assert "X-Memorelay-Time" in error["message"] and error["type"] and error["code"]
    assert fake.chats() == []  # nothing went upstream


def test_a_bad_time_header_on_messages_is_a_400_in_anthropic_shape(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    body = {"model": "claude-3-5-haiku-latest", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
    with gateway(filters=learning(model="heuristic")) as url:
        r = httpx.post(
            url + "/v1/messages",
            json=body,
            headers={"x-api-key": "sk-ant", "x-memorelay-user": "ivy", "x-memorelay-time": "2026-13-45"},
        )
    assert r.status_code == 400
    assert r.json()["type"] == "error" and "X-Memorelay-Time" in r.json()["error"]["message"]


def test_the_llm_learners_items_pass_the_same_gate_with_reason_codes(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    items = [
        {"title": "Tired", "content": "The user is tired today.", "kind": "fact", "category": "domain"},
        {
            "title": "Encouragement",
            "content": "The user is sure the assistant will do great!",
            "kind": "fact",
            "category": "domain",
        },
        {"title": "List", "content": "It has been on the user's list for ages.", "category": "domain"},
        {"title": "Broken", "content": "The user is.", "category": "domain"},
        {
            "title": "Daughter born 2021",
            "content": "The user's daughter was born in 2021.",
            "kind": "relation",
            "category": "domain",
        },
        {
            "title": "Tests run on Jest",
            "content": "The user's team runs tests on Jest.",
            "kind": "gadget",
            "category": "technical",
        },
    ]
    fake.responder = learner(HIGH, items)
    with gateway(filters=learning(max_items=8), auth={"admin_key": ADMIN}) as url:
        say(
            url,
            "jo",
            "My daughter was born in 2021. We run tests on Jest.",
            headers={"X-Memorelay-Time": "2026-12-01"},
        )
        found = wait_for(lambda: len(memories(url, "jo")) >= 2 and memories(url, "jo"), timeout=90)
        entry = wait_for(lambda: log_entries(url))[0]
    assert sorted(m["title"] for m in found) == ["Daughter born 2021", "Tests run on Jest"]
    codes = sorted(r.get("code") for r in entry["rejected"])
    assert codes == ["about-assistant", "fragment", "momentary", "unresolved-reference"]
    prompt = str(learning_calls(fake)[0].body)
    assert "Conversation time" in prompt and "2026-12-01" in prompt
