"""Access counts (``access_count``, ``last_access_at``) of injected memories, buffered so none
is lost: under load the write can meet a locked database, and a dropped update would make
retention expire a memory that is in use (issue 7 item 3: ~900 were dropped in a soak).

``touch`` adds to an in-memory buffer and writes it at once; if that fails, the counts stay
buffered and are retried by the next ``touch``, by a flush every ``FLUSH_INTERVAL_S`` and by
``stop`` (shutdown), which retries until it has written them or ``STOP_DEADLINE_S`` passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from gateway.storage import retry_busy

from ._clock import now_iso

if TYPE_CHECKING:
    from .store import MemoryStore

log = logging.getLogger("memorelay.memory")

FLUSH_INTERVAL_S = 2.0
STOP_DEADLINE_S = 30.0


class AccessCounter:
    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._pending: dict[str, tuple[int, str]] = {}  # id -> (count, latest stamp)
        self._flushing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    @property
    def buffered(self) -> int:
        return sum(count for count, _ in self._pending.values())

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._flush_every())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            await self.flush(deadline_s=STOP_DEADLINE_S)
        except Exception:  # boundary: reported below, the store still closes
            log.warning("writing access counts at shutdown failed", exc_info=True)
        if self._pending:
            log.error("%d access-count updates could not be written before shutdown", self.buffered)

    async def touch(self, memory_ids: list[str]) -> None:
        if not memory_ids:
            return
        stamp = now_iso()
        for mid in memory_ids:
            count, _ = self._pending.get(mid, (0, stamp))
            self._pending[mid] = (count + 1, stamp)
        try:
            await self.flush(deadline_s=0.0)
        except Exception as exc:  # boundary: the counts stay buffered for the next flush
            log.warning("access counts stay buffered (%d): %s", self.buffered, exc)

    async def flush(self, *, deadline_s: float) -> None:
        """Write every buffered count (retrying a locked database for up to ``deadline_s``)."""
        async with self._flushing:
            if not self._pending:
                return
            batch, self._pending = self._pending, {}
            try:
                await retry_busy(lambda: self._write(batch), deadline_s=deadline_s)
            except BaseException:
                for mid, (count, stamp) in batch.items():  # merge back, newer counts included
                    newer, latest = self._pending.get(mid, (0, stamp))
                    self._pending[mid] = (count + newer, max(stamp, latest))
                raise

    async def _write(self, batch: dict[str, tuple[int, str]]) -> None:
        await self._store.add_access([(mid, count, stamp) for mid, (count, stamp) in batch.items()])

    async def _flush_every(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_INTERVAL_S)
            if self._pending:
                try:
                    await self.flush(deadline_s=FLUSH_INTERVAL_S)
                except Exception as exc:  # boundary: retried on the next round
                    log.warning("access counts stay buffered (%d): %s", self.buffered, exc)
