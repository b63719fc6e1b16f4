from __future__ import annotations

import time

from gateway.memory import Embedder
from gateway.memory.bounds import (
    EMBED_MAX_CHARS,
    QUERY_HEAD_CHARS,
    QUERY_MAX_CHARS,
    QUERY_TAIL_CHARS,
    SLICE_CHARS,
    bound_query,
    bound_text,
    slices,
)
from tests.memory.helpers import note, opened, run


def test_a_long_query_keeps_its_head_and_tail() -> None:
    assert bound_query("short question") == "short question"
    long = "A" * QUERY_HEAD_CHARS + "x" * 1_000_000 + "B" * QUERY_TAIL_CHARS
    cut = bound_query(long)
    assert cut.startswith("A" * QUERY_HEAD_CHARS) and cut.endswith("B" * QUERY_TAIL_CHARS)
    assert "x" not in cut and len(cut) < QUERY_MAX_CHARS + 10
    assert bound_text("y" * 10_000) == "y" * EMBED_MAX_CHARS


def test_slices_bound_characters_and_items() -> None:
    texts = ["a" * 1500] * 5 + ["b" * 9000, "c"]
    runs = list(slices(texts, max_items=64))
    assert [t for run in runs for t in run] == texts
    assert all(sum(map(len, run)) <= SLICE_CHARS or len(run) == 1 for run in runs)
    assert [len(run) for run in slices(["z"] * 10, max_items=4)] == [4, 4, 2]


def test_a_one_megabyte_query_is_answered_in_bounded_time(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        s = await opened(db_path, use_embedder)
        await s.add_many("t", "u", [note("Pet", "The user has a golden retriever named Max")], actor="u")
        await s.add_many("t", "u", [note("Stack", "The backend is written in Rust", "technical")], actor="u")
        paste = ("the quick brown fox jumps over the lazy river " * 25_000)[:1_000_000]
        started = time.perf_counter()
        hits = await s.search("t", "u", paste + "\n\nWhat is my dog called?", limit=1)
        # a whole 1 MB embedding takes ~30 s on this machine; the bounded query ~20 ms
        assert time.perf_counter() - started < 3
        assert hits and hits[0].memory.title == "Pet"
        await s.close()

    run(main())
