"""Reads of memories with their embeddings (``roles.vectors``, ``roles.copying``): one
embedding, a partition's rows for the working set, and every row in insertion order for a copy."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence

import numpy as np

from ..records import MemoryRow, PartitionRows
from ..rows import MEMORY_COLUMNS, row_to_memory
from .base import Row, SqlBase
from .visibility import partition


def stacked(vectors: Sequence[np.ndarray | None]) -> np.ndarray | None:
    """float32 rows of the embeddings (a row of zeros where one is missing or of another size
    than the first); None without any."""
    size = next((len(v) for v in vectors if v is not None), 0)
    if not size:
        return None
    out = np.zeros((len(vectors), size), dtype=np.float32)
    for i, vector in enumerate(vectors):
        if vector is not None and len(vector) == size:
            out[i] = vector
    return out


class SqlEmbeddedRows(SqlBase):
    def _memory_rows(self, rows: Sequence[Row]) -> list[MemoryRow]:
        """Rows selected as ``MEMORY_COLUMNS, embedding``."""
        return [(row_to_memory(r), self.dialect.read_vector(r[-1])) for r in rows]

    async def embedding(self, memory_id: str) -> np.ndarray | None:
        rows = await self._query("SELECT embedding FROM memories WHERE id = ?", (memory_id,))
        return self.dialect.read_vector(rows[0][0]) if rows else None

    async def partition_rows(
        self, tenant: str, owner: str, *, limit: int | None = None, ids: Collection[str] | None = None
    ) -> PartitionRows:
        clause, args = partition(tenant, owner)
        if ids is not None:
            among, chosen = self.dialect.any_of("id", list(ids))
            clause, args = f"{clause} AND {among}", [*args, *chosen]
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        rows = await self._vector_rows(
            f"SELECT {MEMORY_COLUMNS}, embedding FROM memories WHERE {clause} AND enabled "
            f"ORDER BY {self.dialect.seq}{tail}",
            args,
        )
        pairs = self._memory_rows(rows)
        return PartitionRows([m for m, _ in pairs], stacked([v for _, v in pairs]))

    async def iter_memories(self, batch: int) -> AsyncIterator[list[MemoryRow]]:
        seq, last = self.dialect.seq, 0
        while True:
            rows = await self._vector_rows(
                f"SELECT {seq}, {MEMORY_COLUMNS}, embedding FROM memories WHERE {seq} > ? ORDER BY {seq} LIMIT ?",
                (last, max(1, int(batch))),
            )
            if not rows:
                return
            last = int(rows[-1][0])
            yield self._memory_rows([r[1:] for r in rows])

    async def _held_rows(self, ids: Sequence[str]) -> dict[str, MemoryRow]:
        """The rows of ``ids`` with their embeddings, held until the transaction ends."""
        out: dict[str, MemoryRow] = {}
        for chunk in self.dialect.chunks(ids):
            among, args = self.dialect.any_of("id", chunk)
            rows = await self._vector_rows(
                f"SELECT {MEMORY_COLUMNS}, embedding FROM memories WHERE {among}{self.dialect.lock}", args
            )
            out.update((m.id, (m, v)) for m, v in self._memory_rows(rows))
        return out
