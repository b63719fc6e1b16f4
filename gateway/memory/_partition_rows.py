"""``partition_rows`` over today's SQLite store, for the working set (``working_set``).

Temporary: the store seam gives every backend ``MemoryStore.partition_rows``; until it lands
in the SQLite backend, this adapter reads the same rows with the same SQL.
"""

from __future__ import annotations

import numpy as np

from .keyword_index import SHARED_OWNER
from .sqlite_store import _COLUMNS, SQLiteMemoryStore, row_to_memory
from .store import PartitionRows


class SQLitePartitionSource:
    """Reads one partition's enabled memories, in rowid order, with their embeddings."""

    def __init__(self, store: SQLiteMemoryStore, dim: int | None) -> None:
        self.store = store
        self.dim = dim

    async def partition_rows(self, tenant: str, owner: str, *, limit: int | None = None) -> PartitionRows:
        if owner == SHARED_OWNER:
            where, args = "tenant = ? AND scope IN ('shared', 'system')", [tenant]
        else:
            where, args = "tenant = ? AND user_id = ? AND scope = 'personal'", [tenant, owner]
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        rows = await self.store._read_rows(
            f"SELECT {_COLUMNS}, embedding FROM memories WHERE {where} AND enabled = 1 ORDER BY rowid{tail}", args
        )
        memories = [row_to_memory(r) for r in rows]
        if self.dim is None or not rows:
            return PartitionRows(memories, None)
        vectors = np.zeros((len(rows), self.dim), dtype=np.float32)
        for i, r in enumerate(rows):
            blob = r[-1]
            if blob is not None and len(blob) == self.dim * 4:
                vectors[i] = np.frombuffer(blob, dtype=np.float32)
        return PartitionRows(memories, vectors)
