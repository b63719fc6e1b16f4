"""``gateway.memory.backup`` beside writes: a backup taken while memories are added and
deleted holds every memory that existed for the whole run exactly once, on both backends."""

from __future__ import annotations

import asyncio
import gzip
import importlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import orjson
import pytest

from gateway.memory import backup
from gateway.store import Backend, Reflection, Review, Use
from gateway.store.backend import sqlite_backend
from tests.memory.test_store_contract import mem, run

Factory = Callable[[], Backend]


def test_a_backup_during_writes_holds_every_lasting_memory_once(
    backend: Factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backup, "BATCH", 7)
    out = tmp_path / "during.jsonl.gz"

    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem(f"keep{i:03d}", f"Kept {i}") for i in range(120)], None)
        await s.insert([mem(f"gone{i:03d}", f"Gone {i}") for i in range(40)], None)
        stop = asyncio.Event()

        async def writes() -> None:
            i = 0
            while not stop.is_set():
                await s.insert([mem(f"new{i:03d}", f"New {i}")], None)
                if i < 40:
                    await s.delete([f"gone{i:03d}"])
                i += 1
                await asyncio.sleep(0)

        writer = asyncio.ensure_future(writes())
        try:
            counts = await backup.write_backup(b, out)
        finally:
            stop.set()
            await writer
        lines = [orjson.loads(x) for x in gzip.decompress(out.read_bytes()).splitlines()]
        ids = [x["memory"]["id"] for x in lines if x["type"] == "memory"]
        assert any(i.startswith("new") for i in ids) or not all(f"gone{i:03d}" in ids for i in range(40))
        assert len(ids) == len(set(ids)) == counts.memories
        assert {f"keep{i:03d}" for i in range(120)} <= set(ids)
        assert lines[-1] == {"type": "end", "counts": counts.as_dict()}

    run(backend, body)


def _fresh(backend: Factory, tmp_path: Path) -> Backend:
    """An unopened backend of the same kind on an empty database (the factory's holds the source)."""
    if backend().kind == "sqlite":
        return sqlite_backend(str(tmp_path / "restored.db"))
    pg = importlib.import_module("tests.pg")
    postgres = importlib.import_module("gateway.store.postgres")
    config = SimpleNamespace(memory=SimpleNamespace(database=pg.fresh_database_url()))
    return cast(Backend, postgres.create_backend(config))


def test_uses_and_reviews_come_back_and_a_format_1_file_still_restores(backend: Factory, tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl.gz"
    uses = [
        Use("t", "u", "a", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
        Use("t", "u", "b", None, "responses", "2026-01-02T00:00:00Z"),
        Use("t", "v", "s", "conv-9", "messages", "2026-01-03T00:00:00Z"),
    ]
    pending = Review("r1", "t", "u", "a", "b", "content differs", "2026-01-01T00:00:00Z")
    decided = Review("r2", "t", "u", "a", "c", "content differs", "2026-01-02T00:00:00Z", "rejected", "user:u", "x")

    async def fill(b: Backend) -> None:
        s = b.memories
        await s.insert(
            [mem("a", "Tea"), mem("b", "Green tea"), mem("c", "Oolong"), mem("s", "VPN", scope="shared")], None
        )
        await s.add_uses(uses)
        await s.add_review(pending)
        await s.add_review(decided)
        counts = await backup.write_backup(b, out)
        assert (counts.uses, counts.reviews) == (3, 2)

    run(backend, fill)
    target = _fresh(backend, tmp_path)

    async def check(b: Backend) -> None:
        s = b.memories
        counts = await backup.restore(b, out)
        assert (counts.memories, counts.uses, counts.reviews) == (4, 3, 2)
        assert [u for _, u in await s.uses_after(0, 10)] == uses  # in their order
        assert (await s.reviews(None, None, None, limit=10, offset=0))[0] == [pending, decided]
        assert await s.use_counts("t", ["a", "b", "s"]) == {"a": 1, "b": 1, "s": 1}
        # a file of format 1 (no uses, no reviews; four counts in its end line) restores too
        lines = [orjson.loads(x) for x in gzip.decompress(out.read_bytes()).splitlines()]
        old = [x for x in lines if x["type"] not in ("use", "review")]
        old[0]["version"] = 1
        old[-1]["counts"] = {k: v for k, v in old[-1]["counts"].items() if k not in ("uses", "reviews", "reflections")}
        v1 = tmp_path / "v1.jsonl.gz"
        v1.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in old) + b"\n"))
        counts = await backup.restore(b, v1, force=True)
        assert (counts.memories, counts.uses, counts.reviews) == (4, 0, 0)
        assert len(await s.fetch(["a", "b", "c", "s"])) == 4
        assert await s.uses_after(0, 10) == [] and (await s.reviews(None, None, None, limit=10, offset=0))[1] == 0
        # a format-2 file whose end line lacks the new counts was cut or edited: refused
        old[0]["version"] = 2
        v1.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in old) + b"\n"))
        with pytest.raises(backup.BackupError, match="counts"):
            await backup.restore(b, v1, force=True)

    run(lambda: target, check)


