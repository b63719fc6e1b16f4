"""The working set: retrieval from memory gives the store's lists, stays within its budget,
never serves a changed partition, and never another user's memories."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

import numpy as np
import pytest

from gateway.memory import Embedder, MemoryService
from gateway.memory.working_set import Partition, PartitionSource, View, WorkingSet
from gateway.store import PartitionRows, Visibility
from gateway.store.fts5 import cjk_match, words_match
from gateway.store.keyword_index import SHARED_OWNER, parse_query

from .helpers import note, run, service

T = "acme"
CORPUS = [
    ("Paints watercolours on weekends", "She paints landscapes in watercolour every weekend."),
    ("Took a painting class", "Joined an oil painting class at the community centre in May."),
    ("Runs marathons", "Running is her favourite sport; she ran the Berlin marathon twice."),
    ("Prefers tabs", "The user prefers tabs over spaces in Python code."),
    ("Café order", "Her usual café order is a flat white with oat milk."),
    ("我喜欢喝咖啡", "用户每天早上喝两杯咖啡，不加糖。"),
    ("团队使用 Go", "用户在支付团队，主要用 Go 开发，喜欢简洁的回答。"),
    ("Repainted the kitchen", "They repainted the kitchen walls a pale green last spring."),
    ("Database", "The payments service stores its data in PostgreSQL 16."),
    ("Commute", "Cycles to work; the commute takes twenty minutes."),
    ("Team lead", "The payments team's lead is Ana; the team's releases ship on Tuesdays."),
]
QUERIES = [
    "Which painting class did she take?",
    "paint",
    "does she like running?",
    "我喜欢喝什么咖啡",
    "支付团队用什么语言",
    "cafe order with oat milk",
    "what database do the payments people use",
    "the payments team's database",  # "team's" is a phrase of two tokens: FTS5 ranks it
    "naïve café runs",
]


def ordered(hits: list[tuple[str, float]]) -> list[tuple[float, str]]:
    """Best first, ties by id (equal scores may come in either order)."""
    return sorted(((-round(score, 6), mid) for mid, score in hits))


async def fill(s: MemoryService, user: str = "ann") -> list[str]:
    made = await s.add_many(T, user, [note(t, c) for t, c in CORPUS], actor="test")
    return [m.id for m in made]


async def view_of(s: MemoryService, user: str | None = "ann") -> View:
    assert s.working_set is not None
    view = await s.working_set.view(T, user)
    assert view is not None
    return view


def test_lists_match_the_store(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            await fill(s)
            view = await view_of(s)
            where = Visibility(T, "ann")
            for q in QUERIES:
                parsed = parse_query(q)
                held = view.keyword_candidates(where, parsed, 50)
                stored = await s.store.keyword_candidates(where, parsed, 50)
                assert [k for _, k in held] == [k for _, k in stored], q
                assert [ordered(h) for h, _ in held] == [ordered(h) for h, _ in stored], q
                qvec = (await use_embedder.embed([q]))[0]
                store_vec = await s.store.vector_candidates(where, qvec, 50)
                assert [m for m, _ in view.vector_candidates(where, qvec, 50)] == [m for m, _ in store_vec]
                assert np.allclose(
                    [x for _, x in view.vector_candidates(where, qvec, 50)], [x for _, x in store_vec], atol=1e-5
                )
            # the lists found something in every language
            assert view.keyword_candidates(where, parse_query("paint"), 50)[-1][1] == "substring"
            assert view.keyword_candidates(where, parse_query("咖啡"), 50)[0][0]

    run(go())


def test_search_answers_as_the_store_does(tmp_path: str, use_embedder: Embedder) -> None:
    # one partition: bm25 statistics are the same (with several, the store counts them over
    # all partitions, the working set over each)
    path = f"{tmp_path}/m.db"

    async def go() -> None:
        async with service(path, use_embedder) as s:
            await fill(s)
            await view_of(s)
            held = [[h.memory.id for h in await s.search(T, "ann", q, limit=5)] for q in QUERIES]
            assert s.working_set is not None and s.working_set.holds(T, "ann")
        async with service(path, use_embedder, working_set_mb=0) as s:
            assert s.working_set is None
            stored = [[h.memory.id for h in await s.search(T, "ann", q, limit=5)] for q in QUERIES]
        assert held == stored

    run(go())


def test_budget_evicts_the_least_recently_used(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            for user in ("a", "b", "c", "d"):
                await fill(s, user)
            source = s.store
            one = await WorkingSet(source).view(T, "a")
            assert one is not None and one.personal is not None
            # room for the shared partition and two users
            ws = WorkingSet(source, budget_bytes=one.shared.nbytes + int(one.personal.nbytes * 2.5))
            for user in ("a", "b", "c"):
                assert await ws.view(T, user) is not None
            assert not ws.holds(T, "a") and ws.holds(T, "b") and ws.holds(T, "c")
            await ws.view(T, "b")  # b is used again: c is now the oldest
            await ws.view(T, "d")
            assert ws.holds(T, "b") and ws.holds(T, "d") and not ws.holds(T, "c")
            assert ws.stats.evictions == 2 and ws.stats.bytes <= ws.budget_bytes

    run(go())


def test_partitions_over_the_row_cap_are_searched_in_the_store(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder, working_set_max_rows=5) as s:
            ids = await fill(s)
            assert s.working_set is not None
            assert await s.working_set.view(T, "ann") is None
            found = await s.search(T, "ann", "painting class", limit=3)
            assert found and found[0].memory.id == ids[1]
            assert not s.working_set.holds(T, "ann")
            # a change does not make it read the big partition again (the store answers)
            assert await s.disable(T, "ann", ids[1], "wrong", actor="test")
            assert await s.working_set.view(T, "ann") is None
            assert s.working_set.stats.too_large == 1
            found = await s.search(T, "ann", "painting class", limit=3)
            assert ids[1] not in [h.memory.id for h in found]

    run(go())


def test_disabled_or_deleted_memories_are_never_served(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ids = await fill(s)
            await view_of(s)
            first = await s.search(T, "ann", "painting class", limit=3, cached_rows=True)
            assert first[0].memory.id == ids[1]
            assert s.working_set is not None and s.working_set.holds(T, "ann")
            assert await s.disable(T, "ann", ids[1], "wrong", actor="test")
            assert not s.working_set.holds(T, "ann")
            await view_of(s)
            again = await s.search(T, "ann", "painting class", limit=10, cached_rows=True)
            assert again and ids[1] not in [h.memory.id for h in again]
            assert await s.delete(T, "ann", ids[7], actor="test")
            await view_of(s)
            after = await s.search(T, "ann", "repainted kitchen", limit=10, cached_rows=True)
            assert ids[7] not in [h.memory.id for h in after]
            # an edit is served at once too
            await s.update(T, "ann", ids[3], {"content": "The user now prefers spaces."}, actor="test")
            await view_of(s)
            edited = await s.search(T, "ann", "tabs or spaces", limit=1, cached_rows=True)
            assert edited[0].memory.content == "The user now prefers spaces."

    run(go())


class GatedSource:
    """The store's rows, held back after reading until ``release`` (a slow load)."""

    def __init__(self, inner: PartitionSource) -> None:
        self.inner = inner
        self.read = asyncio.Event()
        self.release = asyncio.Event()
        self.calls = 0

    async def partition_rows(
        self, tenant: str, owner: str, *, limit: int | None = None, ids: Collection[str] | None = None
    ) -> PartitionRows:
        rows = await self.inner.partition_rows(tenant, owner, limit=limit, ids=ids)
        self.calls += 1
        if owner != SHARED_OWNER and self.calls <= 2:
            self.read.set()
            await self.release.wait()
        return rows


