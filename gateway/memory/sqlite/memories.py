"""``SQLiteMemoryStore``: memories, settings, audit and metadata in one SQLite file (WAL), with
an FTS5 keyword index (``keywords``) and an hnswlib vector index beside it.

The vector index (``vector_index.PartitionedIndex``, files in ``<database>.index/``) is
derived data the store owns: ``prepare_vectors`` loads it (or rebuilds it from the stored
embeddings when its files are missing, stale or corrupt), ``save_vectors`` writes it, and
every transaction records which memories it touched; after the commit, their rows are read
again and the index follows them (removed from the partitions they were in, added where they
are now if enabled). The syncs run in commit order, so the last one always reads the latest
rows. ``on_change`` callbacks fire after that, in this process (the only one on the file).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import numpy as np
import orjson

from gateway.storage import StoreHealth, configure_connection, is_unwritable, storage_error

from .._clock import now_iso
from .._copy import sort_import
from .._offload import run_cpu, submit_cpu
from ..keyword_index import (
    COMMON_MIN_ROWS,
    SHARED_OWNER,
    KeywordQuery,
    partition_key,
    prune_common,
    visible_partitions,
)
from ..rows import MEMORY_COLUMNS, WRITABLE_FIELDS, row_to_memory
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
from ..vector_index import PartitionedIndex, PartitionKey
from .keywords import (
    doc_freq_sql,
    expressions,
    filter_sql,
    fts_sql,
    scoped_match,
    substring_match,
    trigram_sql,
    visibility_sql,
    word_match,
)
from .schema import SCRUB_AUDIT, migrate, register_functions

log = logging.getLogger("memorelay.memory")


def _older(saved: dict[str, Any] | None, expected: dict[str, object]) -> bool:
    """Whether saved index files are intact but of an earlier state of the database."""
    return saved is not None and any(saved.get(k) != v for k, v in expected.items())


_REVIEW_COLUMNS = "id, tenant, user_id, old_id, new_id, reason, created_at, state, decided_by, decided_at"
_REFLECTION_COLUMNS = "id, tenant, user_id, period_start, period_end, created_at, report"
_M_COLUMNS = ", ".join(f"m.{c.strip()}" for c in MEMORY_COLUMNS.split(","))
# an inserted row: the MEMORY_COLUMNS, then the embedding (counted, as on PostgreSQL)
_N_COLUMNS = len(MEMORY_COLUMNS.split(","))
_INSERT_MEMORY = f"INSERT INTO memories ({MEMORY_COLUMNS}, embedding) VALUES ({', '.join('?' * (_N_COLUMNS + 1))})"
# fields whose change moves a memory in or out of the vector index
_INDEXED = frozenset({"enabled", "scope", "user_id"})
# fields whose change no reader of memories cares about (no on_change callback)
_QUIET = frozenset({"updated_at", "access_count", "last_access_at", "score"})
# the learning tables, keyed by (tenant, user_id), that a tenant move carries
_LEARNING_TABLES = ("learning_log", "learning_jobs")
_USAGE_SUMS = ("prompt_tokens", "completion_tokens", "jobs")
_CHUNK = 500
# an auto memory's strength (``store.Decay``), binding ``Decay.strength_args()`` (now, the
# episode half-life, the other kinds'); the exponent is capped so a memory unused for centuries
# reads 0.5 ** 1000, not an underflow
_STRENGTH = (
    "(m.score * pow(0.5, MIN(1000.0, MAX(0.0, julianday(?) - "
    "julianday(COALESCE(m.last_access_at, m.updated_at))) / (CASE WHEN m.kind = 'episode' THEN ? ELSE ? END))))"
)
_AUDIT_COLUMNS = "id, time, actor, action, tenant, user_id, memory_id, before, after"


def _stacked(blobs: list[bytes | None]) -> np.ndarray | None:
    """float32 rows of the embeddings (a row of zeros where one is missing or of another
    size than the first); None without any."""
    size = next((len(b) for b in blobs if b is not None), 0)
    if not size:
        return None
    out = np.zeros((len(blobs), size // 4), dtype=np.float32)
    for i, blob in enumerate(blobs):
        if blob is not None and len(blob) == size:
            out[i] = np.frombuffer(blob, dtype=np.float32)
    return out


def _blob(vector: np.ndarray | None) -> bytes | None:
    if vector is None:
        return None
    return np.ascontiguousarray(vector, dtype=np.float32).tobytes()


def _vector(blob: bytes | None) -> np.ndarray | None:
    return None if blob is None else np.frombuffer(blob, dtype=np.float32).copy()


def _values(m: Memory, vector: np.ndarray | None) -> tuple[Any, ...]:
    """The ``MEMORY_COLUMNS`` of ``m``, then its embedding."""
    return (
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
        int(m.pinned),
        m.kind,
        _blob(vector),
    )


def _audit_entry(row: Sequence[Any]) -> dict[str, Any]:
    """An audit_log row (id, time, actor, action, tenant, user_id, memory_id, before, after)."""
    keys = ("id", "time", "actor", "action", "tenant", "user_id", "memory_id")
    entry: dict[str, Any] = dict(zip(keys, row[:7], strict=True))
    entry["before"] = orjson.loads(row[7]) if row[7] else None
    entry["after"] = orjson.loads(row[8]) if row[8] else None
    return entry


def _encoded(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


def _audit_values(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (
        entry["time"],
        entry["actor"],
        entry["action"],
        entry.get("tenant"),
        entry.get("user_id"),
        entry.get("memory_id"),
        _encoded(entry.get("before")),
        _encoded(entry.get("after")),
    )


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def _only_user(user_id: str | None, column: str) -> tuple[str, list[Any]]:
    return (f" AND {column} = ?", [user_id]) if user_id is not None else ("", [])


@dataclass(slots=True)
class _Tx:
    """What one transaction touched, for the index sync and callbacks after its commit."""

    moved: dict[str, set[PartitionKey]] = field(default_factory=dict)  # id -> partitions it was in
    changes: set[Change] = field(default_factory=set)
    rebuild: bool = False
    open: bool = True

    def memories(self, key: PartitionKey) -> None:
        self.changes.add(Change("memories", key[0], key[1]))


class SQLiteMemoryStore:
    """See ``store.MemoryStore`` and the module docstring."""

    shared = False  # see store.MemoryStore.shared

    def __init__(
        self,
        path: str,
        *,
        busy_timeout_ms: int = 5_000,
        max_page_count: int | None = None,
        health: StoreHealth | None = None,
        ef: int = 128,
        hnsw_threshold: int = 2_000,
        term_stats_ttl_s: float = 300.0,
    ) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.max_page_count = max_page_count
        self.health = health or StoreHealth()
        self.ef = ef
        self.hnsw_threshold = hnsw_threshold
        self.term_stats_ttl_s = term_stats_ttl_s
        self._db: aiosqlite.Connection | None = None
        # a second, read-only connection lets the trigram list run beside the word list
        # (WAL readers do not block each other; each aiosqlite connection has its own thread)
        # and reads only committed rows (the index sync)
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._sync_lock = asyncio.Lock()
        self._tx: ContextVar[_Tx | None] = ContextVar(f"sqlite_tx_{id(self)}", default=None)
        self._callbacks: list[Callable[[Change], None]] = []
        self._index: PartitionedIndex | None = None
        self._model = ""
        # word -> (rows holding it, expiry); "" holds the total row count
        self._doc_freq: dict[str, tuple[int, float]] = {}

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("memory store is not open")
        return self._db

    @property
    def index_folder(self) -> Path | None:
        if self.path in ("", ":memory:") or self.path.startswith("file:"):
            return None
        return Path(self.path + ".index")

    @property
    def vectors(self) -> PartitionedIndex | None:
        """The in-memory vector index (None until ``prepare_vectors``)."""
        return self._index

    # -- lifecycle --------------------------------------------------------------------------
    async def open(self) -> None:
        """Connect, configure and migrate; on any failure nothing stays open (a connection's
        thread left running would keep a failed start-up from exiting, issue 7 item 6)."""
        try:
            if self.index_folder is not None:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = await aiosqlite.connect(self.path)
            await configure_connection(self.db, self.busy_timeout_ms, self.max_page_count)
            await register_functions(self.db)
            await migrate(self.db)
            if self.index_folder is not None:
                self._reader = await aiosqlite.connect(self.path)
                await self._reader.execute(f"PRAGMA busy_timeout={int(self.busy_timeout_ms)}")
                await self._reader.execute("PRAGMA query_only=1")
                await self._reader.execute("PRAGMA secure_delete=ON")  # every connection, as in configure_connection
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        try:
            if self._reader is not None:
                reader, self._reader = self._reader, None
                await reader.close()
        finally:
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    def on_change(self, callback: Callable[[Change], None]) -> None:
        self._callbacks.append(callback)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Serialise a group of writes and commit them together (rollback on error); inside
        another transaction of this task, join it.

        A full disk or an I/O error leaves as ``InsufficientStorage`` / ``StorageUnavailable``
        (507 / 503 at the API) and marks ``health`` unwritable; ``database is locked`` stays a
        ``sqlite3.OperationalError`` for callers that retry (see ``gateway.storage``).
        """
        outer = self._tx.get()
        if outer is not None and outer.open:
            yield
            return
        async with self._write_lock:
            tx = _Tx()
            token = self._tx.set(tx)
            try:
                yield
                if tx.moved or tx.rebuild:  # saved index files no longer match
                    await self.db.execute(
                        "INSERT INTO meta (key, value) VALUES ('index_generation', '1') "
                        "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                    )
                await self.db.commit()
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    await self.db.rollback()
                if isinstance(exc, sqlite3.Error) and is_unwritable(exc):
                    self.health.failed(exc)
                    raise storage_error(exc, self.path) from exc
                raise
            finally:
                tx.open = False
                self._tx.reset(token)
            syncing = self._index is not None and bool(tx.moved or tx.rebuild)
            if syncing:  # taken before the write lock is let go: syncs queue in commit order
                await self._sync_lock.acquire()
        work: Awaitable[None] | None = None
        if syncing:
            try:
                work = await self._index_work(tx)
            finally:
                self._sync_lock.release()
        if work is not None:
            # the index follows the commit before the writer goes on; a writer that stops
            # waiting (cancelled) does not cancel the update
            await asyncio.shield(work)
        for change in tx.changes:
            for callback in self._callbacks:
                try:
                    callback(change)
                except Exception:  # boundary: one listener must not break a committed write
                    log.exception("on_change callback failed")

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[_Tx]:
        """The current transaction, or a new one around this one write."""
        tx = self._tx.get()
        if tx is not None and tx.open:
            yield tx
            return
        async with self.transaction():
            inner = self._tx.get()
            assert inner is not None
            yield inner

    async def _index_work(self, tx: _Tx) -> Awaitable[None]:
        """Read the touched rows and queue the index update on the CPU thread, which runs
        queued background work in order: updates apply in commit order, and only reading is
        done under the sync lock (not the wait for the CPU thread)."""
        return await (self._rebuild() if tx.rebuild else self._sync(tx.moved))

    async def _sync(self, moved: dict[str, set[PartitionKey]]) -> Awaitable[None]:
        index = self._index
        assert index is not None
        ids = list(moved)
        rows: list[Any] = []
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            rows += await self._read_rows(
                "SELECT id, tenant, user_id, scope, enabled, embedding FROM memories "
                f"WHERE id IN ({_marks(len(chunk))})",
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

    async def _read_rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """Rows from the reader connection (the main one where there is none)."""
        async with (self._reader or self.db).execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self.db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self._rows(sql, params)
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    async def _select(self, where: str, params: Sequence[Any], tail: str = "") -> list[Memory]:
        sql = f"SELECT {_M_COLUMNS} FROM memories m WHERE {where} {tail}"
        return [row_to_memory(r) for r in await self._rows(sql, params)]

    async def _partitions_of(self, ids: Sequence[str]) -> dict[str, PartitionKey]:
        out: dict[str, PartitionKey] = {}
        ids = list(ids)
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            sql = f"SELECT id, tenant, scope, user_id FROM memories WHERE id IN ({_marks(len(chunk))})"
            for mid, tenant, scope, user_id in await self._rows(sql, chunk):
                out[mid] = partition_key(tenant, scope, user_id)
        return out

    def _moved(self, tx: _Tx, mid: str, old: PartitionKey | None) -> None:
        keys = tx.moved.setdefault(mid, set())
        if old is not None:
            keys.add(old)

    # -- metadata ---------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._writing():
            await self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- vectors ----------------------------------------------------------------------------
    async def prepare_vectors(self, model: str, dim: int, *, reembedded: bool = False) -> str:
        name = await self.get_meta("embedding_model")
        old_dim = await self.get_meta("embedding_dim")
        if not reembedded and name is not None and (name != model or old_dim != str(dim)):
            log.warning("embedding model changed (%s -> %s); reindexing", name, model)
            return "reindex"
        if name != model or old_dim != str(dim):  # a read-only command writes nothing
            async with self.transaction():
                await self.set_meta("embedding_model", model)
                await self.set_meta("embedding_dim", str(dim))
        self._model = model
        index = PartitionedIndex(dim, ef=self.ef, hnsw_threshold=self.hnsw_threshold)
        folder = self.index_folder
        if not reembedded and folder is not None and folder.exists():
            expected = await self._index_meta()
            if await run_cpu(index.load, folder, expected):
                if index.count() == await self._scalar(
                    "SELECT COUNT(*) FROM memories WHERE enabled = 1 AND embedding IS NOT NULL"
                ):
                    self._index = index
                    return "loaded"
                log.warning("memory index count differs from the database; rebuilding")
            elif _older(index.saved_meta(folder), expected):
                # the ordinary case after writes by another process (a CLI command, a replica)
                log.info("memory index files at %s predate the database's last writes; rebuilt from it", folder)
            else:
                log.warning("memory index files at %s are corrupt; rebuilding from the database", folder)
        self._index = index
        async with self._sync_lock:
            work = await self._rebuild()
        await work
        return "rebuilt"

    async def _index_meta(self) -> dict[str, object]:
        return {"generation": int(await self.get_meta("index_generation") or 0), "model": self._model}

    async def _rebuild(self) -> Awaitable[None]:
        """Replace the index with every enabled memory's stored embedding (queued)."""
        index = self._index
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

    async def texts_to_embed(self, *, everything: bool) -> list[tuple[str, str, str]]:
        where = "" if everything else "WHERE embedding IS NULL"
        rows = await self._rows(f"SELECT id, title, content FROM memories {where} ORDER BY rowid")
        return [(r[0], r[1], r[2]) for r in rows]

    async def set_embeddings(self, vectors: Sequence[tuple[str, np.ndarray]]) -> None:
        async with self._writing() as tx:
            olds = await self._partitions_of([mid for mid, _ in vectors])
            await self.db.executemany(
                "UPDATE memories SET embedding = ? WHERE id = ?", [(_blob(v), mid) for mid, v in vectors]
            )
            for mid, _ in vectors:
                self._moved(tx, mid, olds.get(mid))
            for key in set(olds.values()):
                tx.memories(key)

    async def save_vectors(self) -> None:
        if self._index is None or self.index_folder is None:
            return
        await run_cpu(self._index.save, self.index_folder, await self._index_meta())

    # -- memories ---------------------------------------------------------------------------
    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None:
        rows = [_values(m, embeddings[i] if embeddings is not None else None) for i, m in enumerate(memories)]
        async with self._writing() as tx:
            await self.db.executemany(_INSERT_MEMORY, rows)
            for m in memories:
                if embeddings is not None:
                    self._moved(tx, m.id, None)
                tx.memories(partition_key(m.tenant, m.scope, m.user_id))

    async def fetch(self, ids: Sequence[str]) -> dict[str, Memory]:
        out: dict[str, Memory] = {}
        ids = list(ids)
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            for m in await self._select(f"m.id IN ({_marks(len(chunk))})", chunk):
                out[m.id] = m
        return out

    async def fetch_one(self, memory_id: str) -> Memory | None:
        return (await self.fetch([memory_id])).get(memory_id)

    async def embedding(self, memory_id: str) -> np.ndarray | None:
        rows = await self._rows("SELECT embedding FROM memories WHERE id = ?", (memory_id,))
        if not rows or rows[0][0] is None:
            return None
        return np.frombuffer(rows[0][0], dtype=np.float32)

    async def write_fields(self, memory_id: str, fields: dict[str, Any]) -> None:
        if not fields:
            return
        bad = set(fields) - WRITABLE_FIELDS
        if bad:
            raise ValueError(f"not writable: {sorted(bad)}")
        values = [
            orjson.dumps(v).decode() if k == "tags" else int(v) if k in ("enabled", "pinned") else v
            for k, v in fields.items()
        ]
        assignments = ", ".join(f"{k} = ?" for k in fields)
        async with self._writing() as tx:
            rows = await self._rows("SELECT tenant, scope, user_id FROM memories WHERE id = ?", (memory_id,))
            await self.db.execute(f"UPDATE memories SET {assignments} WHERE id = ?", (*values, memory_id))
            if not rows:
                return
            tenant, scope, user_id = rows[0]
            old = partition_key(tenant, scope, user_id)
            new = partition_key(tenant, fields.get("scope", scope), fields.get("user_id", user_id))
            if set(fields) & _INDEXED:
                self._moved(tx, memory_id, old)
            if set(fields) - _QUIET:
                tx.memories(old)
                tx.memories(new)

    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None:
        async with self._writing() as tx:
            old = (await self._partitions_of([memory_id])).get(memory_id)
            await self.db.execute("UPDATE memories SET embedding = ? WHERE id = ?", (_blob(vector), memory_id))
            self._moved(tx, memory_id, old)
            if old is not None:
                tx.memories(old)

    async def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows and scrub their text from earlier audit entries (see migration 5)."""
        async with self._writing() as tx:
            olds = await self._partitions_of(ids)
            await self.db.executemany("DELETE FROM memories WHERE id = ?", [(i,) for i in ids])
            await self.db.executemany("DELETE FROM memory_uses WHERE memory_id = ?", [(i,) for i in ids])
            await self.db.executemany(
                "DELETE FROM memory_reviews WHERE old_id = ? OR new_id = ?", [(i, i) for i in ids]
            )
            await self.db.executemany(f"UPDATE audit_log SET {SCRUB_AUDIT} WHERE memory_id = ?", [(i,) for i in ids])
            for mid, key in olds.items():
                self._moved(tx, mid, key)
                tx.memories(key)

    async def add_access(self, counts: Sequence[tuple[str, int, str]]) -> None:
        async with self._writing():
            await self.db.executemany(
                "UPDATE memories SET access_count = access_count + ?, last_access_at = ? WHERE id = ?",
                [(count, stamp, mid) for mid, count, stamp in counts],
            )

    async def list_visible(self, where: Visibility, *, limit: int, offset: int) -> tuple[list[Memory], int]:
        clauses = ["m.tenant = ?"]
        args: list[Any] = [where.tenant]
        if where.personal_only or where.scope == "personal":
            clauses.append("m.scope = 'personal' AND m.user_id = ?")
            args.append(where.user_id if where.user_id is not None else "\x00none")
        elif where.user_id is None:
            clauses.append("m.scope IN ('shared', 'system')")
        else:
            clauses.append("(m.scope IN ('shared', 'system') OR (m.scope = 'personal' AND m.user_id = ?))")
            args.append(where.user_id)
        if where.scope is not None:
            clauses.append("m.scope = ?")
            args.append(where.scope)
        if where.category is not None:
            clauses.append("m.category = ?")
            args.append(where.category)
        if where.kind is not None:
            clauses.append("m.kind = ?")
            args.append(where.kind)
        if not where.include_disabled:
            clauses.append("m.enabled = 1")
        sql_where = " AND ".join(clauses)
        total = await self._scalar(f"SELECT COUNT(*) FROM memories m WHERE {sql_where}", args)
        page = await self._select(
            sql_where,
            [*args, max(0, int(limit)), max(0, int(offset))],
            "ORDER BY m.created_at DESC, m.rowid DESC LIMIT ? OFFSET ?",
        )
        return page, total

    async def count_personal(
        self, tenant: str, user_id: str, *, source: str | None = None, kind: str | None = None
    ) -> int:
        extra, args = "", []
        for column, value in (("source", source), ("kind", kind)):
            if value is not None:
                extra += f" AND {column} = ?"
                args.append(value)
        return await self._scalar(
            f"SELECT COUNT(*) FROM memories WHERE tenant = ? AND user_id = ? AND scope = 'personal'{extra}",
            [tenant, user_id, *args],
        )

    async def count_by_kind(self, tenant: str, user_id: str) -> dict[str, int]:
        rows = await self._rows(
            "SELECT kind, COUNT(*) FROM memories WHERE tenant = ? AND user_id = ? AND scope = 'personal' GROUP BY kind",
            (tenant, user_id),
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def personal(self, tenant: str, user_id: str) -> list[Memory]:
        return await self._select(
            "m.tenant = ? AND m.user_id = ? AND m.scope = 'personal'", [tenant, user_id], "ORDER BY m.rowid"
        )

    async def in_slot(self, tenant: str, user_id: str, slot: str) -> list[Memory]:
        return await self._select(
            "m.tenant = ? AND m.user_id = ? AND m.scope = 'personal' AND m.enabled = 1 AND m.slot = ?",
            [tenant, user_id, slot],
            "ORDER BY m.created_at DESC, m.rowid DESC",
        )

    async def lowest_value(
        self, tenant: str, user_id: str, n: int, protect: Sequence[str], decay: Decay, *, kind: str | None = None
    ) -> list[Memory]:
        spared = f" AND m.id NOT IN ({_marks(len(protect))})" if protect else ""
        of_kind, kind_args = (" AND m.kind = ?", [kind]) if kind is not None else ("", [])
        return await self._select(
            "m.tenant = ? AND m.user_id = ? AND m.scope = 'personal' AND m.source = 'auto' AND m.pinned = 0"
            + spared
            + of_kind,
            [tenant, user_id, *protect, *kind_args, *decay.strength_args(), max(0, int(n))],
            f"ORDER BY m.enabled ASC, {_STRENGTH} ASC, m.access_count ASC, m.created_at ASC LIMIT ?",
        )

    async def expired(self, cutoff: str, decay: Decay) -> list[Memory]:
        return await self._select(
            f"m.source = 'auto' AND m.pinned = 0 AND ((m.access_count = 0 AND m.updated_at < ?) OR {_STRENGTH} < ?)",
            [cutoff, *decay.strength_args(), decay.floor],
        )

    async def count_weak(self, tenant: str, user_id: str, decay: Decay) -> int:
        return await self._scalar(
            "SELECT COUNT(*) FROM memories m WHERE m.tenant = ? AND m.user_id = ? AND m.scope = 'personal' "
            f"AND m.source = 'auto' AND m.pinned = 0 AND {_STRENGTH} < ?",
            [tenant, user_id, *decay.strength_args(), decay.floor],
        )

    async def personal_stats(self, tenant: str, user_id: str) -> dict[str, Any]:
        rows = await self._rows(
            "SELECT category, COUNT(*), SUM(enabled), MAX(CASE WHEN source = 'auto' "
            "THEN created_at END) FROM memories WHERE tenant = ? AND user_id = ? "
            "AND scope = 'personal' GROUP BY category",
            (tenant, user_id),
        )
        learned = [r[3] for r in rows if r[3]]
        return {
            "total": sum(int(r[1]) for r in rows),
            "enabled": sum(int(r[2] or 0) for r in rows),
            "by_category": {r[0]: int(r[1]) for r in rows},
            "by_kind": await self.count_by_kind(tenant, user_id),
            "last_learned_at": max(learned) if learned else None,
        }

    # -- pinned memories, citation log -----------------------------------------------------
    async def pinned(self, tenant: str, user_id: str | None) -> list[Memory]:
        return await self._select(
            "m.tenant = ? AND m.pinned = 1 AND m.enabled = 1 AND "
            "(m.scope IN ('shared', 'system') OR (m.scope = 'personal' AND m.user_id = ?))",
            [tenant, user_id if user_id is not None else "\x00none"],
            "ORDER BY m.created_at, m.rowid",
        )

    async def count_pinned(self, tenant: str, user_id: str) -> int:
        return await self._scalar(
            "SELECT COUNT(*) FROM memories WHERE tenant = ? AND user_id = ? AND scope = 'personal' AND pinned = 1",
            [tenant, user_id],
        )

    async def add_uses(self, uses: Sequence[Use]) -> None:
        if not uses:
            return
        async with self._writing():
            await self.db.executemany(
                "INSERT INTO memory_uses (tenant, user_id, memory_id, conversation_id, surface, time) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(u.tenant, u.user_id, u.memory_id, u.conversation_id, u.surface, u.time) for u in uses],
            )

    async def move_uses(self, tenant: str, user_id: str, from_ids: Sequence[str], to_id: str) -> int:
        moved = 0
        async with self._writing():
            for start in range(0, len(from_ids), _CHUNK):
                chunk = list(from_ids[start : start + _CHUNK])
                cursor = await self.db.execute(
                    f"UPDATE memory_uses SET memory_id = ? WHERE tenant = ? AND user_id = ? "
                    f"AND memory_id IN ({', '.join('?' * len(chunk))})",
                    [to_id, tenant, user_id, *chunk],
                )
                moved += int(cursor.rowcount)
        return moved

    async def uses(
        self, memory_id: str, tenant: str, user_id: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        where, args = "memory_id = ? AND tenant = ?", [memory_id, tenant]
        if user_id is not None:
            where, args = where + " AND user_id = ?", [*args, user_id]
        total = await self._scalar(f"SELECT COUNT(*) FROM memory_uses WHERE {where}", args)
        rows = await self._rows(
            f"SELECT memory_id, user_id, conversation_id, surface, time FROM memory_uses WHERE {where} "
            "ORDER BY id DESC LIMIT ? OFFSET ?",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        keys = ("memory_id", "user_id", "conversation_id", "surface", "time")
        return [dict(zip(keys, r, strict=True)) for r in rows], total

    async def count_uses(self, tenant: str, user_id: str) -> int:
        return await self._scalar(
            "SELECT COUNT(*) FROM memory_uses WHERE tenant = ? AND user_id = ?", [tenant, user_id]
        )

    async def recent_uses(self, tenant: str, user_id: str, conversation_id: str | None, limit: int) -> list[Use]:
        where, args = "tenant = ? AND user_id = ?", [tenant, user_id]
        if conversation_id is not None:
            where, args = where + " AND conversation_id = ?", [*args, conversation_id]
        rows = await self._rows(
            "SELECT tenant, user_id, memory_id, conversation_id, surface, time FROM memory_uses "
            f"WHERE {where} ORDER BY id DESC LIMIT ?",
            [*args, max(0, int(limit))],
        )
        return [Use(*r) for r in rows]

    async def use_counts(self, tenant: str, ids: Sequence[str], user_id: str | None = None) -> dict[str, int]:
        out = dict.fromkeys(ids, 0)
        ids = list(out)
        who, who_args = (" AND user_id = ?", [user_id]) if user_id is not None else ("", [])
        for start in range(0, len(ids), _CHUNK):  # one read for a page (chunks only past _CHUNK ids)
            chunk = ids[start : start + _CHUNK]
            rows = await self._rows(
                f"SELECT memory_id, COUNT(*) FROM memory_uses "
                f"WHERE memory_id IN ({_marks(len(chunk))}) AND tenant = ?{who} GROUP BY memory_id",
                [*chunk, tenant, *who_args],
            )
            out.update((mid, int(n)) for mid, n in rows)
        return out

    async def uses_after(self, after_id: int, limit: int) -> list[tuple[int, Use]]:
        rows = await self._rows(
            "SELECT id, tenant, user_id, memory_id, conversation_id, surface, time FROM memory_uses "
            "WHERE id > ? ORDER BY id LIMIT ?",
            (int(after_id), max(1, int(limit))),
        )
        return [(int(r[0]), Use(*r[1:])) for r in rows]

    async def prune_uses(self, cutoff: str) -> int:
        async with self._writing():
            cur = await self.db.execute("DELETE FROM memory_uses WHERE time < ?", (cutoff,))
            return int(cur.rowcount)

    # -- supersedes waiting for review ------------------------------------------------------
    async def add_review(self, review: Review) -> None:
        async with self._writing():
            await self.db.execute(
                f"INSERT INTO memory_reviews ({_REVIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _review_values(review),
            )

    async def get_review(self, review_id: str) -> Review | None:
        rows = await self._rows(f"SELECT {_REVIEW_COLUMNS} FROM memory_reviews WHERE id = ?", [review_id])
        return Review(*rows[0]) if rows else None

    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[list[Review], int]:
        clauses, args = ["1 = 1"], []
        for column, value in (("tenant", tenant), ("user_id", user_id), ("state", state)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        where = " AND ".join(clauses)
        total = await self._scalar(f"SELECT COUNT(*) FROM memory_reviews WHERE {where}", args)
        rows = await self._rows(
            f"SELECT {_REVIEW_COLUMNS} FROM memory_reviews WHERE {where} ORDER BY created_at, id LIMIT ? OFFSET ?",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [Review(*r) for r in rows], total

    async def decide_review(self, review_id: str, state: ReviewState, decided_by: str, decided_at: str) -> bool:
        async with self._writing():
            cur = await self.db.execute(
                "UPDATE memory_reviews SET state = ?, decided_by = ?, decided_at = ? "
                "WHERE id = ? AND state = 'pending'",
                (state, decided_by, decided_at, review_id),
            )
            return cur.rowcount == 1

    # -- reflection reports -----------------------------------------------------------------
    async def add_reflection(self, reflection: Reflection) -> None:
        async with self._writing():
            await self.db.execute(
                f"INSERT INTO reflections ({_REFLECTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                _reflection_values(reflection),
            )

    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        clauses, args = ["1 = 1"], []
        for column, value in (("tenant", tenant), ("user_id", user_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        if kind is not None:
            clauses.append("user_id = ''" if kind == "tenant" else "user_id <> ''")
        where = " AND ".join(clauses)
        total = await self._scalar(f"SELECT COUNT(*) FROM reflections WHERE {where}", args)
        rows = await self._rows(
            f"SELECT {_REFLECTION_COLUMNS} FROM reflections WHERE {where} "
            "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",  # as PostgreSQL: a restore keeps the order
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [_reflection(r) for r in rows], total

    async def delete_reflections(self, tenant: str, user_id: str) -> int:
        async with self._writing():
            cur = await self.db.execute("DELETE FROM reflections WHERE tenant = ? AND user_id = ?", (tenant, user_id))
            return int(cur.rowcount)

    async def prune_reflections(self, cutoff: str) -> int:
        async with self._writing():
            cur = await self.db.execute("DELETE FROM reflections WHERE created_at < ?", (cutoff,))
            return int(cur.rowcount)

    async def reflections_after(self, created_at: str, reflection_id: str, limit: int) -> list[Reflection]:
        rows = await self._rows(
            f"SELECT {_REFLECTION_COLUMNS} FROM reflections WHERE (created_at, id) > (?, ?) "
            "ORDER BY created_at, id LIMIT ?",
            [created_at, reflection_id, max(0, int(limit))],
        )
        return [_reflection(r) for r in rows]

    async def import_reflections(self, reflections: Sequence[Reflection]) -> None:
        if not reflections:
            return
        async with self._writing():
            await self.db.executemany(
                f"INSERT INTO reflections ({_REFLECTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [_reflection_values(r) for r in reflections],
            )

    async def most_used(self, tenant: str, user_id: str, since: str, limit: int) -> list[tuple[str, int]]:
        rows = await self._rows(
            "SELECT memory_id, COUNT(*) AS n FROM memory_uses WHERE tenant = ? AND user_id = ? AND time >= ? "
            "GROUP BY memory_id ORDER BY n DESC, memory_id LIMIT ?",
            [tenant, user_id, since, max(0, int(limit))],
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    # -- candidates for retrieval -----------------------------------------------------------
    async def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        index = self._index
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

    async def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[list[tuple[str, float]], str]]:
        """The word and CJK lists (main connection) and the partial-word list (reader
        connection) run at once; common English words are pruned first on large stores."""
        options = options or KeywordOptions()
        if options.prune_common:
            query = await self._pruned(query)
        substrings = options.substrings and (
            await self._rows_visible(where.tenant, where.user_id) <= options.substring_max_rows
        )
        words = self._word_lists(query, where, k) if options.words else _nothing()
        if substrings:
            lists, ranked = await asyncio.gather(words, self._substring_list(query, where, k))
        else:
            lists, ranked = await words, []
        if ranked:
            lists.append((ranked, "substring"))
        return lists

    async def _rows_visible(self, tenant: str, user_id: str | None) -> int:
        """Rows in the caller's partitions, from the in-memory vector index when there is one."""
        if self._index is not None:
            keys = [partition_key(tenant, "shared", "")]
            if user_id is not None:
                keys.append(partition_key(tenant, "personal", user_id))
            return sum(self._index.partition_size(key) for key in keys)
        return await self.count_visible(tenant, user_id)

    async def _term_stats(self, words: list[str]) -> tuple[dict[str, int], int]:
        """Row counts of ``words`` and of the whole store, over all partitions (as bm25's idf
        is), cached for ``term_stats_ttl_s``. A miss costs one FTS5 count of the word."""
        now = time.monotonic()
        cache = self._doc_freq
        if len(cache) > 50_000:
            cache.clear()
        out: dict[str, int] = {}
        for word in ["", *words]:
            hit = cache.get(word)
            if hit is None or hit[1] < now:
                if word:
                    n = await self._scalar(doc_freq_sql(), [word_match(word)])
                else:  # an upper bound of the row count, O(log n)
                    n = await self._scalar("SELECT MAX(rowid) FROM memories")
                hit = (n, now + self.term_stats_ttl_s)
                cache[word] = hit
            out[word] = hit[0]
        return out, out.pop("")

    async def _pruned(self, query: KeywordQuery) -> KeywordQuery:
        if len(query.words) < 2:
            return query
        _, total = await self._term_stats([])
        if total <= COMMON_MIN_ROWS:  # no word can be common: skip the counts
            return query
        doc_freq, total = await self._term_stats(query.words)
        return prune_common(query, doc_freq, total)

    async def _word_lists(
        self, query: KeywordQuery, where: Visibility, limit: int
    ) -> list[tuple[list[tuple[str, float]], str]]:
        """One ranked list per expression (words, CJK) over the caller's visible partitions;
        score = -bm25."""
        parts = visible_partitions(where.tenant, where.user_id, where.scope)
        if not parts:
            return []
        sql_where, args = filter_sql(
            where.tenant,
            where.user_id,
            category=where.category,
            kind=where.kind,
            scope=where.scope,
            include_disabled=where.include_disabled,
        )
        # rank within the partitions first, then filter the best few (a category filter may
        # drop many rows, so it ranks everything); retry in full if too few survive
        candidates = None if where.category is not None or where.kind is not None else limit * 2 + 20
        lists: list[tuple[list[tuple[str, float]], str]] = []
        for kind, expression in expressions(query):
            params = [scoped_match(parts, expression), *args]
            rows = await self._rows(fts_sql(sql_where, limit, candidates=candidates), params)
            if candidates is not None and len(rows) < limit:
                rows = await self._rows(fts_sql(sql_where, limit), params)
            lists.append(([(r[0], -float(r[1])) for r in rows], kind))
        return lists

    async def _substring_list(self, query: KeywordQuery, where: Visibility, limit: int) -> list[tuple[str, float]]:
        """Partial-word matches (``memories_tri``) of the query's longer words, over the
        caller's visible partitions only, best first (score = -bm25)."""
        expression = substring_match(query)
        if expression is None:
            return []
        tokens = visible_partitions(where.tenant, where.user_id, where.scope)
        numbers = [
            r[0]
            for r in await self._read_rows(f"SELECT id FROM partitions WHERE token IN ({_marks(len(tokens))})", tokens)
        ]
        sql_where, args = filter_sql(
            where.tenant,
            where.user_id,
            category=where.category,
            kind=where.kind,
            scope=where.scope,
            include_disabled=where.include_disabled,
        )
        found: list[tuple[str, float]] = []
        for number in numbers:
            low, high = number << 32, (number << 32) | 0xFFFFFFFF
            rows = await self._read_rows(trigram_sql(sql_where, limit), [expression, low, high, *args])
            found.extend((r[0], -float(r[1])) for r in rows)
        found.sort(key=lambda hit: hit[1], reverse=True)
        return found[:limit]

    async def count_visible(self, tenant: str, user_id: str | None) -> int:
        vis, args = visibility_sql(user_id)
        return await self._scalar(f"SELECT COUNT(*) FROM memories m WHERE m.tenant = ? AND {vis}", [tenant, *args])

    async def partition_rows(self, tenant: str, owner: str, *, limit: int | None = None) -> PartitionRows:
        if owner == SHARED_OWNER:
            where, args = "tenant = ? AND scope IN ('shared', 'system')", [tenant]
        else:
            where, args = "tenant = ? AND scope = 'personal' AND user_id = ?", [tenant, owner]
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        rows = await self._rows(
            f"SELECT {MEMORY_COLUMNS}, embedding FROM memories WHERE {where} AND enabled = 1 ORDER BY rowid{tail}", args
        )
        return PartitionRows([row_to_memory(r) for r in rows], _stacked([r[-1] for r in rows]))

    # -- settings ---------------------------------------------------------------------------
    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any] | None:
        rows = await self._rows(
            "SELECT settings FROM user_settings WHERE tenant = ? AND user_id = ?", (tenant, user_id)
        )
        return dict(orjson.loads(rows[0][0])) if rows else None

    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> None:
        async with self._writing() as tx:
            await self.db.execute(
                "INSERT INTO user_settings (tenant, user_id, settings, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (tenant, user_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (tenant, user_id, orjson.dumps(settings).decode(), now_iso()),
            )
            tx.changes.add(Change("settings", tenant, user_id))

    # -- audit, operators -------------------------------------------------------------------
    async def audit(self, entry: dict[str, Any]) -> None:
        await self.import_audit([entry])

    async def audit_entries(self, tenant: str | None, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])
        total = await self._scalar(f"SELECT COUNT(*) FROM audit_log {where}", args)
        rows = await self._rows(
            f"SELECT {_AUDIT_COLUMNS} FROM audit_log {where} ORDER BY id DESC LIMIT ? OFFSET ?",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        return [_audit_entry(r) for r in rows], total

    async def users(self, tenant: str | None) -> list[dict[str, Any]]:
        where, args = ("tenant = ? AND ", [tenant]) if tenant is not None else ("", [])
        rows = await self._rows(
            f"SELECT tenant, user_id, COUNT(*), SUM(enabled) FROM memories WHERE {where}"
            "scope = 'personal' GROUP BY tenant, user_id ORDER BY tenant, user_id",
            args,
        )
        return [{"tenant": r[0], "user_id": r[1], "memories": int(r[2]), "enabled": int(r[3])} for r in rows]

    async def tenants(self) -> list[str]:
        return [str(r[0]) for r in await self._rows("SELECT DISTINCT tenant FROM memories ORDER BY tenant")]

    async def admin_stats(self, tenant: str | None) -> dict[str, Any]:
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])

        async def grouped(column: str) -> dict[str, int]:
            rows = await self._rows(f"SELECT {column}, COUNT(*) FROM memories {where} GROUP BY {column}", args)
            return {str(r[0]): int(r[1]) for r in rows}

        and_where = f"{where} AND" if where else "WHERE"
        per_day = await self._rows(
            f"SELECT substr(created_at, 1, 10) AS day, COUNT(*) FROM memories {and_where} "
            "source = 'auto' GROUP BY day ORDER BY day",
            args,
        )
        return {
            "total": await self._scalar(f"SELECT COUNT(*) FROM memories {where}", args),
            "enabled": await self._scalar(f"SELECT COUNT(*) FROM memories {and_where} enabled = 1", args),
            "users": await self._scalar(
                f"SELECT COUNT(DISTINCT tenant || char(0) || user_id) FROM memories {and_where} scope = 'personal'",
                args,
            ),
            "by_category": await grouped("category"),
            "by_kind": await grouped("kind"),
            "by_scope": await grouped("scope"),
            "by_source": await grouped("source"),
            "learned_per_day": {str(r[0]): int(r[1]) for r in per_day},
        }

    async def learned_per_day(self, since: str, tenant: str | None) -> list[tuple[str, str, int]]:
        where, args = ("AND tenant = ?", [tenant]) if tenant else ("", [])
        rows = await self._rows(
            "SELECT substr(created_at, 1, 10) AS day, category, COUNT(*) FROM memories"
            f" WHERE source = 'auto' AND created_at >= ? {where} GROUP BY day, category",
            [since, *args],
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def tenants_holding(self, user_id: str) -> list[tuple[str, int]]:
        rows = await self._rows(
            "SELECT tenant, COUNT(*) AS n FROM memories WHERE user_id = ? AND scope = 'personal' "
            "GROUP BY tenant ORDER BY n DESC, tenant",
            (user_id,),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    async def move_tenant(self, source: str, target: str, user_id: str | None) -> dict[str, int]:
        user_sql, user_args = _only_user(user_id, "user_id")
        db = self.db
        async with self._writing() as tx:
            settings = await self._move_settings(source, target, user_id)
            scope_sql = " AND scope = 'personal'" if user_id is not None else ""
            memories = await db.execute(
                f"UPDATE memories SET tenant = ? WHERE tenant = ?{scope_sql}{user_sql}", [target, source, *user_args]
            )
            audit = await db.execute(
                f"UPDATE audit_log SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
            )
            # the citation log follows its users (not counted: it holds no memory text)
            await db.execute(
                f"UPDATE memory_uses SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
            )
            await db.execute(
                f"UPDATE memory_reviews SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
            )
            await self._move_reflections(source, target, user_id)
            learning = await self._move_learning_rows(source, target, user_sql, user_args)
            if memories.rowcount:
                tx.rebuild = True
            for tenant in (source, target):
                owner = "*" if user_id is None else user_id
                if memories.rowcount:
                    tx.changes.add(Change("memories", tenant, owner))
                    if user_id is None:
                        tx.changes.add(Change("memories", tenant, SHARED_OWNER))
                if settings:
                    tx.changes.add(Change("settings", tenant, owner))
        return {
            "memories": memories.rowcount,
            "settings": settings,
            "audit_entries": audit.rowcount,
            "learning_rows": learning,
        }

    async def _move_reflections(self, source: str, target: str, user_id: str | None) -> None:
        """A user's reports follow them; a whole tenant's also carry its tenant reports."""
        user_sql, user_args = _only_user(user_id, "user_id")
        await self.db.execute(
            f"UPDATE reflections SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
        )

    async def _move_settings(self, source: str, target: str, user_id: str | None) -> int:
        """Move user settings, first refusing (``TenantConflict``) any the target holds
        differently; settings equal in both tenants leave the source."""
        own_sql, user_args = _only_user(user_id, "o.user_id")
        conflicts = await self._rows(
            "SELECT o.user_id FROM user_settings o JOIN user_settings n ON n.tenant = ? AND n.user_id = o.user_id "
            f"WHERE o.tenant = ? AND o.settings != n.settings{own_sql} ORDER BY o.user_id",
            [target, source, *user_args],
        )
        if conflicts:
            raise TenantConflict([str(r[0]) for r in conflicts])
        same = await self.db.execute(
            "DELETE FROM user_settings AS o WHERE o.tenant = ? AND EXISTS (SELECT 1 FROM user_settings n "
            f"WHERE n.tenant = ? AND n.user_id = o.user_id){own_sql}",
            [source, target, *user_args],
        )
        user_sql, _ = _only_user(user_id, "user_id")
        moved = await self.db.execute(
            f"UPDATE user_settings SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
        )
        return int(same.rowcount + moved.rowcount)

    async def _move_learning_rows(self, source: str, target: str, user_sql: str, user_args: list[Any]) -> int:
        moved = 0
        for table in _LEARNING_TABLES:
            cur = await self.db.execute(
                f"UPDATE {table} SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
            )
            moved += cur.rowcount
        sums = ", ".join(_USAGE_SUMS)
        added = ", ".join(f"{c} = {c} + excluded.{c}" for c in _USAGE_SUMS)
        await self.db.execute(
            f"INSERT INTO learning_usage (tenant, user_id, day, {sums}) SELECT ?, user_id, day, {sums} "
            f"FROM learning_usage WHERE tenant = ?{user_sql} "
            f"ON CONFLICT (tenant, user_id, day) DO UPDATE SET {added}",
            [target, source, *user_args],
        )
        cur = await self.db.execute(f"DELETE FROM learning_usage WHERE tenant = ?{user_sql}", [source, *user_args])
        return moved + cur.rowcount

    # -- copying between stores (``memorelay memories migrate``) -----------------------------
    async def iter_memories(self, batch: int) -> AsyncIterator[list[MemoryRow]]:
        last = 0
        while True:
            rows = await self._rows(
                f"SELECT rowid, {MEMORY_COLUMNS}, embedding FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (last, max(1, int(batch))),
            )
            if not rows:
                return
            last = int(rows[-1][0])
            yield [(row_to_memory(r[1:]), _vector(r[-1])) for r in rows]

    async def import_memories(self, rows: Sequence[MemoryRow]) -> tuple[int, int]:
        if not rows:
            return 0, 0
        async with self._writing() as tx:
            held: dict[str, MemoryRow] = {}
            ids = [m.id for m, _ in rows]
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start : start + _CHUNK]
                sql = f"SELECT {MEMORY_COLUMNS}, embedding FROM memories WHERE id IN ({_marks(len(chunk))})"
                for r in await self._rows(sql, chunk):
                    held[r[0]] = (row_to_memory(r), _vector(r[-1]))
            fresh, replace = sort_import(rows, held)
            await self.db.executemany(_INSERT_MEMORY, [_values(*r) for r in fresh])
            columns = [c.strip() for c in MEMORY_COLUMNS.split(",")][1:] + ["embedding"]
            assignments = ", ".join(f"{c} = ?" for c in columns)
            await self.db.executemany(
                f"UPDATE memories SET {assignments} WHERE id = ?",
                [(*_values(*r)[1:], r[0].id) for r in replace],
            )
            for m, _ in (*fresh, *replace):
                old = held.get(m.id)
                old_key = None if old is None else partition_key(old[0].tenant, old[0].scope, old[0].user_id)
                self._moved(tx, m.id, old_key)
                if old_key is not None:
                    tx.memories(old_key)
                tx.memories(partition_key(m.tenant, m.scope, m.user_id))
        return len(fresh), len(replace)

    async def all_settings(self) -> list[SettingsRow]:
        rows = await self._rows(
            "SELECT tenant, user_id, settings, updated_at FROM user_settings ORDER BY tenant, user_id"
        )
        return [SettingsRow(r[0], r[1], dict(orjson.loads(r[2])), r[3]) for r in rows]

    async def import_settings(self, rows: Sequence[SettingsRow]) -> int:
        written = 0
        async with self._writing() as tx:
            for row in rows:
                cur = await self.db.execute(
                    "INSERT INTO user_settings (tenant, user_id, settings, updated_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (tenant, user_id) DO UPDATE SET settings = excluded.settings, "
                    "updated_at = excluded.updated_at WHERE user_settings.updated_at <= excluded.updated_at "
                    "AND user_settings.settings != excluded.settings",
                    (row.tenant, row.user_id, orjson.dumps(row.settings).decode(), row.updated_at),
                )
                if cur.rowcount > 0:
                    written += 1
                    tx.changes.add(Change("settings", row.tenant, row.user_id))
        return written

    async def audit_after(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        rows = await self._rows(
            f"SELECT {_AUDIT_COLUMNS} FROM audit_log WHERE id > ? ORDER BY id LIMIT ?",
            (int(after_id), max(0, int(limit))),
        )
        return [_audit_entry(r) for r in rows]

    async def import_audit(self, entries: Sequence[dict[str, Any]]) -> None:
        async with self._writing():
            await self.db.executemany(
                "INSERT INTO audit_log (time, actor, action, tenant, user_id, memory_id, before, after) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [_audit_values(e) for e in entries],
            )

    @asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[bool]:
        yield True  # one host: the scheduler's lock file keeps its processes apart

    async def wipe(self) -> None:
        async with self._writing() as tx:
            for tenant, user_id in await self._rows("SELECT tenant, user_id FROM user_settings"):
                tx.changes.add(Change("settings", tenant, user_id))
            # through delete(): the keyword tables and the vector index follow
            await self.delete([r[0] for r in await self._rows("SELECT id FROM memories")])
            await self.db.execute("DELETE FROM user_settings")
            await self.db.execute("DELETE FROM audit_log")
            await self.db.execute("DELETE FROM memory_uses")  # also uses buffered for a memory since deleted
            await self.db.execute("DELETE FROM memory_reviews")
            await self.db.execute("DELETE FROM reflections")

    # -- housekeeping -----------------------------------------------------------------------
    async def rebuild_keyword_index(self) -> None:
        async with self._writing():
            await self.db.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")

    async def compact(self) -> None:
        """Merge both FTS5 indexes (deleted words leave their older segments), then copy the
        WAL into the database file and truncate it (no stale page copies stay)."""
        async with self._writing():
            for table in ("memories_fts", "memories_tri"):
                await self.db.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
        async with self._write_lock:
            async with self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
                await cur.fetchall()


async def _nothing() -> list[tuple[list[tuple[str, float]], str]]:
    return []


def _review_values(r: Review) -> tuple[Any, ...]:
    return (r.id, r.tenant, r.user_id, r.old_id, r.new_id, r.reason, r.created_at, r.state, r.decided_by, r.decided_at)


def _reflection_values(r: Reflection) -> tuple[Any, ...]:
    return (r.id, r.tenant, r.user_id, r.period_start, r.period_end, r.created_at, orjson.dumps(r.report).decode())


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
