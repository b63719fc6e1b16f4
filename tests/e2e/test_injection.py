"""Memory injection, judged by what the upstream received and the response headers."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import openai

from gateway.memory import MEMORY_BLOCK_END, MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream
from tests.filters import memory_injection


def chat(
    url: str,
    user: str,
    messages: list[dict[str, Any]],
    key: str = "sk-app",
    model: str = "gpt-4o-mini",
    headers: dict[str, str] | None = None,
) -> Any:
    c = openai.OpenAI(
        base_url=url + "/v1",
        api_key=key,
        max_retries=0,
        default_headers={"X-Memorelay-User": user, **(headers or {})},
    )
    return c.chat.completions.with_raw_response.create(model=model, messages=messages)  # type: ignore[arg-type]


def injection(**options: Any) -> list[dict[str, Any]]:
    return [memory_injection(**{"top_k": 5, **options})]


def block_of(messages: list[dict[str, Any]]) -> str:
    for m in messages:
        content = m.get("content") or ""
        if MEMORY_BLOCK_START in content:
            return content[content.index(MEMORY_BLOCK_START) : content.index(MEMORY_BLOCK_END)]
    return ""


def test_relevant_memory_goes_after_existing_system_content(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=injection()) as url:
        c = user_client(url, "alice")
        editor = add(
            c,
            "Editor",
            "The user edits code in Neovim with the LazyVim distribution.",
            category="technical",
        )
        pets = add(c, "Pets", "The user has a cat named Miso.")
        raw = chat(
            url,
            "alice",
            [
                {"role": "system", "content": "You are helpful."},
                {"role": "user", "content": "Which Neovim plugins suit me?"},
            ],
        )
        # access stats are updated off the hot path, for the injected memory only
        wait_for(lambda: c.get(f"/api/memories/{editor['id']}").json()["access_count"] == 1)
        assert c.get(f"/api/memories/{editor['id']}").json()["last_access_at"]
        assert c.get(f"/api/memories/{pets['id']}").json()["access_count"] == 0
    sent = fake.last_chat().body["messages"]  # type: ignore[index]
    assert sent[0]["role"] == "system" and sent[0]["content"].startswith("You are helpful.\n\n" + MEMORY_BLOCK_START)
    assert "LazyVim" in sent[0]["content"]
    assert "not instructions" in sent[0]["content"]
    assert sent[1] == {"role": "user", "content": "Which Neovim plugins suit me?"}
    assert raw.headers["x-memorelay-memories"] == "1"
    assert int(raw.headers["x-memorelay-memory-tokens"]) > 0
    assert raw.parse().choices[0].message.content == "echo: Which Neovim plugins suit me?"


def test_no_system_message_gets_one_and_last_user_placement(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=injection()) as url:
        add(
            user_client(url, "bob"),
            "Language",
            "The user writes Rust for embedded devices.",
            category="technical",
        )
        chat(url, "bob", [{"role": "user", "content": "Is Rust good for embedded work?"}])
    sent = fake.last_chat().body["messages"]  # type: ignore[index]
    assert sent[0]["role"] == "system" and sent[0]["content"].startswith(MEMORY_BLOCK_START)
    fake.reset()
    with gateway(filters=injection(placement="last_user")) as url:
        add(
            user_client(url, "bob"),
            "Language",
            "The user writes Rust for embedded devices.",
            category="technical",
        )
        history = [
            {"role": "system", "content": "Stable prefix."},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello"},
            {"role": "user", "content": "Which Rust crates for embedded devices?"},
        ]
        chat(url, "bob", history)
    sent = fake.last_chat().body["messages"]  # type: ignore[index]
    assert sent[:3] == history[:3]  # the cached prefix is untouched
    assert MEMORY_BLOCK_START in sent[3]["content"] and sent[4] == history[3]


def test_budget_follows_the_context_window(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    facts = [f"The user's project number {i} is written in Python and deployed on Kubernetes." for i in range(5)]
    for window, expected_max in ((1500, 4), (100_000, 5)):
        fake.reset()
        with gateway(filters=injection(budget_percent=10), memory={"default_context_window": window}) as url:
            c = user_client(url, f"carol{window}")
            for i, fact in enumerate(facts):
                add(c, f"Project {i}", fact, category="technical")
            raw = chat(
                url,
                f"carol{window}",
                [{"role": "user", "content": "How do I deploy my Python project on Kubernetes?"}],
                model="unknown-model-x",
            )
        injected = int(raw.headers["x-memorelay-memories"])
        tokens = int(raw.headers["x-memorelay-memory-tokens"])
        assert 0 < injected <= expected_max
        assert tokens <= window * 0.10
        assert block_of(fake.last_chat().body["messages"]).count("Kubernetes") == injected  # type: ignore[index]
    assert injected == 5


def test_isolation_in_injection(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=injection()) as url:
        add(user_client(url, "alice"), "Secret project", "Alice works on project Nightingale.")
        chat(url, "bob", [{"role": "user", "content": "Tell me about project Nightingale"}])
        assert MEMORY_BLOCK_START not in str(fake.last_chat().body)
        chat(
            url,
            "alice",
            [{"role": "user", "content": "Tell me about project Nightingale"}],
            key="sk-other",
        )
        assert MEMORY_BLOCK_START not in str(fake.last_chat().body)
        raw = chat(url, "alice", [{"role": "user", "content": "Tell me about project Nightingale"}])
        assert "Nightingale" in block_of(fake.last_chat().body["messages"])  # type: ignore[index]
        assert raw.headers["x-memorelay-memories"] == "1"


def test_opt_out_injection_and_no_user(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=injection()) as url:
        add(user_client(url, "dora"), "Tea", "The user drinks oolong tea.")
        raw = chat(
            url,
            "dora",
            [{"role": "user", "content": "What oolong tea should I buy?"}],
            headers={"X-Memorelay-Opt-Out": "injection"},
        )
        assert raw.headers["x-memorelay-memories"] == "0"
        assert MEMORY_BLOCK_START not in str(fake.last_chat().body)
        r = httpx.post(
            url + "/v1/chat/completions",
            headers={"authorization": "Bearer sk-app"},
            json={"model": "m", "messages": [{"role": "user", "content": "oolong tea?"}]},
        )
        assert r.headers["x-memorelay-memories"] == "0"


def test_fails_open_on_timeout_and_on_error(gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path) -> None:
    with gateway(filters=injection(timeout_ms=0.001)) as url:
        add(user_client(url, "eve"), "Tea", "The user drinks oolong tea.")
        raw = chat(url, "eve", [{"role": "user", "content": "What oolong tea should I buy?"}])
        assert raw.status_code == 200 and raw.headers["x-memorelay-memories"] == "0"
        metrics = httpx.get(url + "/metrics").text
        assert 'memorelay_memory_failures_total{reason="timeout"} 1.0' in metrics
    with gateway(filters=injection()) as url:
        add(user_client(url, "eve"), "Tea", "The user drinks oolong tea.")
        db = sqlite3.connect(tmp_path / "db" / "memorelay.db")
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:  # break retrieval underneath the running gateway
            if "fts" in table:
                db.execute(f"DROP TABLE IF EXISTS {table}")
        db.execute("DROP TABLE IF EXISTS memories")
        db.commit()
        db.close()
        raw = chat(url, "eve", [{"role": "user", "content": "What oolong tea should I buy?"}])
        assert raw.status_code == 200 and raw.headers["x-memorelay-memories"] == "0"
        assert 'memorelay_memory_failures_total{reason="error"} 1.0' in httpx.get(url + "/metrics").text


def test_timeout_ms_bounds_a_cold_user_a_restart_and_an_edit(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    timeout_ms = 50
    margin_ms = 500  # the event loop's own jitter on a busy machine; a load inline costs seconds
    question = [{"role": "user", "content": "How do I deploy my Python project on Kubernetes?"}]

    overheads: list[float] = []

    def injected() -> int:
        raw = chat(url, "dana", question)
        overheads.append(float(raw.headers["x-memorelay-overhead-ms"]))
        return int(raw.headers["x-memorelay-memories"])

    def bounded_then_injected() -> None:
        overheads.clear()
        wait_for(injected)  # cold at first: the load goes on in the background, a later request has it
        assert max(overheads) < timeout_ms + margin_ms, overheads

    options = injection(timeout_ms=timeout_ms)
    with gateway(filters=options) as url:
        c = user_client(url, "dana")
        for i in range(400):
            add(c, f"Project {i}", f"The user's project {i} is written in Python and runs on Kubernetes.", "technical")
        bounded_then_injected()
        first = c.get("/api/memories", params={"limit": 1}).json()["data"][0]
        edited = c.patch(f"/api/memories/{first['id']}", json={"content": "The user's project uses Go."})
        assert edited.status_code == 200
        bounded_then_injected()  # the edit dropped the user's working set
    with gateway(filters=options) as url:  # a restart: nothing held
        bounded_then_injected()
