"""List latency with use counts: one 100-row page of a user's memories (``list_visible``) alone,
and with ``use_counts`` for the page (the read ``GET /api/memories`` adds), on SQLite and
(``--postgres``) embedded PostgreSQL. A citation log of ``--uses`` rows over 20 users x 1000
memories and one shared memory, skewed like real injection: the shared pinned memory goes into
every turn of every user (a third of the uses), each user's 5 pinned memories take 40 %, the
rest spread over all memories; the page is u0's newest 100, the shared one among them.

    .venv/bin/python bench/list_uses.py [--uses 500000] [--postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.memory.types import Memory
from gateway.store import Backend, Use, Visibility
from gateway.store.backend import sqlite_backend

USERS, PER_USER, PINNED, PAGE, ROUNDS = 20, 1000, 5, 100, 200


def _memory(user: int, i: int) -> Memory:
    stamp = f"2026-01-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"  # newest last
    return Memory(
        id=f"m{user:02d}-{i:05d}",
        tenant="t",
        user_id=f"u{user}",
        scope="personal",
        category="user_preference",
        subcategory="",
        title=f"Fact {i}",
        content=f"The user likes topic {i}.",
        tags=[],
        source="auto",
        source_conversation_id=None,
        score=0.7,
        enabled=True,
        disabled_reason=None,
        created_at=stamp,
        updated_at=stamp,
        access_count=0,
        last_access_at=None,
        pinned=i >= PER_USER - PINNED,  # the newest five: on the first page
    )


async def fill(backend: Backend, uses: int) -> None:
    store = backend.memories
    for user in range(USERS):
        await store.insert([_memory(user, i) for i in range(PER_USER)], None)
    shared = _memory(0, PER_USER)
    shared.id, shared.scope, shared.user_id = "shared", "shared", ""
    await store.insert([shared], None)
    rng = np.random.default_rng(1)
    users = rng.integers(0, USERS, uses)
    kind = rng.random(uses)
    pinned = PER_USER - 1 - rng.integers(0, PINNED, uses)
    which = np.where(kind < 0.4, pinned, rng.integers(0, PER_USER, uses))
    batch: list[Use] = []
    for user, i, k in zip(users, which, kind, strict=True):
        mid = "shared" if k > 2 / 3 else f"m{user:02d}-{i:05d}"
        batch.append(Use("t", f"u{user}", mid, "conv", "chat_completions", "2026-02-01T00:00:00Z"))
        if len(batch) >= 10_000:
            await store.add_uses(batch)
            batch = []
    await store.add_uses(batch)


async def measure(backend: Backend, label: str) -> None:
    store = backend.memories
    where = Visibility("t", "u0")
    alone: list[float] = []
    both: list[float] = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        page, _ = await store.list_visible(where, limit=PAGE, offset=0)
        listed = time.perf_counter()
        counts = await store.use_counts("t", [m.id for m in page], "u0")
        done = time.perf_counter()
        alone.append(listed - started)
        both.append(done - started)
    assert len(page) == PAGE and sum(counts.values()) > 0
    q = statistics.quantiles
    print(
        f"{label}: list {statistics.median(alone) * 1000:.2f} ms p50 / {q(alone, n=100)[98] * 1000:.2f} ms p99; "
        f"list + use_counts {statistics.median(both) * 1000:.2f} ms p50 / {q(both, n=100)[98] * 1000:.2f} ms p99 "
        f"(page uses: {sum(counts.values())})"
    )


async def _analyze(backend: Backend) -> None:
    """Statistics and the visibility map, as autovacuum leaves them after bulk inserts (PostgreSQL)."""
    if backend.kind == "postgres":
        import psycopg

        with psycopg.connect(backend.memories.db.url, autocommit=True) as conn:  # type: ignore[attr-defined]
            conn.execute("VACUUM ANALYZE memory_uses")


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="memorelay-bench-uses-", dir="/tmp"))
    backends = [("SQLite", sqlite_backend(str(folder / "bench.db")))]
    if args.postgres:
        from gateway.store.postgres import postgres_backend
        from tests.pg import fresh_database_url

        backends.append(("PostgreSQL", postgres_backend(fresh_database_url())))
    for label, backend in backends:
        await backend.open()
        try:
            await fill(backend, args.uses)
            await backend.memories.compact()  # nothing pending
            await _analyze(backend)
            await measure(backend, f"{label}, {USERS * PER_USER} memories, {args.uses} uses")
        finally:
            await backend.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uses", type=int, default=500_000)
    parser.add_argument("--postgres", action="store_true")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
