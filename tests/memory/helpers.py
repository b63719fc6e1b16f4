from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from gateway.memory import Embedder, MemoryService, NewMemory

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


async def opened(path: str, embedder: Embedder | None, **kwargs: Any) -> MemoryService:
    service = MemoryService(path, embedder, **kwargs)
    await service.open()
    return service


def note(title: str, content: str | None = None, category: str = "user_preference",
         **kwargs: Any) -> NewMemory:
    return NewMemory(title=title, content=content or title, category=category, **kwargs)
