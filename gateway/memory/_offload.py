"""The one thread-offload helper of the memory package.

CPU work (embedding, hnswlib build/add/query, large numpy scans) runs on a single worker
thread: NOTES.md measured USE latency going up ~10x with two threads, and one thread also
serialises every hnswlib call, which is not safe to add to while querying.
The executor is created on first use, never at import.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def _get_executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memorelay-cpu")
        return _executor


async def run_cpu(fn: Callable[..., T], *args: object) -> T:
    """Run ``fn(*args)`` on the shared single CPU thread and await its result."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_get_executor(), fn, *args)
