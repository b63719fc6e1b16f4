"""Two gateways (replicas) on one PostgreSQL: what one writes, the other serves at once; the
learning queue is shared (each job learned once, a killed replica's job finished by the other)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import openai
import psycopg

from gateway.learning.runtime.pending import PENDING_TTL_S
from gateway.memory import MEMORY_BLOCK_START
from tests.conftest import GatewayFactory
from tests.e2e.test_durability import gateway_process, kill9
from tests.e2e.test_injection import block_of, chat, injection
from tests.e2e.test_learning import ADMIN, HIGH, learner, learning, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream
from tests.waits import SCALE, ceiling


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


def test_changes_reach_the_other_replicas_working_set_and_acknowledged_removals_are_never_injected(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str
) -> None:
    options = {"filters": injection(), "memory": {"database": pg_url}}
    question = [{"role": "user", "content": "What is my parrot called?"}]

    def injected(url: str, user: str) -> str:
        chat(url, user, question)
        return block_of(fake.last_chat().body["messages"])  # type: ignore[index]

    with gateway(**options) as a, gateway(**options) as b:
        for change in ("create", "delete", "disable"):
            user = f"kiwi-{change}"
            assert "Kiwi" not in injected(b, user)  # b loads the user's (empty) working set
            time.sleep(0.5)  # the load runs beside the first request; let it land
            memory = add(user_client(a, user), "Pet", f"{user} has a parrot named Kiwi.")
            written = time.monotonic()
            assert within(5.0, lambda u=user: "Kiwi" in injected(b, u))  # type: ignore[misc]
            seen = time.monotonic() - written
            if change == "create":
                assert seen <= 1.0, f"the write took {seen:.2f} s to reach the other replica"
                continue
            time.sleep(0.5)  # b now serves the user from its working set
            if change == "delete":
                assert user_client(a, user).delete(f"/api/memories/{memory['id']}").status_code == 204
            else:
                r = user_client(a, user).patch(f"/api/memories/{memory['id']}", json={"enabled": False})
                assert r.status_code == 200, r.text
            # acknowledged by a: from now on neither replica injects it, not even once
            for _ in range(3):
                assert "Kiwi" not in injected(b, user)
                assert "Kiwi" not in injected(a, user)


STORE_SEARCHES = 'memorelay_memory_searches_total{source="store"}'


def _failed_open(url: str) -> float:
    return sum(_metric(url, f'memorelay_memory_failures_total{{reason="{r}"}}') for r in ("timeout", "error"))


def test_another_replicas_create_is_injected_within_half_a_second_and_never_fails_injection_open(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str
) -> None:
    options = {"filters": injection(), "memory": {"database": pg_url}}
    question = [{"role": "user", "content": "What is my parrot called, and which tea do I drink?"}]
    with gateway(**options) as a, gateway(**options) as b:
        alice_a = user_client(a, "alice")
        add(alice_a, "Tea", "Alice drinks oolong tea every morning.")

        def chat_b() -> str:
            """The memory block of one chat through b, which injects the tea memory every time
            unless injection failed open."""
            raw = chat(b, "alice", question)
            assert raw.headers["x-memorelay-memories"] != "0", "injection failed open"
            return block_of(fake.last_chat().body["messages"])  # type: ignore[index]

        def answered_from_working_set() -> bool:
            before = _metric(b, STORE_SEARCHES)
            return "oolong" in chat_b() and _metric(b, STORE_SEARCHES) == before

        wait_for(answered_from_working_set)  # b holds alice's partitions now
        store, failed = _metric(b, STORE_SEARCHES), _failed_open(b)

        pet = add(alice_a, "Pet", "Alice has a parrot named Kiwi.")
        written = time.monotonic()
        while "Kiwi" not in chat_b():  # each chat waits for its answer: no sleep needed
            assert time.monotonic() - written < ceiling(30), "the other replica never injected the memory"
        seen = time.monotonic() - written
        assert seen <= 0.5 * SCALE, f"the create took {seen:.2f} s to be injected by the other replica"
        # the change was applied to b's working set: no chat meanwhile went to the database
        assert (_metric(b, STORE_SEARCHES), _failed_open(b)) == (store, failed)

        r = alice_a.patch(f"/api/memories/{pet['id']}", json={"content": "Alice's parrot is called Mango now."})
        assert r.status_code == 200, r.text
        block = chat_b()  # acknowledged on a: b injects the new text at once, never the old one
        assert "Mango" in block and "Kiwi" not in block
        assert alice_a.delete(f"/api/memories/{pet['id']}").status_code == 204
        for _ in range(3):
            assert "parrot" not in chat_b()
        assert (_metric(b, STORE_SEARCHES), _failed_open(b)) == (store, failed)


def _client(url: str, user: str) -> openai.OpenAI:
    headers = {"X-Memorelay-User": user}
    return openai.OpenAI(base_url=url + "/v1", api_key="gw-key", max_retries=0, default_headers=headers)


def _jobs(pg_url: str) -> list[tuple[str, int]]:
    with psycopg.connect(pg_url) as conn:
        return [(str(r[0]), int(r[1])) for r in conn.execute("SELECT status, attempts FROM learning_jobs ORDER BY id")]


def test_a_killed_replicas_job_is_learned_by_the_other_after_its_lease(
    tmp_path: Path, upstream_url: str, fake: FakeUpstream, pg_url: str
) -> None:
    item = {"title": "Build", "content": "The team builds with Bazel.", "category": "technical"}
    fake.responder = learner(HIGH, [item])
    config: dict[str, Any] = {
        "auth": {"keys": [{"key": "gw-key", "tenant": "acme"}], "admin_key": "adm"},
        "upstreams": {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}},
        "memory": {"database": pg_url, "embedding": {"provider": "none"}},
        "filters": [{"learning": {"model": "gated-learner", "workers": 1, "lease_s": 2}}],
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with gateway_process(config, tmp_path / "a") as (a, proc_a):
        _client(a, "lee").chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "We build with Bazel."}]
        )
        wait_for(lambda: fake.gated_calls >= 1)  # A's worker holds the job, waiting on its learner call
        with gateway_process(config, tmp_path / "b") as (b, _):
            kill9(proc_a)
            fake.release.set()
            headers = {"authorization": "Bearer gw-key", "x-memorelay-user": "lee"}
            found = wait_for(lambda: httpx.get(b + "/api/memories", headers=headers).json()["data"], timeout=30)
            assert [m["content"] for m in found] == ["The team builds with Bazel."]
            time.sleep(0.3)
            assert len(httpx.get(b + "/api/memories", headers=headers).json()["data"]) == 1
    assert _jobs(pg_url) == [("done", 2)]  # claimed by A, then by B once A's lease ran out


def test_200_jobs_queued_on_two_replicas_are_each_learned_once(tmp_path: Path, upstream_url: str, pg_url: str) -> None:
    config: dict[str, Any] = {
        "auth": {"keys": [{"key": "gw-key", "tenant": "acme"}]},
        "upstreams": {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}},
        "memory": {"database": pg_url, "embedding": {"provider": "none"}},
        "filters": [{"learning": {"model": "heuristic", "workers": 2, "lease_s": 30}}],
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with gateway_process(config, tmp_path / "a") as (a, _), gateway_process(config, tmp_path / "b") as (b, _):

        def one(i: int) -> None:
            said = f"Remember: project number {i} ships in week {i % 50}."
            _client((a, b)[i % 2], f"user{i % 20}").chat.completions.create(
                model="gpt-4o-mini", messages=[{"role": "user", "content": said}]
            )

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(one, range(200)))
        assert wait_for(lambda: [s for s, _ in _jobs(pg_url)] == ["done"] * 200, timeout=120)
    assert {attempts for _, attempts in _jobs(pg_url)} == {1}  # none was claimed twice


def _metric(url: str, name: str) -> float:
    """A counter or gauge of one replica's /metrics (0 when it has no sample)."""
    for line in httpx.get(url + "/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def test_max_pending_counts_the_queue_of_every_replica(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str
) -> None:
    fake.responder = learner(HIGH, [])
    options: dict[str, Any] = {
        "memory": {"database": pg_url},
        # the learner never answers until released: every job stays pending or running
        "filters": learning(model="gated-learner", max_pending=3),
        "auth": {"admin_key": ADMIN},
    }
    try:
        with gateway(**options) as a, gateway(**options) as b:
            for n in range(3):
                assert say(a, f"user{n}", "I prefer Go.")["x-memorelay-learning"] == "queued"
            assert say(a, "user3", "I prefer Go.")["x-memorelay-learning"] == "skipped; reason=queue-full"
            # B queued nothing itself; it reads the shared count at most PENDING_TTL_S old
            time.sleep(PENDING_TTL_S + 0.3)
            started = time.monotonic()
            assert say(b, "user4", "I prefer Rust.")["x-memorelay-learning"] == "skipped; reason=queue-full"
            assert time.monotonic() - started < 1  # the decision did not wait on the database
            assert _metric(b, "memorelay_learning_pending") == 3
            assert _metric(b, 'memorelay_learning_skipped_total{reason="queue-full"}') == 1
            fake.release.set()
            # once the jobs are learned (no bound: on a busy machine that takes what it takes), B
            # sees the count drop within the count's freshness and queues again
            assert within(ceiling(), lambda: _metric(b, "memorelay_learning_pending") == 0)
            assert say(b, "user4", "I prefer Rust.")["x-memorelay-learning"] == "queued"
    finally:
        fake.release.set()


