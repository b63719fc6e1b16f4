"""Purge a deleted memory's text from every place the store keeps a copy.

Deleting a row is not enough: SQLite's FTS5 keyword indexes keep the deleted words in their
older segments until those are merged, and the WAL file keeps the pages written since the
last checkpoint. ``secure_delete`` (set on every connection) zeroes freed pages; after
deletes, the purger calls ``MemoryStore.compact`` (SQLite: merges both FTS5 indexes and
checkpoints the WAL with ``TRUNCATE``). It runs ``DELAY_S`` after a delete, at most once every ``MIN_GAP_S`` (an
``optimize`` of a large index holds the write lock for a second or two), and on ``stop``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gateway.store import MemoryStore

log = logging.getLogger("memorelay.memory")

DELAY_S = 0.2
MIN_GAP_S = 10.0


class DeletedTextPurger:
    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._due = False
        self._task: asyncio.Task[None] | None = None
        self._last = -MIN_GAP_S

    def schedule(self) -> None:
        self._due = True
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._later())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._due:
            try:
                await self.purge()
            except Exception:  # boundary: the store still closes; the next start's deletes purge
                log.warning("purging deleted text at shutdown failed", exc_info=True)

    async def _later(self) -> None:
        await asyncio.sleep(max(DELAY_S, self._last + MIN_GAP_S - time.monotonic()))
        try:
            await self.purge()
        except Exception:  # boundary: retried after the next delete or at shutdown
            log.warning("purging deleted text failed", exc_info=True)

    async def purge(self) -> None:
        self._due = False
        self._last = time.monotonic()
        await self._store.compact()
