"""The recall paths' arithmetic (``recall.rerank``) and the in-process statistics
(``recall.RecallStats``) against a real store, on both backends."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from gateway.memory import Embedder, recall
from gateway.memory.recall import RecallSettings, RecallStats, Signals, rerank
from gateway.store import Backend, Use
from tests.memory.helpers import note, opened
from tests.memory.helpers import run as run_service
from tests.memory.test_store_contract import Factory, mem, run

ONLY_FATIGUE = RecallSettings(recency_weight=0, popularity_weight=0, cooccurrence_weight=0)
NOW = 1_800_000_000.0  # 2027-01-15


def signals(**kw: object) -> Signals:
    base: dict[str, object] = {"counts": {}, "together": {}, "top": 0, "recent": ()}
    return Signals(**{**base, **kw})  # type: ignore[arg-type]


def order(fused: list[tuple[str, float]], s: Signals, settings: RecallSettings) -> list[str]:
    return [mid for mid, _ in rerank(fused, {}, s, settings, now=NOW)]


def test_fatigue_pushes_last_turns_down_by_age() -> None:
    fused = [("a", 2.0), ("b", 2.0), ("c", 2.0), ("d", 2.0)]
    recent = (frozenset({"a"}), frozenset({"b"}), frozenset({"c"}))  # newest first
    assert order(fused, signals(recent=recent), ONLY_FATIGUE) == ["d", "c", "b", "a"]
    # only the last fatigue_turns count
    assert order(fused, signals(recent=recent), replace(ONLY_FATIGUE, fatigue_turns=1)) == ["b", "c", "d", "a"]
    # a clearly more relevant memory stays first even when injected last turn
    assert order([("a", 2.0), ("b", 1.0)], signals(recent=recent[:1]), ONLY_FATIGUE) == ["a", "b"]


def test_bonuses_only_close_small_relevance_gaps() -> None:
    every = RecallSettings(fatigue_weight=0)
    huge = signals(counts={"b": 1000}, top=1000, together={"a": {"b": 50}}, recent=())
    # b is popular and always came with a, but far less relevant: it stays second, even at
    # the highest weights the config allows
    assert order([("a", 1.0), ("b", 0.45)], huge, every) == ["a", "b"]
    top = RecallSettings(recency_weight=1, popularity_weight=1, cooccurrence_weight=1, fatigue_weight=0)
    assert order([("a", 1.0), ("b", 0.45)], huge, top) == ["a", "b"]
    # nearly as relevant: popularity and co-occurrence lift it over
    assert order([("a", 1.0), ("b", 0.9), ("c", 0.95)], huge, every) == ["b", "a", "c"]
    # nothing known: the fused order stands
    assert order([("a", 1.0), ("b", 0.99)], signals(), every) == ["a", "b"]


def test_recency_prefers_the_recently_used_of_two_equals() -> None:
    old = mem("old", "Tea", created="2026-01-01T00:00:00Z")
    new = replace(mem("new", "Tea", created="2026-01-01T00:00:00Z"), last_access_at="2027-01-14T00:00:00Z")
    only_recency = RecallSettings(popularity_weight=0, cooccurrence_weight=0, fatigue_weight=0)
    ranked = rerank([("old", 1.0), ("new", 1.0)], {"old": old, "new": new}, signals(), only_recency, now=NOW)
    assert [mid for mid, _ in ranked] == ["new", "old"]


def test_statistics_load_in_the_background_and_follow_new_uses(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("a", "Tea"), mem("b", "Cake"), mem("c", "Jam")], None)
        await s.add_uses(
            [
                Use("t", "u", "a", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "u", "b", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "u", "a", None, "chat_completions", "2026-01-02T00:00:00Z"),
                Use("t", "v", "c", None, "chat_completions", "2026-01-02T00:00:00Z"),
            ]
        )
        stats = RecallStats(s, RecallSettings())
        assert stats.signals("t", "u", None).counts == {}  # the first read starts the load
        # a use logged while the load runs counts once
        stats.record([Use("t", "u", "c", "conv-9", "messages", "2099-01-01T00:00:00Z")])
        for _ in range(200):
            if stats.signals("t", "u", None).counts:
                break
            await asyncio.sleep(0.01)
        got = stats.signals("t", "u", "conv-9")
        assert got.counts == {"a": 2, "b": 1, "c": 1} and got.top == 2
        assert got.together == {"a": {"b": 1}, "b": {"a": 1}}  # one turn held both
        assert got.recent == (frozenset({"c"}),)
        # pinned ones are left out; a new turn is the newest of the conversation
        stats.record(
            [Use("t", "u", "a", "conv-9", "messages", "2099-01-01T00:00:01Z"), Use("t", "u", "p", "conv-9", "m", "x")],
            leave_out={"p"},
        )
        got = stats.signals("t", "u", "conv-9")
        assert got.counts["a"] == 3 and "p" not in got.counts
        assert got.recent == (frozenset({"a"}), frozenset({"c"}))
        # another user's statistics are their own
        assert stats.signals("t", "v", None).counts == {}
        await stats.stop()

    run(backend, body)


def test_a_popular_memory_never_displaces_relevant_ones(db_path: str, use_embedder: Embedder) -> None:
    """Through the service (working set and store paths): the cat memory is cited in every
    past response, yet a tea question still gets the tea memories only."""

    async def main() -> None:
        for mb in (256.0, 0.0):
            s = await opened(f"{db_path}.{mb}", use_embedder, working_set_mb=mb)
            s.recall.settings = RecallSettings(popularity_weight=1.0)  # the most memory.recall allows
            made = await s.add_many("t", "u", [note("Pet", "The user has a cat named Miso")], actor="u")
            teas = ["oolong", "sencha", "assam", "rooibos", "darjeeling", "matcha"]
            await s.add_many("t", "u", [note("Tea", f"The user drinks {t} tea") for t in teas], actor="u")
            cat = made[0].id
            await s.search("t", "u", "warm up", recall=True)  # the statistics load
            for _ in range(50):
                s.record_uses("t", "u", [cat], None, "chat_completions")
            await asyncio.sleep(0.2)
            assert s.recall.signals("t", "u", None).counts.get(cat) == 50
            hits = await s.search("t", "u", "Which tea should I buy?", limit=5, recall=True, cached_rows=True)
            assert len(hits) == 5 and cat not in {h.memory.id for h in hits}
            await s.close()

    run_service(main())


def test_statistics_stay_within_their_bound(backend: Factory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recall, "MAX_ENTRIES", 30)

    async def body(b: Backend) -> None:
        stats = RecallStats(b.memories, RecallSettings())
        for user in ("u1", "u2", "u3"):
            stats.signals("t", user, None)
        for _ in range(200):  # the three (empty) loads land
            if all(stats._users[("t", u)].pending is None for u in ("u1", "u2", "u3")):
                break
            await asyncio.sleep(0.01)
        stats.signals("t", "u1", None)  # u1 served last: u2 is the least recent now
        # 4 memories together: 4 counts + 12 pairs = 16 entries per user; two users pass 30
        turn = [Use("t", "u3", f"m{i}", None, "s", "2099-01-01T00:00:00Z") for i in range(4)]
        stats.record(turn)
        stats.record([replace(u, user_id="u1") for u in turn])
        assert ("t", "u2") not in stats._users  # empty, but the least recently served: left first
        assert stats.signals("t", "u1", None).counts == {f"m{i}": 1 for i in range(4)}
        assert ("t", "u3") not in stats._users and stats._entries == 16
        await stats.stop()

    run(backend, body)


def test_fatigue_never_brings_in_a_weak_match() -> None:
    """A, B, C at 1.0, 0.6, 0.4: after a turn that injected A and B, C (below half the best)
    still ranks after both; fatigue only turns A and B round."""
    fused = [("a", 1.0), ("b", 0.6), ("c", 0.4)]
    last = signals(recent=(frozenset({"a", "b"}),))
    assert order(fused, last, RecallSettings()) == ["a", "b", "c"]  # was A, C: C pulled in
    # B nearer A: injected last turn, A falls behind it; C stays last
    closer = [("a", 1.0), ("b", 0.8), ("c", 0.4)]
    assert order(closer, signals(recent=(frozenset({"a"}),)), RecallSettings()) == ["b", "a", "c"]


def test_under_rank_fusion_the_pools_weaker_half_is_not_pulled_in() -> None:
    """Reciprocal-rank sums of one list (ranks 1..6 at k 60) are all above half the best;
    the share is taken over the pool's range, so fatigue rotates within its better half."""
    fused = [(f"m{r}", 1 / (60 + r)) for r in range(1, 7)]
    injected = signals(recent=(frozenset({"m1", "m2", "m3"}),))
    ranked = [mid for mid, _ in rerank(fused, {}, injected, ONLY_FATIGUE, now=NOW, ranks_only=True)]
    assert ranked[:3] == ["m1", "m2", "m3"], ranked
    # without the flag (relevance as scores) they would all count as relevant
    loose = [mid for mid, _ in rerank(fused, {}, injected, ONLY_FATIGUE, now=NOW)]
    assert loose[:3] == ["m4", "m5", "m6"]
