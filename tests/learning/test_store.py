from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from gateway.errors import InsufficientStorage
from gateway.store.sqlite import SQLiteLearningStore as LearningStore
from gateway.store.sqlite.faults import StoreHealth


def _run_queue(path: str, producers: int, jobs_each: int, consumers: int) -> dict[str, int]:
    async def main() -> dict[str, int]:
        store = LearningStore(path)
        await store.open()
        produced = 0

        async def produce() -> None:
            nonlocal produced
            for _ in range(jobs_each):
                await store.enqueue("t", "u", None, "m", {"messages": []})
                produced += 1
                await asyncio.sleep(0)

        async def consume() -> None:
            while True:
                job = await store.claim(60, replica="r1", holder_wait_s=60)
                if job is None:
                    if produced == producers * jobs_each and await store.pending_count() == 0:
                        return
                    await asyncio.sleep(0.001)
                    continue
                await store.log(job.id, job.tenant, job.user_id, {"ok": True})
                await store.add_usage(job.tenant, job.user_id, 1, 1)
                await store.finish(job)

        try:
            await asyncio.gather(*(produce() for _ in range(producers)), *(consume() for _ in range(consumers)))
            return await store.job_counts()
        finally:
            await store.close()

    return asyncio.run(main())


def test_concurrent_queue_users_share_one_connection_safely(tmp_path: Path) -> None:
    # once seen in a soak: "cannot commit transaction - SQL statements in progress" when one
    # coroutine committed while another's UPDATE ... RETURNING cursor was still open
    counts = _run_queue(str(tmp_path / "m.db"), producers=4, jobs_each=40, consumers=3)
    assert counts == {"done": 160}


def test_writes_wait_out_a_lock_held_past_busy_timeout(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    other = sqlite3.connect(path, check_same_thread=False)
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("CREATE TABLE IF NOT EXISTS x (a)")
    other.commit()

    async def main() -> list[int]:
        store = LearningStore(path, busy_timeout_ms=50)
        await store.open()
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("INSERT INTO x VALUES (1)")
            release = threading.Timer(0.6, other.commit)
            release.start()
            started = time.monotonic()
            job = await store.enqueue("t", "u", None, "m", {"messages": []})
            assert time.monotonic() - started >= 0.5
            return [job, await store.pending_count()]
        finally:
            await store.close()

    try:
        assert asyncio.run(main()) == [1, 1]
    finally:
        other.close()


def test_full_database_marks_the_store_unwritable_until_a_probe_write_succeeds(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")

    async def main() -> None:
        store = LearningStore(path, max_page_count=80, health=StoreHealth(probe_interval_s=0))
        await store.open()
        other = sqlite3.connect(path)  # no page cap on this connection: it fills the file
        other.execute("CREATE TABLE filler (b BLOB)")
        while other.execute("PRAGMA page_count").fetchone()[0] < 80:
            other.execute("INSERT INTO filler VALUES (zeroblob(4000))")
            other.commit()
        try:
            assert await store.writable()
            with pytest.raises(InsufficientStorage, match="full"):
                await store.enqueue("t", "u", None, "m", {"messages": ["x" * 20_000]})
            assert not await store.writable()  # the probe needs new pages too
            other.execute("DELETE FROM filler")
            other.commit()
            assert await store.writable()
            assert await store.enqueue("t", "u", None, "m", {"messages": ["x" * 20_000]}) == 1
        finally:
            other.close()
            await store.close()

    asyncio.run(main())


def test_dead_job_conversations_are_dropped_for_the_user_and_after_retention(tmp_path: Path) -> None:
    async def main() -> list[tuple[str, str, bool]]:
        store = LearningStore(str(tmp_path / "q.db"))
        await store.open()
        try:
            for tenant, user in (("t", "ann"), ("t", "ben"), ("t", "cy")):
                await store.enqueue(tenant, user, None, "m", {"messages": [{"role": "user", "content": "my phone"}]})
                job = await store.claim(60, replica="r1", holder_wait_s=60)
                assert job is not None
                await store.finish(job, "dead", "gave up")
            assert await store.wipe_dead_payloads(tenant="t", user_id="ann") == 1
            assert await store.wipe_dead_payloads(older_than_s=3600) == 0  # the others are fresh
            assert await store.wipe_dead_payloads(older_than_s=-1) == 2  # retention reached
        finally:
            await store.close()
        with contextlib.closing(sqlite3.connect(tmp_path / "q.db")) as db:
            rows = db.execute("SELECT user_id, status, payload IS NULL FROM learning_jobs ORDER BY id").fetchall()
        return [(str(r[0]), str(r[1]), bool(r[2])) for r in rows]

    assert asyncio.run(main()) == [("ann", "dead", True), ("ben", "dead", True), ("cy", "dead", True)]
