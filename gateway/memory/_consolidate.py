"""The consolidation role of the memory service: merge near-duplicates into the one kept,
and replace a cluster of small related facts by one summary memory.

What to merge or compress is decided elsewhere (``gateway.learning.upkeep.consolidation``); this module
only writes, each group in one transaction: a crash leaves either the old memories or the new
state, never half. The originals' logged uses (citation log) move to the memory that holds their
facts, as their access counts do, so its ``uses`` and recall popularity count them; the
originals then show none. Nothing else is deleted: the originals are disabled with a reason naming the memory
that now holds their facts ("merged into <id>", "consolidated into <id>"), so a user or operator
can read, re-enable or delete them. A group whose memories changed since they were read (edited,
disabled, pinned, deleted meanwhile) is skipped whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gateway.store import MemoryStore

from ._writes import MemoryWrites
from .types import Memory

MERGED_REASON = "merged into "
CONSOLIDATED_REASON = "consolidated into "
ACTION = "consolidate"


def _unchanged(read: Memory, now: Memory | None) -> bool:
    return (
        now is not None
        and now.enabled
        and not now.pinned
        and now.updated_at == read.updated_at
        and now.tenant == read.tenant
        and now.user_id == read.user_id
        and now.scope == read.scope
    )


class Consolidation:
    def __init__(self, store: MemoryStore, writes: MemoryWrites) -> None:
        self.store = store
        self.writes = writes

    async def _current(self, group: list[Memory]) -> bool:
        found = await self.store.fetch([m.id for m in group])
        return all(_unchanged(m, found.get(m.id)) for m in group)

    async def merge_into(self, kept: Memory, merged: list[Memory], carry: dict[str, Any], *, actor: str) -> bool:
        """Disable ``merged`` ("merged into <kept id>") and write ``carry`` (counts, score, tags
        taken over) on ``kept``, in one transaction; False, writing nothing, when any of them
        changed since it was read."""
        async with self.store.transaction():
            if not await self._current([kept, *merged]):
                return False
            if carry:
                await self.writes.apply(kept, carry, actor=actor, action=ACTION)
            # the kept memory's uses (lists, recall's popularity) count those it took over
            await self.store.move_uses(kept.tenant, kept.user_id, [m.id for m in merged], kept.id)
            for m in merged:
                why = MERGED_REASON + kept.id
                await self.writes.apply(m, {"enabled": False, "disabled_reason": why}, actor=actor, action=ACTION)
        return True

    async def compress(self, summary: Memory, vector: np.ndarray | None, members: list[Memory], *, actor: str) -> bool:
        """Store ``summary`` (built by the caller, embedded as ``vector``) and disable ``members``
        ("consolidated into <summary id>"), in one transaction; False, writing nothing, when any
        member changed since it was read."""
        async with self.store.transaction():
            if not await self._current(members):
                return False
            await self.store.insert([summary], None if vector is None else vector.reshape(1, -1))
            after = {"title": summary.title, "category": summary.category, "from": [m.id for m in members]}
            await self.writes.audit(ACTION, actor, summary, after=after)
            await self.store.move_uses(summary.tenant, summary.user_id, [m.id for m in members], summary.id)
            for m in members:
                why = CONSOLIDATED_REASON + summary.id
                await self.writes.apply(m, {"enabled": False, "disabled_reason": why}, actor=actor, action=ACTION)
        return True
