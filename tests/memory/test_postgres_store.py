"""The PostgreSQL backend against a real PostgreSQL (tests/pg.py): migrations, memories and
their visibility, keyword and vector candidates, the change feed and the shared learning queue."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import psycopg
import pytest

from gateway.memory.types import Memory, TenantConflict
from gateway.store import AuditEntry, Change, KeywordOptions, Visibility
from gateway.store.keyword_index import SHARED_OWNER, parse_query
from gateway.store.postgres import PostgresLearningStore, PostgresMemoryStore, search, vectors
from gateway.store.postgres.connection import MAX_IDS
from gateway.store.postgres.schema import MIGRATIONS, migrate
from tests.memory.test_store_contract import when_due
from tests.records import stored_memory
from tests.waits import scaled

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def mem(
    tenant: str,
    user: str,
    title: str,
    content: str | None = None,
    *,
    scope: str = "personal",
    category: str = "user_preference",
    source: str = "manual",
    stamp: str = "2025-01-01T00:00:00Z",
) -> Memory:
    return stored_memory(
        id="mem_" + uuid.uuid4().hex,
        tenant=tenant,
        user_id=user if scope == "personal" else "",
        scope=scope,
        category=category,
        title=title,
        content=content or title,
        source=source,
        score=1.0,
        created_at=stamp,
        updated_at=stamp,
    )


@asynccontextmanager
async def memory_store(url: str) -> AsyncIterator[PostgresMemoryStore]:
    store = PostgresMemoryStore(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


@asynccontextmanager
async def learning_store(url: str) -> AsyncIterator[PostgresLearningStore]:
    store = PostgresLearningStore(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    out: np.ndarray = a / np.linalg.norm(a)
    return out


def test_create_backend_puts_both_stores_on_one_pool(pg_url: str, tmp_path: Path) -> None:
    from gateway.config import config_from_dict
    from gateway.store.postgres import create_backend

    config = config_from_dict({"memory": {"database": str(tmp_path / "x.db")}})
    config = config.model_copy(update={"memory": config.memory.model_copy(update={"database": pg_url})})
    backend = create_backend(config)
    assert backend.kind == "postgres"

    async def main() -> None:
        await backend.memories.open()
        await backend.learning.open()
        try:
            async with backend.memories.transaction():
                await backend.memories.insert([mem("t1", "alice", "Alice likes tea")], None)
                # the learning store joins the memory store's transaction: one commit
                await backend.learning.enqueue("t1", "alice", None, "m", {"turn": 1})
            assert await backend.learning.pending_count() == 1
            assert await backend.memories.count_personal("t1", "alice") == 1
        finally:
            await backend.learning.close()
            await backend.memories.close()

    run(main())


# -- migrations ------------------------------------------------------------------------------
def test_migrations_run_once_when_tasks_start_together_and_again_do_nothing(pg_url: str) -> None:
    async def main() -> None:
        applied = await asyncio.gather(*(migrate(pg_url) for _ in range(4)))
        assert sorted(applied, key=len) == [[], [], [], list(range(1, len(MIGRATIONS) + 1))]
        assert await migrate(pg_url) == []

    run(main())
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT version FROM memorelay_migrations ORDER BY version").fetchall()
    assert [r[0] for r in rows] == list(range(1, len(MIGRATIONS) + 1))


def test_migrations_safe_when_two_processes_start_at_once(pg_url: str) -> None:
    script = (
        "import asyncio, sys; from gateway.store.postgres.schema import migrate; "
        "print(asyncio.run(migrate(sys.argv[1])))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen([sys.executable, "-c", script, pg_url], stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    outputs = sorted(p.communicate(timeout=60)[0].strip() for p in procs)
    assert [p.returncode for p in procs] == [0, 0]
    assert outputs == sorted(["[]", str(list(range(1, len(MIGRATIONS) + 1)))])


# -- memories, visibility, isolation ---------------------------------------------------------
def test_crud_and_visibility_keep_users_and_tenants_apart(pg_url: str) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as s:
            alice = mem("t1", "alice", "Alice likes tea", stamp="2025-01-01T00:00:01Z")
            bob = mem("t1", "bob", "Bob likes coffee", stamp="2025-01-01T00:00:02Z")
            other = mem("t2", "alice", "Other tenant alice", stamp="2025-01-01T00:00:03Z")
            shared = mem("t1", "", "VPN", scope="shared", category="organizational", stamp="2025-01-01T00:00:04Z")
            system = mem("t1", "", "Be concise", scope="system", category="domain", stamp="2025-01-01T00:00:05Z")
            await s.insert([alice, bob, other, shared, system], None)

            page, total = await s.list_visible(Visibility("t1", "alice"), limit=10, offset=0)
            assert [m.id for m in page] == [system.id, shared.id, alice.id] and total == 3
            page, total = await s.list_visible(Visibility("t1", None), limit=10, offset=0)
            assert {m.id for m in page} == {shared.id, system.id} and total == 2
            page, _ = await s.list_visible(Visibility("t1", "alice", personal_only=True), limit=10, offset=0)
            assert [m.id for m in page] == [alice.id]
            page, _ = await s.list_visible(Visibility("t2", "alice"), limit=10, offset=0)
            assert [m.id for m in page] == [other.id]
            page, total = await s.list_visible(Visibility("t1", "alice"), limit=1, offset=1)
            assert [m.id for m in page] == [shared.id] and total == 3

            got = await s.fetch_one(alice.id)
            assert got == alice
            await s.write_fields(alice.id, {"enabled": False, "disabled_reason": "user", "tags": ["tea", "茶"]})
            page, total = await s.list_visible(Visibility("t1", "alice", personal_only=True), limit=10, offset=0)
            assert page == [] and total == 0
            page, _ = await s.list_visible(
                Visibility("t1", "alice", personal_only=True, include_disabled=True), limit=10, offset=0
            )
            assert page[0].enabled is False and page[0].tags == ["tea", "茶"]
            assert await s.count_personal("t1", "alice") == 1
            assert await s.count_visible("t1", "alice") == 3  # disabled included
            assert await s.tenants() == ["t1", "t2"]
            users = await s.users("t1")
            assert users == [
                {"tenant": "t1", "user_id": "alice", "memories": 1, "enabled": 0},
                {"tenant": "t1", "user_id": "bob", "memories": 1, "enabled": 1},
            ]
            assert await s.tenants_holding("alice") == [("t1", 1), ("t2", 1)]

            await s.delete([bob.id])
            assert await s.fetch([bob.id, other.id]) == {other.id: other}

    run(main())


def test_a_deleted_memorys_text_stays_nowhere_in_the_audit_log(pg_url: str) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as s:
            m = mem("t1", "alice", "My secret diagnosis", "Diagnosed with something private")
            kept = mem("t1", "alice", "Kept memory")
            async with s.transaction():
                await s.insert([m, kept], None)
                for x in (m, kept):
                    after = {"title": x.title, "category": x.category}
                    await s.audit(
                        AuditEntry("2025-01-01T00:00:00Z", "alice", "create", "t1", "alice", x.id, after=after)
                    )
            await s.delete([m.id])
            entries, total = await s.audit_entries("t1", limit=10, offset=0)
            assert total == 2
            by_id = {e.memory_id: e for e in entries}
            assert by_id[m.id].after == {"fields": ["title", "category"]}
            assert by_id[kept.id].after == {"title": "Kept memory", "category": "user_preference"}
        with psycopg.connect(pg_url) as conn:
            dump = conn.execute("SELECT string_agg(coalesce(after::text, ''), ' ') FROM audit_log").fetchone()
        assert dump is not None and "diagnosis" not in str(dump[0])

    run(main())


def test_settings_and_tenant_move(pg_url: str) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as s, learning_store(pg_url) as q:
            assert await s.get_settings("old", "alice") is None
            await s.put_settings("old", "alice", {"learning_enabled": False})
            assert await s.get_settings("old", "alice") == {"learning_enabled": False}
            await s.insert([mem("old", "alice", "Alice one"), mem("old", "bob", "Bob one")], None)
            await q.log(None, "old", "alice", {"added": []})
            await q.add_usage("old", "alice", 10, 5)
            await s.put_settings("new", "alice", {"learning_enabled": True})
            with pytest.raises(TenantConflict):
                await s.move_tenant("old", "new", "alice")
            assert await s.count_personal("old", "alice") == 1  # nothing moved
            await s.put_settings("new", "alice", {"learning_enabled": False})
            moved = await s.move_tenant("old", "new", "alice")
            assert moved == {"memories": 1, "settings": 1, "audit_entries": 0, "learning_rows": 2}
            assert await s.count_personal("new", "alice") == 1
            assert await s.count_personal("old", "bob") == 1
            assert (await q.stats("new"))["tokens_per_day"] != {}
            assert await s.move_tenant("old", "new", "alice") == {
                "memories": 0,
                "settings": 0,
                "audit_entries": 0,
                "learning_rows": 0,
            }
            stats = await s.admin_stats(None)
            assert stats.total == 2 and stats.users == 2 and stats.by_scope == {"personal": 2}

    run(main())


# -- keyword candidates ----------------------------------------------------------------------
def _ids(lists: list[tuple[list[tuple[str, float]], str]], kind: str) -> list[str]:
    return next((([mid for mid, _ in hits]) for hits, k in lists if k == kind), [])


@pytest.mark.parametrize("scan_max", [search.SCAN_MAX, 0], ids=["row-by-row", "text-indexes"])
def test_keyword_candidates_find_english_chinese_and_partial_words(
    pg_url: str, scan_max: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "SCAN_MAX", scan_max)  # small partitions scan rows, large use GIN

    async def main() -> None:
        async with memory_store(pg_url) as s:
            coffee = mem("t1", "alice", "Coffee", "Alice drinks espresso every morning")
            chinese = mem("t1", "alice", "饮品", "我喜欢喝咖啡，不喜欢喝茶")
            paint = mem("t1", "alice", "Hobby", "She enjoys watercolor painting on weekends")
            bobs = mem("t1", "bob", "Bob", "Bob drinks espresso and enjoys painting; 我喜欢喝咖啡")
            await s.insert([coffee, chinese, paint, bobs], None)
            where = Visibility("t1", "alice")

            lists = await s.keyword_candidates(where, parse_query("espresso please"), 10)
            assert _ids(lists, "words") == [coffee.id]
            lists = await s.keyword_candidates(where, parse_query("喜欢咖啡吗"), 10)
            assert _ids(lists, "cjk") == [chinese.id]
            lists = await s.keyword_candidates(where, parse_query("water"), 10)
            assert _ids(lists, "words") == []  # no word "water", nor one that stems to it
            assert _ids(lists, "substring") == [paint.id]  # inside "watercolor"
            lists = await s.keyword_candidates(where, parse_query("paints"), 10)
            assert _ids(lists, "words") == [paint.id]  # stemmed: paints ~ painting
            # bob's memories match every query above, and are never alice's candidates
            lists = await s.keyword_candidates(Visibility("t1", "bob"), parse_query("espresso painting 咖啡"), 10)
            assert {mid for hits, _ in lists for mid, _ in hits} == {bobs.id}
            # the retrieval settings choose the lists
            query = parse_query("espresso painting 咖啡")
            kinds = [kind for _, kind in await s.keyword_candidates(where, query, 10)]
            assert kinds == ["words", "cjk", "substring"]
            only_words = KeywordOptions(substrings=False)
            assert [kind for _, kind in await s.keyword_candidates(where, query, 10, only_words)] == ["words", "cjk"]
            too_many = KeywordOptions(substring_max_rows=2)  # alice sees 3 rows
            assert [kind for _, kind in await s.keyword_candidates(where, query, 10, too_many)] == ["words", "cjk"]
            no_words = KeywordOptions(words=False)
            assert [kind for _, kind in await s.keyword_candidates(where, query, 10, no_words)] == ["substring"]
            # ranked: a title hit beats a content hit
            titled = mem("t1", "alice", "Espresso machine", "A gift")
            await s.insert([titled], None)
            lists = await s.keyword_candidates(where, parse_query("espresso"), 10)
            assert _ids(lists, "words") == [titled.id, coffee.id]

    run(main())


# -- vector candidates -----------------------------------------------------------------------
def test_prepare_vectors_states(pg_url: str) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as s:
            assert await s.prepare_vectors("model-a", 4) == "rebuilt"
            assert await s.prepare_vectors("model-a", 4) == "loaded"
            assert await s.prepare_vectors("model-b", 3) == "reindex"
            assert await s.get_meta("embedding_model") == "model-a"
            assert await s.prepare_vectors("model-b", 3, reembedded=True) == "rebuilt"
            assert await s.get_meta("embedding_dim") == "3"
        with psycopg.connect(pg_url) as conn:
            rows = conn.execute("SELECT indexname FROM pg_indexes WHERE indexname LIKE 'memories_hnsw%'").fetchall()
        names = [r[0] for r in rows]
        assert names == ["memories_hnsw_3"]

    run(main())


def test_vector_candidates_ranked_by_cosine_within_visible_rows(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as s:
            await s.prepare_vectors("m", 3)
            near = mem("t1", "alice", "near")
            mid = mem("t1", "alice", "mid")
            far = mem("t1", "alice", "far")
            shared = mem("t1", "", "shared", scope="shared")
            bobs = mem("t1", "bob", "bob exact match")
            await s.insert(
                [near, mid, far, shared, bobs],
                np.stack([unit([1, 0.1, 0]), unit([1, 1, 0]), unit([0, 0, 1]), unit([1, 0.5, 0]), unit([1, 0, 0])]),
            )
            hits = await s.vector_candidates(Visibility("t1", "alice"), unit([1, 0, 0]), 10)
            assert [h[0] for h in hits] == [near.id, shared.id, mid.id, far.id]
            assert hits[0][1] == pytest.approx(float(unit([1, 0.1, 0])[0]), abs=1e-5)
            assert await s.vector_candidates(Visibility("t1", "alice"), unit([1, 0, 0]), 2) == hits[:2]
            # a large partition goes through HNSW (iterative scan); still only visible rows
            monkeypatch.setattr(vectors, "EXACT_MAX", 2)
            big = await s.vector_candidates(Visibility("t1", "alice"), unit([1, 0, 0]), 3)
            assert [h[0] for h in big] == [near.id, shared.id, mid.id]

    run(main())


@pytest.mark.parametrize("exact_max", [vectors.EXACT_MAX, 0], ids=["exact", "hnsw"])
def test_disabled_and_deleted_are_never_candidates_after_commit(
    pg_url: str, exact_max: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectors, "EXACT_MAX", exact_max)

    async def main() -> None:
        async with memory_store(pg_url) as writer, memory_store(pg_url) as reader:
            await writer.prepare_vectors("m", 3)
            a = mem("t1", "alice", "Alice espresso")
            b = mem("t1", "alice", "Alice espresso twice")
            await writer.insert([a, b], np.stack([unit([1, 0, 0]), unit([1, 0.2, 0])]))
            where = Visibility("t1", "alice")
            query = parse_query("espresso")

            async def everything() -> set[str]:
                found = {h[0] for h in await reader.vector_candidates(where, unit([1, 0, 0]), 10)}
                for hits, _ in await reader.keyword_candidates(where, query, 10):
                    found |= {h[0] for h in hits}
                return found

            assert await everything() == {a.id, b.id}
            await writer.write_fields(a.id, {"enabled": False, "disabled_reason": "user"})
            assert await everything() == {b.id}
            disabled = Visibility("t1", "alice", include_disabled=True)
            assert {h[0] for h in await reader.vector_candidates(disabled, unit([1, 0, 0]), 10)} == {a.id, b.id}
            await writer.delete([b.id])
            assert await everything() == set()

    run(main())


# -- change feed -----------------------------------------------------------------------------
def test_changes_reach_another_store_within_a_second(pg_url: str) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as a, memory_store(pg_url) as b:
            heard_b: asyncio.Queue[tuple[float, Change]] = asyncio.Queue()
            heard_a: list[Change] = []
            b.on_change(lambda c: heard_b.put_nowait((time.monotonic(), c)))
            a.on_change(heard_a.append)

            m = mem("t1", "alice", "Alice likes tea")
            start = time.monotonic()
            await a.insert([m], None)
            assert heard_a == [Change("memories", "t1", "alice")]  # at once, in the writer
            at, change = await asyncio.wait_for(heard_b.get(), scaled(1.0))
            assert change == Change("memories", "t1", "alice") and at - start < scaled(1.0)
            # naming the memory: the other replica re-reads that row, not the partition
            assert heard_a[0].ids == change.ids == frozenset({m.id})

            await a.put_settings("t1", "alice", {"learning_enabled": False})
            _, change = await asyncio.wait_for(heard_b.get(), 1.0)
            assert change == Change("settings", "t1", "alice")

            await a.insert([mem("t1", "", "Shared", scope="shared")], None)
            _, change = await asyncio.wait_for(heard_b.get(), 1.0)
            assert change == Change("memories", "t1", SHARED_OWNER)

            # a rolled-back transaction announces nothing; access counts are not a change
            with pytest.raises(RuntimeError):
                async with a.transaction():
                    await a.insert([mem("t1", "bob", "never")], None)
                    raise RuntimeError("abort")
            await a.add_access([(m.id, 1, "2025-01-02T00:00:00Z")])
            await a.write_fields(m.id, {"updated_at": "2025-01-03T00:00:00Z"})
            await a.delete([m.id])
            _, change = await asyncio.wait_for(heard_b.get(), 1.0)
            assert change == Change("memories", "t1", "alice") and change.ids == frozenset({m.id})
            assert heard_b.empty()

            # a change of many memories names none: the partition is read again whole
            many = [mem("t1", "carol", f"fact {i}") for i in range(MAX_IDS + 1)]
            await a.insert(many, None)
            _, change = await asyncio.wait_for(heard_b.get(), 1.0)
            assert change == Change("memories", "t1", "carol") and change.ids is None
            rows = await b.partition_rows("t1", "carol", ids=[many[0].id, many[1].id, "gone"])
            assert [r.id for r in rows.memories] == [many[0].id, many[1].id]

    run(main())


def test_the_change_feed_reconnects_and_then_says_everything_changed(pg_url: str) -> None:
    async def main() -> None:
        async with memory_store(pg_url) as a, memory_store(pg_url) as b:
            await a.insert([mem("t1", "alice", "Alice likes tea")], None)
            heard: asyncio.Queue[Change] = asyncio.Queue()
            await asyncio.sleep(0.2)  # b has heard of that insert before it starts listening here
            b.on_change(heard.put_nowait)
            with psycopg.connect(pg_url, autocommit=True) as admin:
                killed = admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND query LIKE 'LISTEN%%'"
                ).fetchall()
            assert len(killed) == 2  # one listener per store object
            # what happened while b was deaf is unknown to it: every tenant's users and shared
            # partition may have changed
            assert await asyncio.wait_for(heard.get(), 5.0) == Change("memories", "t1", "*")
            assert await asyncio.wait_for(heard.get(), 1.0) == Change("memories", "t1", SHARED_OWNER)
            assert await asyncio.wait_for(heard.get(), 1.0) == Change("settings", "t1", "*")
            await a.put_settings("t1", "alice", {"learning_enabled": True})
            assert await asyncio.wait_for(heard.get(), 1.0) == Change("settings", "t1", "alice")

    run(main())


# -- learning queue --------------------------------------------------------------------------
def test_two_stores_claim_200_jobs_each_exactly_once(pg_url: str) -> None:
    async def main() -> None:
        async with learning_store(pg_url) as one, learning_store(pg_url) as two:
            ids = [await one.enqueue("t1", f"u{i}", None, "m", {"i": i}) for i in range(200)]
            claimed: list[tuple[str, int]] = []

            async def worker(store: PostgresLearningStore, name: str) -> None:
                while (job := await store.claim(60, replica=name, holder_wait_s=0)) is not None:
                    claimed.append((name, job.id))
                    assert job.payload == {"i": ids.index(job.id)}
                    await store.finish(job)

            await asyncio.gather(*(worker(s, n) for s, n in ((one, "a"), (two, "b")) for _ in range(4)))
            assert sorted(j for _, j in claimed) == sorted(ids)
            assert {n for n, _ in claimed} == {"a", "b"}
            assert await one.pending_count() == 0 and await two.job_counts() == {"done": 200}
        with psycopg.connect(pg_url) as conn:
            left = conn.execute("SELECT COUNT(*) FROM learning_jobs WHERE payload IS NOT NULL").fetchone()
        assert left == (0,)  # payloads wiped when done

    run(main())


def test_an_expired_lease_makes_a_job_claimable_again(pg_url: str) -> None:
    async def main() -> None:
        async with learning_store(pg_url) as one, learning_store(pg_url) as two:
            job_id = await one.enqueue("t1", "alice", "c1", "m", {"turn": 1})
            first = await one.claim(scaled(0.3), replica="a", holder_wait_s=0)
            assert first is not None and first.id == job_id and first.attempts == 1
            assert await two.claim(60, replica="b", holder_wait_s=0) is None
            assert await two.pending_count() == 1
            again = await when_due(lambda: two.claim(60, replica="b", holder_wait_s=0))
            assert again.id == job_id and again.attempts == 2

    run(main())


def test_retry_backoff_dead_letter_and_operator_actions(pg_url: str) -> None:
    async def main() -> None:
        async with learning_store(pg_url) as q:
            job_id = await q.enqueue("t1", "alice", None, "m", {"turn": 1})
            job = await q.claim(60, replica="a", holder_wait_s=0)
            assert job is not None
            await q.retry(job, scaled(0.3), "upstream 503")
            assert await q.claim(60, replica="a", holder_wait_s=0) is None  # not due yet
            job = await when_due(lambda: q.claim(60, replica="a", holder_wait_s=0))
            assert job.attempts == 2
            await q.retry(job, 0, "locked", count_attempt=False)
            job = await q.claim(60, replica="a", holder_wait_s=0)
            assert job is not None and job.attempts == 2

            await q.finish(job, "dead", "gave up")
            dead, total = await q.dead_jobs()
            assert total == 1 and dead[0]["id"] == job_id and dead[0]["retryable"] is True
            assert dead[0]["last_error"] == "gave up"
            assert await q.pending_count() == 0
            assert await q.retry_dead(job_id)
            job = await q.claim(60, replica="a", holder_wait_s=0)
            assert job is not None and job.attempts == 1 and job.payload == {"turn": 1}
            await q.finish(job, "dead", "gave up again")
            assert await q.wipe_dead_payloads(tenant="t1", user_id="alice") == 1
            assert not await q.retry_dead(job_id)  # its conversation is gone
            assert await q.discard_dead(job_id)
            assert await q.job_counts() == {"discarded": 1}

    run(main())


def test_a_job_waits_for_its_key_holder_before_another_replica_takes_it(pg_url: str) -> None:
    async def main() -> None:
        async with learning_store(pg_url) as q:
            await q.enqueue("t1", "alice", None, "m", {}, key_holder="a")
            assert await q.claim(60, replica="b", holder_wait_s=30) is None
            job = await q.claim(60, replica="a", holder_wait_s=30)
            assert job is not None
            await q.retry(job, 0, "again")
            await asyncio.sleep(0.2)
            job = await q.claim(60, replica="b", holder_wait_s=0.1)  # the holder had its time
            assert job is not None

    run(main())


def test_learning_log_usage_and_prompts(pg_url: str) -> None:
    async def main() -> None:
        async with learning_store(pg_url) as q:
            assert await q.writable()
            await q.log(1, "t1", "alice", {"added": ["x"], "score": 0.9})
            await q.log(2, "t2", "bob", {"added": []})
            entries, total = await q.log_entries(tenant="t1")
            assert total == 1 and entries[0]["added"] == ["x"] and entries[0]["job_id"] == 1
            assert len(await q.log_since("2000-01-01", None, 10)) == 2
            await q.add_usage("t1", "alice", 10, 5)
            await q.add_usage("t1", "alice", 1, 1)
            usage = (await q.stats("t1"))["tokens_per_day"]
            assert list(usage.values()) == [{"prompt_tokens": 11, "completion_tokens": 6, "jobs": 2}]
            text, origin = await q.get_prompt("scoring")
            assert origin == "default" and text
            await q.put_prompt("scoring", "Score it.", actor="admin")
            assert await q.get_prompt("scoring") == ("Score it.", "override")
            await q.reset_prompt("scoring")
            assert (await q.get_prompt("scoring"))[1] == "default"

    run(main())
