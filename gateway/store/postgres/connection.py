"""One PostgreSQL database shared by the memory store and the learning queue: the connection
pool, transactions, the pgvector adapters and the change feed (LISTEN/NOTIFY).

Reads run on an autocommit pool connection (one round trip each). Writes run in
``transaction()``: a store method called inside an open transaction joins it (a ``ContextVar``
holds the current one, per ``Database``), otherwise it opens its own. A transaction's changes
are announced with ``pg_notify`` just before COMMIT, so other replicas hear of them exactly
when they become visible; this process's callbacks run right after the commit (its own
notifications are skipped by their origin).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import orjson
import psycopg
from psycopg.adapt import Buffer, Dumper, Loader
from psycopg.pq import Format
from psycopg_pool import AsyncConnectionPool

from gateway.errors import BadRequest, GatewayError, InsufficientStorage, StorageUnavailable

from ..keyword_index import SHARED_OWNER
from ..records import Change
from ..sql.base import POSTGRES, Row, SqlBase
from .schema import migrate

log = logging.getLogger("memorelay.postgres")

Conn = psycopg.AsyncConnection[tuple[Any, ...]]
CHANNEL = "memorelay_changes"
MAX_PAYLOAD = 7900  # NOTIFY payloads stop at 8000 bytes
# a change naming more memories than this is announced without them: re-reading the whole
# partition costs about what re-reading that many rows does
MAX_IDS = 64
LISTEN_CHECK_S = 20.0  # an idle listener checks its connection this often
HNSW_EF_SEARCH = 100


# -- pgvector adapters ------------------------------------------------------------------------
class _VectorDumper(Dumper):
    """numpy array -> pgvector binary (int16 dim, int16 unused, float32 big-endian)."""

    format = Format.BINARY

    def dump(self, obj: Any) -> Buffer:
        vector = np.asarray(obj, dtype=">f4").reshape(-1)
        return struct.pack(">HH", vector.shape[0], 0) + vector.tobytes()


class _VectorBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data: Buffer) -> Any:
        return np.frombuffer(bytes(data)[4:], dtype=">f4").astype(np.float32)


class _VectorTextLoader(Loader):
    def load(self, data: Buffer) -> Any:
        return np.array(bytes(data)[1:-1].split(b","), dtype=np.float32)


async def _configure(conn: Conn) -> None:
    info = await psycopg.types.TypeInfo.fetch(conn, "vector")
    if info is None:
        raise RuntimeError("the pgvector extension is missing (migrations not applied?)")
    dumper = type("VectorDumper", (_VectorDumper,), {"oid": info.oid})
    conn.adapters.register_dumper(np.ndarray, dumper)
    conn.adapters.register_loader(info.oid, _VectorBinaryLoader)
    conn.adapters.register_loader(info.oid, _VectorTextLoader)
    await conn.set_autocommit(True)
    # HNSW searches (large partitions only, see vectors.candidates) keep walking the graph
    # until enough rows pass the tenant/user filter; relaxed order is re-sorted by the query
    await conn.execute("SET hnsw.iterative_scan = 'relaxed_order'")
    await conn.execute(f"SET hnsw.ef_search = {HNSW_EF_SEARCH}")


def storage_error(exc: psycopg.Error) -> GatewayError:
    """The gateway error a client sees when PostgreSQL cannot take a write."""
    if isinstance(exc, psycopg.errors.DiskFull | psycopg.errors.InsufficientResources):
        return InsufficientStorage("the memory database is full; the write was not stored")
    return StorageUnavailable(f"the memory database cannot be written ({type(exc).__name__}); the write was not stored")


def value_error(exc: psycopg.DataError) -> GatewayError:
    """A value the database cannot take (a NUL in a text, a number out of range): the caller's
    input, never a server fault. Ids the gateway makes never hold one, so no row matches."""
    return BadRequest(f"a value cannot be stored or looked up: {_first_line(exc)}", code="invalid_value")


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]


def _unavailable(exc: BaseException) -> bool:
    return isinstance(
        exc,
        psycopg.OperationalError
        | psycopg.errors.DiskFull
        | psycopg.errors.InsufficientResources
        | psycopg.errors.ReadOnlySqlTransaction,
    )


@contextlib.contextmanager
def _contract_errors() -> Iterator[None]:
    """psycopg's errors of a connection's use as the store contract's (a bad value, storage
    the database cannot write)."""
    try:
        yield
    except psycopg.DataError as exc:
        raise value_error(exc) from exc
    except psycopg.Error as exc:
        if _unavailable(exc):
            raise storage_error(exc) from exc
        raise


async def everything(conn: Conn) -> list[Change]:
    """Changes covering every tenant's memories (users and shared) and settings."""
    cur = await conn.execute("SELECT tenant FROM memories UNION SELECT tenant FROM user_settings ORDER BY 1")
    tenants = [str(r[0]) for r in await cur.fetchall()]
    return [
        change
        for t in tenants
        for change in (Change("memories", t, "*"), Change("memories", t, SHARED_OWNER), Change("settings", t, "*"))
    ]


