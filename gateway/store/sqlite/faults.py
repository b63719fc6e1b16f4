"""SQLite faults shared by the memory store and the learning queue: which are transient, which
mean the disk cannot take writes, how they map into the store's error contract
(``gateway.store.errors``: ``contract_error``), and the health flag that the learning filter
consults.

Policy: ``database is locked`` / ``busy`` is transient (``StoreBusy``) — writes are retried
with jittered backoff and a learning job is never dead-lettered for it. A full disk
(``SQLITE_FULL``) or an I/O error marks the store *unwritable*: the memory API answers
507 / 503 in OpenAI's shape, and the learning filter answers
``skipped; reason=store-unavailable`` instead of ``queued`` until a probe write succeeds again.
"""

from __future__ import annotations

import logging
import sqlite3
import time

import aiosqlite

from gateway.errors import GatewayError, InsufficientStorage, StorageUnavailable
from gateway.store.errors import StoreBusy, retry_busy

log = logging.getLogger("memorelay.storage")

__all__ = [
    "StoreHealth",
    "configure_connection",
    "contract_error",
    "is_busy",
    "is_unwritable",
    "retry_busy",
    "storage_error",
]

_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
_FULL = sqlite3.SQLITE_FULL
_UNWRITABLE = (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN)
PROBE_INTERVAL_S = 5.0


async def configure_connection(db: aiosqlite.Connection, busy_timeout_ms: int, max_page_count: int | None) -> None:
    """The settings every read-write connection to the database gets.

    ``secure_delete`` overwrites deleted content (wiped job payloads, deleted memories) with
    zeros instead of leaving it in free pages; ``max_page_count`` is the operator's
    ``memory.max_database_mb`` cap (past it a write fails with ``SQLITE_FULL``).
    """
    for pragma in (
        "PRAGMA journal_mode=WAL",
        "PRAGMA synchronous=NORMAL",
        f"PRAGMA busy_timeout={int(busy_timeout_ms)}",
        "PRAGMA secure_delete=ON",
    ):
        async with db.execute(pragma) as cursor:
            await cursor.fetchall()
    if max_page_count is not None:
        async with db.execute(f"PRAGMA max_page_count={int(max_page_count)}") as cursor:
            await cursor.fetchall()


def _primary_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def is_busy(exc: BaseException) -> bool:
    """``database is locked`` / ``busy``: another writer holds the lock; worth retrying."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = _primary_code(exc)
    if code is not None:
        return code in _BUSY
    message = str(exc)
    return "database is locked" in message or "database is busy" in message


def is_unwritable(exc: BaseException) -> bool:
    """The disk is full, failing or read-only: retrying soon will not help."""
    return isinstance(exc, sqlite3.Error) and _primary_code(exc) in _UNWRITABLE


def storage_error(exc: sqlite3.Error, path: str) -> GatewayError:
    """The gateway error a client sees for an unwritable store (see the module docstring)."""
    if _primary_code(exc) == _FULL:
        return InsufficientStorage(f"the memory database is full ({path}); the write was not stored")
    return StorageUnavailable(f"the memory database cannot be written ({exc}); the write was not stored")


def contract_error(exc: sqlite3.Error, path: str) -> Exception | None:
    """The store-contract error for ``exc`` (busy, unwritable), or None for any other error."""
    if is_busy(exc):
        return StoreBusy(str(exc))
    if is_unwritable(exc):
        return storage_error(exc, path)
    return None


class StoreHealth:
    """Whether the database file takes writes: set by a write that failed for lack of space
    or an I/O error, cleared only by a probe write that needs new pages (small updates can
    still succeed on a full disk)."""

    def __init__(self, probe_interval_s: float = PROBE_INTERVAL_S) -> None:
        self.probe_interval_s = probe_interval_s
        self.writable = True
        self.reason = ""
        self._failed_at = 0.0

    def failed(self, exc: BaseException) -> None:
        if self.writable:
            log.error("the memory database stopped taking writes: %s", exc)
        self.writable = False
        self.reason = str(exc)
        self._failed_at = time.monotonic()

    def recovered(self) -> None:
        if not self.writable:
            log.warning("the memory database takes writes again")
        self.writable = True
        self.reason = ""

    def probe_due(self) -> bool:
        return not self.writable and time.monotonic() - self._failed_at >= self.probe_interval_s

    def note(self, exc: BaseException) -> None:
        """Record ``exc`` if it says the store is unwritable."""
        if is_unwritable(exc):
            self.failed(exc)
