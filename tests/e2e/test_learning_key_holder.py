"""Pass-through caller keys and several replicas (gateway/learning/runtime/workers.py): the key stays in
the memory of the replica that queued the job, never in the database; a job whose key another
replica holds is claimed here only after the holder's wait, and then learned offline (counted)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from gateway.learning.steps.job_payload import job_payload
from gateway.store.sqlite import SQLiteLearningStore
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, HIGH, learner, learning, learning_calls, log_entries, memories, say, wait_for
from tests.fake_upstream import FakeUpstream

FALLBACKS = "memorelay_learning_key_fallbacks_total"


def _database(tmp_path: Path) -> Path:
    return tmp_path / "db" / "memorelay.db"


def _raw(tmp_path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in _database(tmp_path).parent.glob("memorelay.db*"))


def test_the_caller_key_is_used_by_its_holder_and_never_stored(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    items = [{"title": "Build tool", "content": "The user's team builds with Bazel.", "category": "technical"}]
    fake.responder = learner(HIGH, items)
    with gateway(filters=learning(model="learner-model"), auth={"admin_key": ADMIN}) as url:
        assert say(url, "lee", "We build everything with Bazel.")["x-memorelay-learning"] == "queued"
        wait_for(lambda: memories(url, "lee"))
        (call,) = learning_calls(fake)
        assert call.headers["authorization"] == "Bearer sk-app"  # learned with the caller's own key
        assert f"{FALLBACKS} 0.0" in httpx.get(url + "/metrics").text
    assert b"sk-app" not in _raw(tmp_path)


def test_a_job_whose_key_another_replica_holds_waits_then_is_learned_offline(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    async def enqueue() -> None:
        _database(tmp_path).parent.mkdir(parents=True, exist_ok=True)
        store = SQLiteLearningStore(str(_database(tmp_path)))
        await store.open()
        try:
            payload = job_payload(
                [{"role": "user", "content": "Remember: our staging cluster is called orca-staging."}],
                "Noted.",
                "chat_completions",
            )
            await store.enqueue("t", "pat", None, "gpt-4o-mini", payload, key_holder="a-replica-that-died")
        finally:
            await store.close()

    asyncio.run(enqueue())
    # a pass-through gateway with no upstream key: the job needs its caller's key, held elsewhere
    with gateway(filters=learning(model="learner-model", lease_s=1), auth={"admin_key": ADMIN}) as url:
        entry = wait_for(lambda: log_entries(url), timeout=20)[0]
        assert entry["learner"] == "heuristic" and entry["tenant"] == "t"
        assert f"{FALLBACKS} 1.0" in httpx.get(url + "/metrics").text
        assert learning_calls(fake) == []  # no upstream call without the caller's key
