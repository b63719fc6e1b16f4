"""``open_backend(config)``: the stores for ``memory.database``, constructed but not opened.

A file path is SQLite (the embedded default: ``gateway/store/sqlite/``); a ``postgresql://``
or ``postgres://`` URL is PostgreSQL (``gateway/store/postgres/``, imported only then). The
stores of a backend share one database; ``Backend.open()`` / ``close()`` open and close them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from gateway.errors import StartupError

from . import Backend
from .sqlite.exclusive import DatabaseUnavailable, hold_database
from .sqlite.faults import StoreHealth

# one process per SQLite file: the command line takes the file's lock before anything slow
__all__ = ["DatabaseUnavailable", "hold_database", "is_postgres_url", "open_backend", "sqlite_backend"]

if TYPE_CHECKING:
    from gateway.config import Config

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(database: str) -> bool:
    return database.startswith(POSTGRES_SCHEMES)


def open_backend(config: Config) -> Backend:
    m = config.memory
    if is_postgres_url(m.database):
        try:
            postgres = importlib.import_module("gateway.store.postgres")
        except ImportError as exc:
            raise StartupError(
                f"memory.database is a PostgreSQL URL but the PostgreSQL backend cannot be loaded: {exc}"
            ) from exc
        backend: Backend = postgres.create_backend(config)
        return backend
    return sqlite_backend(m.database, busy_timeout_ms=m.busy_timeout_ms, max_database_mb=m.max_database_mb)


def sqlite_backend(path: str, *, busy_timeout_ms: int = 5_000, max_database_mb: float | None = None) -> Backend:
    """The SQLite stores on the file ``path``, sharing one ``StoreHealth``."""
    from .sqlite.console import SQLiteConsoleStore
    from .sqlite.learning import SQLiteLearningStore
    from .sqlite.memories import SQLiteMemoryStore

    # the operator's size cap, in pages of SQLite's default 4 KiB (a write past it is SQLITE_FULL)
    pages = None if max_database_mb is None else max(1, int(max_database_mb * 1024 * 1024 // 4096))
    health = StoreHealth()
    return Backend(
        kind="sqlite",
        memories=SQLiteMemoryStore(path, busy_timeout_ms=busy_timeout_ms, max_page_count=pages, health=health),
        learning=SQLiteLearningStore(
            path, busy_timeout_ms=max(busy_timeout_ms, 10_000), max_page_count=pages, health=health
        ),
        console=SQLiteConsoleStore(path, busy_timeout_ms=busy_timeout_ms, max_page_count=pages, health=health),
    )
