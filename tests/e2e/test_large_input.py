"""Huge input is reduced to bounded work: one tenant's 1 MB chat never stalls another's memory.

Once, a 0.96 MB chat held the single embedding thread for ~37 s, so every other
tenant's chats got no memories and ``POST /api/memories`` waited behind it.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import httpx

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream

LOCAL = {"embedding": {"provider": "local"}}
QUESTION = "Which Neovim plugins suit me?"


def paste(size: int) -> str:
    """``size`` characters of varied English words (a pasted document)."""
    words = "the quick brown fox jumps over a lazy dog near river mountain table window paper".split()
    rng = random.Random(7)
    return " ".join(rng.choice(words) for _ in range(size // 4))[:size]


def chat(url: str, key: str, user: str, text: str) -> tuple[float, httpx.Response]:
    started = time.perf_counter()
    r = httpx.post(
        url + "/v1/chat/completions",
        json={"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]},
        headers={"authorization": f"Bearer {key}", "x-memorelay-user": user},
        timeout=120,
    )
    return time.perf_counter() - started, r


def test_huge_chat_stalls_no_other_tenant_and_keeps_its_question(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    # a generous timeout: on a loaded machine a bounded query still fits, a 1 MB one never does
    filters = [{"memory_injection": {"top_k": 5, "timeout_ms": 2000}}]
    with gateway(filters=filters, memory=LOCAL) as url:
        a, b = user_client(url, "alice", key="sk-tenant-a"), user_client(url, "bob", key="sk-tenant-b")
        for c in (a, b):
            add(c, "Editor", "The user edits code in Neovim with the LazyVim distribution.", category="technical")
        big = paste(1_000_000) + "\n\n" + QUESTION
        result: dict[str, Any] = {}
        thread = threading.Thread(target=lambda: result.update(a=chat(url, "sk-tenant-a", "alice", big)))
        thread.start()
        # tenant A's huge chat has been through retrieval (with memories or past its timeout)
        wait_for(lambda: any(len(r.raw) > 1_000_000 for r in fake.chats()), timeout=60)
        elapsed, answer = chat(url, "sk-tenant-b", "bob", QUESTION)
        assert answer.status_code == 200
        assert int(answer.headers["x-memorelay-memories"]) >= 1
        assert elapsed < 2.0
        started = time.perf_counter()
        add(b, "Pets", "The user has a cat named Miso.")
        oversized = b.post("/api/memories", json={"title": "Paste", "content": paste(190_000), "category": "technical"})
        assert time.perf_counter() - started < 2.0
        assert oversized.status_code == 400 and oversized.json()["error"]["param"] == "content"
        thread.join(60)
    a_elapsed, a_answer = result["a"]
    # the question after the 1 MB paste still found tenant A's own memory, in bounded time
    assert a_answer.status_code == 200 and a_answer.headers["x-memorelay-memories"] == "1"
    assert a_elapsed < 10
