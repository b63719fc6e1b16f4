"""Copying whole stores (``memorelay memories migrate``, backup and restore)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Protocol

from ..records import (
    MemoryRow,
)


class Copying(Protocol):
    """Every memory out, copies of another store's in, and the wipe before a restore."""

    def iter_memories(self, batch: int) -> AsyncIterator[list[MemoryRow]]:
        """Every memory with its embedding, in store order, ``batch`` at a time (each batch
        one read: a store written meanwhile is walked without repeats or gaps of old rows)."""
        ...

    async def import_memories(self, rows: Sequence[MemoryRow]) -> tuple[int, int]:
        """Store copies of another store's memories with their ids, times and counts; answers
        (inserted, written over). A memory this store lacks is inserted; one it holds takes the
        copy when they differ and its own is not newer (``updated_at``), and keeps the larger
        access count (``_copy.sort_import``); importing the same rows again changes nothing."""
        ...

    async def wipe(self) -> None:
        """Delete every memory, user setting, audit entry, use (citation log) and review in one
        transaction (``memorelay restore --force``); metadata such as the embedding model stays."""
        ...
