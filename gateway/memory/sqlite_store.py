"""SQLite (WAL) implementation of ``MemoryStore``; all SQL is parameterised.

Schema changes go through ``MIGRATIONS`` and ``PRAGMA user_version``: migration *i* moves
the database from version *i* to *i + 1*. ``db`` is the open aiosqlite connection; the
learning queue may create its own tables in the same file through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite
import numpy as np
import orjson

from gateway.storage import StoreHealth, configure_connection, is_unwritable, storage_error

from .keyword_index import (
    SQL_FUNCTIONS,
    KeywordQuery,
    filter_sql,
    fts_sql,
    scoped_match,
    trigram_sql,
    visible_partitions,
)
from .types import Memory

# before / after of an audit entry -> {"fields": [its keys]} (already scrubbed ones stay)
_SCRUB_AUDIT = ", ".join(
    f"""{col} = CASE
        WHEN {col} IS NULL OR json_valid({col}) = 0 OR json_type({col}) != 'object' THEN NULL
        WHEN json_type({col}, '$.fields') = 'array' THEN {col}
        ELSE (SELECT json_object('fields', json_group_array(key)) FROM json_each(audit_log.{col}))
    END"""
    for col in ("before", "after")
)

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE memories (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        category TEXT NOT NULL,
        subcategory TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL,
        content TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        source TEXT NOT NULL,
        source_conversation_id TEXT,
        score REAL NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        disabled_reason TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        access_count INTEGER NOT NULL DEFAULT 0,
        last_access_at TEXT,
        embedding BLOB
    );
    CREATE INDEX memories_owner ON memories (tenant, user_id, scope, created_at);
    CREATE INDEX memories_scope ON memories (tenant, scope, created_at);
    CREATE INDEX memories_created ON memories (created_at);
    CREATE TABLE user_settings (
        tenant TEXT NOT NULL,
        user_id TEXT NOT NULL,
        settings TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant, user_id)
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        tenant TEXT,
        user_id TEXT,
        memory_id TEXT,
        before TEXT,
        after TEXT
    );
    CREATE INDEX audit_tenant ON audit_log (tenant, id);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE VIRTUAL TABLE memories_fts USING fts5 (
        title, content, tags, content='memories', content_rowid='rowid', tokenize='trigram'
    );
    CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_au AFTER UPDATE OF title, content, tags ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
        INSERT INTO memories_fts (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    """,
    # 2: a word index with English stemming beside the trigram one (better bm25 on English)
    """
    CREATE VIRTUAL TABLE memories_words USING fts5 (
        title, content, tags, content='memories', content_rowid='rowid',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    INSERT INTO memories_words (memories_words) VALUES ('rebuild');
    CREATE TRIGGER memories_words_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_words (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_words_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_words (memories_words, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_words_au AFTER UPDATE OF title, content, tags ON memories BEGIN
        INSERT INTO memories_words (memories_words, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
        INSERT INTO memories_words (rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
    END;
    """,
    # 3: one partitioned FTS5 table replaces the trigram and word tables (see keyword_index):
    # a partition token column, porter-stemmed words, CJK bigrams. memorelay_part and
    # memorelay_cjk are Python functions registered on the connection before migrating.
    """
    DROP TRIGGER memories_ai;
    DROP TRIGGER memories_ad;
    DROP TRIGGER memories_au;
    DROP TABLE memories_fts;
    DROP TRIGGER memories_words_ai;
    DROP TRIGGER memories_words_ad;
    DROP TRIGGER memories_words_au;
    DROP TABLE memories_words;
    CREATE VIEW memories_fts_src AS SELECT
        rowid AS rid,
        memorelay_part(tenant, scope, user_id) AS part,
        title, content, tags,
        memorelay_cjk(title || ' ' || content || ' ' || tags) AS cjk
    FROM memories;
    CREATE VIRTUAL TABLE memories_fts USING fts5 (
        part, title, content, tags, cjk, content='memories_fts_src', content_rowid='rid',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
    CREATE TRIGGER memories_fts_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, part, title, content, tags, cjk)
        VALUES (new.rowid, memorelay_part(new.tenant, new.scope, new.user_id),
                new.title, new.content, new.tags,
                memorelay_cjk(new.title || ' ' || new.content || ' ' || new.tags));
    END;
    CREATE TRIGGER memories_fts_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, part, title, content, tags, cjk)
        VALUES ('delete', old.rowid, memorelay_part(old.tenant, old.scope, old.user_id),
                old.title, old.content, old.tags,
                memorelay_cjk(old.title || ' ' || old.content || ' ' || old.tags));
    END;
    CREATE TRIGGER memories_fts_au
    AFTER UPDATE OF tenant, user_id, scope, title, content, tags ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, part, title, content, tags, cjk)
        VALUES ('delete', old.rowid, memorelay_part(old.tenant, old.scope, old.user_id),
                old.title, old.content, old.tags,
                memorelay_cjk(old.title || ' ' || old.content || ' ' || old.tags));
        INSERT INTO memories_fts (rowid, part, title, content, tags, cjk)
        VALUES (new.rowid, memorelay_part(new.tenant, new.scope, new.user_id),
                new.title, new.content, new.tags,
                memorelay_cjk(new.title || ' ' || new.content || ' ' || new.tags));
    END;
    """,
    # 4: a trigram (substring) index for partial-word matches, partitioned by rowid range:
    # an index rowid is (partition number << 32) | memories.rowid, so one partition's rows
    # are one rowid range and FTS5 seeks straight to it (see keyword_index.trigram_sql).
    """
    CREATE TABLE partitions (id INTEGER PRIMARY KEY, token TEXT NOT NULL UNIQUE);
    INSERT OR IGNORE INTO partitions (token)
        SELECT DISTINCT memorelay_part(tenant, scope, user_id) FROM memories;
    CREATE VIEW memories_tri_src AS SELECT
        ((SELECT p.id FROM partitions p WHERE p.token = memorelay_part(m.tenant, m.scope, m.user_id)) << 32)
            | m.rowid AS trid,
        m.title AS title, m.content AS content, m.tags AS tags
    FROM memories m;
    CREATE VIRTUAL TABLE memories_tri USING fts5 (
        title, content, tags, content='memories_tri_src', content_rowid='trid', tokenize='trigram'
    );
    INSERT INTO memories_tri (memories_tri) VALUES ('rebuild');
    CREATE TRIGGER memories_tri_ai AFTER INSERT ON memories BEGIN
        INSERT OR IGNORE INTO partitions (token) VALUES (memorelay_part(new.tenant, new.scope, new.user_id));
        INSERT INTO memories_tri (rowid, title, content, tags) VALUES (
            ((SELECT id FROM partitions WHERE token = memorelay_part(new.tenant, new.scope, new.user_id)) << 32)
                | new.rowid,
            new.title, new.content, new.tags);
    END;
    CREATE TRIGGER memories_tri_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_tri (memories_tri, rowid, title, content, tags) VALUES ('delete',
            ((SELECT id FROM partitions WHERE token = memorelay_part(old.tenant, old.scope, old.user_id)) << 32)
                | old.rowid,
            old.title, old.content, old.tags);
    END;
    CREATE TRIGGER memories_tri_au
    AFTER UPDATE OF tenant, user_id, scope, title, content, tags ON memories BEGIN
        INSERT INTO memories_tri (memories_tri, rowid, title, content, tags) VALUES ('delete',
            ((SELECT id FROM partitions WHERE token = memorelay_part(old.tenant, old.scope, old.user_id)) << 32)
                | old.rowid,
            old.title, old.content, old.tags);
        INSERT OR IGNORE INTO partitions (token) VALUES (memorelay_part(new.tenant, new.scope, new.user_id));
        INSERT INTO memories_tri (rowid, title, content, tags) VALUES (
            ((SELECT id FROM partitions WHERE token = memorelay_part(new.tenant, new.scope, new.user_id)) << 32)
                | new.rowid,
            new.title, new.content, new.tags);
    END;
    """,
    # 5: the audit log never keeps a deleted memory's text (issue 7 item 7): entries of
    # memories already deleted keep only the names of the fields they recorded
    f"""
    CREATE INDEX audit_memory ON audit_log (memory_id);
    UPDATE audit_log SET {_SCRUB_AUDIT}
    WHERE memory_id IS NOT NULL AND memory_id NOT IN (SELECT id FROM memories);
    """,
    # 6: profile slots (SPEC 4): one active memory per (user, slot); a new value supersedes the old
    """
    ALTER TABLE memories ADD COLUMN slot TEXT;
    CREATE INDEX memories_slot ON memories (tenant, user_id, slot) WHERE slot IS NOT NULL;
    """,
)