def test_a_load_racing_a_change_installs_nothing_stale(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ids = await fill(s)
            gated = GatedSource(s.store)
            s.working_set = ws = WorkingSet(gated)
            s.store.on_change(ws.changed)
            loading = asyncio.ensure_future(ws.view(T, "ann"))
            await gated.read.wait()  # the load holds rows read before the disable
            assert await s.disable(T, "ann", ids[1], "wrong", actor="test")
            gated.release.set()
            view = await loading
            assert view is not None and view.current
            assert ids[1] not in view.memories(ids)
            assert ws.stats.stale_loads == 1
            qvec = (await use_embedder.embed(["painting class"]))[0]
            where = Visibility(T, "ann")
            assert ids[1] not in [m for m, _ in view.vector_candidates(where, qvec, 50)]

    run(go())


def test_a_view_taken_before_a_change_is_not_trusted(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ids = await fill(s)
            view = await view_of(s)
            assert await s.disable(T, "ann", ids[0], "wrong", actor="test")
            assert not view.current
            fresh = await view_of(s)
            assert fresh.current and ids[0] not in fresh.memories(ids)

    run(go())


def test_never_another_users_partition(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ann = set(await fill(s, "ann"))
            bob = set(await fill(s, "bob"))
            shared = (await s.add(T, "ann", note("Office", "The office is in Leipzig.", scope="shared"), actor="t")).id
            other_tenant = await s.add_many("other", "ann", [note(t, c) for t, c in CORPUS], actor="test")
            view = await view_of(s, "ann")
            where = Visibility(T, "ann")
            seen: set[str] = set()
            assert s.working_set is not None
            for q in [*QUERIES, "office Leipzig"]:
                qvec = (await use_embedder.embed([q]))[0]
                seen.update(m for m, _ in view.vector_candidates(where, qvec, 100))
                for hits, _ in view.keyword_candidates(where, parse_query(q), 100):
                    seen.update(m for m, _ in hits)
                for h in await s.search(T, "ann", q, limit=10, cached_rows=True):
                    seen.add(h.memory.id)
                assert s.working_set.holds(T, "ann")
            assert seen <= ann | {shared} and shared in seen
            assert not seen & (bob | {m.id for m in other_tenant})
            # a view answers only for its own user
            with pytest.raises(ValueError):
                view.keyword_candidates(Visibility(T, "bob"), parse_query("paint"), 10)
            # without a user: the tenant's shared memories only
            anonymous = await view_of(s, None)
            assert set(anonymous.memories([*ann, shared])) == {shared}

    run(go())


def test_promote_moves_a_memory_into_every_users_view(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ids = await fill(s, "ann")
            await fill(s, "bob")
            assert ids[4] not in (await view_of(s, "bob")).memories([ids[4]])
            assert await s.promote(ids[4], actor="admin") is not None
            await view_of(s, "bob")
            found = await s.search(T, "bob", "cafe order oat milk", limit=3, cached_rows=True)
            assert ids[4] in [h.memory.id for h in found]

    run(go())


def test_a_first_request_does_not_wait_for_the_load(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ids = await fill(s)
            assert s.working_set is not None
            # answered by the store while the partition loads in the background
            assert await s.working_set.view(T, "ann", wait=False) is None
            found = await s.search(T, "ann", "painting class", limit=1, cached_rows=True)
            assert found[0].memory.id == ids[1]
            view = await view_of(s)
            assert s.working_set.holds(T, "ann") and ids[1] in view.memories(ids)
            assert s.working_set.stats.loads == 2  # the user's partition and the shared one, once each

    run(go())


def test_numpy_ranking_equals_fts5_bm25(db_path: str, use_embedder: Embedder) -> None:
    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            await fill(s)
            part = (await view_of(s)).personal
            assert part is not None
            ids = [m.id for m in part.memories]
            checked = 0
            for q in QUERIES:
                parsed = parse_query(q)
                for kind, terms, match in (
                    ("words", parsed.words, words_match(parsed)),
                    ("cjk", parsed.grams, cjk_match(parsed)),
                ):
                    if match is None:
                        continue
                    fts = part.db.execute(
                        "SELECT rowid, bm25(words, 0.0, 2.0, 1.0, 1.0, 1.0) AS r FROM words WHERE words MATCH ? "
                        "ORDER BY r",
                        (match,),
                    ).fetchall()
                    ranked = part.postings.ranked(kind, terms, 50, None, part._phrase_scores)
                    assert ranked and fts
                    assert ordered([(ids[r], x) for r, x in ranked]) == ordered([(ids[r], -x) for r, x in fts])
                    checked += 1
            assert checked >= 8

    run(go())


def test_a_change_applied_in_place_answers_as_a_reload_would(db_path: str, use_embedder: Embedder) -> None:
    """A patched partition (the changed rows laid over the held ones) finds what a partition
    read whole after the change finds, with the same cosines; folded, the same keyword scores."""

    async def go() -> None:
        async with service(db_path, use_embedder) as s:
            ids = await fill(s)
            held = Partition(await s.store.partition_rows(T, "ann"))
            new = (await s.add(T, "ann", note("Parrot", "Ann has a parrot named Kiwi who paints."), actor="t")).id
            await s.update(T, "ann", ids[3], {"content": "The user now prefers spaces."}, actor="test")
            assert await s.delete(T, "ann", ids[7], actor="test")
            assert await s.disable(T, "ann", ids[1], "wrong", actor="test")
            touched = [new, ids[3], ids[7], ids[1]]
            patched = held.patched(await s.store.partition_rows(T, "ann", ids=touched), touched)
            reloaded = Partition(await s.store.partition_rows(T, "ann"))

            assert len(patched) == len(reloaded) == len(CORPUS) - 1
            assert patched.get(ids[7]) is None and patched.get(ids[1]) is None
            edited = patched.get(ids[3])
            assert edited is not None and edited.content == "The user now prefers spaces."
            folded = patched.folded()
            for q in [*QUERIES, "parrot Kiwi", "tabs or spaces"]:
                qvec = (await use_embedder.embed([q]))[0]
                qvec = qvec / np.linalg.norm(qvec)
                want = reloaded.vector_hits(qvec, 50, None)
                got = patched.vector_hits(qvec, 50, None)
                assert [m for m, _ in got] == [m for m, _ in want], q
                assert np.allclose([x for _, x in got], [x for _, x in want], atol=1e-5)
                query = parse_query(q)
                for kind, terms, match in (
                    ("words", query.words, words_match(query)),
                    ("cjk", query.grams, cjk_match(query)),
                ):
                    if not terms or match is None:
                        continue
                    want = reloaded.keyword_hits(kind, terms, match, 50, None)
                    assert {m for m, _ in patched.keyword_hits(kind, terms, match, 50, None)} == {m for m, _ in want}
                    assert ordered(folded.keyword_hits(kind, terms, match, 50, None)) == ordered(want), q
            kiwi = parse_query("parrot Kiwi")
            assert patched.keyword_hits("words", kiwi.words, words_match(kiwi) or "", 1, None)[0][0] == new

    run(go())
