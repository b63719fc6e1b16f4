"""Pinned (L1) memories: a small per-caller cache of the enabled pinned memories injection puts
first on every turn, so a chat costs a dict lookup, not a query.

The cache is keyed by (tenant, user) and dropped by the store's ``on_change`` callbacks: a
change to a user's memories drops that user's entry; a change to the tenant's shared/system
memories (or a tenant move, ``"*"``) drops the tenant's entries. On PostgreSQL a change made on
another replica arrives by notification within 1 s (``store.MemoryStore``); until then this
replica may inject the previous pinned set, as it does for settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway.store.keyword_index import SHARED_OWNER

from .types import Memory

if TYPE_CHECKING:
    from gateway.store import Change, MemoryStore

_MAX_ENTRIES = 100_000


class PinnedCache:
    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._rows: dict[tuple[str, str], tuple[Memory, ...]] = {}
        self._changes = 0  # bumped by every memory change (a read racing one is not cached)

    async def get(self, tenant: str, user_id: str | None) -> list[Memory]:
        key = (tenant, user_id or "")
        held = self._rows.get(key)
        if held is not None:
            return list(held)
        changes = self._changes
        rows = await self._store.pinned(tenant, user_id)
        if changes == self._changes:
            if len(self._rows) >= _MAX_ENTRIES:
                self._rows.clear()
            self._rows[key] = tuple(rows)
        return rows

    def changed(self, change: Change) -> None:
        if change.kind != "memories":
            return
        self._changes += 1
        if change.user_id in (SHARED_OWNER, "*"):
            for key in [k for k in self._rows if k[0] == change.tenant]:
                del self._rows[key]
        else:
            self._rows.pop((change.tenant, change.user_id), None)