@dataclass(slots=True)
class Tx:
    """An open transaction: its connection and the changes it will announce at commit."""

    conn: Conn
    # ordered, one per partition, with the memory ids it touched (None: not known)
    changes: dict[Change, set[str] | None] = field(default_factory=dict)

    def changed(self, change: Change) -> None:
        if change in self.changes:
            held = self.changes[change]
            self.changes[change] = None if held is None or change.ids is None else held | change.ids
        else:
            self.changes[change] = None if change.ids is None else set(change.ids)

    def announced(self) -> list[Change]:
        """The changes, each with its ids when there are few enough to name."""
        return [
            Change(c.kind, c.tenant, c.user_id, None if ids is None or len(ids) > MAX_IDS else frozenset(ids))
            for c, ids in self.changes.items()
        ]


class Writer:
    """A write session in the current transaction (``sql.Writer``): statements with ``?``
    placeholders, in psycopg's style."""

    def __init__(self, tx: Tx) -> None:
        self.tx = tx

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self.tx.conn.execute(POSTGRES.statement(sql), params)
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        async with self.tx.conn.cursor() as cur:
            await cur.executemany(POSTGRES.statement(sql), rows)
            return int(cur.rowcount)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cur = await self.tx.conn.execute(POSTGRES.statement(sql), params)
        return [*await cur.fetchall()]

    def changed(self, change: Change) -> None:
        self.tx.changed(change)

    def reindex(self) -> None:
        """Nothing: pgvector's and the text indexes follow the rows themselves."""


