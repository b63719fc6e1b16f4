"""``gateway.memory.migrate``: a SQLite store copied into PostgreSQL, a run that stops midway
(the connection to the target lost) resumes where it stopped, without repeats."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

from gateway.memory import KINDS
from gateway.memory import migrate as migration
from gateway.store import AuditEntry, Backend, MemoryRow, MemoryStore, Reflection, Review
from gateway.store.backend import sqlite_backend
from gateway.store.postgres import postgres_backend
from tests.memory.test_store_contract import mem, vec


class LostConnection(Exception):
    pass


class Interrupted:
    """The target's memory store, losing its connection at the ``at``-th call of ``method``."""

    def __init__(self, store: MemoryStore, method: str, at: int) -> None:
        self.store, self.method, self.at, self.calls = store, method, at, 0

    def __getattr__(self, name: str) -> Any:
        real = getattr(self.store, name)
        if name != self.method:
            return real

        async def call(*args: Any) -> Any:
            self.calls += 1
            if self.calls == self.at:
                raise LostConnection
            return await real(*args)

        return call


async def _source(path: str) -> Backend:
    source = sqlite_backend(path)
    await source.open()
    s = source.memories
    await s.prepare_vectors("model-a", 4)
    # every kind, so the copies' equality checks the kind too
    memories = [replace(mem(f"m{i}", f"Fact {i}", f"事实 {i} about topic {i}"), kind=KINDS[i % 5]) for i in range(7)]
    await s.insert(memories, np.stack([vec(1, i, 0, 0) for i in range(7)]))
    for m in memories[:5]:
        await s.audit(AuditEntry(m.created_at, "u", "create", "t", "u", m.id))
    await s.put_settings("t", "u", {"learning_enabled": False})
    return source


async def _everything(store: MemoryStore) -> tuple[list[MemoryRow], list[AuditEntry]]:
    rows = [row async for batch in store.iter_memories(100) for row in batch]
    audit = [replace(e, id=None) for e in await store.audit_after(0, 100)]
    return rows, audit


@pytest.mark.parametrize(("method", "at"), [("import_memories", 3), ("import_audit", 2)])
def test_a_run_that_stops_midway_resumes_without_repeats(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch, method: str, at: int
) -> None:
    monkeypatch.setattr(migration, "BATCH", 2)

    async def main() -> None:
        source = await _source(str(tmp_path / "memorelay.db"))
        target = postgres_backend(pg_url)
        await target.open()
        try:
            broken = Backend(
                "postgres", cast(MemoryStore, Interrupted(target.memories, method, at)), target.learning, target.console
            )
            with pytest.raises(LostConnection):
                await migration.migrate(source, broken, "source.db")
            first = await migration.migrate(source, target, "source.db")
            if method == "import_memories":  # two batches were in before the loss
                assert (first.memories_copied, first.memories_present, first.audit_copied) == (3, 4, 5)
            else:  # the first audit batch was in; the second was rolled back with its resume point
                assert (first.memories_copied, first.memories_present, first.audit_copied) == (0, 7, 3)
            rows, audit = await _everything(target.memories)
            want_rows, want_audit = await _everything(source.memories)
            assert [m for m, _ in rows] == [m for m, _ in want_rows] and audit == want_audit
            assert all(np.allclose(v, w) for (_, v), (_, w) in zip(rows, want_rows, strict=True))  # type: ignore[arg-type]
            again = await migration.migrate(source, target, "source.db")
            assert not again.anything and again.memories_present == 7
            rows_again, audit_again = await _everything(target.memories)
            assert [m for m, _ in rows_again] == [m for m, _ in rows] and audit_again == audit
        finally:
            await target.close()
            await source.close()

    asyncio.run(main())


def test_reviews_are_copied_and_a_later_decision_follows(tmp_path: Path, pg_url: str) -> None:
    async def main() -> None:
        source = await _source(str(tmp_path / "memorelay.db"))
        target = postgres_backend(pg_url)
        await target.open()
        try:
            waiting = Review("r1", "t", "u", "m0", "m1", "numbers or dates differ", "2026-01-02T00:00:00Z")
            await source.memories.add_review(waiting)
            await source.memories.add_review(
                Review("r2", "t", "u", "m2", "m3", "content differs", "2026-01-03T00:00:00Z")
            )
            assert (await migration.migrate(source, target, "source.db")).reviews_copied == 2
            assert await target.memories.get_review("r1") == waiting
            await source.memories.decide_review("r1", "accepted", "user:u", "2026-01-04T00:00:00Z")
            again = await migration.migrate(source, target, "source.db")
            assert again.reviews_copied == 1 and again.anything
            assert await target.memories.get_review("r1") == await source.memories.get_review("r1")
            assert (await migration.migrate(source, target, "source.db")).reviews_copied == 0
        finally:
            await target.close()
            await source.close()

    asyncio.run(main())


def test_reflection_reports_are_copied_once(tmp_path: Path, pg_url: str) -> None:
    async def main() -> None:
        source = await _source(str(tmp_path / "memorelay.db"))
        target = postgres_backend(pg_url)
        await target.open()
        try:
            report = Reflection("f1", "t", "u", "a", "b", "2026-01-02T00:00:00Z", {"counts": {"merged": 1}})
            await source.memories.add_reflection(report)
            await source.memories.add_reflection(replace(report, id="f2", user_id=""))
            assert (await migration.migrate(source, target, "source.db")).reflections_copied == 2
            assert (await target.memories.reflections("t", "u", limit=10, offset=0))[0] == [report]
            assert (await migration.migrate(source, target, "source.db")).reflections_copied == 0
        finally:
            await target.close()
            await source.close()

    asyncio.run(main())
