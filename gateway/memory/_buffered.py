"""Write-behind buffers of bookkeeping (access counts, the citation log): the chat only adds to
memory; a background task writes the buffer every ``interval_s``, retrying a locked database,
and ``stop`` writes what is left for up to ``stop_deadline_s``. A failed write puts its batch
back (``_put_back``) for the next round, so nothing is lost while the store is briefly busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from gateway.store.errors import retry_busy

log = logging.getLogger("memorelay.memory")

Batch = TypeVar("Batch")


class WriteBehind(ABC, Generic[Batch]):
    what = "bookkeeping"  # named in log lines
    interval_s = 1.0
    stop_deadline_s = 10.0

    def __init__(self) -> None:
        self._flushing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    # -- what a buffer defines ---------------------------------------------------------------
    @property
    @abstractmethod
    def buffered(self) -> int: ...

    @abstractmethod
    def _take(self) -> Batch:
        """Empty the buffer, answering what it held."""

    @abstractmethod
    def _put_back(self, batch: Batch) -> None:
        """A batch whose write failed, merged back with what came meanwhile."""

    @abstractmethod
    async def _write(self, batch: Batch) -> None: ...

    # -- shared ------------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.ensure_future(self._flush_every())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            await self.flush(deadline_s=self.stop_deadline_s)
        except Exception:  # boundary: reported below, the store still closes
            log.warning("writing %s at shutdown failed", self.what, exc_info=True)
        if self.buffered:
            log.error("%d %s could not be written before shutdown", self.buffered, self.what)

    async def flush(self, *, deadline_s: float) -> None:
        """Write everything buffered (retrying a locked database for up to ``deadline_s``)."""
        async with self._flushing:
            if not self.buffered:
                return
            batch = self._take()
            try:
                await retry_busy(lambda: self._write(batch), deadline_s=deadline_s)
            except BaseException:
                self._put_back(batch)
                raise

    async def _flush_every(self) -> None:
        while True:
            await asyncio.sleep(self.interval_s)
            if self.buffered:
                try:
                    await self.flush(deadline_s=self.interval_s)
                except Exception as exc:  # boundary: retried on the next round
                    log.warning("%s stay buffered (%d): %s", self.what, self.buffered, exc)
