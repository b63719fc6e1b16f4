"""The SQLite store's vector index: hnswlib partitions (``vector_index.PartitionedIndex``, files
in ``<database>.index/``) derived from the embeddings stored with each memory.

``load`` reads the saved files (or rebuilds from the stored embeddings when they are missing,
stale or corrupt), ``save`` writes them, and after each commit the store hands ``sync`` the
memories its transaction touched: their rows are read again and the index follows them
(removed from the partitions they were in, added where they are now if enabled). Updates run
on the CPU thread in the order they were queued, which is commit order (``lock``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..keyword_index import partition_key
from ..offload import run_cpu, submit_cpu
from ..records import Visibility
from ..vector_index import PartitionedIndex, PartitionKey
from .keywords import filter_sql

log = logging.getLogger("memorelay.memory")

Rows = Callable[[str, Sequence[Any]], Awaitable[list[Any]]]
_CHUNK = 500


def _older(saved: dict[str, Any] | None, expected: dict[str, object]) -> bool:
    """Whether saved index files are intact but of an earlier state of the database."""
    return saved is not None and any(saved.get(k) != v for k, v in expected.items())


class VectorSync:
    def __init__(
        self,
        rows: Rows,
        read_rows: Rows,
        generation: Callable[[], Awaitable[int]],
        folder: Path | None,
        *,
        ef: int,
        hnsw_threshold: int,
    ) -> None:
        self._rows = rows  # the main connection
        self._read_rows = read_rows  # committed rows only (the reader connection)
        self._generation = generation  # the database's index generation (meta)
        self.folder = folder
        self.ef = ef
        self.hnsw_threshold = hnsw_threshold
        self.index: PartitionedIndex | None = None  # None until ``load``
        self.model = ""
        self.lock = asyncio.Lock()  # held while an update's rows are read: updates queue in commit order

    async def meta(self) -> dict[str, object]:
        """What saved index files must match to be loaded."""
        return {"generation": await self._generation(), "model": self.model}

    async def load(self, model: str, dim: int, *, reembedded: bool) -> str:
        """The saved index of ``model`` when it matches the database ("loaded"), else one
        rebuilt from the stored embeddings ("rebuilt")."""
        self.model = model
        index = PartitionedIndex(dim, ef=self.ef, hnsw_threshold=self.hnsw_threshold)
        folder = self.folder
        if not reembedded and folder is not None and folder.exists():
            expected = await self.meta()
            if await run_cpu(index.load, folder, expected):
                rows = await self._rows("SELECT COUNT(*) FROM memories WHERE enabled AND embedding IS NOT NULL", ())
                if index.count() == int(rows[0][0]):
                    self.index = index
                    return "loaded"
                log.warning("memory index count differs from the database; rebuilding")
            elif _older(index.saved_meta(folder), expected):
                # the ordinary case after writes by another process (a CLI command, a replica)
                log.info("memory index files at %s predate the database's last writes; rebuilt from it", folder)
            else:
                log.warning("memory index files at %s are corrupt; rebuilding from the database", folder)
        self.index = index
        async with self.lock:
            work = await self.rebuild()
        await work
        return "rebuilt"

    async def save(self) -> None:
        if self.index is None or self.folder is None:
            return
        await run_cpu(self.index.save, self.folder, await self.meta())

    async def rebuild(self) -> Awaitable[None]:
        """Replace the index with every enabled memory's stored embedding (queued)."""
        index = self.index
        assert index is not None
        ids: dict[PartitionKey, list[str]] = {}
        vecs: dict[PartitionKey, list[bytes]] = {}
        last = 0
        while True:
            rows = await self._rows(
                "SELECT rowid, id, tenant, user_id, scope, embedding FROM memories "
                "WHERE rowid > ? AND embedding IS NOT NULL AND enabled = 1 ORDER BY rowid LIMIT 10000",
                (last,),
            )
            if not rows:
                break
            last = rows[-1][0]
            for _, mid, tenant, user_id, scope, blob in rows:
                if len(blob) != index.dim * 4:
                    continue
                key = partition_key(tenant, scope, user_id)
                ids.setdefault(key, []).append(mid)
                vecs.setdefault(key, []).append(blob)
        groups = {
            key: (ids[key], np.frombuffer(b"".join(vecs[key]), dtype=np.float32).reshape(-1, index.dim)) for key in ids
        }
        return submit_cpu(index.build, groups)

    async def sync(self, moved: dict[str, set[PartitionKey]]) -> Awaitable[None]:
        """Read the touched rows and queue the index update (id -> partitions it was in)."""
        index = self.index
        assert index is not None
        ids = list(moved)
        rows: list[Any] = []
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            rows += await self._read_rows(
                "SELECT id, tenant, user_id, scope, enabled, embedding FROM memories "
                f"WHERE id IN ({', '.join('?' * len(chunk))})",
                chunk,
            )
        size = index.dim * 4

        def run() -> None:
            for mid, keys in moved.items():
                for key in keys:
                    index.remove(key, [mid])
            for mid, tenant, user_id, scope, enabled, blob in rows:
                key = partition_key(tenant, scope, user_id)
                index.remove(key, [mid])
                if enabled and blob is not None and len(blob) == size:
                    index.add(key, [mid], np.frombuffer(blob, dtype=np.float32).reshape(1, -1))

        return submit_cpu(run)

    def visible_rows(self, tenant: str, user_id: str | None) -> int | None:
        """Rows in the caller's partitions (None before ``load``)."""
        if self.index is None:
            return None
        keys = [partition_key(tenant, "shared", "")]
        if user_id is not None:
            keys.append(partition_key(tenant, "personal", user_id))
        return sum(self.index.partition_size(key) for key in keys)

    async def candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        index = self.index
        if index is None:
            return []
        scope = "personal" if where.personal_only else where.scope
        keys: list[PartitionKey] = []
        if where.user_id is not None and scope in (None, "personal"):
            keys.append(partition_key(where.tenant, "personal", where.user_id))
        if scope in (None, "shared", "system"):
            keys.append(partition_key(where.tenant, "shared", ""))

        def run() -> list[tuple[str, float]]:
            return [hit for key in keys for hit in index.search(key, query, k)]

        hits = await run_cpu(run, urgent=True)
        if where.include_disabled:
            hits.extend(await self._disabled_hits(where, scope, query))
        hits.sort(key=lambda h: h[1], reverse=True)
        return hits[:k]

    async def _disabled_hits(self, where: Visibility, scope: str | None, query: np.ndarray) -> list[tuple[str, float]]:
        # disabled memories are not in the index; they are few, so score them exactly
        sql_where, args = filter_sql(
            where.tenant, where.user_id, category=where.category, scope=scope, include_disabled=True, kind=where.kind
        )
        rows = await self._rows(
            f"SELECT m.id, m.embedding FROM memories m WHERE {sql_where} AND m.enabled = 0 "
            "AND m.embedding IS NOT NULL LIMIT 10000",
            args,
        )
        if not rows:
            return []
        mat = np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
        if mat.shape[1] != query.shape[0]:
            return []
        sims = mat @ query
        return [(r[0], float(s)) for r, s in zip(rows, sims, strict=True)]
