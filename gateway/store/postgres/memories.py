"""``PostgresMemoryStore``: memories, embeddings (pgvector), keyword search (full text for words
and CJK grams, pg_trgm for partial words), settings, the audit log and metadata on PostgreSQL.

The statements both backends share come from ``gateway.store.sql``; this module holds the
connection, what pgvector and the tsvectors need, and the statements only PostgreSQL has
(arrays, advisory locks). Every read of memories is keyed by tenant (and user) through
``sql.visibility``; only ``fetch`` (by id, for the service's own visibility check), retention
(``expired``) and the operators' views span tenants. Every committed change to a partition's
memories or to a user's settings is announced to the other replicas (``connection``).
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import numpy as np

from ..keyword_index import KeywordQuery
from ..records import (
    Change,
    KeywordOptions,
    Memory,
    Visibility,
)
from ..sql import POSTGRES, SharedStatements
from ..sql.base import Row
from ..sql.base import Writer as SqlWriter
from ..term_stats import TermStats
from ..vector_index import PartitionKey
from .connection import Database, OnDatabase, everything
from .keywords import cjk_vector, memory_cjk
from .search import keyword_lists
from .vectors import candidates as nearest
from .vectors import prepare as prepare_index

# an audit entry of a deleted memory keeps only the names of the fields it recorded
_SCRUB_AUDIT = ", ".join(
    f"""{col} = CASE
        WHEN {col} IS NULL OR json_typeof({col}) <> 'object' THEN NULL
        WHEN json_typeof({col} -> 'fields') = 'array' THEN {col}
        ELSE (SELECT json_build_object('fields', COALESCE(json_agg(k), '[]'::json))
              FROM json_object_keys({col}) AS k)
    END"""
    for col in ("before", "after")
)


class PostgresMemoryStore(OnDatabase, SharedStatements):
    """See ``store.MemoryStore``. ``database`` is a URL (this store gets its own pool) or a
    ``Database`` shared with the learning queue."""

    shared = True  # see store.MemoryStore.shared
    stored_columns = ("cjk", "embedding")
    stored_marks = ("?::tsvector", "?")
    scrub_audit = _SCRUB_AUDIT

    def __init__(self, database: Database | str) -> None:
        super().__init__(database)
        self._terms = TermStats()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        async with self.db.transaction():
            yield

    def on_change(self, callback: Callable[[Change], None]) -> None:
        self.db.on_change(callback)

    async def _vector_rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Binary rows: an embedding arrives as float32, not as text to parse."""
        async with self.db.connection() as conn:
            async with conn.cursor(binary=True) as cur:
                await cur.execute(POSTGRES.statement(sql), params)
                return [*await cur.fetchall()]

    def stored(self, memory: Memory, vector: np.ndarray | None) -> tuple[Any, ...]:
        return (memory_cjk(memory), POSTGRES.vector(vector))

    async def _fields_written(self, w: SqlWriter, memory_id: str, fields: dict[str, Any], old: PartitionKey) -> None:
        if {"title", "content", "tags"} & set(fields):
            rows = await self._query("SELECT title, content, tags FROM memories WHERE id = ?", (memory_id,))
            await w.execute("UPDATE memories SET cjk = ?::tsvector WHERE id = ?", (cjk_vector(*rows[0]), memory_id))

    # -- vectors ----------------------------------------------------------------------------
    async def prepare_vectors(self, model: str, dim: int, *, reembedded: bool = False) -> str:
        async with self.db.transaction() as tx:
            state = await prepare_index(tx.conn, model, dim, reembedded=reembedded)
            if state == "rebuilt":
                for change in await everything(tx.conn):
                    if change.kind == "memories":
                        tx.changed(change)
        return state

    async def save_vectors(self) -> None:
        """Nothing to save: pgvector's index is part of the database."""

    # -- memories ---------------------------------------------------------------------------
    async def add_access(self, counts: Sequence[tuple[str, int, str]]) -> None:
        """Access counts steer retention only, not retrieval: no change is announced."""
        if not counts:
            return
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                "UPDATE memories m SET access_count = m.access_count + v.n, last_access_at = v.at "
                "FROM unnest(%s::text[], %s::int[], %s::text[]) AS v(id, n, at) WHERE m.id = v.id",
                ([c[0] for c in counts], [c[1] for c in counts], [c[2] for c in counts]),
            )

    async def personal(self, tenant: str, user_id: str) -> list[Memory]:
        return await self._select(
            "tenant = ? AND scope = 'personal' AND user_id = ?", [tenant, user_id], "ORDER BY created_at, seq"
        )

    async def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        async with self.db.connection() as conn:
            return await nearest(conn, where, np.asarray(query, dtype=np.float32).reshape(-1), k)

    async def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[list[tuple[str, float]], str]]:
        options = options or KeywordOptions()
        if k <= 0:
            return []
        return await keyword_lists(self.db, where, query, k, options, self._terms)

    # -- copying between stores (``memorelay memories migrate``) -----------------------------
    @asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[bool]:
        key = zlib.crc32(f"memorelay:{name}".encode())  # a 32-bit id, apart from the schema's locks
        async with self.db.connection() as conn:
            cur = await conn.execute("SELECT pg_try_advisory_lock(%s)", (key,))
            row = await cur.fetchone()
            held = bool(row and row[0])
            try:
                yield held
            finally:
                if held:
                    await conn.execute("SELECT pg_advisory_unlock(%s)", (key,))

    # -- housekeeping -----------------------------------------------------------------------
    async def rebuild_keyword_index(self) -> None:
        """Recompute both tsvectors of every row (after a change of how they are built)."""
        rows = await self._query("SELECT id, title, content, tags FROM memories ORDER BY seq")
        async with self.db.transaction() as tx:
            await tx.conn.execute("UPDATE memories SET title = title")  # fires the words trigger
            async with tx.conn.cursor() as cur:
                await cur.executemany(
                    "UPDATE memories SET cjk = %s::tsvector WHERE id = %s",
                    [(cjk_vector(r[1], r[2], r[3]), r[0]) for r in rows],
                )
            for change in await everything(tx.conn):
                if change.kind == "memories":
                    tx.changed(change)

    async def compact(self) -> None:
        """Nothing: PostgreSQL's autovacuum reclaims deleted rows (a VACUUM after every
        delete would also walk the HNSW index, which is costly on a large store)."""
