"""Two gateways (replicas) on one PostgreSQL: what one writes, the other serves at once."""

from __future__ import annotations

import time
from collections.abc import Callable

from gateway.memory import MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_injection import block_of, chat, injection
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream


def within(seconds: float, check: Callable[[], bool]) -> bool:
    give_up = time.monotonic() + seconds
    while not check():
        if time.monotonic() > give_up:
            return False
        time.sleep(0.02)
    return True


def test_a_write_on_one_replica_is_served_by_another(gateway: GatewayFactory, fake: FakeUpstream, pg_url: str) -> None:
    options = {"filters": injection(), "memory": {"database": pg_url}}
    with gateway(**options) as a, gateway(**options) as b:
        alice_a, alice_b = user_client(a, "alice"), user_client(b, "alice")
        memory = add(alice_a, "Secret project", "Alice works on project Nightingale.")
        question = [{"role": "user", "content": "Tell me about project Nightingale"}]

        raw = chat(b, "alice", question)
        assert "Nightingale" in block_of(fake.last_chat().body["messages"])  # type: ignore[index]
        assert raw.headers["x-memorelay-memories"] == "1"
        chat(b, "bob", question)  # nor does the other replica mix users up
        assert MEMORY_BLOCK_START not in str(fake.last_chat().body)

        assert alice_a.delete(f"/api/memories/{memory['id']}").status_code in (200, 204)
        raw = chat(b, "alice", question)  # acknowledged on A: never injected by B afterwards
        assert raw.headers["x-memorelay-memories"] == "0"
        assert MEMORY_BLOCK_START not in str(fake.last_chat().body)

        # B caches settings; a change on A reaches it within a second (LISTEN/NOTIFY)
        assert alice_b.get("/api/memories/settings").json() == {"learning_enabled": True}
        assert alice_a.put("/api/memories/settings", json={"learning_enabled": False}).status_code == 200
        assert within(1.0, lambda: alice_b.get("/api/memories/settings").json() == {"learning_enabled": False})
