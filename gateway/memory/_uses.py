"""The citation log: which memories went into which response (``store.Use``; no text).

Written like access counts (``_access``): ``record`` only appends to a buffer, off the chat's
path; the buffer is written every ``FLUSH_INTERVAL_S`` and at ``stop``. A write that fails
(database locked) keeps the uses buffered for the next round; past ``MAX_BUFFERED`` the oldest
are dropped, with a warning, so a store that stays unwritable cannot grow memory without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from gateway.storage import retry_busy

if TYPE_CHECKING:
    from .store import MemoryStore, Use

log = logging.getLogger("memorelay.memory")

FLUSH_INTERVAL_S = 1.0
STOP_DEADLINE_S = 10.0
MAX_BUFFERED = 100_000


class UseLog:
    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._pending: list[Use] = []
        self._flushing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    @property
    def buffered(self) -> int:
        return len(self._pending)

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._flush_every())

    def record(self, uses: list[Use]) -> None:
        self._pending.extend(uses)
        if len(self._pending) > MAX_BUFFERED:
            dropped = len(self._pending) - MAX_BUFFERED
            del self._pending[:dropped]
            log.warning("citation log: %d buffered uses dropped (the store is not writable)", dropped)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            await self.flush(deadline_s=STOP_DEADLINE_S)
        except Exception:  # boundary: reported, the store still closes
            log.warning("writing the citation log at shutdown failed", exc_info=True)

    async def flush(self, *, deadline_s: float) -> None:
        async with self._flushing:
            if not self._pending:
                return
            batch, self._pending = self._pending, []
            try:
                await retry_busy(lambda: self._store.add_uses(batch), deadline_s=deadline_s)
            except BaseException:
                self._pending[:0] = batch  # kept, oldest first, for the next round
                raise

    async def _flush_every(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_INTERVAL_S)
            if self._pending:
                try:
                    await self.flush(deadline_s=FLUSH_INTERVAL_S)
                except Exception as exc:  # boundary: retried on the next round
                    log.warning("citation log stays buffered (%d): %s", self.buffered, exc)
