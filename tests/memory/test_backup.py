"""``gateway.memory.backup`` beside writes: a backup taken while memories are added and
deleted holds every memory that existed for the whole run exactly once, on both backends."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from gateway.memory import backup
from gateway.memory.store import Backend
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
