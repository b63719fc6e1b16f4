"""The store's life: opening, transactions, change callbacks, database-wide locks, metadata."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from ..records import (
    Change,
)


class StoreLifecycle(Protocol):
    """Opening and closing, transactions, the change feed and database-wide locks."""

    # True when other processes write the same database (PostgreSQL): their changes reach
    # this one by notification, a moment later, so a working set's rows are confirmed by a
    # read before they are injected (an acknowledged delete on another replica is never
    # injected). False for SQLite: this process is the only writer and hears every change
    # at commit.
    shared: bool

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    def transaction(self) -> AbstractAsyncContextManager[None]: ...
    def on_change(self, callback: Callable[[Change], None]) -> None: ...
    def exclusive(self, name: str) -> AbstractAsyncContextManager[bool]:
        """Try to hold the database-wide lock ``name`` for the block without waiting: True when
        this process holds it (PostgreSQL: a session advisory lock, so one replica of several
        runs a scheduled job); SQLite, one host's file, always answers True."""
        ...

    async def compact(self) -> None:
        """After deletes: leave no deleted text in index segments or logs (SQLite: FTS
        optimize + WAL truncate; PostgreSQL: nothing beyond its own vacuum)."""
        ...


class Metadata(Protocol):
    """Small named values of the store itself (the embedding model, index generations)."""

    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...
