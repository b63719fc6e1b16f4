"""The store contract: the same tests against every backend, through ``MemoryStore``,
``LearningStore`` and ``ConsoleStore`` only (``gateway/store/__init__.py``). The ``backend`` fixture
(tests/memory/conftest.py) runs each on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np
import pytest

from gateway.memory.types import Memory, TenantConflict
from gateway.store import (
    AuditEntry,
    Backend,
    Change,
    ConsoleSession,
    Decay,
    Reflection,
    Review,
    SettingsRow,
    Use,
    Visibility,
)
from gateway.store.keyword_index import SHARED_OWNER, parse_query
from tests.records import stored_memory
from tests.waits import ceiling, scaled

T = TypeVar("T")
Factory = Callable[[], Backend]
DIM = 4


def run(factory: Factory, body: Callable[[Backend], Awaitable[T]]) -> T:
    """``body`` on one opened backend of ``factory``, closed afterwards."""

    async def main() -> T:
        backend = factory()
        await backend.open()
        try:
            return await body(backend)
        finally:
            await backend.close()

    return asyncio.run(main())


def mem(
    mid: str,
    title: str,
    content: str = "",
    *,
    tenant: str = "t",
    user: str = "u",
    scope: str = "personal",
    category: str = "user_preference",
    created: str = "2026-01-01T00:00:00Z",
    source: str = "manual",
) -> Memory:
    return stored_memory(
        id=mid,
        tenant=tenant,
        user_id=user if scope == "personal" else "",
        scope=scope,
        category=category,
        title=title,
        content=content or title,
        tags=["tag"],
        source=source,
        score=1.0,
        created_at=created,
        updated_at=created,
    )


def vec(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


async def eventually(check: Callable[[], bool], timeout_s: float = 2.0) -> bool:
    """Whether ``check`` holds within ``timeout_s`` (changes reach other replicas within 1 s)."""
    give_up = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > give_up:
            return False
        await asyncio.sleep(0.02)
    return True


async def _people(b: Backend) -> None:
    """u's two personal memories, v's one, a shared one, and one of tenant t2."""
    await b.memories.insert(
        [
            mem("m_u1", "Green tea", "The user drinks green tea every morning", created="2026-01-01T00:00:01Z"),
            mem("m_u2", "Cat", "The user has a cat called Mochi", created="2026-01-01T00:00:02Z"),
            mem("m_v1", "Coffee", "Another user drinks coffee", user="v", created="2026-01-01T00:00:03Z"),
            mem("m_sh", "VPN", "Use the corporate VPN", scope="shared", category="organizational"),
            mem("m_t2", "Tea elsewhere", "Tea in another tenant", tenant="t2"),
        ],
        np.stack([vec(1, 0, 0, 0), vec(0, 1, 0, 0), vec(1, 0.1, 0, 0), vec(0, 0, 1, 0), vec(1, 0, 0, 0)]),
    )


# -- memories ---------------------------------------------------------------------------------
def test_crud_and_visibility(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await _people(b)
        got = await s.fetch(["m_u1", "m_v1", "missing"])
        assert set(got) == {"m_u1", "m_v1"} and got["m_u1"].tags == ["tag"]
        page, total = await s.list_visible(Visibility("t", "u"), limit=10, offset=0)
        assert {m.id for m in page} == {"m_u1", "m_u2", "m_sh"} and total == 3
        page, _ = await s.list_visible(Visibility("t", None), limit=10, offset=0)
        assert [m.id for m in page] == ["m_sh"]
        page, _ = await s.list_visible(Visibility("t", "u", personal_only=True), limit=10, offset=0)
        assert {m.id for m in page} == {"m_u1", "m_u2"}
        page, _ = await s.list_visible(Visibility("t", "u", category="organizational"), limit=10, offset=0)
        assert [m.id for m in page] == ["m_sh"]
        await s.write_fields("m_u2", {"enabled": False, "disabled_reason": "user"})
        page, _ = await s.list_visible(Visibility("t", "u", personal_only=True), limit=10, offset=0)
        assert [m.id for m in page] == ["m_u1"]
        page, _ = await s.list_visible(
            Visibility("t", "u", personal_only=True, include_disabled=True), limit=10, offset=0
        )
        assert {m.id for m in page} == {"m_u1", "m_u2"}
        m = await s.fetch_one("m_u2")
        assert m is not None and not m.enabled and m.disabled_reason == "user"
        await s.write_fields("m_u1", {"title": "Jasmine tea", "tags": ["a", "b"]})
        m = await s.fetch_one("m_u1")
        assert m is not None and m.title == "Jasmine tea" and m.tags == ["a", "b"]
        emb = await s.embedding("m_u1")
        assert emb is not None and np.allclose(emb, vec(1, 0, 0, 0))
        assert await s.count_personal("t", "u") == 2 and await s.count_personal("t", "u", source="auto") == 0
        assert [m.id for m in await s.personal("t", "v")] == ["m_v1"]
        await s.delete(["m_u1"])
        assert await s.fetch_one("m_u1") is None
        assert await s.tenants() == ["t", "t2"]
        assert await s.tenants_holding("u") == [("t", 1), ("t2", 1)]
        users = await s.users("t")
        assert [(x["user_id"], x["memories"], x["enabled"]) for x in users] == [("u", 1, 0), ("v", 1, 1)]

    run(backend, body)


def test_list_pages_newest_first_with_total(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        await b.memories.insert([mem(f"m{i}", f"Fact {i}", created=f"2026-01-01T00:00:0{i}Z") for i in range(5)], None)
        where = Visibility("t", "u")
        page, total = await b.memories.list_visible(where, limit=2, offset=0)
        assert [m.id for m in page] == ["m4", "m3"] and total == 5
        page, total = await b.memories.list_visible(where, limit=2, offset=4)
        assert [m.id for m in page] == ["m0"] and total == 5
        assert await b.memories.count_visible("t", "u") == 5 and await b.memories.count_visible("t", None) == 0

    run(backend, body)


def test_transaction_is_atomic(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        with pytest.raises(RuntimeError):
            async with b.memories.transaction():
                await b.memories.insert([mem("m1", "Kept only if committed")], None)
                raise RuntimeError("boom")
        assert await b.memories.fetch_one("m1") is None

    run(backend, body)


def test_retention_queries(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        old = "2020-01-01T00:00:00Z"
        auto = [mem(f"a{i}", f"Auto {i}", source="auto", created=old) for i in range(3)]
        await s.insert([*auto, mem("man", "Manual", created=old)], None)
        await s.write_fields("a0", {"score": 0.1})
        await s.write_fields("a1", {"score": 0.5, "slot": "home.city"})
        decay = Decay("2026-01-02T00:00:00Z")
        lowest = await s.lowest_value("t", "u", 2, ["a0"], decay)
        assert [m.id for m in lowest] == ["a1", "a2"]
        await s.add_access([("a2", 1, "2026-01-01T00:00:00Z")])
        assert {m.id for m in await s.expired("2021-01-01T00:00:00Z", decay)} == {"a0", "a1"}
        assert [m.id for m in await s.in_slot("t", "u", "home.city")] == ["a1"]
        stats = await s.personal_stats("t", "u")
        assert stats.total == 4 and stats.enabled == 4 and stats.last_learned_at == old
        per_day = await s.learned_per_day("2019-12-31", "t")
        assert per_day == [("2020-01-01", "user_preference", 3)]
        admin = await s.admin_stats("t")
        assert admin.total == 4 and admin.by_source == {"auto": 3, "manual": 1} and admin.users == 1

    run(backend, body)


def test_decay_evicts_the_weakest_and_spares_pinned_and_manual(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        year_ago, yesterday = "2025-06-01T00:00:00Z", "2026-05-31T00:00:00Z"
        await s.insert(
            [
                mem("old", "Old never used", source="auto", created=year_ago),
                mem("fresh", "Fresh", source="auto", created=yesterday),
                mem("used", "Old but used today", source="auto", created=year_ago),
                mem("low", "Fresh, low score", source="auto", created=yesterday),
                mem("off", "Disabled", source="auto", created=yesterday),
                replace(mem("pin", "Old pinned", source="auto", created=year_ago), pinned=True),
                mem("man", "Old manual", created=year_ago),
            ],
            None,
        )
        await s.write_fields("low", {"score": 0.3})
        await s.write_fields("off", {"enabled": False})
        await s.add_access([("used", 1, "2026-06-01T00:00:00Z")])
        # 365 days unused at a 90-day half-life: 1.0 x 0.5 ** 4.06 = 0.06
        decay = Decay("2026-06-01T00:00:00Z", half_life_days=90, floor=0.1)
        lowest = await s.lowest_value("t", "u", 10, [], decay)
        assert [m.id for m in lowest] == ["off", "old", "low", "fresh", "used"]
        assert [m.id for m in await s.lowest_value("t", "u", 1, ["off"], decay)] == ["old"]
        assert [m.id for m in await s.expired("2000-01-01T00:00:00Z", decay)] == ["old"]
        assert await s.count_weak("t", "u", decay) == 1
        assert await s.count_weak("t", "u", replace(decay, floor=0.5)) == 2  # and "low" (0.3)
        # a longer half-life keeps the old one above the floor
        assert await s.count_weak("t", "u", replace(decay, half_life_days=365)) == 0
        # centuries unused: strength is tiny but defined; pinned and manual still never decay
        ages = Decay("2900-01-01T00:00:00Z")
        assert {m.id for m in await s.expired("2000-01-01T00:00:00Z", ages)} == {"old", "fresh", "used", "low", "off"}
        assert await s.count_weak("t", "v", ages) == 0

    run(backend, body)


def test_kind_is_stored_filtered_counted_and_evicted_within_its_kind(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        old = "2026-01-01T00:00:00Z"
        await s.insert(
            [
                mem("f1", "Works at Acme", source="auto", created=old),
                replace(mem("e1", "Vet visit", source="auto", created=old), kind="episode"),
                replace(mem("e2", "Moved flat", source="auto", created="2026-01-02T00:00:00Z"), kind="episode"),
                replace(mem("r1", "Answer in Chinese", source="auto", created=old), kind="rule"),
            ],
            None,
        )
        assert (await s.fetch_one("e1")).kind == "episode"  # type: ignore[union-attr]
        assert (await s.fetch_one("f1")).kind == "fact"  # type: ignore[union-attr]
        page, total = await s.list_visible(Visibility("t", "u", kind="episode"), limit=10, offset=0)
        assert [m.id for m in page] == ["e2", "e1"] and total == 2
        await s.write_fields("r1", {"kind": "preference"})
        assert (await s.fetch_one("r1")).kind == "preference"  # type: ignore[union-attr]
        assert await s.count_by_kind("t", "u") == {"fact": 1, "episode": 2, "preference": 1}
        assert await s.count_personal("t", "u", kind="episode") == 2
        assert (await s.personal_stats("t", "u")).by_kind == {"fact": 1, "episode": 2, "preference": 1}
        assert (await s.admin_stats("t")).by_kind == {"fact": 1, "episode": 2, "preference": 1}
        decay = Decay("2026-06-01T00:00:00Z")
        # within a kind: the weakest episode goes, however weak the fact is
        await s.write_fields("f1", {"score": 0.01})
        assert [m.id for m in await s.lowest_value("t", "u", 1, [], decay, kind="episode")] == ["e1"]
        # a kind's cap only ever takes unpinned auto memories: however weak, pinned and manual stay
        await s.insert(
            [
                replace(mem("e3", "Hand-written trip", created=old), kind="episode"),
                replace(mem("e4", "Pinned trip", source="auto", created=old), kind="episode", pinned=True),
            ],
            None,
        )
        await s.write_fields("e4", {"score": 0.001})
        victims = await s.lowest_value("t", "u", 10, [], decay, kind="episode")
        assert {m.id for m in victims} == {"e1", "e2"}
        await s.delete(["e3", "e4"])
        # episodes fade on their own half-life: 151 days at 30 days is 0.03, under a 0.05 floor
        fast = Decay("2026-06-01T00:00:00Z", half_life_days=3650, floor=0.05, episode_half_life_days=30)
        assert {m.id for m in await s.expired("2000-01-01T00:00:00Z", fast)} == {"e1", "e2", "f1"}
        slow = replace(fast, episode_half_life_days=3650)
        assert {m.id for m in await s.expired("2000-01-01T00:00:00Z", slow)} == {"f1"}
        copied = [m for batch in [x async for x in s.iter_memories(10)] for m, _ in batch]
        assert {m.id: m.kind for m in copied}["e2"] == "episode"

    run(backend, body)


def test_settings_and_change_callbacks(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        seen: list[Change] = []
        b.memories.on_change(seen.append)
        assert await b.memories.get_settings("t", "u") is None
        await b.memories.put_settings("t", "u", {"learning_enabled": False})
        assert await b.memories.get_settings("t", "u") == {"learning_enabled": False}
        assert await eventually(lambda: Change("settings", "t", "u") in seen)
        await b.memories.insert([mem("m1", "Fact"), mem("m2", "Shared", scope="shared")], None)
        assert await eventually(lambda: Change("memories", "t", "u") in seen)
        assert await eventually(lambda: Change("memories", "t", SHARED_OWNER) in seen)

    run(backend, body)


def test_change_reaches_another_replica(backend: Factory) -> None:
    async def main() -> None:
        first, second = backend(), backend()
        await first.open()
        await second.open()
        try:
            seen: list[Change] = []
            second.memories.on_change(seen.append)
            await first.memories.put_settings("t", "u", {"learning_enabled": True})
            if first.kind == "sqlite":  # one process per file: the change is seen by its own store
                first.memories.on_change(seen.append)
                await first.memories.put_settings("t", "u", {"learning_enabled": False})
            assert await eventually(lambda: Change("settings", "t", "u") in seen, 1.0)
        finally:
            await second.close()
            await first.close()

    asyncio.run(main())


def test_audit_keeps_no_text_of_a_deleted_memory(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("m1", "Phone 13812345678")], None)
        entry: dict[str, Any] = {
            "time": "2026-01-01T00:00:00Z",
            "actor": "u",
            "tenant": "t",
            "user_id": "u",
            "memory_id": "m1",
        }
        await s.audit(AuditEntry(**entry, action="create", after={"title": "Phone 13812345678"}))
        await s.audit(AuditEntry(**entry, action="update", before={"title": "x"}, after={"title": "y"}))
        await s.audit(AuditEntry(**{**entry, "memory_id": None}, action="other", after={"note": "kept"}))
        await s.delete(["m1"])
        log, total = await s.audit_entries("t", limit=10, offset=0)
        assert total == 3
        assert [e.action for e in log] == ["other", "update", "create"]
        assert log[2].after == {"fields": ["title"]} and "13812345678" not in str(log)
        assert log[0].after == {"note": "kept"}
        assert (await s.audit_entries("t", limit=1, offset=1))[0][0].action == "update"

    run(backend, body)


def test_access_counts_add_up(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        await b.memories.insert([mem("m1", "Fact")], None)
        await b.memories.add_access([("m1", 2, "2026-01-02T00:00:00Z")])
        await b.memories.add_access([("m1", 3, "2026-01-03T00:00:00Z")])
        m = await b.memories.fetch_one("m1")
        assert m is not None and m.access_count == 5 and m.last_access_at == "2026-01-03T00:00:00Z"

    run(backend, body)


def _audit_of(memory_id: str, action: str) -> AuditEntry:
    return AuditEntry("2026-01-02T00:00:00Z", "learning", action, "t", "u", memory_id)


def test_supersede_stores_the_new_memory_and_disables_the_old_ones_together(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.prepare_vectors("test-model", DIM)
        await _people(b)
        olds = list((await s.fetch(["m_u1", "m_u2"])).values())
        new = replace(mem("m_new", "Oolong", "The user drinks oolong now"), created_at="2026-01-02T00:00:00Z")
        audit = {m: _audit_of(m, "disable") for m in ("m_u1", "m_u2")} | {"m_new": _audit_of("m_new", "create")}
        replaced = await s.supersede(new, np.stack([vec(1, 0, 0, 0)]), olds, "superseded by m_new", "2026-01-02", audit)
        assert sorted(replaced) == ["m_u1", "m_u2"]
        now = await s.fetch(["m_u1", "m_u2", "m_new"])
        assert now["m_new"].enabled and now["m_new"].title == "Oolong"
        for mid in ("m_u1", "m_u2"):
            assert not now[mid].enabled and now[mid].disabled_reason == "superseded by m_new"
            assert now[mid].updated_at == "2026-01-02"
        hits = await s.vector_candidates(Visibility("t", "u"), vec(1, 0, 0, 0), 10)
        assert hits[0][0] == "m_new" and not {"m_u1", "m_u2"} & {h[0] for h in hits}
        log, _ = await s.audit_entries("t", limit=10, offset=0)
        assert sorted((e.memory_id, e.action) for e in log) == [
            ("m_new", "create"),
            ("m_u1", "disable"),
            ("m_u2", "disable"),
        ]
        # a failed write leaves both as they were: the new id is taken, nothing is disabled
        again = replace(new, title="Again")
        (kept,) = (await s.fetch(["m_sh"])).values()
        with pytest.raises(Exception):  # noqa: B017 - each backend names its own integrity error
            await s.supersede(again, None, [kept], "superseded by m_new", "2026-01-03", {})
        assert (await s.fetch_one("m_sh")) == kept

    run(backend, body)


def test_supersede_keeps_an_old_memory_the_user_changed_since_it_was_read(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await _people(b)
        read = await s.fetch(["m_u1", "m_u2", "m_v1"])
        # meanwhile the user edits one, disables another, and the third is deleted
        await s.write_fields("m_u1", {"content": "The user drinks black tea", "updated_at": "2026-01-01T09:00:00Z"})
        await s.write_fields("m_u2", {"enabled": False, "disabled_reason": "user"})
        await s.delete(["m_v1"])
        new = mem("m_new", "Oolong", "The user drinks oolong now", created="2026-01-02T00:00:00Z")
        audit = {m: _audit_of(m, "disable") for m in read} | {"m_new": _audit_of("m_new", "create")}
        replaced = await s.supersede(new, None, list(read.values()), "superseded by m_new", "2026-01-02", audit)
        assert replaced == []
        now = await s.fetch(["m_u1", "m_u2", "m_new"])
        assert now["m_new"].enabled
        assert now["m_u1"].enabled and now["m_u1"].content == "The user drinks black tea"
        assert not now["m_u2"].enabled and now["m_u2"].disabled_reason == "user"
        log, _ = await s.audit_entries("t", limit=10, offset=0)
        assert [(e.memory_id, e.action) for e in log] == [("m_new", "create")]

    run(backend, body)


# -- candidates -------------------------------------------------------------------------------
def test_vector_candidates_follow_committed_writes(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        assert await s.prepare_vectors("test-model", DIM) in ("loaded", "rebuilt")
        await _people(b)
        q = vec(1, 0, 0, 0)
        hits = await s.vector_candidates(Visibility("t", "u"), q, 10)
        assert [h[0] for h in hits][:1] == ["m_u1"] and {h[0] for h in hits} == {"m_u1", "m_u2", "m_sh"}
        assert hits[0][1] == pytest.approx(1.0, abs=1e-3)
        assert [h[1] for h in hits] == sorted((h[1] for h in hits), reverse=True)
        assert {h[0] for h in await s.vector_candidates(Visibility("t", None), q, 10)} == {"m_sh"}
        personal = await s.vector_candidates(Visibility("t", "u", scope="personal"), q, 10)
        assert {h[0] for h in personal} == {"m_u1", "m_u2"}
        await s.write_fields("m_u1", {"enabled": False})
        assert "m_u1" not in {h[0] for h in await s.vector_candidates(Visibility("t", "u"), q, 10)}
        asked = await s.vector_candidates(Visibility("t", "u", include_disabled=True), q, 10)
        assert asked[0][0] == "m_u1"
        await s.write_fields("m_u1", {"enabled": True})
        await s.set_embedding("m_u2", vec(1, 0.01, 0, 0))
        await s.delete(["m_u1"])
        hits = await s.vector_candidates(Visibility("t", "u", include_disabled=True), q, 10)
        assert "m_u1" not in {h[0] for h in hits} and hits[0][0] == "m_u2"
        # a promotion moves the memory to the tenant's shared partition
        await s.write_fields("m_u2", {"scope": "shared", "user_id": ""})
        assert "m_u2" in {h[0] for h in await s.vector_candidates(Visibility("t", None), q, 10)}
        assert "m_u2" not in {h[0] for h in await s.vector_candidates(Visibility("t", "u", scope="personal"), q, 10)}

    run(backend, body)


def test_vectors_survive_a_restart_and_follow_the_model(backend: Factory) -> None:
    async def first(b: Backend) -> None:
        await b.memories.prepare_vectors("model-a", DIM)
        await _people(b)
        await b.memories.save_vectors()

    async def second(b: Backend) -> None:
        s = b.memories
        assert await s.prepare_vectors("model-a", DIM) in ("loaded", "rebuilt")
        assert (await s.vector_candidates(Visibility("t", "u"), vec(0, 1, 0, 0), 1))[0][0] == "m_u2"
        assert await s.texts_to_embed(everything=False) == []
        await s.insert([mem("m_new", "No vector yet")], None)
        assert [t[0] for t in await s.texts_to_embed(everything=False)] == ["m_new"]
        await s.set_embeddings([("m_new", vec(0, 0, 0, 1))])
        assert (await s.vector_candidates(Visibility("t", "u"), vec(0, 0, 0, 1), 1))[0][0] == "m_new"

    async def third(b: Backend) -> None:
        s = b.memories
        assert await s.prepare_vectors("model-b", 3) == "reindex"
        texts = await s.texts_to_embed(everything=True)
        assert len(texts) == 6
        await s.set_embeddings([(mid, np.ones(3, dtype=np.float32) / np.sqrt(3)) for mid, _, _ in texts])
        assert await s.prepare_vectors("model-b", 3, reembedded=True) == "rebuilt"
        assert await s.get_meta("embedding_model") == "model-b"
        hits = await s.vector_candidates(Visibility("t", "u"), np.ones(3, dtype=np.float32) / np.sqrt(3), 10)
        assert {h[0] for h in hits} == {"m_u1", "m_u2", "m_sh", "m_new"}

    run(backend, first)
    run(backend, second)
    run(backend, third)


def _ids(lists: list[tuple[list[tuple[str, float]], str]]) -> set[str]:
    return {mid for ranked, _ in lists for mid, _ in ranked}


def test_keyword_candidates_english_chinese_and_partial_words(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert(
            [
                mem("m_en", "Espresso", "The user drinks espresso every morning"),
                mem("m_zh", "咖啡", "我喜欢喝咖啡"),
                mem("m_part", "Music", "The user is a xylophonist in a band"),
                mem("m_other", "Espresso too", "Espresso 咖啡 xylophonist", user="v"),
                mem("m_shared", "Office", "The office espresso machine", scope="shared"),
            ],
            None,
        )
        me = Visibility("t", "u")
        words = await s.keyword_candidates(me, parse_query("espresso"), 10)
        assert _ids(words) == {"m_en", "m_shared"}
        assert {kind for _, kind in words} <= {"words", "cjk", "substring"}
        for ranked, _ in words:
            assert [sc for _, sc in ranked] == sorted((sc for _, sc in ranked), reverse=True)
        assert _ids(await s.keyword_candidates(me, parse_query("咖啡"), 10)) == {"m_zh"}
        partial = await s.keyword_candidates(me, parse_query("xylophon"), 10)
        assert _ids(partial) == {"m_part"} and "substring" in {kind for _, kind in partial}
        assert _ids(await s.keyword_candidates(Visibility("t", None), parse_query("espresso"), 10)) == {"m_shared"}
        await s.write_fields("m_en", {"enabled": False})
        assert _ids(await s.keyword_candidates(me, parse_query("espresso"), 10)) == {"m_shared"}
        asked = await s.keyword_candidates(Visibility("t", "u", include_disabled=True), parse_query("espresso"), 10)
        assert _ids(asked) == {"m_en", "m_shared"}
        await s.delete(["m_zh"])
        assert _ids(await s.keyword_candidates(me, parse_query("咖啡"), 10)) == set()
        await s.write_fields("m_part", {"content": "The user plays the drums"})
        assert _ids(await s.keyword_candidates(me, parse_query("xylophon"), 10)) == set()
        assert _ids(await s.keyword_candidates(me, parse_query("drums"), 10)) == {"m_part"}

    run(backend, body)


def test_memories_settings_and_audit_are_copied_in_and_out_without_repeats(backend: Factory) -> None:
    """The copy methods ``memorelay memories migrate`` uses: a copy keeps ids, times, counts,
    flags and vectors; importing the same rows again changes nothing; a newer source row
    replaces an older copy and an older one leaves a newer copy as it is; the indexes follow."""

    async def body(b: Backend) -> None:
        s = b.memories
        assert await s.prepare_vectors("test-model", DIM) in ("loaded", "rebuilt")
        tea = replace(
            mem("m1", "Tea", "The user drinks green tea"), access_count=3, last_access_at="2026-01-02T00:00:00Z"
        )
        off = replace(mem("m2", "咖啡", "我喜欢喝咖啡"), enabled=False, disabled_reason="user", slot="drink")
        rows = [(tea, vec(1, 0, 0, 0)), (off, vec(0, 1, 0, 0)), (mem("m3", "Shared", scope="shared"), None)]
        assert await s.import_memories(rows) == (3, 0)
        assert await s.import_memories(rows) == (0, 0)
        batches = [batch async for batch in s.iter_memories(2)]
        assert [len(batch) for batch in batches] == [2, 1]
        copied = [row for batch in batches for row in batch]
        assert [m for m, _ in copied] == [m for m, _ in rows]
        tea_vector = copied[0][1]
        assert tea_vector is not None and np.allclose(tea_vector, vec(1, 0, 0, 0)) and copied[2][1] is None
        me = Visibility("t", "u")
        assert [h[0] for h in await s.vector_candidates(me, vec(1, 0, 0, 0), 10)] == ["m1"]  # m2 is disabled
        assert _ids(await s.keyword_candidates(me, parse_query("green tea"), 10)) == {"m1"}

        edited = replace(tea, content="The user drinks oolong", updated_at="2026-02-01T00:00:00Z")
        assert await s.import_memories([(edited, vec(0, 0, 1, 0))]) == (0, 1)
        stale = replace(tea, content="The user drinks black tea")  # older than the stored copy
        assert await s.import_memories([(stale, vec(1, 0, 0, 0))]) == (0, 0)
        assert (await s.fetch_one("m1")) == edited
        counted = replace(edited, access_count=5, last_access_at="2026-03-01T00:00:00Z")
        assert await s.import_memories([(counted, vec(0, 0, 1, 0))]) == (0, 1)  # injected on the source since
        assert await s.import_memories([(edited, vec(0, 0, 1, 0))]) == (0, 0)  # counts never go down
        assert (await s.fetch_one("m1")) == counted
        assert _ids(await s.keyword_candidates(me, parse_query("oolong"), 10)) == {"m1"}
        assert _ids(await s.keyword_candidates(me, parse_query("green"), 10)) == set()
        assert [h[0] for h in await s.vector_candidates(me, vec(0, 0, 1, 0), 1)] == ["m1"]

        await s.put_settings("t", "u", {"learning_enabled": False})
        [stored] = await s.all_settings()
        assert (stored.tenant, stored.user_id, stored.settings) == ("t", "u", {"learning_enabled": False})
        older = SettingsRow("t", "u", {"learning_enabled": True}, "2000-01-01T00:00:00Z")
        newer = SettingsRow("t", "u", {"learning_enabled": True}, "2999-01-01T00:00:00Z")
        other = SettingsRow("t", "v", {"learning_enabled": True}, "2000-01-01T00:00:00Z")
        assert await s.import_settings([older, other]) == 1
        assert await s.get_settings("t", "u") == {"learning_enabled": False}
        assert await s.import_settings([newer, other]) == 1
        assert await s.get_settings("t", "u") == {"learning_enabled": True}
        assert await s.all_settings() == [newer, other]

        entry = AuditEntry("2026-01-01T00:00:00Z", "u", "create", "t", "u", "m1", after={"title": "Tea"})
        await s.audit(entry)
        [first] = await s.audit_after(0, 10)
        await s.import_audit([replace(entry, action="update", after={"title": "茶"}), first])
        assert first.id is not None
        later = await s.audit_after(first.id, 10)
        assert [(e.action, e.after) for e in later] == [("update", {"title": "茶"}), ("create", {"title": "Tea"})]
        assert (later[0].id or 0) > first.id and later[1].time == first.time
        assert await s.audit_after(later[-1].id or 0, 10) == []

    run(backend, body)


def test_partition_rows(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        await _people(b)
        await b.memories.write_fields("m_u2", {"enabled": False})
        rows = await b.memories.partition_rows("t", "u")
        assert [m.id for m in rows.memories] == ["m_u1"] and "green tea" in rows.memories[0].content
        assert rows.vectors is not None and rows.vectors.shape == (1, DIM)
        shared = await b.memories.partition_rows("t", SHARED_OWNER)
        assert [m.id for m in shared.memories] == ["m_sh"] and shared.memories[0].scope == "shared"
        assert len((await b.memories.partition_rows("t", SHARED_OWNER, limit=0)).memories) == 0

    run(backend, body)


# -- tenant move ------------------------------------------------------------------------------
def test_tenant_move(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.prepare_vectors("test-model", DIM)
        await _people(b)
        await s.put_settings("t", "u", {"learning_enabled": False})
        await s.put_settings("new", "v", {"learning_enabled": True})
        await s.put_settings("t", "v", {"learning_enabled": False})
        await b.learning.log(None, "t", "u", {"outcome": "stored"})
        await s.add_review(Review("r1", "t", "u", "m_u1", "m_u2", "content differs", "2026-01-01T00:00:00Z"))
        await s.add_reflection(Reflection("f1", "t", "u", "a", "b", "2026-01-01T00:00:00Z", {"counts": {}}))
        await s.add_reflection(Reflection("f2", "t", "", "a", "b", "2026-01-01T00:00:00Z", {"counts": {}}))
        with pytest.raises(TenantConflict) as refused:
            await s.move_tenant("t", "new", None)
        assert refused.value.user_ids == ["v"]
        assert (await s.fetch_one("m_u1")) is not None and (await s.fetch_one("m_u1")).tenant == "t"  # type: ignore[union-attr]
        moved = await s.move_tenant("t", "new", "u")
        assert moved == {"memories": 2, "settings": 1, "audit_entries": 0, "learning_rows": 1}
        assert await s.get_settings("new", "u") == {"learning_enabled": False}
        assert await s.get_settings("t", "u") is None
        assert {h[0] for h in await s.vector_candidates(Visibility("new", "u"), vec(1, 0, 0, 0), 10)} == {
            "m_u1",
            "m_u2",
        }
        assert {h[0] for h in await s.vector_candidates(Visibility("t", "u"), vec(1, 0, 0, 0), 10)} == {"m_sh"}
        assert _ids(await s.keyword_candidates(Visibility("new", "u"), parse_query("Mochi"), 10)) == {"m_u2"}
        assert (await b.learning.log_entries(tenant="new"))[1] == 1
        assert (await s.get_review("r1")).tenant == "new"  # type: ignore[union-attr]
        # the user's report moves with them; the tenant's report stays with the tenant
        assert [r.id for r in (await s.reflections("new", None, limit=10, offset=0))[0]] == ["f1"]
        assert [r.id for r in (await s.reflections("t", None, limit=10, offset=0))[0]] == ["f2"]
        assert await s.move_tenant("t", "new", "u") == {
            "memories": 0,
            "settings": 0,
            "audit_entries": 0,
            "learning_rows": 0,
        }

    run(backend, body)


# -- learning queue ---------------------------------------------------------------------------
async def _claim(b: Backend, lease_s: float = 60, replica: str = "r1", wait_s: float = 60.0) -> int | None:
    job = await b.learning.claim(lease_s, replica=replica, holder_wait_s=wait_s)
    return None if job is None else job.id


async def when_due(claim: Callable[[], Awaitable[T | None]]) -> T:
    """What ``claim`` first returns that is not ``None``, polling: a lease, a back-off or a key
    holder's wait runs out in its own time, later on a busy machine."""
    limit, started = ceiling(10), time.monotonic()
    while (found := await claim()) is None:
        if time.monotonic() - started > limit:
            raise AssertionError(f"nothing became due in {limit:.0f} s")
        await asyncio.sleep(0.02)
    return found