def _leases_lost(*replicas: str) -> float:
    return sum(_metric(url, "memorelay_learning_leases_lost_total") for url in replicas)


def test_a_worker_whose_lease_was_taken_over_writes_nothing(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str, upstream_url: str
) -> None:
    item = {"title": "Build", "content": "The team builds with Bazel.", "category": "technical"}
    fake.responder = learner(HIGH, [item])
    options: dict[str, Any] = {
        "memory": {"database": pg_url},
        # a configured upstream key: any replica may learn any job at once (no caller-key affinity)
        "upstreams": {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}},
        "filters": learning(model="gated-learner", lease_s=2),
        "auth": {"admin_key": ADMIN},
    }
    try:
        with gateway(**options) as a, gateway(**options) as b:
            say(a, "lee", "We build everything with Bazel.")
            wait_for(lambda: fake.gated_calls >= 1)  # one replica's worker holds the job, in its learner call
            # that worker stalls past its lease and the job is claimed again (simulated: its lease
            # is made to run out under another claim's token); the other replica's worker takes it
            with psycopg.connect(pg_url) as conn:
                conn.execute("UPDATE learning_jobs SET lease_until = 0, lease_holder = 'a-later-claim'")
            wait_for(lambda: fake.gated_calls >= 2, timeout=10)
            time.sleep(1.0)  # more than lease_s / 3: the first worker's heartbeat has met the new claim
            fake.release.set()
            assert wait_for(lambda: _jobs(pg_url) == [("done", 2)], timeout=15)
            # the first worker returns from its learner call, finds its lease lost and counts it
            wait_for(lambda: _leases_lost(a, b) >= 1)
            assert [m["content"] for m in memories(a, "lee")] == ["The team builds with Bazel."]
            assert len(log_entries(a)) == 1
            assert _leases_lost(a, b) == 1
    finally:
        fake.release.set()


def test_a_slow_but_alive_worker_keeps_its_job(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str, upstream_url: str
) -> None:
    item = {"title": "Build", "content": "The team builds with Bazel.", "category": "technical"}
    fake.responder = learner(HIGH, [item])
    options: dict[str, Any] = {
        "memory": {"database": pg_url},
        "upstreams": {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}},
        "filters": learning(model="gated-learner", lease_s=1),
        "auth": {"admin_key": ADMIN},
    }
    try:
        with gateway(**options) as a, gateway(**options) as b:
            say(a, "lee", "We build everything with Bazel.")
            wait_for(lambda: fake.gated_calls >= 1)
            time.sleep(3.0)  # three leases long: its heartbeat renews the lease, no replica takes it over
            assert fake.gated_calls == 1 and _jobs(pg_url) == [("running", 1)]
            fake.release.set()
            assert wait_for(lambda: _jobs(pg_url) == [("done", 1)], timeout=15)
            assert [m["content"] for m in memories(b, "lee")] == ["The team builds with Bazel."]
            assert len(log_entries(a)) == 1
    finally:
        fake.release.set()