class Database:
    """The pool and change feed of one database URL; opened by each store that uses it
    (reference counted) and migrated by the first ``open``."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self.origin = uuid.uuid4().hex
        self._pool: AsyncConnectionPool[Conn] | None = None
        self._users = 0
        self._opening = asyncio.Lock()
        self._current: ContextVar[Tx | None] = ContextVar(f"memorelay_pg_{self.origin}", default=None)
        self._callbacks: list[Callable[[Change], None]] = []
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()

    @property
    def pool(self) -> AsyncConnectionPool[Conn]:
        if self._pool is None:
            raise RuntimeError("the PostgreSQL store is not open")
        return self._pool

    async def open(self) -> None:
        async with self._opening:
            if self._users == 0:
                try:
                    await self._start()
                except psycopg.OperationalError as exc:  # unreachable, refused, bad credentials
                    raise ConnectionError(f"PostgreSQL: {exc}".strip()) from exc
            self._users += 1

    async def _start(self) -> None:
        """Migrate, fill the pool, and listen before the first caller can write."""
        await migrate(self.url)
        pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            self.url,
            min_size=self.min_size,
            max_size=self.max_size,
            configure=_configure,
            check=AsyncConnectionPool.check_connection,
            open=False,
            name="memorelay",
        )
        try:
            await pool.open(wait=True)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self._listener = asyncio.create_task(self._listen(), name="memorelay-pg-listen")
        try:
            await asyncio.wait_for(self._listening.wait(), timeout=10)
        except BaseException:
            await self._shutdown()
            raise

    async def close(self) -> None:
        async with self._opening:
            if self._users == 0:
                return
            self._users -= 1
            if self._users == 0:
                await self._shutdown()

    async def _shutdown(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None
        self._listening.clear()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    # -- connections and transactions -------------------------------------------------------
    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Conn]:
        """The current transaction's connection, else an autocommit one from the pool."""
        tx = self._current.get()
        if tx is not None:
            yield tx.conn
            return
        with _contract_errors():
            async with self.pool.connection() as conn:
                yield conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """Join the current transaction, or run one: commit at the end (announcing its
        changes), roll back on an exception."""
        tx = self._current.get()
        if tx is not None:
            yield tx
            return
        with _contract_errors():
            async with self.pool.connection() as conn:
                async with conn.transaction():
                    tx = Tx(conn)
                    token = self._current.set(tx)
                    try:
                        yield tx
                        await self._announce(tx)
                    finally:
                        self._current.reset(token)
        self._deliver(tx.announced())

    # -- change feed ------------------------------------------------------------------------
    def on_change(self, callback: Callable[[Change], None]) -> None:
        self._callbacks.append(callback)

    async def _announce(self, tx: Tx) -> None:
        payloads = []
        for change in tx.announced():
            data: dict[str, Any] = {"o": self.origin, "k": change.kind, "t": change.tenant, "u": change.user_id}
            if change.ids is not None:
                data["i"] = sorted(change.ids)
            payload = orjson.dumps(data)
            if len(payload) > MAX_PAYLOAD and change.ids is not None:  # too many: any of the partition's
                del data["i"]
                payload = orjson.dumps(data)
            if len(payload) > MAX_PAYLOAD:  # an absurdly long id: invalidate the whole tenant
                payload = orjson.dumps({"o": self.origin, "k": change.kind, "t": change.tenant[:2000], "u": "*"})
            payloads.append(payload.decode())
        if payloads:
            await tx.conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (CHANNEL, payloads))

    def _deliver(self, changes: list[Change]) -> None:
        for change in changes:
            for callback in list(self._callbacks):
                try:
                    callback(change)
                except Exception:  # boundary: one bad callback must not stop the others
                    log.exception("change callback failed")

    def _received(self, payload: str) -> None:
        try:
            data = orjson.loads(payload)
            if data.get("o") == self.origin:
                return
            ids = data.get("i")
            change = Change(
                kind=data["k"],
                tenant=str(data["t"]),
                user_id=str(data["u"]),
                ids=None if not isinstance(ids, list) else frozenset(str(i) for i in ids),
            )
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
            log.warning("ignoring a malformed change notification: %.200s", payload)
            return
        self._deliver([change])

    async def _listen(self) -> None:
        """One LISTEN connection per process; reconnects when lost. Changes missed while
        disconnected are unknown, so a reconnect announces every partition and user of
        every tenant as changed (``everything``)."""
        delay = 0.1
        reconnect = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if reconnect:
                        self._deliver(await everything(conn))
                    delay = 0.1
                    while True:
                        async for notice in conn.notifies(timeout=LISTEN_CHECK_S):
                            self._received(notice.payload)
                        await conn.execute("SELECT 1")  # idle: is the connection still alive?
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # boundary: keep listening whatever broke
                log.warning("change feed lost (%s); reconnecting in %.1f s", exc, delay)
            self._listening.clear()
            reconnect = True
            await asyncio.sleep(delay)
            delay = min(5.0, delay * 2)


class OnDatabase(SqlBase):
    """A store on one ``Database`` (given as a URL: a pool of its own), with the shared
    statements' read and write session."""

    dialect = POSTGRES

    def __init__(self, database: Database | str) -> None:
        self.db = database if isinstance(database, Database) else Database(database)

    async def open(self) -> None:
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self.db.connection() as conn:
            cur = await conn.execute(POSTGRES.statement(sql), params)
            return [*await cur.fetchall()]

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[Writer]:
        async with self.db.transaction() as tx:
            yield Writer(tx)
