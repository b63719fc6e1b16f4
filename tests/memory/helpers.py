from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from gateway.memory import Embedder, MemoryService, NewMemory
from gateway.memory.retrieval import RetrievalSettings
from gateway.memory.working_set import DEFAULT_BUDGET_MB, DEFAULT_MAX_ROWS
from gateway.store.sqlite import SQLiteMemoryStore

T = TypeVar("T")


class OwnedService(MemoryService):
    """A service on a SQLite store of its own: ``close`` closes the store too (in the
    gateway, the backend's owner does that)."""

    store: SQLiteMemoryStore

    async def close(self, *, save: bool = True) -> None:
        try:
            await super().close(save=save)
        finally:
            await self.store.close()


_opened: list[OwnedService] = []


def run(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run that closes services left open by a failing test (aiosqlite's worker
    thread would otherwise keep the interpreter from exiting)."""

    async def guarded() -> T:
        try:
            return await coro
        finally:
            while _opened:
                await _opened.pop().close()

    return asyncio.run(guarded())


async def opened(
    path: str,
    embedder: Embedder | None,
    *,
    retrieval: RetrievalSettings | None = None,
    working_set_mb: float = DEFAULT_BUDGET_MB,
    working_set_max_rows: int = DEFAULT_MAX_ROWS,
    **store_options: Any,
) -> OwnedService:
    """An opened service on the SQLite file ``path`` (``store_options``: ``SQLiteMemoryStore``'s)."""
    store = SQLiteMemoryStore(path, **store_options)
    await store.open()
    service = OwnedService(
        store,
        embedder,
        retrieval=retrieval,
        working_set_mb=working_set_mb,
        working_set_max_rows=working_set_max_rows,
    )
    _opened.append(service)
    await service.open()
    return service


def note(title: str, content: str | None = None, category: str = "user_preference", **kwargs: Any) -> NewMemory:
    return NewMemory(title=title, content=content or title, category=category, **kwargs)


@asynccontextmanager
async def service(path: str, embedder: Embedder | None, **kwargs: Any) -> AsyncIterator[OwnedService]:
    """An opened service that is always closed (aiosqlite's thread would block exit)."""
    s = await opened(path, embedder, **kwargs)
    try:
        yield s
    finally:
        await s.close()