_COLUMNS = (
    "id, tenant, user_id, scope, category, subcategory, title, content, tags, source, "
    "source_conversation_id, score, enabled, disabled_reason, created_at, updated_at, "
    "access_count, last_access_at, slot"
)
_WRITABLE = frozenset(
    {
        "user_id",
        "scope",
        "category",
        "subcategory",
        "title",
        "content",
        "tags",
        "score",
        "enabled",
        "disabled_reason",
        "updated_at",
        "access_count",
        "last_access_at",
        "slot",
    }
)


def row_to_memory(row: Sequence[Any]) -> Memory:
    return Memory(
        id=row[0],
        tenant=row[1],
        user_id=row[2],
        scope=row[3],
        category=row[4],
        subcategory=row[5],
        title=row[6],
        content=row[7],
        tags=list(orjson.loads(row[8])),
        source=row[9],
        source_conversation_id=row[10],
        score=float(row[11]),
        enabled=bool(row[12]),
        disabled_reason=row[13],
        created_at=row[14],
        updated_at=row[15],
        access_count=int(row[16]),
        last_access_at=row[17],
        slot=row[18],
    )


def _blob(vector: np.ndarray | None) -> bytes | None:
    if vector is None:
        return None
    return np.ascontiguousarray(vector, dtype=np.float32).tobytes()


