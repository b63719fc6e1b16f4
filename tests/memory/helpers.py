from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from gateway.memory import Embedder, MemoryService, NewMemory

T = TypeVar("T")


_opened: list[MemoryService] = []


def run(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run that closes services left open by a failing test (aiosqlite's worker
    thread would otherwise keep the interpreter from exiting)."""

    async def guarded() -> T:
        try:
            return await coro
        finally:
            while _opened:
                s = _opened.pop()
                if s.ready:
                    await s.close()

    return asyncio.run(guarded())


async def opened(path: str, embedder: Embedder | None, **kwargs: Any) -> MemoryService:
    service = MemoryService(path, embedder, **kwargs)
    await service.open()
    _opened.append(service)
    return service


def note(title: str, content: str | None = None, category: str = "user_preference", **kwargs: Any) -> NewMemory:
    return NewMemory(title=title, content=content or title, category=category, **kwargs)


@asynccontextmanager
async def service(path: str, embedder: Embedder | None, **kwargs: Any) -> AsyncIterator[MemoryService]:
    """An opened service that is always closed (aiosqlite's thread would block exit)."""
    s = await opened(path, embedder, **kwargs)
    try:
        yield s
    finally:
        await s.close()
