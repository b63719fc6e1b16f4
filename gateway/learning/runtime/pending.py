"""How many learning jobs the shared queue holds (pending or running, every replica's), as the
chat path asks it: ``max_pending`` is a limit on the queue, not on one process.

The count comes from the store (``LearningStore.pending_count``), read again every ``ttl_s``
(1 s) by a task beside the workers, so a chat reads a number at most about a second old and
never waits for the database. Jobs this process queues or ends in between are added and taken
away locally, so a burst on one replica is capped at once, not a second later. The same
number is the ``memorelay_learning_pending`` gauge.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from gateway.metrics import Metrics
from gateway.store import LearningStore

log = logging.getLogger("memorelay.learning")

PENDING_TTL_S = 1.0


class SharedPending:
    def __init__(self, store: LearningStore, metrics: Metrics, ttl_s: float = PENDING_TTL_S) -> None:
        self.store = store
        self.metrics = metrics
        self.ttl_s = ttl_s
        self._count = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Read the count now (the database is open), then every ``ttl_s``."""
        self._set(await self.store.pending_count())
        self._task = asyncio.ensure_future(self._refresh())

    async def close(self) -> None:
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @property
    def count(self) -> int:
        return self._count

    def add(self, n: int) -> None:
        """A job this process queued (+1) or ended (-1) since the last read."""
        self._set(max(0, self._count + n))

    def _set(self, count: int) -> None:
        self._count = count
        self.metrics.learning_pending.set(count)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(self.ttl_s)
            try:
                self._set(await self.store.pending_count())
            except Exception:  # boundary: keep the last count and read again next round
                log.warning("could not count the learning queue", exc_info=True)