class SQLiteMemoryStore:
    """See ``store.MemoryStore``."""

    def __init__(
        self,
        path: str,
        *,
        busy_timeout_ms: int = 5_000,
        max_page_count: int | None = None,
        health: StoreHealth | None = None,
    ) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.max_page_count = max_page_count
        self.health = health or StoreHealth()
        self._db: aiosqlite.Connection | None = None
        # a second, read-only connection lets the trigram list run beside the word list
        # (WAL readers do not block each other; each aiosqlite connection has its own thread)
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("memory store is not open")
        return self._db

    async def open(self) -> None:
        """Connect, configure and migrate; on any failure nothing stays open (a connection's
        thread left running would keep a failed start-up from exiting, issue 7 item 6)."""
        try:
            self._db = await aiosqlite.connect(self.path)
            await configure_connection(self.db, self.busy_timeout_ms, self.max_page_count)
            for name, n_args, func in SQL_FUNCTIONS:
                await self.db.create_function(name, n_args, func, deterministic=True)
            await self._migrate()
            if self.path not in ("", ":memory:") and not self.path.startswith("file:"):
                self._reader = await aiosqlite.connect(self.path)
                await self._reader.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}")
                await self._reader.execute("PRAGMA query_only=1")
                await self._reader.execute("PRAGMA secure_delete=ON")  # every connection, as in configure_connection
        except BaseException:
            await self.close()
            raise

    async def _read_rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """Rows from the reader connection (the main one where there is none)."""
        async with (self._reader or self.db).execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _migrate(self) -> None:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        version = int(row[0]) if row else 0
        for target, script in enumerate(MIGRATIONS[version:], start=version + 1):
            await self.db.executescript(f"BEGIN; {script}; PRAGMA user_version = {target}; COMMIT;")

    async def close(self) -> None:
        try:
            if self._reader is not None:
                reader, self._reader = self._reader, None
                await reader.close()
        finally:
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Serialise a group of writes and commit them together (rollback on error).

        A full disk or an I/O error leaves as ``InsufficientStorage`` / ``StorageUnavailable``
        (507 / 503 at the API) and marks ``health`` unwritable; ``database is locked`` stays a
        ``sqlite3.OperationalError`` for callers that retry (see ``gateway.storage``).
        """
        async with self._write_lock:
            try:
                yield
                await self.db.commit()
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    await self.db.rollback()
                if isinstance(exc, sqlite3.Error) and is_unwritable(exc):
                    self.health.failed(exc)
                    raise storage_error(exc, self.path) from exc
                raise

    async def checkpoint_wal(self) -> None:
        """Copy the WAL into the database file and truncate it (no stale page copies stay)."""
        async with self._write_lock:
            async with self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
                await cur.fetchall()

    # -- meta -------------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        await self.db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def bump_generation(self) -> None:
        """Mark the derived vector index stale; see ``vector_index`` (generation check)."""
        await self.db.execute(
            "INSERT INTO meta (key, value) VALUES ('index_generation', '1') "
            "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    # -- memories ---------------------------------------------------------------------------
    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None:
        rows = []
        for i, m in enumerate(memories):
            rows.append(
                (
                    m.id,
                    m.tenant,
                    m.user_id,
                    m.scope,
                    m.category,
                    m.subcategory,
                    m.title,
                    m.content,
                    orjson.dumps(m.tags).decode(),
                    m.source,
                    m.source_conversation_id,
                    m.score,
                    int(m.enabled),
                    m.disabled_reason,
                    m.created_at,
                    m.updated_at,
                    m.access_count,
                    m.last_access_at,
                    m.slot,
                    _blob(embeddings[i]) if embeddings is not None else None,
                )
            )
        await self.db.executemany(
            f"INSERT INTO memories ({_COLUMNS}, embedding) VALUES ({', '.join('?' * 20)})",
            rows,
        )

    async def fetch(self, ids: Sequence[str]) -> dict[str, Memory]:
        out: dict[str, Memory] = {}
        ids = list(ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            sql = f"SELECT {_COLUMNS} FROM memories WHERE id IN ({', '.join('?' * len(chunk))})"
            async with self.db.execute(sql, chunk) as cur:
                for row in await cur.fetchall():
                    out[row[0]] = row_to_memory(row)
        return out

    async def fetch_one(self, memory_id: str) -> Memory | None:
        return (await self.fetch([memory_id])).get(memory_id)

    async def embedding(self, memory_id: str) -> np.ndarray | None:
        sql = "SELECT embedding FROM memories WHERE id = ?"
        async with self.db.execute(sql, (memory_id,)) as cur:
            row = await cur.fetchone()
        if row is None or row[0] is None:
            return None
        return np.frombuffer(row[0], dtype=np.float32)

    async def write_fields(self, memory_id: str, fields: dict[str, Any]) -> None:
        if not fields:
            return
        bad = set(fields) - _WRITABLE
        if bad:
            raise ValueError(f"not writable: {sorted(bad)}")
        values = [
            orjson.dumps(v).decode() if k == "tags" else int(v) if k == "enabled" else v for k, v in fields.items()
        ]
        assignments = ", ".join(f"{k} = ?" for k in fields)
        await self.db.execute(f"UPDATE memories SET {assignments} WHERE id = ?", (*values, memory_id))

    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None:
        await self.db.execute("UPDATE memories SET embedding = ? WHERE id = ?", (_blob(vector), memory_id))

    async def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows and scrub their text from earlier audit entries (see migration 5)."""
        await self.db.executemany("DELETE FROM memories WHERE id = ?", [(i,) for i in ids])
        await self.db.executemany(
            f"UPDATE audit_log SET {_SCRUB_AUDIT} WHERE memory_id = ?",
            [(i,) for i in ids],
        )

    async def audit(self, entry: dict[str, Any]) -> None:
        def enc(value: Any) -> str | None:
            return None if value is None else orjson.dumps(value).decode()

        await self.db.execute(
            "INSERT INTO audit_log (time, actor, action, tenant, user_id, memory_id, before, "
            "after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry["time"],
                entry["actor"],
                entry["action"],
                entry.get("tenant"),
                entry.get("user_id"),
                entry.get("memory_id"),
                enc(entry.get("before")),
                enc(entry.get("after")),
            ),
        )

    async def iter_embeddings(
        self, batch: int = 10_000, *, enabled_only: bool = True
    ) -> AsyncIterator[list[tuple[str, str, str, str, bytes]]]:
        """Yield (id, tenant, user_id, scope, embedding) rows in batches."""
        where = "embedding IS NOT NULL" + (" AND enabled = 1" if enabled_only else "")
        last = 0
        while True:
            sql = (
                f"SELECT rowid, id, tenant, user_id, scope, embedding FROM memories "
                f"WHERE rowid > ? AND {where} ORDER BY rowid LIMIT ?"
            )
            async with self.db.execute(sql, (last, batch)) as cur:
                rows = list(await cur.fetchall())
            if not rows:
                return
            last = rows[-1][0]
            yield [(r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def all_texts(self) -> list[tuple[str, str, str]]:
        async with self.db.execute("SELECT id, title, content FROM memories ORDER BY rowid") as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def count_indexable(self) -> int:
        sql = "SELECT COUNT(*) FROM memories WHERE enabled = 1 AND embedding IS NOT NULL"
        return await self.scalar(sql, ())

    async def scalar(self, sql: str, params: Sequence[Any]) -> int:
        async with self.db.execute(sql, params) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        async with self.db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def select(self, where: str, params: Sequence[Any], tail: str = "") -> list[Memory]:
        sql = f"SELECT {_COLUMNS} FROM memories m WHERE {where} {tail}"
        return [row_to_memory(r) for r in await self.rows(sql, params)]

    # -- keyword search ---------------------------------------------------------------------
    async def trigram_search(
        self,
        query: KeywordQuery,
        tenant: str,
        user_id: str | None,
        *,
        limit: int,
        category: str | None = None,
        scope: str | None = None,
        include_disabled: bool = False,
    ) -> list[tuple[str, float]]:
        """Partial-word matches (``memories_tri``) of the query's longer words, over the
        caller's visible partitions only, best first (score = -bm25)."""
        expression = query.substring_match
        if expression is None:
            return []
        tokens = visible_partitions(tenant, user_id, scope)
        marks = ", ".join("?" for _ in tokens)
        numbers = [r[0] for r in await self._read_rows(f"SELECT id FROM partitions WHERE token IN ({marks})", tokens)]
        where, args = filter_sql(tenant, user_id, category=category, scope=scope, include_disabled=include_disabled)
        found: list[tuple[str, float]] = []
        for number in numbers:
            low, high = number << 32, (number << 32) | 0xFFFFFFFF
            rows = await self._read_rows(trigram_sql(where, limit), [expression, low, high, *args])
            found.extend((r[0], -float(r[1])) for r in rows)
        found.sort(key=lambda hit: hit[1], reverse=True)
        return found[:limit]

    async def keyword_search(
        self,
        query: KeywordQuery,
        tenant: str,
        user_id: str | None,
        *,
        limit: int,
        category: str | None = None,
        scope: str | None = None,
        include_disabled: bool = False,
        indexes: tuple[str, ...] = ("memories_fts",),
    ) -> list[list[tuple[str, float]]]:
        """Ranked (id, score) lists, higher score better (score = -bm25): one for the
        query's words and one for its CJK grams, each over the caller's visible partitions
        only (see ``keyword_index``)."""
        if "memories_fts" not in indexes:
            return []
        parts = visible_partitions(tenant, user_id, scope)
        if not parts:
            return []
        where, args = filter_sql(tenant, user_id, category=category, scope=scope, include_disabled=include_disabled)
        # rank within the partitions first, then filter the best few (a category filter may
        # drop many rows, so it ranks everything); retry in full if too few survive
        candidates = None if category is not None else limit * 2 + 20
        lists: list[list[tuple[str, float]]] = []
        for expression in query.expressions():
            params = [scoped_match(parts, expression), *args]
            rows = await self.rows(fts_sql(where, limit, candidates=candidates), params)
            if candidates is not None and len(rows) < limit:
                rows = await self.rows(fts_sql(where, limit), params)
            lists.append([(r[0], -float(r[1])) for r in rows])
        return lists
