"""Backup and restore time: N memories (random 512-dim unit vectors, 100 users, an audit entry
each, English and Chinese text) in SQLite, backed up with ``memorelay backup``'s code, then
restored into an empty SQLite file and (``--postgres``) into an empty embedded PostgreSQL.

    .venv/bin/python bench/backup.py --n 10000 [--postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.memory.backup import restore, write_backup
from gateway.memory.types import Memory
from gateway.store import Backend
from gateway.store.backend import sqlite_backend

DIM = 512


def _memory(i: int) -> Memory:
    stamp = f"2026-01-{1 + i % 28:02d}T00:00:{i % 60:02d}Z"
    return Memory(
        id=f"m{i:07d}",
        tenant="t",
        user_id=f"u{i % 100}",
        scope="personal",
        category="user_preference",
        subcategory="",
        title=f"Fact {i}",
        content=f"The user likes topic {i} and 主题 {i} on weekdays.",
        tags=["bench"],
        source="auto",
        source_conversation_id=None,
        score=0.7,
        enabled=True,
        disabled_reason=None,
        created_at=stamp,
        updated_at=stamp,
        access_count=0,
        last_access_at=None,
    )


async def fill(backend: Backend, n: int) -> None:
    store = backend.memories
    await store.prepare_vectors("bench-random", DIM)
    rng = np.random.default_rng(1)
    for start in range(0, n, 1000):
        ids = range(start, min(n, start + 1000))
        vectors = rng.standard_normal((len(ids), DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        memories = [_memory(i) for i in ids]
        await store.insert(memories, vectors)
        await store.import_audit(
            [
                {"time": m.created_at, "actor": "bench", "action": "create", "tenant": "t", "user_id": m.user_id}
                | {"memory_id": m.id}
                for m in memories
            ]
        )


async def timed(label: str, work: object) -> float:
    started = time.perf_counter()
    await work  # type: ignore[misc]
    seconds = time.perf_counter() - started
    print(f"{label}: {seconds:.2f} s")
    return seconds


async def _ticks(stalls: list[float]) -> None:
    """How late a 5 ms timer fires while the backup runs in the same event loop."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(0.005)
        stalls.append(time.perf_counter() - started - 0.005)


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="memorelay-bench-backup-", dir="/tmp"))
    source = sqlite_backend(str(folder / "source.db"))
    await source.open()
    await fill(source, args.n)
    out = folder / "b.jsonl.gz"
    stalls: list[float] = []
    ticking = asyncio.ensure_future(_ticks(stalls))
    await timed(f"backup of {args.n} memories (SQLite)", write_backup(source, out))
    ticking.cancel()
    print(f"longest event-loop stall during the backup: {max(stalls) * 1000:.0f} ms (a request waits at most this)")
    print(f"file: {out.stat().st_size / 1e6:.1f} MB")
    await source.close()
    target = sqlite_backend(str(folder / "target.db"))
    await target.open()
    await timed("restore into empty SQLite", restore(target, out))
    await target.close()
    if args.postgres:
        from gateway.store.postgres import postgres_backend
        from tests.pg import fresh_database_url

        pg = postgres_backend(fresh_database_url())
        await pg.open()
        await timed("restore into empty PostgreSQL", restore(pg, out))
        back = folder / "pg.jsonl.gz"
        await timed("backup of the same (PostgreSQL)", write_backup(pg, back))
        await pg.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--postgres", action="store_true")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
