"""``PostgresMemoryStore``: memories, embeddings (pgvector), keyword search (full text for words
and CJK grams, pg_trgm for partial words), settings, the audit log and metadata on PostgreSQL.

The statements both backends share come from ``gateway.store.sql``; this module holds the
writes that announce the partitions they change (``RETURNING``) and what pgvector and the
tsvectors need. Every read of memories is keyed by tenant (and user) through
``sql.visibility``; only ``fetch`` (by id, for the service's own visibility check), retention
(``expired``) and the operators' views span tenants. Every committed change to a partition's
memories or to a user's settings is announced to the other replicas (``connection``).
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import numpy as np
import orjson

from .._copy import sort_import
from ..keyword_index import SHARED_OWNER, KeywordQuery
from ..records import (
    Change,
    KeywordOptions,
    Memory,
    MemoryRow,
    PartitionRows,
    Visibility,
)
from ..rows import MEMORY_COLUMNS as COLUMNS
from ..rows import WRITABLE_FIELDS as WRITABLE
from ..rows import row_to_memory
from ..sql import POSTGRES, SharedStatements
from ..sql.base import Row
from .connection import Database, Tx, Writer, everything
from .keywords import cjk_vector, memory_values, partition
from .search import TermStats, keyword_lists
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
_USAGE_SUMS = ("prompt_tokens", "completion_tokens", "jobs")
_AUDIT_KEYS = ("id", "time", "actor", "action", "tenant", "user_id", "memory_id", "before", "after")
_AUDIT_COLUMNS = ", ".join(_AUDIT_KEYS)
# one memory's columns in an INSERT: COLUMNS, the CJK tsvector, the embedding
_N_COLUMNS = len(COLUMNS.split(","))
_ROW_MARKS = "(" + ", ".join(["%s"] * _N_COLUMNS) + ", %s::tsvector, %s)"
# fields whose change alone retrieval does not notice: no change is announced for them
# an auto memory's strength (``store.Decay``), binding ``Decay.strength_args()`` (now, the
# episode half-life, the other kinds'); the exponent is capped so a memory unused for centuries
# reads 0.5 ^ 1000, not an underflow error
_STRENGTH = (
    "(score * power(0.5, LEAST(1000.0, GREATEST(0.0, extract(epoch FROM (%s::timestamptz - "
    "COALESCE(last_access_at, updated_at)::timestamptz))::float8 / 86400.0) "
    "/ (CASE WHEN kind = 'episode' THEN %s::float8 ELSE %s::float8 END))))"
)
_QUIET_FIELDS = frozenset({"updated_at", "score", "access_count", "last_access_at"})


def _owner(scope: str, user_id: str) -> str:
    return user_id if scope == "personal" else SHARED_OWNER


def _json(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


def _vector(value: Any) -> np.ndarray | None:
    return None if value is None else np.asarray(value, dtype=np.float32)


def _row_values(row: MemoryRow) -> tuple[Any, ...]:
    return (*memory_values(row[0]), _vector(row[1]))


_REVIEW_COLUMNS = "id, tenant, user_id, old_id, new_id, reason, created_at, state, decided_by, decided_at"
_REFLECTION_COLUMNS = "id, tenant, user_id, period_start, period_end, created_at, report"


class PostgresMemoryStore(SharedStatements):
    """See ``store.MemoryStore``. ``database`` is a URL (this store gets its own pool) or a
    ``Database`` shared with the learning queue."""

    shared = True  # see store.MemoryStore.shared
    dialect = POSTGRES

    def __init__(self, database: Database | str) -> None:
        self.db = database if isinstance(database, Database) else Database(database)
        self._terms = TermStats()

    async def open(self) -> None:
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        async with self.db.transaction():
            yield

    def on_change(self, callback: Callable[[Change], None]) -> None:
        self.db.on_change(callback)

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self.db.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchall()

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [*await self._rows(POSTGRES.statement(sql), params)]

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[Writer]:
        async with self.db.transaction() as tx:
            yield Writer(tx)

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self._rows(sql, params)
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    @staticmethod
    def _touched(tx: Tx, rows: Iterable[Sequence[Any]]) -> None:
        """Announce the partitions of (tenant, scope, user_id, id) rows, naming the memories."""
        for tenant, scope, user_id, memory_id in rows:
            tx.changed(Change("memories", tenant, _owner(scope, user_id), frozenset((str(memory_id),))))

    # -- vectors ----------------------------------------------------------------------------
    async def prepare_vectors(self, model: str, dim: int, *, reembedded: bool = False) -> str:
        async with self.db.transaction() as tx:
            state = await prepare_index(tx.conn, model, dim, reembedded=reembedded)
            if state == "rebuilt":
                for change in await everything(tx.conn):
                    if change.kind == "memories":
                        tx.changed(change)
        return state

    async def set_embeddings(self, pairs: Sequence[tuple[str, np.ndarray]]) -> None:
        if not pairs:
            return
        async with self.db.transaction() as tx:
            async with tx.conn.cursor() as cur:
                await cur.executemany(
                    "UPDATE memories SET embedding = %s WHERE id = %s",
                    [(np.asarray(v, dtype=np.float32), mid) for mid, v in pairs],
                )
            cur = await tx.conn.execute(
                "SELECT tenant, scope, user_id, id FROM memories WHERE id = ANY(%s)", ([p[0] for p in pairs],)
            )
            self._touched(tx, await cur.fetchall())

    async def save_vectors(self) -> None:
        """Nothing to save: pgvector's index is part of the database."""

    # -- memories ---------------------------------------------------------------------------
    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None:
        if not memories:
            return
        rows = [
            (*memory_values(m), None if embeddings is None else np.asarray(embeddings[i], dtype=np.float32))
            for i, m in enumerate(memories)
        ]
        marks = ", ".join(["%s"] * _N_COLUMNS)
        async with self.db.transaction() as tx:
            async with tx.conn.cursor() as cur:
                await cur.executemany(
                    f"INSERT INTO memories ({COLUMNS}, cjk, embedding) VALUES ({marks}, %s::tsvector, %s)", rows
                )
            self._touched(tx, [(m.tenant, m.scope, m.user_id, m.id) for m in memories])

    async def embedding(self, memory_id: str) -> np.ndarray | None:
        rows = await self._rows("SELECT embedding FROM memories WHERE id = %s", (memory_id,))
        if not rows or rows[0][0] is None:
            return None
        vector: np.ndarray = rows[0][0]
        return vector

    async def write_fields(self, memory_id: str, fields: dict[str, Any]) -> None:
        if not fields:
            return
        bad = set(fields) - WRITABLE
        if bad:
            raise ValueError(f"not writable: {sorted(bad)}")
        values = [
            orjson.dumps(v).decode() if k == "tags" else bool(v) if k in ("enabled", "pinned") else v
            for k, v in fields.items()
        ]
        assignments = ", ".join(f"{k} = %s" for k in fields)
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "SELECT tenant, scope, user_id, id FROM memories WHERE id = %s FOR UPDATE", (memory_id,)
            )
            before = await cur.fetchall()
            cur = await tx.conn.execute(
                f"UPDATE memories SET {assignments} WHERE id = %s "
                "RETURNING tenant, scope, user_id, id, title, content, tags",
                (*values, memory_id),
            )
            after = await cur.fetchall()
            if after and {"title", "content", "tags"} & set(fields):
                title, content, tags = after[0][4:]
                cjk = cjk_vector(title, content, tags)
                await tx.conn.execute("UPDATE memories SET cjk = %s::tsvector WHERE id = %s", (cjk, memory_id))
            if set(fields) - _QUIET_FIELDS:
                self._touched(tx, [*before, *(r[:4] for r in after)])

    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None:
        value = None if vector is None else np.asarray(vector, dtype=np.float32)
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "UPDATE memories SET embedding = %s WHERE id = %s RETURNING tenant, scope, user_id, id",
                (value, memory_id),
            )
            self._touched(tx, await cur.fetchall())

    async def delete(self, ids: Sequence[str]) -> None:
        if not ids:
            return
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "DELETE FROM memories WHERE id = ANY(%s) RETURNING tenant, scope, user_id, id", (list(ids),)
            )
            self._touched(tx, await cur.fetchall())
            await tx.conn.execute(f"UPDATE audit_log SET {_SCRUB_AUDIT} WHERE memory_id = ANY(%s)", (list(ids),))
            await tx.conn.execute("DELETE FROM memory_uses WHERE memory_id = ANY(%s)", (list(ids),))
            await tx.conn.execute(
                "DELETE FROM memory_reviews WHERE old_id = ANY(%s) OR new_id = ANY(%s)", (list(ids), list(ids))
            )

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

    async def partition_rows(
        self, tenant: str, owner: str, *, limit: int | None = None, ids: Collection[str] | None = None
    ) -> PartitionRows:
        clause, args = partition(tenant, owner)
        if ids is not None:
            clause, args = f"{clause} AND id = ANY(%s)", [*args, list(ids)]
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        async with self.db.connection() as conn:
            async with conn.cursor(binary=True) as cur:
                await cur.execute(
                    f"SELECT {COLUMNS}, embedding FROM memories WHERE {clause} AND enabled ORDER BY seq{tail}",
                    args,
                )
                rows = await cur.fetchall()
        return _partition_rows(rows)

    # -- copying between stores (``memorelay memories migrate``) -----------------------------
    async def iter_memories(self, batch: int) -> AsyncIterator[list[MemoryRow]]:
        last = 0
        while True:
            async with self.db.connection() as conn:
                async with conn.cursor(binary=True) as cur:
                    await cur.execute(
                        f"SELECT seq, {COLUMNS}, embedding FROM memories WHERE seq > %s ORDER BY seq LIMIT %s",
                        (last, max(1, int(batch))),
                    )
                    rows = await cur.fetchall()
            if not rows:
                return
            last = int(rows[-1][0])
            yield [(row_to_memory(r[1:]), _vector(r[-1])) for r in rows]

    async def import_memories(self, rows: Sequence[MemoryRow]) -> tuple[int, int]:
        if not rows:
            return 0, 0
        async with self.db.transaction() as tx:
            async with tx.conn.cursor(binary=True) as cur:
                await cur.execute(
                    f"SELECT {COLUMNS}, embedding FROM memories WHERE id = ANY(%s) FOR UPDATE",
                    ([m.id for m, _ in rows],),
                )
                held = {r[0]: (row_to_memory(r), _vector(r[-1])) for r in await cur.fetchall()}
            fresh, replace = sort_import(rows, held)
            inserted = 0
            if fresh:
                cur = await tx.conn.execute(
                    f"INSERT INTO memories ({COLUMNS}, cjk, embedding) VALUES {', '.join([_ROW_MARKS] * len(fresh))} "
                    "ON CONFLICT (id) DO NOTHING",
                    [value for row in fresh for value in _row_values(row)],
                )
                inserted = cur.rowcount
            if replace:
                columns = [c.strip() for c in COLUMNS.split(",")][1:]
                assignments = ", ".join(f"{c} = %s" for c in columns)
                async with tx.conn.cursor() as cur:
                    await cur.executemany(
                        f"UPDATE memories SET {assignments}, cjk = %s::tsvector, embedding = %s WHERE id = %s",
                        [(*_row_values(row)[1:], row[0].id) for row in replace],
                    )
            olds = [held[m.id][0] for m, _ in replace]
            touched = (*olds, *(r[0] for r in (*fresh, *replace)))
            self._touched(tx, [(m.tenant, m.scope, m.user_id, m.id) for m in touched])
        return inserted, len(replace)

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

    async def wipe(self) -> None:
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute("DELETE FROM memories RETURNING tenant, scope, user_id, id")
            self._touched(tx, await cur.fetchall())
            cur = await tx.conn.execute("DELETE FROM user_settings RETURNING tenant, user_id")
            for tenant, user_id in await cur.fetchall():
                tx.changed(Change("settings", tenant, user_id))
            await tx.conn.execute("DELETE FROM audit_log")
            await tx.conn.execute("DELETE FROM memory_reviews")
            await tx.conn.execute("DELETE FROM memory_uses")
            await tx.conn.execute("DELETE FROM reflections")

    # -- housekeeping -----------------------------------------------------------------------
    async def rebuild_keyword_index(self) -> None:
        """Recompute both tsvectors of every row (after a change of how they are built)."""
        rows = await self._rows("SELECT id, title, content, tags FROM memories ORDER BY seq")
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


def _partition_rows(rows: Sequence[Sequence[Any]]) -> PartitionRows:
    """The rows' memories and their embeddings (a row of zeros where one is missing or of
    another size than the first; None without any)."""
    vectors = [None if r[-1] is None else np.asarray(r[-1], dtype=np.float32) for r in rows]
    size = next((len(v) for v in vectors if v is not None), 0)
    matrix: np.ndarray | None = None
    if size:
        matrix = np.zeros((len(rows), size), dtype=np.float32)
        for i, v in enumerate(vectors):
            if v is not None and len(v) == size:
                matrix[i] = v
    return PartitionRows([row_to_memory(r) for r in rows], matrix)
