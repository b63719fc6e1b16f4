"""Two replicas on one PostgreSQL, each with its working set: a memory written through one is
retrieved by the other on its first search after the change reached it, within half a second
of the write, from its working set (the change applied in place: never a search of the store,
never a reload of the user's partition); edits and deletes reach it the same way, and a
stream of changes is applied in place and folded into the partition."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from gateway.memory import Embedder, MemoryService, NewMemory
from gateway.store import Change
from gateway.store.keyword_index import SHARED_OWNER
from gateway.store.postgres import PostgresMemoryStore
from tests.memory.helpers import run
from tests.waits import SCALE, ceiling

# the product's bound for another replica to inject a new memory; scaled like every wait on
# a loaded machine (MEMORELAY_TEST_TIMEOUT_SCALE)
VISIBLE_WITHIN_S = 0.5 * SCALE
QUESTION = "What is my parrot called?"


async def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + ceiling(30)
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def test_a_memory_written_on_one_replica_is_retrieved_by_the_other_at_once(pg_url: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        store_a, store_b = PostgresMemoryStore(pg_url), PostgresMemoryStore(pg_url)
        await store_a.open()
        await store_b.open()
        a, b = MemoryService(store_a, use_embedder), MemoryService(store_b, use_embedder)
        try:
            await a.open()
            await b.open()
            facts = [f"Alice's project number {i} is written in Rust." for i in range(60)]
            await a.add_many(
                "t",
                "alice",
                [NewMemory(title=f"Project {i}", content=c, category="domain") for i, c in enumerate(facts)],
                actor="test",
            )

            async def injected_by_b() -> list[str]:  # what injection asks for
                found = await b.search("t", "alice", QUESTION, limit=5, cached_rows=True, recall=True)
                return [s.memory.content for s in found]

            assert b.working_set is not None
            await injected_by_b()  # b starts loading alice's partitions, and serves her from them
            ws = b.working_set
            await _until(lambda: ws.holds("t", "alice") and ws.holds("t", SHARED_OWNER))

            stats = b.working_set.stats
            loads, missed = stats.loads, stats.missed
            heard = asyncio.Event()
            store_b.on_change(lambda c: heard.set() if c == Change("memories", "t", "alice") else None)
            pet = await a.add(
                "t",
                "alice",
                NewMemory(title="Pet", content="Alice has a parrot named Kiwi.", category="domain"),
                actor="test",
            )
            written = time.monotonic()
            await asyncio.wait_for(heard.wait(), ceiling(30))
            first = await injected_by_b()  # the first search after the change
            seen = time.monotonic() - written
            assert "Alice has a parrot named Kiwi." in first
            assert seen <= VISIBLE_WITHIN_S, f"the write took {seen:.2f} s to reach the other replica"
            # answered from b's working set, the new row laid over the partition it held
            assert (stats.missed, stats.loads, stats.patches) == (missed, loads, 1)

            heard.clear()
            await a.update("t", "alice", pet.id, {"content": "Alice's parrot is called Mango now."}, actor="test")
            await asyncio.wait_for(heard.wait(), ceiling(30))
            after_edit = await injected_by_b()
            assert "Alice's parrot is called Mango now." in after_edit
            assert "Alice has a parrot named Kiwi." not in after_edit
            heard.clear()
            assert await a.delete("t", "alice", pet.id, actor="test")
            await asyncio.wait_for(heard.wait(), ceiling(30))
            assert not any("parrot" in c for c in await injected_by_b())
            assert (stats.missed, stats.loads) == (missed, loads)
        finally:
            await a.close()
            await b.close()
            await store_a.close()
            await store_b.close()

    run(main())


def test_a_stream_of_changes_is_applied_in_place_and_folded(pg_url: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        store_a, store_b = PostgresMemoryStore(pg_url), PostgresMemoryStore(pg_url)
        await store_a.open()
        await store_b.open()
        a, b = MemoryService(store_a, use_embedder), MemoryService(store_b, use_embedder)
        try:
            await a.open()
            await b.open()
            cat = NewMemory(title="Pet", content="Bo has a cat.", category="domain")
            first = await a.add("t", "bo", cat, actor="t")
            await b.search("t", "bo", "pet", limit=5, cached_rows=True)
            ws = b.working_set
            assert ws is not None
            await _until(lambda: ws.holds("t", "bo") and ws.holds("t", SHARED_OWNER))
            loads = ws.stats.loads
            deleted = asyncio.Event()  # the last change, heard by b
            store_b.on_change(lambda c: deleted.set() if c.ids is not None and first.id in c.ids else None)
            made = [first.id]
            for i in range(80):  # more single changes than a layer holds before it is folded
                note = NewMemory(title=f"Trip {i}", content=f"Bo visited the city coded zq{i}.", category="domain")
                made.append((await a.add("t", "bo", note, actor="t")).id)
            assert await a.delete("t", "bo", first.id, actor="t")
            await asyncio.wait_for(deleted.wait(), ceiling(30))
            await _until(lambda: ws.stats.folds >= 1)
            found = await b.search("t", "bo", "Which city is coded zq79?", limit=5, cached_rows=True)
            assert "Bo visited the city coded zq79." in [s.memory.content for s in found]
            view = await ws.view("t", "bo")  # after the last change was applied
            assert view is not None and view.personal is not None and len(view.personal) == 80
            held = view.memories(made)
            assert held[made[-1]].content == "Bo visited the city coded zq79." and first.id not in held
            assert ws.stats.loads == loads  # never read whole again
        finally:
            await a.close()
            await b.close()
            await store_a.close()
            await store_b.close()

    run(main())
