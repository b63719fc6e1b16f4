"""The one thread-offload helper of the memory package.

CPU work (embedding, hnswlib build/add/query, large numpy scans) runs on a single worker
thread: NOTES.md measured USE latency going up ~10x with two threads, and one thread also
serialises every hnswlib call, which is not safe to add to while querying.

The thread serves a queue ordered by due time, not arrival. ``urgent``
work (the query of a chat waiting on its memories) is due at once; other work (learning,
imports, reindexing, index upkeep) is due ``BACKGROUND_DELAY_S`` after it was queued. So a
query overtakes background work queued less than that before it, and background work that
has waited that long is not overtaken any more: neither kind can starve the other. Callers
with much work submit it a slice at a time (``bounds.slices``), each awaited before the
next, so work of several callers interleaves and one tenant's batch cannot hold the thread.
Work whose caller stopped waiting (a retrieval past its timeout) is skipped if it has not
started. The thread is created on first use, never at import.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

BACKGROUND_DELAY_S = 0.5


@dataclass(order=True, slots=True)
class _Item:
    due: float
    seq: int
    future: Future[Any] = field(compare=False)
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[object, ...] = field(compare=False)


class _Worker:
    def __init__(self) -> None:
        self._queue: list[_Item] = []
        self._ready = threading.Condition()
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None

    def submit(self, fn: Callable[..., T], args: tuple[object, ...], urgent: bool) -> Future[T]:
        future: Future[T] = Future()
        due = time.monotonic() + (0.0 if urgent else BACKGROUND_DELAY_S)
        with self._ready:
            if self._thread is None:
                # a daemon: queued work never holds up interpreter exit
                self._thread = threading.Thread(target=self._run, name="memorelay-cpu", daemon=True)
                self._thread.start()
            heapq.heappush(self._queue, _Item(due, next(self._seq), future, fn, args))
            self._ready.notify()
        return future

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue:
                    self._ready.wait()
                item = heapq.heappop(self._queue)
            if not item.future.set_running_or_notify_cancel():
                continue  # its caller gave up before it started
            try:
                result = item.fn(*item.args)
            except BaseException as exc:  # handed to the awaiting caller, as an executor does
                item.future.set_exception(exc)
            else:
                item.future.set_result(result)


_worker = _Worker()


def submit_cpu(fn: Callable[..., T], *args: object, urgent: bool = False) -> asyncio.Future[T]:
    """Queue ``fn(*args)`` now and answer a future of its result: work queued one after the
    other with the same urgency runs in that order."""
    return asyncio.wrap_future(_worker.submit(fn, args, urgent))


async def run_cpu(fn: Callable[..., T], *args: object, urgent: bool = False) -> T:
    """Run ``fn(*args)`` on the shared single CPU thread and await its result; ``urgent``
    work is served before background work queued up to ``BACKGROUND_DELAY_S`` earlier."""
    return await asyncio.wrap_future(_worker.submit(fn, args, urgent))
