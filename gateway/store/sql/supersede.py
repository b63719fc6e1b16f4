"""A newer memory replacing older ones, written in one transaction (``roles.memories.MemoryRows``).

The learner reads the memories a new one replaces, then decides; a user may edit, disable or
delete one of them meanwhile. The write therefore checks each old memory again once it holds
the rows (the first insert takes SQLite's write lock, ``Dialect.lock`` PostgreSQL's row locks):
one that is no longer active and as it was read is left as the user made it, and the new
memory is stored beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from ..records import AuditEntry, Memory
from ..rows import MEMORY_COLUMNS, row_to_memory
from .audit import SqlAudit
from .writes import SqlMemoryWrites


def _as_read(read: Memory, now: Memory | None) -> bool:
    """Whether ``now`` is still active and the row as it was read, but for its use counts
    (injection bumps those all the time; timestamps have whole seconds, so an edit in the
    second of the read shows only in the fields)."""
    return (
        now is not None
        and now.enabled
        and replace(now, access_count=0, last_access_at=None) == replace(read, access_count=0, last_access_at=None)
    )


class SqlSupersede(SqlMemoryWrites, SqlAudit):
    """``supersede`` over the shared insert and field write, in the backend's transaction."""

    async def _held(self, ids: Sequence[str]) -> dict[str, Memory]:
        """The rows of ``ids`` as committed now, held until the transaction ends."""
        out: dict[str, Memory] = {}
        for chunk in self.dialect.chunks(ids):
            among, args = self.dialect.any_of("id", chunk)
            rows = await self._query(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE {among}{self.dialect.lock}", args)
            out.update((m.id, m) for m in map(row_to_memory, rows))
        return out

    async def supersede(
        self,
        new: Memory,
        embedding: np.ndarray | None,
        olds: Sequence[Memory],
        reason: str,
        stamp: str,
        audit: Mapping[str, AuditEntry],
    ) -> list[str]:
        async with self.transaction():
            await self.insert([new], embedding)
            now = await self._held([m.id for m in olds])
            replaced = [m.id for m in olds if _as_read(m, now.get(m.id))]
            for memory_id in replaced:
                await self.write_fields(memory_id, {"enabled": False, "disabled_reason": reason, "updated_at": stamp})
            written = {new.id, *replaced}
            await self.import_audit([entry for memory_id, entry in audit.items() if memory_id in written])
        return replaced
