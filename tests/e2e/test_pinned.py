"""Pinned (L1) memories and the citation log, through HTTP with the openai SDK and the fake
upstream: what the upstream received, and what the memory API answers."""

from __future__ import annotations

from typing import Any

import pytest

from gateway.memory import MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_injection import block_of, chat, injection
from tests.e2e.test_learning import wait_for
from tests.e2e.test_memory_api import ADMIN, add, admin_client, user_client
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection

RULE = "Always answer in Chinese."
LONG = "The user deploys the billing service to Kubernetes " + "with blue-green rollouts and canaries " * 12


def sent_block(fake: FakeUpstream) -> str:
    return block_of(fake.last_chat().body["messages"])  # type: ignore[index]


def database(kind: str) -> dict[str, Any]:
    if kind == "sqlite":
        return {}
    pg = pytest.importorskip("tests.pg")
    return {"database": pg.fresh_database_url()}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_pinned_memory_comes_first_on_an_unrelated_question(
    gateway: GatewayFactory, fake: FakeUpstream, kind: str
) -> None:
    with gateway(filters=injection(top_k=1), memory=database(kind)) as url:
        c = user_client(url, "alice")
        rule = add(c, "Language", RULE, pinned=True)
        assert rule["pinned"] is True
        add(c, "Editor", "The user edits code in Neovim.", category="technical")
        # a question sharing no word with the pinned memory: it is injected anyway
        raw = chat(url, "alice", [{"role": "user", "content": "What is the capital of France?"}])
        assert raw.headers["x-memorelay-memories"] == "1"
        assert RULE in sent_block(fake)
        # with a relevant memory too: the pinned one first, and top_k=1 still leaves room for it
        raw = chat(url, "alice", [{"role": "user", "content": "Which Neovim plugins suit me?"}])
        block = sent_block(fake)
        assert raw.headers["x-memorelay-memories"] == "2"
        assert block.index(RULE) < block.index("Neovim")
        # another user of the tenant does not get it
        chat(url, "bob", [{"role": "user", "content": "What is the capital of France?"}])
        assert MEMORY_BLOCK_START not in str(fake.last_chat().body)
        # unpinned: it goes back to being retrieved only when relevant
        r = c.patch(f"/api/memories/{rule['id']}", json={"pinned": False})
        assert r.status_code == 200 and r.json()["pinned"] is False
        raw = chat(url, "alice", [{"role": "user", "content": "What is the capital of France?"}])
        assert raw.headers["x-memorelay-memories"] == "0"
        # pinned again by PATCH: back on every turn
        assert c.patch(f"/api/memories/{rule['id']}", json={"pinned": True}).json()["pinned"] is True
        chat(url, "alice", [{"role": "user", "content": "What is the capital of France?"}])
        assert RULE in sent_block(fake)