def test_reflection_reports_come_back_and_a_format_2_file_still_restores(backend: Factory, tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl.gz"
    at = "2026-01-02T00:00:00Z"
    reports = [
        Reflection("refl_1", "t", "u", "2026-01-01T00:00:00Z", at, at, {"counts": {"learned": 1}, "ids": {}}),
        Reflection("refl_2", "t", "", "2026-01-01T00:00:00Z", at, at, {"counts": {"learned": 1}, "users": 1}),
    ]

    async def fill(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("a", "Tea")], None)
        for r in reports:
            await s.add_reflection(r)
        # a report created after the backup started is left out (as uses and reviews)
        await s.add_reflection(replace(reports[0], id="refl_3", created_at="2999-01-01T00:00:00Z"))
        assert (await backup.write_backup(b, out)).reflections == 2

    run(backend, fill)
    target = _fresh(backend, tmp_path)

    async def check(b: Backend) -> None:
        s = b.memories
        # reports alone make a store not empty: restore asks for --force
        await s.add_reflection(replace(reports[0], id="refl_0"))
        with pytest.raises(backup.BackupError, match="reflection reports"):
            await backup.restore(b, out)
        counts = await backup.restore(b, out, force=True)
        assert (counts.memories, counts.reflections) == (1, 2)
        assert (await s.reflections(None, None, limit=10, offset=0)) == ([reports[1], reports[0]], 2)
        # format 2 (no reflection lines, no reflection count) restores, without reports
        lines = [orjson.loads(x) for x in gzip.decompress(out.read_bytes()).splitlines()]
        old = [x for x in lines if x["type"] != "reflection"]
        old[0]["version"] = 2
        old[-1]["counts"] = {k: v for k, v in old[-1]["counts"].items() if k != "reflections"}
        v2 = tmp_path / "v2.jsonl.gz"
        v2.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in old) + b"\n"))
        counts = await backup.restore(b, v2, force=True)
        assert (counts.memories, counts.reflections) == (1, 0)
        assert (await s.reflections(None, None, limit=10, offset=0))[1] == 0
        # a format-3 file whose end line lacks the reflection count was cut or edited: refused
        old[0]["version"] = 3
        v2.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in old) + b"\n"))
        with pytest.raises(backup.BackupError, match="counts"):
            await backup.restore(b, v2, force=True)
        # a report line missing a field names its line; the store stays as the last restore left it
        bad = [*lines[:-1], {"type": "reflection", "reflection": {"id": "x"}}, lines[-1]]
        bad[-1] = {**lines[-1], "counts": {**lines[-1]["counts"], "reflections": 3}}
        v2.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in bad) + b"\n"))
        with pytest.raises(backup.BackupError, match=f"line {len(bad) - 1} is not a reflection"):
            await backup.restore(b, v2, force=True)
        assert (await s.reflections(None, None, limit=10, offset=0))[1] == 0  # the good lines rolled back too

    run(lambda: target, check)


def test_kinds_come_back_and_a_format_3_file_restores_with_derived_kinds(backend: Factory, tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl.gz"

    async def fill(b: Backend) -> None:
        await b.memories.insert(
            [
                replace(mem("ep", "Vet visit", "On 2026-11-30 the user took Max to the vet"), kind="episode"),
                replace(mem("pref", "Tea", "The user likes green tea"), kind="relation"),
            ],
            None,
        )
        await backup.write_backup(b, out)

    run(backend, fill)
    target = _fresh(backend, tmp_path)

    async def check(b: Backend) -> None:
        s = b.memories
        await backup.restore(b, out)
        assert {k: m.kind for k, m in (await s.fetch(["ep", "pref"])).items()} == {"ep": "episode", "pref": "relation"}
        # format 3 wrote no kind: a user preference reads as a preference, anything else as a fact
        lines = [orjson.loads(x) for x in gzip.decompress(out.read_bytes()).splitlines()]
        lines[0]["version"] = 3
        for x in lines:
            if x["type"] == "memory":
                del x["memory"]["kind"]
        v3 = tmp_path / "v3.jsonl.gz"
        v3.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in lines) + b"\n"))
        await backup.restore(b, v3, force=True)
        kinds = {k: m.kind for k, m in (await s.fetch(["ep", "pref"])).items()}
        assert kinds == {"ep": "preference", "pref": "preference"}
        # an unknown kind names its line, and nothing of the file is kept
        memory_line = next(i for i, x in enumerate(lines) if x["type"] == "memory")
        lines[0]["version"] = 4
        lines[memory_line]["memory"]["kind"] = "gossip"
        v3.write_bytes(gzip.compress(b"\n".join(orjson.dumps(x) for x in lines) + b"\n"))
        with pytest.raises(backup.BackupError, match=f"line {memory_line + 1} is not a memory"):
            await backup.restore(b, v3, force=True)

    run(lambda: target, check)
