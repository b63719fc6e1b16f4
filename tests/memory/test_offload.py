from __future__ import annotations

import asyncio
import threading

from gateway.memory import Embedder
from gateway.store.offload import BACKGROUND_DELAY_S, run_cpu
from tests.memory.helpers import run


async def _held(gate: threading.Event) -> asyncio.Task[None]:
    """Occupy the CPU thread until ``gate`` is set."""
    started = threading.Event()

    def hold() -> None:
        started.set()
        gate.wait(10)

    task = asyncio.ensure_future(run_cpu(hold))
    await asyncio.to_thread(started.wait, 10)
    return task


def test_urgent_work_overtakes_queued_background_work() -> None:
    async def main() -> None:
        order: list[str] = []
        gate = threading.Event()
        held = await _held(gate)
        background = [asyncio.ensure_future(run_cpu(order.append, f"batch {i}")) for i in range(3)]
        await asyncio.sleep(0)
        urgent = asyncio.ensure_future(run_cpu(order.append, "query", urgent=True))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(held, urgent, *background)
        assert order == ["query", "batch 0", "batch 1", "batch 2"]

    run(main())


def test_background_work_that_waited_long_enough_is_not_overtaken() -> None:
    async def main() -> None:
        order: list[str] = []
        gate = threading.Event()
        held = await _held(gate)
        background = asyncio.ensure_future(run_cpu(order.append, "batch"))
        await asyncio.sleep(BACKGROUND_DELAY_S + 0.1)
        urgent = asyncio.ensure_future(run_cpu(order.append, "query", urgent=True))
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(held, urgent, background)
        assert order == ["batch", "query"]

    run(main())


def test_work_whose_caller_gave_up_is_skipped() -> None:
    async def main() -> None:
        order: list[str] = []
        gate = threading.Event()
        held = await _held(gate)
        try:
            await asyncio.wait_for(run_cpu(order.append, "timed out", urgent=True), 0.05)
        except TimeoutError:
            pass
        gate.set()
        await held
        await run_cpu(order.append, "next")
        assert order == ["next"]

    run(main())


def test_a_query_is_served_while_a_big_batch_embeds(use_embedder: Embedder) -> None:
    async def main() -> None:
        batch = [f"note {i}: " + "the quick brown fox jumps over the lazy dog " * 45 for i in range(16)]
        embedding = asyncio.ensure_future(use_embedder.embed(batch))
        await asyncio.sleep(0.05)
        await use_embedder.embed(["which editor do I use?"], urgent=True)
        # the batch goes a slice per turn of the thread: the query did not wait for all of it
        assert not embedding.done()
        assert (await embedding).shape[0] == 16

    run(main())
