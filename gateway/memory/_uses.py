"""The citation log: which memories went into which response (``store.Use``; no text).

Written like access counts (``_buffered.WriteBehind``): ``record`` only appends to a buffer,
off the chat's path; the buffer is written every ``FLUSH_INTERVAL_S`` and at ``stop``. A write
that fails (database locked) keeps the uses buffered for the next round; past ``MAX_BUFFERED``
the oldest are dropped, with a warning, so a store that stays unwritable cannot grow memory
without end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._buffered import WriteBehind, log

if TYPE_CHECKING:
    from gateway.store import MemoryStore, Use

FLUSH_INTERVAL_S = 1.0
STOP_DEADLINE_S = 10.0
MAX_BUFFERED = 100_000


class UseLog(WriteBehind["list[Use]"]):
    what = "memory uses (citation log)"
    interval_s = FLUSH_INTERVAL_S
    stop_deadline_s = STOP_DEADLINE_S

    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self._store = store
        self._pending: list[Use] = []

    @property
    def buffered(self) -> int:
        return len(self._pending)

    def record(self, uses: list[Use]) -> None:
        self._pending.extend(uses)
        if len(self._pending) > MAX_BUFFERED:
            dropped = len(self._pending) - MAX_BUFFERED
            del self._pending[:dropped]
            log.warning("citation log: %d buffered uses dropped (the store is not writable)", dropped)

    def _take(self) -> list[Use]:
        batch, self._pending = self._pending, []
        return batch

    def _put_back(self, batch: list[Use]) -> None:
        self._pending[:0] = batch  # kept, oldest first, for the next round

    async def _write(self, batch: list[Use]) -> None:
        await self._store.add_uses(batch)
