"""``SQLiteMemoryStore``: memories, settings, audit and metadata in one SQLite file (WAL). The
statements both backends share come from ``gateway.store.sql``; this module holds the
connections, the transaction and what a write records for the indexes beside the rows: the
FTS5 keyword tables (``search``, ``keywords``) and the hnswlib vector index (``vectors``).

Every transaction records which memories it touched; after the commit the vector index
follows their rows (``vectors.VectorSync``), in commit order, and ``on_change`` callbacks fire
after that, in this process (the only one on the file).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import numpy as np
import orjson

from .._copy import sort_import
from ..keyword_index import (
    SHARED_OWNER,
    KeywordQuery,
    partition_key,
)
from ..records import (
    Change,
    KeywordOptions,
    Memory,
    MemoryRow,
    PartitionRows,
    Visibility,
)
from ..rows import MEMORY_COLUMNS, WRITABLE_FIELDS, column_values, row_to_memory
from ..sql import SQLITE, SharedStatements
from ..vector_index import PartitionedIndex, PartitionKey
from .faults import StoreHealth, configure_connection, contract_error, is_unwritable
from .schema import SCRUB_AUDIT, migrate, register_functions
from .search import KeywordSearch
from .vectors import VectorSync

log = logging.getLogger("memorelay.memory")


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
    """The ``MEMORY_COLUMNS`` of ``m``, then its embedding (sqlite3 stores a bool as 0 or 1)."""
    return (*column_values(m), _blob(vector))


def _marks(n: int) -> str:
    return ", ".join("?" * n)


@dataclass(slots=True)
class _Tx:
    """What one transaction touched, for the index sync and callbacks after its commit."""

    moved: dict[str, set[PartitionKey]] = field(default_factory=dict)  # id -> partitions it was in
    changes: set[Change] = field(default_factory=set)
    rebuild: bool = False
    open: bool = True

    def memories(self, key: PartitionKey) -> None:
        self.changes.add(Change("memories", key[0], key[1]))


class _Writer:
    """A write session on the store's connection, inside its current transaction (``sql.Writer``)."""

    def __init__(self, db: aiosqlite.Connection, tx: _Tx) -> None:
        self.db = db
        self.tx = tx

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self.db.execute(sql, params)
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    def changed(self, change: Change) -> None:
        self.tx.changes.add(change)

    def reindex(self) -> None:
        self.tx.rebuild = True


class SQLiteMemoryStore(SharedStatements):
    """See ``store.MemoryStore`` and the module docstring."""

    shared = False  # see store.MemoryStore.shared
    dialect = SQLITE

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
        self._db: aiosqlite.Connection | None = None
        # a second, read-only connection lets the trigram list run beside the word list
        # (WAL readers do not block each other; each aiosqlite connection has its own thread)
        # and reads only committed rows (the index sync)
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._tx: ContextVar[_Tx | None] = ContextVar(f"sqlite_tx_{id(self)}", default=None)
        self._callbacks: list[Callable[[Change], None]] = []
        self._vectors = VectorSync(
            self._rows, self._read_rows, self._generation, self.index_folder, ef=ef, hnsw_threshold=hnsw_threshold
        )
        self._search = KeywordSearch(self._rows, self._read_rows, self._visible_rows, term_stats_ttl_s)

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
        return self._vectors.index

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

        SQLite's faults leave in the store's error contract (``gateway.store.errors``): a full
        disk or an I/O error as ``InsufficientStorage`` / ``StorageUnavailable`` (507 / 503 at
        the API), marking ``health`` unwritable; ``database is locked`` as ``StoreBusy``, for
        callers that retry.
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
                if isinstance(exc, sqlite3.Error):
                    self._fault(exc)
                raise
            finally:
                tx.open = False
                self._tx.reset(token)
            syncing = self._vectors.index is not None and bool(tx.moved or tx.rebuild)
            if syncing:  # taken before the write lock is let go: syncs queue in commit order
                await self._vectors.lock.acquire()
        work: Awaitable[None] | None = None
        if syncing:
            try:
                # only reading is done under the lock, not the wait for the CPU thread
                work = await (self._vectors.rebuild() if tx.rebuild else self._vectors.sync(tx.moved))
            finally:
                self._vectors.lock.release()
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

    def _fault(self, exc: sqlite3.Error) -> None:
        """Raise ``exc`` as the store contract's error when it is one (busy, unwritable)."""
        mapped = contract_error(exc, self.path)
        if mapped is None:
            return
        if is_unwritable(exc):
            self.health.failed(exc)
        raise mapped from exc

    async def _read_rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """Rows from the reader connection (the main one where there is none)."""
        try:
            async with (self._reader or self.db).execute(sql, params) as cur:
                return list(await cur.fetchall())
        except sqlite3.Error as exc:
            self._fault(exc)
            raise

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            async with self.db.execute(sql, params) as cur:
                return list(await cur.fetchall())
        except sqlite3.Error as exc:
            self._fault(exc)
            raise

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._rows(sql, params)

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[_Writer]:
        async with self._writing() as tx:
            yield _Writer(self.db, tx)

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self._rows(sql, params)
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

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

    # -- vectors (``vectors.VectorSync``) ---------------------------------------------------
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
        return await self._vectors.load(model, dim, reembedded=reembedded)

    async def _generation(self) -> int:
        return int(await self.get_meta("index_generation") or 0)

    async def save_vectors(self) -> None:
        await self._vectors.save()

    async def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        return await self._vectors.candidates(where, query, k)

    # -- keyword candidates (``search.KeywordSearch``) --------------------------------------
    async def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[list[tuple[str, float]], str]]:
        return await self._search.candidates(where, query, k, options or KeywordOptions())

    async def _visible_rows(self, tenant: str, user_id: str | None) -> int:
        """Rows in the caller's partitions, from the in-memory vector index when there is one."""
        counted = self._vectors.visible_rows(tenant, user_id)
        return counted if counted is not None else await self.count_visible(tenant, user_id)

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

    # -- memories ---------------------------------------------------------------------------
    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None:
        rows = [_values(m, embeddings[i] if embeddings is not None else None) for i, m in enumerate(memories)]
        async with self._writing() as tx:
            await self.db.executemany(_INSERT_MEMORY, rows)
            for m in memories:
                if embeddings is not None:
                    self._moved(tx, m.id, None)
                tx.memories(partition_key(m.tenant, m.scope, m.user_id))

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

    async def personal(self, tenant: str, user_id: str) -> list[Memory]:
        return await self._select(
            "tenant = ? AND user_id = ? AND scope = 'personal'", [tenant, user_id], "ORDER BY rowid"
        )

    async def partition_rows(
        self, tenant: str, owner: str, *, limit: int | None = None, ids: Collection[str] | None = None
    ) -> PartitionRows:
        if owner == SHARED_OWNER:
            where, args = "tenant = ? AND scope IN ('shared', 'system')", [tenant]
        else:
            where, args = "tenant = ? AND scope = 'personal' AND user_id = ?", [tenant, owner]
        if ids is not None:
            chosen = list(ids)
            where, args = f"{where} AND id IN ({_marks(len(chosen))})", [*args, *chosen]
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        rows = await self._rows(
            f"SELECT {MEMORY_COLUMNS}, embedding FROM memories WHERE {where} AND enabled = 1 ORDER BY rowid{tail}", args
        )
        return PartitionRows([row_to_memory(r) for r in rows], _stacked([r[-1] for r in rows]))

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
