"""How many learning jobs the shared queue holds (pending or running, every replica's), as the
chat path asks it: ``max_pending`` is a limit on the queue, not on one process.

The count comes from the store (``LearningStore.pending_count``) and is kept for ``ttl_s``
(1 s): a chat reads the kept value and never waits for the database; a read of a stale value
starts one refresh beside it. Jobs this process queues or ends in between are added and
taken away locally, so a burst on one replica is capped at once, not a second later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from gateway.memory.store import LearningStore
from gateway.metrics import Metrics

log = logging.getLogger("memorelay.learning")

PENDING_TTL_S = 1.0


class SharedPending:
    def __init__(self, store: LearningStore, metrics: Metrics, ttl_s: float = PENDING_TTL_S) -> None:
        self.store = store
        self.metrics = metrics
        self.ttl_s = ttl_s
        self._count = 0
        self._expires = 0.0  # monotonic time the kept count goes stale
        self._refresh: asyncio.Task[None] | None = None

    async def load(self) -> None:
        """Read the count now (at start-up; the database is open)."""
        await self._read()

    async def close(self) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresh
            self._refresh = None

    @property
    def count(self) -> int:
        """The kept count; when it is stale, a refresh starts (this read does not wait for it)."""
        if time.monotonic() >= self._expires and self._refresh is None:
            self._refresh = asyncio.ensure_future(self._background())
        return self._count

    def add(self, n: int) -> None:
        """A job this process queued (+1) or ended (-1) since the last read."""
        self._set(max(0, self._count + n))

    def _set(self, count: int) -> None:
        self._count = count
        self.metrics.learning_pending.set(count)

    async def _read(self) -> None:
        started = time.monotonic()
        count = await self.store.pending_count()
        self._expires = started + self.ttl_s
        self._set(count)

    async def _background(self) -> None:
        try:
            await self._read()
        except Exception:  # boundary: keep the last count; the next chat tries again
            log.warning("could not count the learning queue", exc_info=True)
            self._expires = time.monotonic() + self.ttl_s
        finally:
            self._refresh = None
