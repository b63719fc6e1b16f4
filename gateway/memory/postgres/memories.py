"""``PostgresMemoryStore``: memories, embeddings (pgvector), keyword search (full text for words
and CJK grams, pg_trgm for partial words), settings, the audit log and metadata on PostgreSQL.

Every read of memories is keyed by tenant (and user) through ``_sql.visibility`` or
``_sql.partition``; only ``fetch`` (by id, for the service's own visibility check), retention
(``expired``) and the operators' views span tenants. Every committed change to a partition's
memories or to a user's settings is announced to the other replicas (``_db``).
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import numpy as np
import orjson

from .._copy import sort_import
from ..keyword_index import SHARED_OWNER, KeywordQuery
from ..rows import MEMORY_COLUMNS as COLUMNS
from ..rows import WRITABLE_FIELDS as WRITABLE
from ..rows import row_to_memory
from ..store import (
    Change,
    Decay,
    KeywordOptions,
    MemoryRow,
    PartitionRows,
    Reflection,
    ReflectionKind,
    Review,
    ReviewState,
    SettingsRow,
    Use,
    Visibility,
)
from ..types import Memory, TenantConflict
from . import _search, vectors
from ._db import Conn, Database, Tx, everything
from ._sql import cjk_vector, memory_values, partition, visibility

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


class PostgresMemoryStore:
    """See ``store.MemoryStore``. ``database`` is a URL (this store gets its own pool) or a
    ``Database`` shared with the learning queue."""

    shared = True  # see store.MemoryStore.shared

    def __init__(self, database: Database | str) -> None:
        self.db = database if isinstance(database, Database) else Database(database)
        self._terms = _search.TermStats()

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

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self._rows(sql, params)
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    @staticmethod
    def _touched(tx: Tx, rows: Iterable[Sequence[Any]]) -> None:
        """Announce the partitions of (tenant, scope, user_id) rows."""
        for tenant, scope, user_id in rows:
            tx.changed(Change("memories", tenant, _owner(scope, user_id)))

    # -- metadata ---------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM meta WHERE key = %s", (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- vectors ----------------------------------------------------------------------------
    async def prepare_vectors(self, model: str, dim: int, *, reembedded: bool = False) -> str:
        async with self.db.transaction() as tx:
            state = await vectors.prepare(tx.conn, model, dim, reembedded=reembedded)
            if state == "rebuilt":
                for change in await everything(tx.conn):
                    if change.kind == "memories":
                        tx.changed(change)
        return state

    async def texts_to_embed(self, *, everything: bool) -> list[tuple[str, str, str]]:
        where = "" if everything else "WHERE embedding IS NULL"
        rows = await self._rows(f"SELECT id, title, content FROM memories {where} ORDER BY seq")
        return [(r[0], r[1], r[2]) for r in rows]

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
                "SELECT DISTINCT tenant, scope, user_id FROM memories WHERE id = ANY(%s)", ([p[0] for p in pairs],)
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
            self._touched(tx, {(m.tenant, m.scope, m.user_id) for m in memories})

    async def fetch(self, ids: Sequence[str]) -> dict[str, Memory]:
        if not ids:
            return {}
        rows = await self._rows(f"SELECT {COLUMNS} FROM memories WHERE id = ANY(%s)", (list(ids),))
        return {r[0]: row_to_memory(r) for r in rows}

    async def fetch_one(self, memory_id: str) -> Memory | None:
        return (await self.fetch([memory_id])).get(memory_id)

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
                "SELECT tenant, scope, user_id FROM memories WHERE id = %s FOR UPDATE", (memory_id,)
            )
            before = await cur.fetchall()
            cur = await tx.conn.execute(
                f"UPDATE memories SET {assignments} WHERE id = %s "
                "RETURNING tenant, scope, user_id, title, content, tags",
                (*values, memory_id),
            )
            after = await cur.fetchall()
            if after and {"title", "content", "tags"} & set(fields):
                title, content, tags = after[0][3:]
                cjk = cjk_vector(title, content, tags)
                await tx.conn.execute("UPDATE memories SET cjk = %s::tsvector WHERE id = %s", (cjk, memory_id))
            if set(fields) - _QUIET_FIELDS:
                self._touched(tx, [*before, *(r[:3] for r in after)])

    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None:
        value = None if vector is None else np.asarray(vector, dtype=np.float32)
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "UPDATE memories SET embedding = %s WHERE id = %s RETURNING tenant, scope, user_id", (value, memory_id)
            )
            self._touched(tx, await cur.fetchall())

    async def delete(self, ids: Sequence[str]) -> None:
        if not ids:
            return
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "DELETE FROM memories WHERE id = ANY(%s) RETURNING tenant, scope, user_id", (list(ids),)
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

    async def list_visible(self, where: Visibility, *, limit: int, offset: int) -> tuple[list[Memory], int]:
        clause, args = visibility(where)
        total = await self._scalar(f"SELECT COUNT(*) FROM memories WHERE {clause}", args)
        rows = await self._rows(
            f"SELECT {COLUMNS} FROM memories WHERE {clause} ORDER BY created_at DESC, seq DESC LIMIT %s OFFSET %s",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [row_to_memory(r) for r in rows], total

    async def count_personal(
        self, tenant: str, user_id: str, *, source: str | None = None, kind: str | None = None
    ) -> int:
        extra, args = "", []
        for column, value in (("source", source), ("kind", kind)):
            if value is not None:
                extra += f" AND {column} = %s"
                args.append(value)
        return await self._scalar(
            f"SELECT COUNT(*) FROM memories WHERE tenant = %s AND scope = 'personal' AND user_id = %s{extra}",
            [tenant, user_id, *args],
        )

    async def count_by_kind(self, tenant: str, user_id: str) -> dict[str, int]:
        rows = await self._rows(
            "SELECT kind, COUNT(*) FROM memories WHERE tenant = %s AND scope = 'personal' AND user_id = %s "
            "GROUP BY kind ORDER BY kind",
            (tenant, user_id),
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def _select(self, where: str, params: Sequence[Any], tail: str = "") -> list[Memory]:
        rows = await self._rows(f"SELECT {COLUMNS} FROM memories WHERE {where} {tail}", params)
        return [row_to_memory(r) for r in rows]

    async def personal(self, tenant: str, user_id: str) -> list[Memory]:
        return await self._select(
            "tenant = %s AND scope = 'personal' AND user_id = %s", [tenant, user_id], "ORDER BY created_at, seq"
        )

    async def in_slot(self, tenant: str, user_id: str, slot: str) -> list[Memory]:
        return await self._select(
            "tenant = %s AND scope = 'personal' AND user_id = %s AND enabled AND slot = %s",
            [tenant, user_id, slot],
            "ORDER BY created_at DESC, seq DESC",
        )

    async def lowest_value(
        self, tenant: str, user_id: str, n: int, protect: Sequence[str], decay: Decay, *, kind: str | None = None
    ) -> list[Memory]:
        if n <= 0:
            return []
        of_kind, kind_args = (" AND kind = %s", [kind]) if kind is not None else ("", [])
        return await self._select(
            "tenant = %s AND scope = 'personal' AND user_id = %s AND source = 'auto' AND NOT pinned "
            "AND NOT (id = ANY(%s))" + of_kind,
            [tenant, user_id, list(protect), *kind_args, *decay.strength_args(), n],
            f"ORDER BY enabled ASC, {_STRENGTH} ASC, access_count ASC, created_at ASC, seq ASC LIMIT %s",
        )

    async def expired(self, cutoff: str, decay: Decay) -> list[Memory]:
        return await self._select(
            f"source = 'auto' AND NOT pinned AND ((access_count = 0 AND updated_at < %s) OR {_STRENGTH} < %s)",
            [cutoff, *decay.strength_args(), decay.floor],
            "ORDER BY seq",
        )

    async def count_weak(self, tenant: str, user_id: str, decay: Decay) -> int:
        return await self._scalar(
            "SELECT COUNT(*) FROM memories WHERE tenant = %s AND scope = 'personal' AND user_id = %s "
            f"AND source = 'auto' AND NOT pinned AND {_STRENGTH} < %s",
            [tenant, user_id, *decay.strength_args(), decay.floor],
        )

    async def personal_stats(self, tenant: str, user_id: str) -> dict[str, Any]:
        rows = await self._rows(
            "SELECT category, COUNT(*), COUNT(*) FILTER (WHERE enabled), "
            "MAX(created_at) FILTER (WHERE source = 'auto') FROM memories "
            "WHERE tenant = %s AND scope = 'personal' AND user_id = %s GROUP BY category ORDER BY category",
            (tenant, user_id),
        )
        learned = [r[3] for r in rows if r[3]]
        return {
            "total": sum(int(r[1]) for r in rows),
            "enabled": sum(int(r[2]) for r in rows),
            "by_category": {r[0]: int(r[1]) for r in rows},
            "by_kind": await self.count_by_kind(tenant, user_id),
            "last_learned_at": max(learned) if learned else None,
        }

    # -- pinned memories, citation log -----------------------------------------------------
    async def pinned(self, tenant: str, user_id: str | None) -> list[Memory]:
        clause, args = visibility(Visibility(tenant, user_id))
        return await self._select(f"{clause} AND pinned", args, "ORDER BY created_at, seq")

    async def count_pinned(self, tenant: str, user_id: str) -> int:
        return await self._scalar(
            "SELECT COUNT(*) FROM memories WHERE tenant = %s AND user_id = %s AND scope = 'personal' AND pinned",
            (tenant, user_id),
        )

    async def add_uses(self, uses: Sequence[Use]) -> None:
        if not uses:
            return
        async with self.db.transaction() as tx:
            async with tx.conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO memory_uses (tenant, user_id, memory_id, conversation_id, surface, time) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    [(u.tenant, u.user_id, u.memory_id, u.conversation_id, u.surface, u.time) for u in uses],
                )

    async def move_uses(self, tenant: str, user_id: str, from_ids: Sequence[str], to_id: str) -> int:
        if not from_ids:
            return 0
        async with self.db.transaction() as tx:
            cursor = await tx.conn.execute(
                "UPDATE memory_uses SET memory_id = %s WHERE tenant = %s AND user_id = %s AND memory_id = ANY(%s)",
                (to_id, tenant, user_id, list(from_ids)),
            )
            return int(cursor.rowcount)

    async def uses(
        self, memory_id: str, tenant: str, user_id: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        where, args = "memory_id = %s AND tenant = %s", [memory_id, tenant]
        if user_id is not None:
            where, args = where + " AND user_id = %s", [*args, user_id]
        total = await self._scalar(f"SELECT COUNT(*) FROM memory_uses WHERE {where}", args)
        rows = await self._rows(
            f"SELECT memory_id, user_id, conversation_id, surface, time FROM memory_uses WHERE {where} "
            "ORDER BY id DESC LIMIT %s OFFSET %s",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        keys = ("memory_id", "user_id", "conversation_id", "surface", "time")
        return [dict(zip(keys, r, strict=True)) for r in rows], total

    async def count_uses(self, tenant: str, user_id: str) -> int:
        return await self._scalar(
            "SELECT COUNT(*) FROM memory_uses WHERE tenant = %s AND user_id = %s", (tenant, user_id)
        )

    async def recent_uses(self, tenant: str, user_id: str, conversation_id: str | None, limit: int) -> list[Use]:
        where, args = "tenant = %s AND user_id = %s", [tenant, user_id]
        if conversation_id is not None:
            where, args = where + " AND conversation_id = %s", [*args, conversation_id]
        rows = await self._rows(
            "SELECT tenant, user_id, memory_id, conversation_id, surface, time FROM memory_uses "
            f"WHERE {where} ORDER BY id DESC LIMIT %s",
            [*args, max(0, int(limit))],
        )
        return [Use(*r) for r in rows]

    async def use_counts(self, tenant: str, ids: Sequence[str], user_id: str | None = None) -> dict[str, int]:
        out = dict.fromkeys(ids, 0)
        if not out:
            return out
        who, who_args = (" AND user_id = %s", [user_id]) if user_id is not None else ("", [])
        rows = await self._rows(
            f"SELECT memory_id, COUNT(*) FROM memory_uses WHERE memory_id = ANY(%s) AND tenant = %s{who} "
            "GROUP BY memory_id",
            [list(out), tenant, *who_args],
        )
        out.update((str(mid), int(n)) for mid, n in rows)
        return out

    async def uses_after(self, after_id: int, limit: int) -> list[tuple[int, Use]]:
        rows = await self._rows(
            "SELECT id, tenant, user_id, memory_id, conversation_id, surface, time FROM memory_uses "
            "WHERE id > %s ORDER BY id LIMIT %s",
            (int(after_id), max(1, int(limit))),
        )
        return [(int(r[0]), Use(*r[1:])) for r in rows]

    async def prune_uses(self, cutoff: str) -> int:
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute("DELETE FROM memory_uses WHERE time < %s", (cutoff,))
            return int(cur.rowcount)

    # -- supersedes waiting for review ------------------------------------------------------
    async def add_review(self, review: Review) -> None:
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                f"INSERT INTO memory_reviews ({_REVIEW_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    review.id,
                    review.tenant,
                    review.user_id,
                    review.old_id,
                    review.new_id,
                    review.reason,
                    review.created_at,
                    review.state,
                    review.decided_by,
                    review.decided_at,
                ),
            )

    async def get_review(self, review_id: str) -> Review | None:
        rows = await self._rows(f"SELECT {_REVIEW_COLUMNS} FROM memory_reviews WHERE id = %s", [review_id])
        return Review(*rows[0]) if rows else None

    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[list[Review], int]:
        clauses, args = ["TRUE"], []
        for column, value in (("tenant", tenant), ("user_id", user_id), ("state", state)):
            if value is not None:
                clauses.append(f"{column} = %s")
                args.append(value)
        where = " AND ".join(clauses)
        total = await self._scalar(f"SELECT COUNT(*) FROM memory_reviews WHERE {where}", args)
        rows = await self._rows(
            f"SELECT {_REVIEW_COLUMNS} FROM memory_reviews WHERE {where} ORDER BY created_at, id LIMIT %s OFFSET %s",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [Review(*r) for r in rows], total

    async def decide_review(self, review_id: str, state: ReviewState, decided_by: str, decided_at: str) -> bool:
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "UPDATE memory_reviews SET state = %s, decided_by = %s, decided_at = %s "
                "WHERE id = %s AND state = 'pending'",
                (state, decided_by, decided_at, review_id),
            )
            return cur.rowcount == 1

    # -- reflection reports -----------------------------------------------------------------
    async def add_reflection(self, reflection: Reflection) -> None:
        r = reflection
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                f"INSERT INTO reflections ({_REFLECTION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (r.id, r.tenant, r.user_id, r.period_start, r.period_end, r.created_at, _json(r.report)),
            )

    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        clauses, args = ["TRUE"], []
        for column, value in (("tenant", tenant), ("user_id", user_id)):
            if value is not None:
                clauses.append(f"{column} = %s")
                args.append(value)
        if kind is not None:
            clauses.append("user_id = ''" if kind == "tenant" else "user_id <> ''")
        where = " AND ".join(clauses)
        total = await self._scalar(f"SELECT COUNT(*) FROM reflections WHERE {where}", args)
        rows = await self._rows(
            f"SELECT {_REFLECTION_COLUMNS} FROM reflections WHERE {where} "
            "ORDER BY created_at DESC, id DESC LIMIT %s OFFSET %s",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [_reflection(r) for r in rows], total

    async def delete_reflections(self, tenant: str, user_id: str) -> int:
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute("DELETE FROM reflections WHERE tenant = %s AND user_id = %s", (tenant, user_id))
            return int(cur.rowcount)

    async def prune_reflections(self, cutoff: str) -> int:
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute("DELETE FROM reflections WHERE created_at < %s", (cutoff,))
            return int(cur.rowcount)

    async def reflections_after(self, created_at: str, reflection_id: str, limit: int) -> list[Reflection]:
        rows = await self._rows(
            f"SELECT {_REFLECTION_COLUMNS} FROM reflections WHERE (created_at, id) > (%s, %s) "
            "ORDER BY created_at, id LIMIT %s",
            [created_at, reflection_id, max(0, int(limit))],
        )
        return [_reflection(r) for r in rows]

    async def import_reflections(self, reflections: Sequence[Reflection]) -> None:
        if not reflections:
            return
        async with self.db.transaction() as tx:
            async with tx.conn.cursor() as cur:
                await cur.executemany(
                    f"INSERT INTO reflections ({_REFLECTION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [
                        (r.id, r.tenant, r.user_id, r.period_start, r.period_end, r.created_at, _json(r.report))
                        for r in reflections
                    ],
                )

    async def most_used(self, tenant: str, user_id: str, since: str, limit: int) -> list[tuple[str, int]]:
        rows = await self._rows(
            "SELECT memory_id, COUNT(*) AS n FROM memory_uses WHERE tenant = %s AND user_id = %s AND time >= %s "
            "GROUP BY memory_id ORDER BY n DESC, memory_id LIMIT %s",
            (tenant, user_id, since, max(0, int(limit))),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    # -- candidates for retrieval -----------------------------------------------------------
    async def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        async with self.db.connection() as conn:
            return await vectors.candidates(conn, where, np.asarray(query, dtype=np.float32).reshape(-1), k)

    async def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[list[tuple[str, float]], str]]:
        options = options or KeywordOptions()
        if k <= 0:
            return []
        return await _search.keyword_lists(self.db, where, query, k, options, self._terms)

    async def count_visible(self, tenant: str, user_id: str | None) -> int:
        clause, args = visibility(Visibility(tenant, user_id, include_disabled=True))
        return await self._scalar(f"SELECT COUNT(*) FROM memories WHERE {clause}", args)

    async def partition_rows(self, tenant: str, owner: str, *, limit: int | None = None) -> PartitionRows:
        clause, args = partition(tenant, owner)
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        async with self.db.connection() as conn:
            async with conn.cursor(binary=True) as cur:
                await cur.execute(
                    f"SELECT {COLUMNS}, embedding FROM memories WHERE {clause} AND enabled ORDER BY seq{tail}",
                    args,
                )
                rows = await cur.fetchall()
        return _partition_rows(rows)

    # -- settings ---------------------------------------------------------------------------
    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any] | None:
        rows = await self._rows(
            "SELECT settings FROM user_settings WHERE tenant = %s AND user_id = %s", (tenant, user_id)
        )
        if not rows:
            return None
        settings: dict[str, Any] = orjson.loads(rows[0][0])
        return settings

    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> None:
        from .._clock import now_iso

        async with self.db.transaction() as tx:
            await tx.conn.execute(
                "INSERT INTO user_settings (tenant, user_id, settings, updated_at) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (tenant, user_id) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                (tenant, user_id, orjson.dumps(settings).decode(), now_iso()),
            )
            tx.changed(Change("settings", tenant, user_id))

    # -- audit, operators -------------------------------------------------------------------
    async def audit(self, entry: dict[str, Any]) -> None:
        await self.import_audit([entry])

    async def audit_entries(self, tenant: str | None, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        where, args = ("WHERE tenant = %s", [tenant]) if tenant is not None else ("", [])
        total = await self._scalar(f"SELECT COUNT(*) FROM audit_log {where}", args)
        rows = await self._rows(
            f"SELECT {_AUDIT_COLUMNS} FROM audit_log {where} ORDER BY id DESC LIMIT %s OFFSET %s",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [dict(zip(_AUDIT_KEYS, r, strict=True)) for r in rows], total

    async def users(self, tenant: str | None) -> list[dict[str, Any]]:
        where, args = ("tenant = %s AND ", [tenant]) if tenant is not None else ("", [])
        rows = await self._rows(
            f"SELECT tenant, user_id, COUNT(*), COUNT(*) FILTER (WHERE enabled) FROM memories WHERE {where}"
            "scope = 'personal' GROUP BY tenant, user_id ORDER BY tenant, user_id",
            args,
        )
        return [{"tenant": r[0], "user_id": r[1], "memories": int(r[2]), "enabled": int(r[3])} for r in rows]

    async def tenants(self) -> list[str]:
        return [str(r[0]) for r in await self._rows("SELECT DISTINCT tenant FROM memories ORDER BY tenant")]

    async def admin_stats(self, tenant: str | None) -> dict[str, Any]:
        where, args = ("WHERE tenant = %s", [tenant]) if tenant is not None else ("", [])
        totals = await self._rows(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE enabled), "
            "COUNT(DISTINCT (tenant, user_id)) FILTER (WHERE scope = 'personal') "
            f"FROM memories {where}",
            args,
        )

        async def grouped(column: str) -> dict[str, int]:
            rows = await self._rows(f"SELECT {column}, COUNT(*) FROM memories {where} GROUP BY {column}", args)
            return {str(r[0]): int(r[1]) for r in rows}

        and_where = f"{where} AND" if where else "WHERE"
        per_day = await self._rows(
            f"SELECT substr(created_at, 1, 10) AS day, COUNT(*) FROM memories {and_where} source = 'auto' "
            "GROUP BY day ORDER BY day",
            args,
        )
        total, enabled, users = totals[0]
        return {
            "total": int(total),
            "enabled": int(enabled),
            "users": int(users),
            "by_category": await grouped("category"),
            "by_kind": await grouped("kind"),
            "by_scope": await grouped("scope"),
            "by_source": await grouped("source"),
            "learned_per_day": {str(r[0]): int(r[1]) for r in per_day},
        }

    async def learned_per_day(self, since: str, tenant: str | None) -> list[tuple[str, str, int]]:
        extra, args = ("AND tenant = %s", [tenant]) if tenant else ("", [])
        rows = await self._rows(
            "SELECT substr(created_at, 1, 10) AS day, category, COUNT(*) FROM memories "
            f"WHERE source = 'auto' AND created_at >= %s {extra} GROUP BY day, category ORDER BY day, category",
            [since, *args],
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def tenants_holding(self, user_id: str) -> list[tuple[str, int]]:
        rows = await self._rows(
            "SELECT tenant, COUNT(*) AS n FROM memories WHERE user_id = %s AND scope = 'personal' "
            "GROUP BY tenant ORDER BY n DESC, tenant",
            (user_id,),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    async def move_tenant(self, source: str, target: str, user_id: str | None) -> dict[str, int]:
        """Move ``source``'s memories (only ``user_id``'s personal ones when given; else also
        shared and system), settings, audit entries and learning rows to ``target``, in the
        current transaction. Refuses (``TenantConflict``) before writing anything when the
        target holds different settings for a user; equal settings leave the source."""
        user_sql, user_args = (" AND user_id = %s", [user_id]) if user_id is not None else ("", [])
        async with self.db.transaction() as tx:
            conn = tx.conn
            settings = await _move_settings(conn, source, target, user_id)
            scope_sql = " AND scope = 'personal'" if user_id is not None else ""
            cur = await conn.execute(
                f"UPDATE memories SET tenant = %s WHERE tenant = %s{scope_sql}{user_sql}", [target, source, *user_args]
            )
            memories = cur.rowcount
            cur = await conn.execute(
                f"UPDATE audit_log SET tenant = %s WHERE tenant = %s{user_sql}", [target, source, *user_args]
            )
            audit = cur.rowcount
            # the citation log follows its users (not counted: it holds no memory text)
            await conn.execute(
                f"UPDATE memory_uses SET tenant = %s WHERE tenant = %s{user_sql}", [target, source, *user_args]
            )
            await conn.execute(
                f"UPDATE memory_reviews SET tenant = %s WHERE tenant = %s{user_sql}", [target, source, *user_args]
            )
            # a user's reports follow them; a whole tenant's also carry its tenant reports
            await conn.execute(
                f"UPDATE reflections SET tenant = %s WHERE tenant = %s{user_sql}", [target, source, *user_args]
            )
            learning = 0
            for table in ("learning_log", "learning_jobs"):
                cur = await conn.execute(
                    f"UPDATE {table} SET tenant = %s WHERE tenant = %s{user_sql}", [target, source, *user_args]
                )
                learning += cur.rowcount
            sums = ", ".join(_USAGE_SUMS)
            added = ", ".join(f"{c} = learning_usage.{c} + excluded.{c}" for c in _USAGE_SUMS)
            await conn.execute(
                f"INSERT INTO learning_usage (tenant, user_id, day, {sums}) SELECT %s, user_id, day, {sums} "
                f"FROM learning_usage WHERE tenant = %s{user_sql} "
                f"ON CONFLICT (tenant, user_id, day) DO UPDATE SET {added}",
                [target, source, *user_args],
            )
            cur = await conn.execute(f"DELETE FROM learning_usage WHERE tenant = %s{user_sql}", [source, *user_args])
            learning += cur.rowcount
            who = user_id if user_id is not None else "*"
            for tenant in (source, target):
                if memories:
                    tx.changed(Change("memories", tenant, who))
                    if user_id is None:
                        tx.changed(Change("memories", tenant, SHARED_OWNER))
                if settings:
                    tx.changed(Change("settings", tenant, who))
        return {"memories": memories, "settings": settings, "audit_entries": audit, "learning_rows": learning}

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
            self._touched(tx, {(m.tenant, m.scope, m.user_id) for m in (*olds, *(r[0] for r in (*fresh, *replace)))})
        return inserted, len(replace)

    async def all_settings(self) -> list[SettingsRow]:
        rows = await self._rows(
            "SELECT tenant, user_id, settings, updated_at FROM user_settings ORDER BY tenant, user_id"
        )
        return [SettingsRow(r[0], r[1], dict(orjson.loads(r[2])), r[3]) for r in rows]

    async def import_settings(self, rows: Sequence[SettingsRow]) -> int:
        written = 0
        async with self.db.transaction() as tx:
            for row in rows:
                cur = await tx.conn.execute(
                    "INSERT INTO user_settings (tenant, user_id, settings, updated_at) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (tenant, user_id) DO UPDATE SET settings = excluded.settings, "
                    "updated_at = excluded.updated_at WHERE user_settings.updated_at <= excluded.updated_at "
                    "AND user_settings.settings <> excluded.settings",
                    (row.tenant, row.user_id, orjson.dumps(row.settings).decode(), row.updated_at),
                )
                if cur.rowcount > 0:
                    written += 1
                    tx.changed(Change("settings", row.tenant, row.user_id))
        return written

    async def audit_after(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        rows = await self._rows(
            f"SELECT {_AUDIT_COLUMNS} FROM audit_log WHERE id > %s ORDER BY id LIMIT %s",
            (int(after_id), max(0, int(limit))),
        )
        return [dict(zip(_AUDIT_KEYS, r, strict=True)) for r in rows]

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
            cur = await tx.conn.execute("DELETE FROM memories RETURNING tenant, scope, user_id")
            self._touched(tx, await cur.fetchall())
            cur = await tx.conn.execute("DELETE FROM user_settings RETURNING tenant, user_id")
            for tenant, user_id in await cur.fetchall():
                tx.changed(Change("settings", tenant, user_id))
            await tx.conn.execute("DELETE FROM audit_log")
            await tx.conn.execute("DELETE FROM memory_reviews")
            await tx.conn.execute("DELETE FROM memory_uses")
            await tx.conn.execute("DELETE FROM reflections")

    async def import_audit(self, entries: Sequence[dict[str, Any]]) -> None:
        if not entries:
            return
        async with self.db.transaction() as tx:
            async with tx.conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO audit_log (time, actor, action, tenant, user_id, memory_id, before, after) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s::json, %s::json)",
                    [
                        (
                            e["time"],
                            e["actor"],
                            e["action"],
                            e.get("tenant"),
                            e.get("user_id"),
                            e.get("memory_id"),
                            _json(e.get("before")),
                            _json(e.get("after")),
                        )
                        for e in entries
                    ],
                )

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


async def _move_settings(conn: Conn, source: str, target: str, user_id: str | None) -> int:
    own_sql, user_args = (" AND o.user_id = %s", [user_id]) if user_id is not None else ("", [])
    cur = await conn.execute(
        "SELECT o.user_id FROM user_settings o JOIN user_settings n ON n.tenant = %s AND n.user_id = o.user_id "
        f"WHERE o.tenant = %s AND o.settings <> n.settings{own_sql} ORDER BY o.user_id",
        [target, source, *user_args],
    )
    conflicts = await cur.fetchall()
    if conflicts:
        raise TenantConflict([str(r[0]) for r in conflicts])
    same = await conn.execute(
        "DELETE FROM user_settings AS o WHERE o.tenant = %s AND EXISTS (SELECT 1 FROM user_settings n "
        f"WHERE n.tenant = %s AND n.user_id = o.user_id){own_sql}",
        [source, target, *user_args],
    )
    user_sql = " AND user_id = %s" if user_id is not None else ""
    moved = await conn.execute(
        f"UPDATE user_settings SET tenant = %s WHERE tenant = %s{user_sql}", [target, source, *user_args]
    )
    return int(same.rowcount + moved.rowcount)


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


def _reflection(row: Sequence[Any]) -> Reflection:
    """A reflections row (``_REFLECTION_COLUMNS``)."""
    return Reflection(
        id=str(row[0]),
        tenant=str(row[1]),
        user_id=str(row[2]),
        period_start=str(row[3]),
        period_end=str(row[4]),
        created_at=str(row[5]),
        report=dict(orjson.loads(row[6])),
    )
