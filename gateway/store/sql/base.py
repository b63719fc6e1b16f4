"""What the shared statements need of a backend: its ``Dialect``, a read, and a write session
inside the backend's transaction (which announces the changes it is told of at commit)."""

from __future__ import annotations

import functools
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np
import orjson

from ..records import Change

Row = Sequence[Any]
T = TypeVar("T")


@functools.lru_cache(maxsize=1024)
def _format_style(sql: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one backend spells what the shared statements leave open."""

    name: str
    format_style: bool  # placeholders are %s (psycopg), not ? (sqlite3)
    json_mark: str  # the placeholder of a JSON column's value
    json_parsed: bool  # a JSON column reads back as a value, not as its text
    id_chunk: int | None  # most ids bound in one statement (None: one array parameter)
    vector_bytes: bool  # an embedding is stored as float32 bytes, not adapted by the driver
    seq: str  # the column that orders rows as they were inserted
    # an auto memory's strength (``records.Decay``), binding ``Decay.strength_args()`` (now, the
    # episode half-life, the other kinds'); the exponent is capped so a memory unused for
    # centuries reads 0.5 ** 1000, not an underflow
    strength: str
    # the current unix time in seconds: the database's clock where replicas share the
    # database, this process's (a function each connection registers) on SQLite
    clock: str
    greatest: str  # the larger of two values
    # what a read appends to hold its rows until the transaction ends ("" where the write
    # lock of the whole file already does)
    lock: str = ""
    # what the claim of a queued job appends so that concurrent claims pass over it
    skip_locked: str = ""

    def statement(self, sql: str) -> str:
        """``sql`` written with ``?`` placeholders, in this backend's style."""
        return _format_style(sql) if self.format_style else sql

    def chunks(self, ids: Sequence[str]) -> Iterator[list[str]]:
        """``ids`` in as few groups as one statement may bind (none for no ids)."""
        ids = list(ids)
        size = self.id_chunk or max(1, len(ids))
        for start in range(0, len(ids), size):
            yield ids[start : start + size]

    def any_of(self, column: str, ids: Sequence[str]) -> tuple[str, list[Any]]:
        """A condition ``column`` is one of ``ids`` (a group from ``chunks``), and its parameters."""
        if self.id_chunk is None:
            return f"{column} = ANY(?)", [list(ids)]
        return f"{column} IN ({', '.join('?' * len(ids))})", list(ids)

    def vector(self, value: np.ndarray | None) -> Any:
        """An embedding as this backend binds it."""
        if value is None:
            return None
        vector = np.ascontiguousarray(value, dtype=np.float32)
        return vector.tobytes() if self.vector_bytes else vector

    def read_vector(self, value: Any) -> np.ndarray | None:
        """An embedding column as float32 (a copy: SQLite's bytes are read-only)."""
        if value is None:
            return None
        if self.vector_bytes:
            return np.frombuffer(value, dtype=np.float32).copy()
        return np.asarray(value, dtype=np.float32)

    def read_json(self, value: Any) -> Any:
        if self.json_parsed or value is None:
            return value
        return orjson.loads(value) if value else None


# SQLite binds at most 32766 values a statement: ids go 500 at a time
SQLITE = Dialect(
    "sqlite",
    format_style=False,
    json_mark="?",
    json_parsed=False,
    id_chunk=500,
    vector_bytes=True,
    seq="rowid",
    strength=(
        "(score * pow(0.5, MIN(1000.0, MAX(0.0, julianday(?) - julianday(COALESCE(last_access_at, updated_at)))"
        " / (CASE WHEN kind = 'episode' THEN ? ELSE ? END))))"
    ),
    clock="memorelay_now()",
    greatest="MAX",
)
POSTGRES = Dialect(
    "postgres",
    format_style=True,
    json_mark="?::json",
    json_parsed=True,
    id_chunk=None,
    vector_bytes=False,
    seq="seq",
    strength=(
        "(score * power(0.5, LEAST(1000.0, GREATEST(0.0, extract(epoch FROM (?::timestamptz - "
        "COALESCE(last_access_at, updated_at)::timestamptz))::float8 / 86400.0) "
        "/ (CASE WHEN kind = 'episode' THEN ?::float8 ELSE ?::float8 END))))"
    ),
    clock="extract(epoch from clock_timestamp())",
    greatest="GREATEST",
    lock=" FOR UPDATE",
    skip_locked=" FOR UPDATE SKIP LOCKED",
)


class Writer(Protocol):
    """One write session: statements in the store's current transaction, and what they changed."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement (``?`` placeholders); answers the rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement for each of ``rows``; answers the rows they changed."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement that answers rows (``RETURNING``)."""
        ...

    def changed(self, change: Change) -> None:
        """Announce ``change`` once the transaction commits."""
        ...

    def reindex(self) -> None:
        """Memories moved between partitions wholesale: derived indexes follow all rows."""
        ...


class SqlBase(ABC):
    """The two primitives a backend gives the shared statements."""

    dialect: ClassVar[Dialect]

    @abstractmethod
    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one statement (``?`` placeholders), inside the current transaction if any."""

    @abstractmethod
    def _writer(self) -> AbstractAsyncContextManager[Writer]:
        """A write session: the current transaction, or a new one around it."""

    async def _atomic(self, work: Callable[[Writer], Awaitable[T]]) -> T:
        """``work``'s statements in one transaction (SQLite's serial connection retries it whole
        while the database is locked)."""
        async with self._writer() as w:
            return await work(w)

    async def _vector_rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows whose last column is an embedding, read the fastest way the backend has."""
        return await self._query(sql, params)

    async def _count(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self._query(sql, params)
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0


def page(limit: int, offset: int) -> list[int]:
    """LIMIT and OFFSET parameters, never negative."""
    return [max(0, int(limit)), max(0, int(offset))]


def equal_to(filters: Sequence[tuple[str, Any]]) -> tuple[str, list[Any]]:
    """``column = ?`` for each (column, value) whose value is not None (TRUE for none)."""
    clauses, args = ["TRUE"], []
    for column, value in filters:
        if value is not None:
            clauses.append(f"{column} = ?")
            args.append(value)
    return " AND ".join(clauses), args


def iso(t: float | None = None) -> str:
    """A unix time (now by default) as "2026-11-29T22:10:00Z"."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
