"""Access counts (``access_count``, ``last_access_at``) of injected memories, buffered so none
is lost: under load the write can meet a locked database, and a dropped update would make
retention expire a memory that is in use (a soak run once saw ~900 used memories dropped).

``touch`` adds to an in-memory buffer and writes it at once; if that fails, the counts stay
buffered and are retried by the next ``touch``, by a flush every ``FLUSH_INTERVAL_S`` and by
``stop`` (shutdown), which retries until it has written them or ``STOP_DEADLINE_S`` passed
(``_buffered.WriteBehind``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._buffered import WriteBehind, log
from ._clock import now_iso

if TYPE_CHECKING:
    from gateway.store import MemoryStore

FLUSH_INTERVAL_S = 2.0
STOP_DEADLINE_S = 30.0

Counts = dict[str, tuple[int, str]]  # id -> (count, latest stamp)


class AccessCounter(WriteBehind[Counts]):
    what = "access-count updates"
    interval_s = FLUSH_INTERVAL_S
    stop_deadline_s = STOP_DEADLINE_S

    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self._store = store
        self._pending: Counts = {}

    @property
    def buffered(self) -> int:
        return sum(count for count, _ in self._pending.values())

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

    def _take(self) -> Counts:
        batch, self._pending = self._pending, {}
        return batch

    def _put_back(self, batch: Counts) -> None:
        for mid, (count, stamp) in batch.items():  # merge back, newer counts included
            newer, latest = self._pending.get(mid, (0, stamp))
            self._pending[mid] = (count + newer, max(stamp, latest))

    async def _write(self, batch: Counts) -> None:
        await self._store.add_access([(mid, count, stamp) for mid, (count, stamp) in batch.items()])