def test_pinned_memories_stay_within_the_budget_and_go_last(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    window = 1000  # a 10% budget of 100 tokens: the pinned rule fits, the long relevant memory does not
    with gateway(filters=injection(budget_percent=10), memory={"default_context_window": window}) as url:
        c = user_client(url, "carol")
        add(c, "Language", RULE, pinned=True)
        add(c, "Deploys", LONG, category="technical")
        raw = chat(url, "carol", [{"role": "user", "content": "How do I deploy to Kubernetes?"}], model="unknown-x")
        assert raw.headers["x-memorelay-memories"] == "1"
        assert 0 < int(raw.headers["x-memorelay-memory-tokens"]) <= window * 0.10
        block = sent_block(fake)
        assert RULE in block and "blue-green" not in block


def test_pinned_cap_is_enforced_with_an_openai_error(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(auth={"admin_key": ADMIN}, memory={"max_pinned_per_user": 2}) as url:
        c = user_client(url, "dora")
        add(c, "One", "Rule one.", pinned=True)
        add(c, "Two", "Rule two.", pinned=True)
        r = c.post(
            "/api/memories", json={"title": "Three", "content": "Rule three.", "category": "domain", "pinned": True}
        )
        assert r.status_code == 409
        error = r.json()["error"]
        assert error["code"] == "too_many_pinned" and "max_pinned_per_user" in error["message"]
        plain = add(c, "Three", "Rule three.")
        assert c.patch(f"/api/memories/{plain['id']}", json={"pinned": True}).status_code == 409
        r = admin_client(url).patch(f"/api/admin/memories/{plain['id']}", json={"pinned": True})
        assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_pinned"
        assert c.get(f"/api/memories/{plain['id']}").json()["pinned"] is False
        # another user has a cap of their own; an operator may pin a tenant memory for everyone
        add(user_client(url, "erin"), "Mine", "Erin's rule.", pinned=True)
        shared = admin_client(url).post(
            "/api/admin/memories",
            json={"tenant": "default", "title": "House style", "content": "Use metric units.", "category": "domain"},
        )
        assert shared.status_code == 201, shared.text
        r = admin_client(url).patch(f"/api/admin/memories/{shared.json()['id']}", json={"pinned": True})
        assert r.status_code == 200 and r.json()["pinned"] is True
        assert c.get("/api/memories/stats").json()["pinned"] == 2


def test_citations_are_logged_and_listed(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=injection()) as url:
        c = user_client(url, "frank")
        tea = add(c, "Tea", "The user drinks oolong tea.")
        rule = add(c, "Language", RULE, pinned=True)
        for conversation in ("conv-a", "conv-b"):
            chat(
                url,
                "frank",
                [{"role": "user", "content": "Which oolong tea should I buy?"}],
                headers={"X-Memorelay-Conversation": conversation},
            )
        chat(url, "frank", [{"role": "user", "content": "What is the capital of France?"}])
        wait_for(lambda: c.get(f"/api/memories/{rule['id']}/uses").json()["total"] == 3)
        page = c.get(f"/api/memories/{tea['id']}/uses", params={"limit": 1}).json()
        assert page["total"] == 2
        assert len(page["data"]) == 1
        use = page["data"][0]
        assert use["conversation_id"] == "conv-b" and use["surface"] == "chat_completions"
        assert use["user_id"] == "frank" and use["time"].endswith("Z")
        later = c.get(f"/api/memories/{tea['id']}/uses", params={"offset": 1}).json()["data"]
        assert [u["conversation_id"] for u in later] == ["conv-a"]
        rule_uses = c.get(f"/api/memories/{rule['id']}/uses").json()["data"]
        assert [u["conversation_id"] for u in rule_uses] == [None, "conv-b", "conv-a"]
        assert c.get("/api/memories/stats").json()["uses"] == 5
        # no conversation text is kept: a use carries only ids, the surface and a time
        assert set(use) == {"memory_id", "user_id", "conversation_id", "surface", "time"}
        # another user cannot read them
        other = user_client(url, "gina").get(f"/api/memories/{tea['id']}/uses")
        assert other.status_code == 404 and other.json()["error"]["code"] == "not_found"


def test_a_learned_standing_rule_is_pinned_while_under_the_cap(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    filters = [memory_injection(), {"learning": {"workers": 1, "model": "heuristic"}}]
    with gateway(filters=filters, memory={"max_pinned_per_user": 1}) as url:
        c = user_client(url, "hana")
        chat(url, "hana", [{"role": "user", "content": "以后总是用中文回答我。"}])
        rule = wait_for(lambda: c.get("/api/memories").json()["data"])[0]
        assert rule["source"] == "auto" and rule["pinned"] is True
        chat(url, "hana", [{"role": "user", "content": "What is the capital of France?"}])
        assert rule["content"] in sent_block(fake)
        # L1 is full now: the next standing rule is learned, but not pinned
        chat(url, "hana", [{"role": "user", "content": "Never use bullet points in your answers."}])
        learned = wait_for(lambda: [m for m in c.get("/api/memories").json()["data"] if m["id"] != rule["id"]])
        assert learned[0]["pinned"] is False
        # a learned fact is never pinned
        chat(url, "ivan", [{"role": "user", "content": "I live in Berlin."}])
        fact = wait_for(lambda: user_client(url, "ivan").get("/api/memories").json()["data"])[0]
        assert fact["pinned"] is False


def test_an_unpin_on_one_replica_is_never_injected_by_another(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str
) -> None:
    options = {"filters": injection(), "memory": {"database": pg_url}}
    unrelated = [{"role": "user", "content": "What is the capital of France?"}]
    with gateway(**options) as a, gateway(**options) as b:
        rule = add(user_client(a, "alice"), "Language", RULE, pinned=True)
        chat(b, "alice", unrelated)
        assert RULE in sent_block(fake)  # B serves it, and caches the pinned set
        assert user_client(a, "alice").patch(f"/api/memories/{rule['id']}", json={"pinned": False}).status_code == 200
        raw = chat(b, "alice", unrelated)  # acknowledged on A: B no longer injects it
        assert raw.headers["x-memorelay-memories"] == "0"
