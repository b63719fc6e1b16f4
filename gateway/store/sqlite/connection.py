"""``SerialConnection``: one aiosqlite connection to the memory database file, shared by
concurrent coroutines, for the stores beside the memory store (learning, console).

Every statement and its commit run as one unit under ``_lock`` (with its cursor closed
first), so no coroutine commits while another's statement is still in progress. Writes wait
out ``database is locked`` (see ``gateway.store.sqlite.faults``); a write that fails because the disk is
full or failing marks ``health`` unwritable. SQLite's faults leave in the store's error
contract (``gateway.store.errors``): ``StoreBusy``, ``StorageUnavailable``,
``InsufficientStorage``. WAL lets these connections and the memory
store's share the file.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiosqlite

from ..errors import StoreBusy, retry_busy
from ..records import Change
from ..sql.base import Writer
from .faults import StoreHealth, configure_connection, contract_error, is_busy
from .schema import migrate, register_functions

T = TypeVar("T")


class Statements:
    """Statements on a connection, inside the transaction it has open (``sql.Writer``)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self.db.execute(sql, params) as cursor:
            return int(cursor.rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        cursor = await self.db.executemany(sql, rows)
        return int(cursor.rowcount)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    def changed(self, change: Change) -> None:
        """Nothing: these stores announce no changes."""

    def reindex(self) -> None:
        """Nothing: these stores keep no derived index."""


class _UnitWriter(Statements):
    """A write session whose every statement is a unit of its own: for the shared statements
    of these stores that write one statement per session."""

    def __init__(self, connection: SerialConnection) -> None:
        self.connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.connection._atomic(lambda w: w.execute(sql, params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        return await self.connection._atomic(lambda w: w.executemany(sql, rows))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self.connection._atomic(lambda w: w.fetch(sql, params))


class SerialConnection:
    name = "store"  # for the "not open" error

    def __init__(
        self,
        database_path: str,
        *,
        busy_timeout_ms: int = 5_000,
        max_page_count: int | None = None,
        health: StoreHealth | None = None,
    ) -> None:
        self.database_path = database_path
        self.busy_timeout_ms = busy_timeout_ms
        self.max_page_count = max_page_count
        self.health = health or StoreHealth()
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError(f"{self.name} is not open")
        return self._db

    async def open(self) -> None:
        self._db = await aiosqlite.connect(self.database_path)
        try:
            await configure_connection(self._db, self.busy_timeout_ms, self.max_page_count)
            await register_functions(self._db)
            await migrate(self._db)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def _unit(self, statements: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """``statements`` and their commit as one transaction, serialised with every other use
        of the connection (retried whole while the database is locked)."""

        async def once() -> T:
            db = self.db
            try:
                result = await statements(db)
                await db.commit()
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    await db.rollback()
                if isinstance(exc, sqlite3.Error) and is_busy(exc):
                    raise StoreBusy(str(exc)) from exc
                raise
            return result

        async with self._lock:
            try:
                return await retry_busy(once)
            except sqlite3.Error as exc:
                self.health.note(exc)
                self._fault(exc)
                raise

    def _fault(self, exc: sqlite3.Error) -> None:
        """Raise ``exc`` as the store contract's error when it is one (busy, unwritable)."""
        mapped = contract_error(exc, self.database_path)
        if mapped is not None:
            raise mapped from exc

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._read(sql, params)

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[_UnitWriter]:
        yield _UnitWriter(self)

    async def _atomic(self, work: Callable[[Writer], Awaitable[T]]) -> T:
        return await self._unit(lambda db: work(Statements(db)))

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            try:
                async with self.db.execute(sql, params) as cursor:
                    return list(await cursor.fetchall())
            except sqlite3.Error as exc:
                self._fault(exc)
                raise
