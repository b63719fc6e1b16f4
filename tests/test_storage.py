"""SQLite fault classification with real errors from real database files (``gateway/store/sqlite/faults.py``)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from gateway.errors import InsufficientStorage
from gateway.store.sqlite.faults import configure_connection, is_busy, is_unwritable, retry_busy, storage_error


def test_a_locked_database_is_busy_not_unwritable(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    holder = sqlite3.connect(path)
    holder.execute("CREATE TABLE t (a)")
    holder.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(path, timeout=0.01)
    with pytest.raises(sqlite3.OperationalError) as caught:
        other.execute("INSERT INTO t VALUES (1)")
    holder.rollback()
    assert is_busy(caught.value) and not is_unwritable(caught.value)


def test_a_full_database_is_unwritable_and_answers_507(tmp_path: Path) -> None:
    async def main() -> sqlite3.Error:
        async with aiosqlite.connect(tmp_path / "m.db") as db:
            await configure_connection(db, 100, max_page_count=8)
            await db.execute("CREATE TABLE t (b BLOB)")
            try:
                for _ in range(20):
                    await db.execute("INSERT INTO t VALUES (zeroblob(4000))")
            except sqlite3.Error as exc:
                return exc
        raise AssertionError("the page cap did not fill the database")

    exc = asyncio.run(main())
    assert is_unwritable(exc) and not is_busy(exc)
    error = storage_error(exc, "/data/m.db")
    assert isinstance(error, InsufficientStorage) and error.status_code == 507 and "/data/m.db" in error.message


def test_retry_busy_gives_up_on_other_errors_at_once() -> None:
    calls = 0

    async def broken() -> None:
        nonlocal calls
        calls += 1
        raise sqlite3.OperationalError("no such table: x")

    with pytest.raises(sqlite3.OperationalError):
        asyncio.run(retry_busy(broken))
    assert calls == 1