def test_queue_claim_finish_and_lease_expiry(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        q = b.learning
        a = await q.enqueue("t", "u", "c1", "gpt", {"messages": [{"role": "user", "content": "hi"}]})
        bb = await q.enqueue("t", "u", None, "gpt", {"messages": []})
        assert await q.pending_count() == 2
        job = await q.claim(scaled(0.3), replica="r1", holder_wait_s=60)
        assert job is not None and job.id == a and job.attempts == 1 and job.conversation_id == "c1"
        assert job.payload == {"messages": [{"role": "user", "content": "hi"}]} and job.key_holder is None
        second = await q.claim(60, replica="r1", holder_wait_s=60)
        assert second is not None and second.id == bb  # a is leased
        assert await _claim(b) is None
        # a's worker died: its lease runs out
        again = await when_due(lambda: q.claim(60, replica="r2", holder_wait_s=60))
        assert again.id == a and again.attempts == 2
        assert await q.finish(again) and await q.finish(second)
        assert await q.pending_count() == 0 and await q.job_counts() == {"done": 2}
        assert await _claim(b) is None

    run(backend, body)


def test_a_stale_lease_changes_nothing_and_the_reclaimers_finish_counts(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        q = b.learning
        jid = await q.enqueue("t", "u", None, "gpt", {"messages": ["keep me"]})
        stale = await q.claim(scaled(0.2), replica="r1", holder_wait_s=60)
        assert stale is not None
        assert await q.renew(stale, scaled(0.2))  # alive: its lease is extended
        # then its worker hangs past the lease
        fresh = await when_due(lambda: q.claim(60, replica="r2", holder_wait_s=60))
        assert fresh.id == jid and fresh.lease != stale.lease

        # the hung worker wakes up: every write of its claim is refused, and changes nothing
        assert not await q.renew(stale, 60)
        assert not await q.finish(stale, log_entry={"added": ["twice"]})
        assert not await q.finish(stale, "dead", "gave up", log_entry={"error": "gave up"})
        assert not await q.retry(stale, 0, "upstream 503")
        assert await q.job_counts() == {"running": 1} and await q.log_entries() == ([], 0)
        assert await _claim(b) is None  # still leased to the re-claimer, not made due again

        assert await q.renew(fresh, 60)
        assert await q.finish(fresh, log_entry={"added": ["once"]})
        assert await q.job_counts() == {"done": 1}
        entries, total = await q.log_entries()
        assert total == 1 and entries[0]["added"] == ["once"] and entries[0]["job_id"] == jid
        assert not await q.finish(fresh)  # and a finished job cannot be finished again

    run(backend, body)


def test_queue_retry_backoff_and_dead_letter(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        q = b.learning
        jid = await q.enqueue("t", "u", None, "gpt", {"messages": ["keep me"]})
        job = await q.claim(60, replica="r1", holder_wait_s=60)
        assert job is not None and job.id == jid
        assert await q.retry(job, scaled(0.3), "upstream 503")
        assert not await q.retry(job, 0, "twice")  # that claim ended with its retry
        assert await _claim(b) is None  # backing off
        job = await when_due(lambda: q.claim(60, replica="r1", holder_wait_s=60))
        assert job.attempts == 2
        assert await q.retry(job, 0.0, "database locked", count_attempt=False)
        job = await q.claim(60, replica="r1", holder_wait_s=60)
        assert job is not None and job.attempts == 2  # the store's fault gave the attempt back
        assert await q.finish(job, "dead", "gave up", log_entry={"error": "gave up"})
        dead, total = await q.dead_jobs()
        assert total == 1 and dead[0]["id"] == jid and dead[0]["retryable"] and dead[0]["last_error"] == "gave up"
        assert (await q.log_entries())[0][0]["error"] == "gave up"
        assert await q.retry_dead(jid)
        job = await q.claim(60, replica="r1", holder_wait_s=60)
        assert job is not None and job.attempts == 1 and job.payload == {"messages": ["keep me"]}
        assert await q.finish(job, "dead", "again")
        assert await q.discard_dead(jid)
        assert not await q.retry_dead(jid) and not await q.discard_dead(jid)
        assert (await q.dead_jobs())[1] == 0 and (await q.job_counts()).get("discarded") == 1

    run(backend, body)


def test_dead_payloads_are_wiped_for_the_user_and_after_retention(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        q = b.learning
        for user in ("ann", "ben"):
            await q.enqueue("t", user, None, "gpt", {"messages": ["my phone"]})
            job = await q.claim(60, replica="r1", holder_wait_s=60)
            assert job is not None
            await q.finish(job, "dead", "gave up")
        assert await q.wipe_dead_payloads(tenant="t", user_id="ann") == 1
        assert await q.wipe_dead_payloads(older_than_s=3600) == 0
        assert await q.wipe_dead_payloads(older_than_s=-1) == 1
        dead, _ = await q.dead_jobs()
        assert [d["retryable"] for d in dead] == [False, False]

    run(backend, body)


def test_key_holder_affinity(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        q = b.learning
        held = await q.enqueue("t", "u", None, "gpt", {"messages": []}, key_holder="replica-a")
        wait = scaled(0.4)
        assert await _claim(b, replica="replica-b", wait_s=wait) is None  # its holder has the key
        job = await q.claim(60, replica="replica-a", holder_wait_s=wait)
        assert job is not None and job.id == held and job.key_holder == "replica-a"
        await q.finish(job)
        late = await q.enqueue("t", "u", None, "gpt", {"messages": []}, key_holder="replica-a")
        free = await q.enqueue("t", "u", None, "gpt", {"messages": []})
        assert await _claim(b, replica="replica-b", wait_s=wait) == free
        # the holder did not take it in time (died, restarted)
        assert await when_due(lambda: _claim(b, replica="replica-b", wait_s=wait)) == late

    run(backend, body)


def test_queue_is_shared_by_replicas(backend: Factory) -> None:
    async def main() -> None:
        first, second = backend(), backend()
        await first.open()
        await second.open()
        try:
            for i in range(20):
                await first.learning.enqueue("t", "u", None, "gpt", {"n": i})
            assert await second.learning.pending_count() == 20

            async def drain(b: Backend, replica: str) -> list[int]:
                got: list[int] = []
                while (job := await b.learning.claim(60, replica=replica, holder_wait_s=60)) is not None:
                    got.append(job.payload["n"])
                    assert await b.learning.finish(job)
                return got

            a, c = await asyncio.gather(drain(first, "a"), drain(second, "b"))
            assert sorted(a + c) == list(range(20))  # each job exactly once
        finally:
            await second.close()
            await first.close()

    asyncio.run(main())


def test_log_usage_and_prompts(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        q = b.learning
        await q.log(1, "t", "u", {"outcome": "stored", "added": ["m1"]})
        await q.log(2, "t", "v", {"outcome": "below_threshold"})
        await q.log(None, "t2", "u", {"outcome": "error"})
        entries, total = await q.log_entries(tenant="t")
        assert total == 2 and [e["user_id"] for e in entries] == ["v", "u"] and entries[1]["added"] == ["m1"]
        assert (await q.log_entries(tenant="t", user_id="u", limit=1))[1] == 1
        assert (await q.log_entries(limit=1, offset=1))[0][0]["tenant"] == "t"
        assert [e["outcome"] for e in await q.log_since("2000-01-01", "t", 10)] == ["below_threshold", "stored"]
        assert len(await q.log_since("2000-01-01", None, 2)) == 2
        assert await q.log_since("2999-01-01", None, 10) == []
        await q.add_usage("t", "u", 10, 5)
        await q.add_usage("t", "u", 1, 1)
        await q.add_usage("t2", "u", 7, 7)
        stats = await q.stats("t")
        (usage,) = stats["tokens_per_day"].values()
        assert usage == {"prompt_tokens": 11, "completion_tokens": 6, "jobs": 2}
        text, origin = await q.get_prompt("scoring")
        assert origin == "default" and "{conversation}" in text
        await q.put_prompt("scoring", "Score {conversation}", actor="admin")
        assert await q.get_prompt("scoring") == ("Score {conversation}", "override")
        await q.reset_prompt("scoring")
        assert (await q.get_prompt("scoring"))[1] == "default"
        assert await q.writable()
        await q.compact()

    run(backend, body)


def test_console_sessions_expire_end_and_die_with_their_link(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        c, now = b.console, time.time()
        user = ConsoleSession("k1", "user", "t", "u", now + 60, link_nonce="n1", link_expires=now + 30)
        await c.add_session(user)
        await c.add_session(ConsoleSession("k2", "user", "t", "u", now + 60, link_nonce="n1", link_expires=now + 30))
        await c.add_session(ConsoleSession("op", "operator", "", "", now + 60))
        await c.add_session(ConsoleSession("old", "operator", "", "", now - 1))
        assert await c.session("k1", now) == user
        assert await c.session("k1", now + 61) is None  # expired: never answered
        assert await c.session("old", now) is None and await c.session("nope", now) is None
        assert await c.end_session("op") == ConsoleSession("op", "operator", "", "", now + 60)
        assert await c.session("op", now) is None and await c.end_session("op") is None
        assert not await c.link_revoked("n1")
        await c.revoke_link("n1", now + 30)
        await c.revoke_link("n1", now + 30)  # twice: still one revocation
        assert await c.link_revoked("n1")
        assert await c.session("k1", now) is None and await c.session("k2", now) is None  # the link's sessions
        await c.revoke_link("n2", now - 1)
        await c.add_session(ConsoleSession("k3", "user", "t", "v", now + 60))
        assert await c.purge_expired(now) == 2  # "old" and the dead link "n2"; "n1" and "k3" stay
        assert await c.link_revoked("n1") and not await c.link_revoked("n2")
        assert await c.session("k3", now) is not None
        assert await c.purge_expired(now + 61) == 2

    run(backend, body)


def test_wipe_clears_memories_settings_audit_uses_and_reviews_at_once(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.prepare_vectors("test-model", DIM)
        await _people(b)
        await s.put_settings("t", "u", {"learning_enabled": False})
        await s.audit(AuditEntry("2026-01-01T00:00:00Z", "u", "create", "t"))
        # a use buffered for a memory deleted meanwhile stays in the log: the wipe takes it too
        await s.add_uses([Use("t", "u", mid, None, "responses", "2026-01-01T00:00:00Z") for mid in ("m_u1", "gone")])
        await s.add_review(Review("r1", "t", "u", "m_u1", "m_u2", "content differs", "2026-01-01T00:00:00Z"))
        with pytest.raises(RuntimeError):  # a wipe in a failed transaction leaves everything
            async with s.transaction():
                await s.wipe()
                raise RuntimeError("boom")
        assert len(await s.fetch(["m_u1", "m_sh"])) == 2 and await s.get_settings("t", "u") is not None
        await s.wipe()
        assert [row async for batch in s.iter_memories(10) for row in batch] == []
        assert await s.all_settings() == [] and await s.audit_after(0, 10) == []
        assert await s.uses_after(0, 10) == [] and await s.reviews(None, None, None, limit=10, offset=0) == ([], 0)
        assert await s.vector_candidates(Visibility("t", "u"), vec(1, 0, 0, 0), 10) == []
        assert await s.get_meta("embedding_model") == "test-model"  # metadata stays

    run(backend, body)


def test_console_state_is_shared_by_replicas(backend: Factory) -> None:
    async def main() -> None:
        first, second = backend(), backend()
        await first.open()
        await second.open()
        try:
            seeds = await asyncio.gather(first.console.link_seed("a"), second.console.link_seed("b"))
            assert seeds[0] == seeds[1] and seeds[0] in ("a", "b")  # one seed, whoever raced first
            assert await second.console.link_seed("c") == seeds[0]
            now = time.time()
            await first.console.add_session(ConsoleSession("k", "user", "t", "u", now + 60, "n", now + 30))
            assert await second.console.session("k", now) is not None
            await second.console.end_session("k")
            assert await first.console.session("k", now) is None  # read from the store, never cached
            await second.console.revoke_link("n", now + 30)
            assert await first.console.link_revoked("n")
        finally:
            await second.close()
            await first.close()

    asyncio.run(main())


def test_exclusive_is_held_by_one_replica_at_a_time(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        other = backend()
        await other.open()
        try:
            async with b.memories.exclusive("job") as mine:
                assert mine
                async with other.memories.exclusive("job") as theirs:
                    assert theirs is (b.kind == "sqlite")  # SQLite: one host, no database lock
                async with other.memories.exclusive("another job") as unrelated:
                    assert unrelated
            async with other.memories.exclusive("job") as after:
                assert after
        finally:
            await other.close()

    run(backend, body)


def test_reviews_are_listed_decided_once_and_go_with_their_memories(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("old", "Team of 8"), mem("new", "Team of 12"), mem("x", "Other", user="v")], None)
        first = Review("r1", "t", "u", "old", "new", "numbers or dates differ", "2026-01-02T00:00:00Z")
        await s.add_review(first)
        await s.add_review(Review("r2", "t", "v", "x", "x", "content differs", "2026-01-01T00:00:00Z"))
        assert await s.get_review("r1") == first
        assert await s.get_review("nope") is None
        mine, total = await s.reviews("t", "u", "pending", limit=10, offset=0)
        assert (mine, total) == ([first], 1)
        both, total = await s.reviews("t", None, None, limit=10, offset=0)
        assert [r.id for r in both] == ["r2", "r1"] and total == 2  # oldest first
        assert (await s.reviews("other", None, None, limit=10, offset=0))[1] == 0
        assert [r.id for r in (await s.reviews(None, None, "pending", limit=1, offset=1))[0]] == ["r1"]
        # decided once: a second decision (another replica, a double click) loses
        assert await s.decide_review("r1", "rejected", "user:u", "2026-01-03T00:00:00Z") is True
        assert await s.decide_review("r1", "accepted", "admin", "2026-01-04T00:00:00Z") is False
        assert await s.decide_review("nope", "accepted", "admin", "2026-01-04T00:00:00Z") is False
        decided = await s.get_review("r1")
        assert decided == replace(first, state="rejected", decided_by="user:u", decided_at="2026-01-03T00:00:00Z")
        assert (await s.reviews("t", "u", "pending", limit=10, offset=0))[1] == 0
        assert (await s.reviews("t", "u", "rejected", limit=10, offset=0))[0] == [decided]
        # deleting a memory a review names deletes the review (nothing left to decide on)
        await s.delete(["x"])
        assert await s.get_review("r2") is None and await s.get_review("r1") is not None

    run(backend, body)


def test_reflections_are_listed_newest_first_and_deleted_with_the_user(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        report = {"counts": {"learned": 2, "merged": 1}, "ids": {"learned": ["m1", "m2"]}}
        first = Reflection(
            "f1", "t", "u", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z", report
        )
        second = replace(first, id="f2", created_at="2026-01-03T00:00:00Z", report={"counts": {}})
        tenant = replace(first, id="f3", user_id="", created_at="2026-01-03T00:00:01Z")
        other = replace(first, id="f4", user_id="v")
        for r in (first, second, tenant, other):
            await s.add_reflection(r)
        mine, total = await s.reflections("t", "u", limit=1, offset=0)
        assert (mine, total) == ([second], 2)  # newest first; the report comes back as stored
        assert (await s.reflections("t", "u", limit=1, offset=1))[0] == [first]
        assert [r.id for r in (await s.reflections("t", "", limit=10, offset=0))[0]] == ["f3"]
        assert [r.id for r in (await s.reflections(None, None, limit=10, offset=0))[0]] == ["f3", "f2", "f4", "f1"]
        assert (await s.reflections("other", None, limit=10, offset=0))[1] == 0
        assert await s.delete_reflections("t", "u") == 2
        assert [r.id for r in (await s.reflections("t", None, limit=10, offset=0))[0]] == ["f3", "f4"]
        # retention: reports created before the cutoff go
        assert await s.prune_reflections("2026-01-03T00:00:00Z") == 1
        assert [r.id for r in (await s.reflections("t", None, limit=10, offset=0))[0]] == ["f3"]
        await s.wipe()
        assert (await s.reflections(None, None, limit=10, offset=0))[1] == 0

    run(backend, body)


def test_reflections_are_paged_oldest_first_and_imported_as_they_are(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        at = "2026-01-02T00:00:00Z"
        made = [
            Reflection("f2", "t", "u", "a", "b", at, {"counts": {"learned": 1}, "ids": {"learned": ["m1"]}}),
            Reflection("f1", "t", "", "a", "b", at, {"counts": {}, "users": 1}),
            Reflection("f0", "t", "v", "a", "b", "2026-01-03T00:00:00Z", {"counts": {}}),
        ]
        await s.import_reflections([])
        await s.import_reflections(made)
        # by (created_at, id): a page starts after the last one's
        assert [r.id for r in await s.reflections_after("", "", 10)] == ["f1", "f2", "f0"]
        assert await s.reflections_after("", "", 2) == [made[1], made[0]]  # ids, times, reports kept
        assert await s.reflections_after(at, "f2", 10) == [made[2]]
        assert await s.reflections_after("2026-01-03T00:00:00Z", "f0", 10) == []
        # listed newest first, one second's by id (as both backends and a restore order them)
        assert [r.id for r in (await s.reflections("t", None, limit=10, offset=0))[0]] == ["f0", "f2", "f1"]
        with pytest.raises(Exception, match="(?i)unique|duplicate"):
            await s.import_reflections([made[0]])
        assert len(await s.reflections_after("", "", 10)) == 3

    run(backend, body)


def test_most_used_ranks_the_users_most_used_memories_since_a_time(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        uses = [Use("t", "u", "a", None, "chat_completions", "2026-01-05T00:00:00Z") for _ in range(3)]
        uses += [Use("t", "u", "b", "c1", "responses", "2026-01-05T00:00:00Z") for _ in range(3)]
        uses += [Use("t", "u", "c", None, "chat_completions", "2026-01-06T00:00:00Z")]
        uses += [Use("t", "u", "old", None, "chat_completions", "2025-01-01T00:00:00Z") for _ in range(9)]
        uses += [Use("t", "v", "a", None, "chat_completions", "2026-01-05T00:00:00Z") for _ in range(9)]
        await s.add_uses(uses)
        since = "2026-01-01T00:00:00Z"
        assert await s.most_used("t", "u", since, 10) == [("a", 3), ("b", 3), ("c", 1)]
        assert await s.most_used("t", "u", since, 1) == [("a", 3)]
        assert await s.most_used("t", "w", since, 10) == []

    run(backend, body)


def test_uses_move_to_the_memory_that_holds_their_facts(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        uses = [Use("t", "u", "a", "c1", "chat_completions", "2026-01-05T00:00:00Z") for _ in range(2)]
        uses += [Use("t", "u", "b", "c2", "responses", "2026-01-06T00:00:00Z")]
        uses += [Use("t", "v", "a", None, "chat_completions", "2026-01-05T00:00:00Z")]  # another user's
        uses += [Use("t", "u", "keep", None, "chat_completions", "2026-01-07T00:00:00Z")]
        await s.add_uses(uses)
        before = await s.recent_uses("t", "u", None, 10)
        async with s.transaction():
            assert await s.move_uses("t", "u", ["a", "b"], "keep") == 3
        assert await s.use_counts("t", ["a", "b", "keep"], "u") == {"a": 0, "b": 0, "keep": 4}
        assert await s.use_counts("t", ["a"], "v") == {"a": 1}
        after = await s.recent_uses("t", "u", None, 10)  # same rows, same order, same times
        assert [(u.conversation_id, u.time) for u in after] == [(u.conversation_id, u.time) for u in before]
        assert {u.memory_id for u in after} == {"keep"} and await s.count_uses("t", "u") == 4
        assert await s.move_uses("t", "u", [], "keep") == 0

    run(backend, body)


def test_reflections_filter_by_kind(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        stamp = "2026-01-02T00:00:00Z"
        base = Reflection("refl_1", "t", "u", "2026-01-01T00:00:00Z", stamp, stamp, {"counts": {}})
        for rid, tenant, user in (("refl_1", "t", "u"), ("refl_2", "t", ""), ("refl_3", "t", "v"), ("refl_4", "x", "")):
            await s.add_reflection(replace(base, id=rid, tenant=tenant, user_id=user))
        users, total = await s.reflections("t", None, limit=10, offset=0, kind="user")
        assert [r.id for r in users] == ["refl_3", "refl_1"] and total == 2
        tenants, total = await s.reflections(None, None, limit=10, offset=0, kind="tenant")
        assert [r.id for r in tenants] == ["refl_4", "refl_2"] and total == 2
        assert [r.id for r in (await s.reflections("t", None, limit=1, offset=1, kind="user"))[0]] == ["refl_1"]
        assert (await s.reflections("t", "u", limit=10, offset=0, kind="tenant"))[1] == 0
        assert (await s.reflections("t", None, limit=10, offset=0))[1] == 3

    run(backend, body)
