"""The store's error contract: what every backend raises when the database, not the caller,
is at fault. Backends map their drivers' errors into these, so nothing above the store knows
an SQLite error code or a psycopg class.

- ``StoreBusy``: another writer holds the database for now (SQLite's ``database is locked``);
  worth retrying soon (``retry_busy``), never a reason to give a learning job up.
- ``StorageUnavailable`` (503 at the API): the database cannot take writes now (an I/O error,
  a read-only file, an unreachable server).
- ``InsufficientStorage`` (507): the database is full.
- ``BadRequest`` (``invalid_value``): a value the database cannot store or look up.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from gateway.errors import BadRequest, InsufficientStorage, StorageUnavailable

__all__ = ["BadRequest", "InsufficientStorage", "StorageUnavailable", "StoreBusy", "retry_busy", "store_fault"]

log = logging.getLogger("memorelay.storage")

T = TypeVar("T")


class StoreBusy(Exception):
    """Another writer holds the database; the operation changed nothing and may be retried."""


def store_fault(exc: BaseException) -> bool:
    """A fault of the database, not of the work: busy, unwritable, full."""
    return isinstance(exc, StoreBusy | StorageUnavailable | InsufficientStorage)


async def retry_busy(operation: Callable[[], Awaitable[T]], *, deadline_s: float = 30.0) -> T:
    """Run ``operation`` again (jittered exponential backoff) while the store answers ``StoreBusy``."""
    give_up = time.monotonic() + deadline_s
    delay = 0.02
    while True:
        try:
            return await operation()
        except StoreBusy:
            if time.monotonic() + delay > give_up:
                raise
            log.debug("store busy, retrying in %.2f s", delay)
        await asyncio.sleep(delay * random.uniform(0.5, 1.5))
        delay = min(1.0, delay * 2)
