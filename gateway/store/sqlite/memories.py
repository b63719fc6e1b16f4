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
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import numpy as np

from ..keyword_index import (
    KeywordQuery,
)
from ..records import (
    Change,
    KeywordOptions,
    Memory,
    Visibility,
)
from ..sql import SQLITE, SharedStatements, Writer
from ..vector_index import PartitionedIndex, PartitionKey
from .connection import Statements
from .faults import StoreHealth, configure_connection, contract_error, is_unwritable
from .schema import SCRUB_AUDIT, migrate, register_functions
from .search import KeywordSearch
from .vectors import VectorSync

log = logging.getLogger("memorelay.memory")


# fields whose change moves a memory in or out of the vector index
_INDEXED = frozenset({"enabled", "scope", "user_id"})


@dataclass(slots=True)
class _Tx:
    """What one transaction touched, for the index sync and callbacks after its commit."""

    moved: dict[str, set[PartitionKey]] = field(default_factory=dict)  # id -> partitions it was in
    changes: set[Change] = field(default_factory=set)
    rebuild: bool = False
    open: bool = True


class _Writer(Statements):
    """A write session on the store's connection, inside its current transaction (``sql.Writer``)."""

    def __init__(self, db: aiosqlite.Connection, tx: _Tx) -> None:
        super().__init__(db)
        self.tx = tx

    def changed(self, change: Change) -> None:
        # one process: its working set drops the partition at once, so the ids are not kept
        # (the set holds one change per partition)
        self.tx.changes.add(Change(change.kind, change.tenant, change.user_id))

    def reindex(self) -> None:
        self.tx.rebuild = True


class SQLiteMemoryStore(SharedStatements):
    """See ``store.MemoryStore`` and the module docstring."""

    shared = False  # see store.MemoryStore.shared
    dialect = SQLITE
    stored_columns = ("embedding",)
    stored_marks = ("?",)
    scrub_audit = SCRUB_AUDIT

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
        thread left running would keep a failed start-up from exiting)."""
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

    def _moved(self, memory_id: str, old: PartitionKey | None) -> None:
        tx = self._tx.get()
        assert tx is not None and tx.open
        keys = tx.moved.setdefault(memory_id, set())
        if old is not None:
            keys.add(old)

    def stored(self, memory: Memory, vector: np.ndarray | None) -> tuple[Any, ...]:
        return (SQLITE.vector(vector),)

    async def _fields_written(self, w: Writer, memory_id: str, fields: dict[str, Any], old: PartitionKey) -> None:
        if set(fields) & _INDEXED:
            self._moved(memory_id, old)

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

    # -- memories ---------------------------------------------------------------------------
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

    @asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[bool]:
        yield True  # one host: the scheduler's lock file keeps its processes apart

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
