"""What importing another store's memories does to each row (``MemoryStore.import_memories``),
the same on every backend."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np

from .records import Memory, MemoryRow


def _same_vector(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return bool(np.array_equal(np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)))


def _counted(new: Memory, old: Memory) -> Memory:
    """``new`` with the larger access count and the later last access of the two (either
    store may have injected the memory since an earlier copy)."""
    accesses = [t for t in (new.last_access_at, old.last_access_at) if t is not None]
    return dataclasses.replace(
        new, access_count=max(new.access_count, old.access_count), last_access_at=max(accesses, default=None)
    )


def sort_import(rows: Sequence[MemoryRow], held: Mapping[str, MemoryRow]) -> tuple[list[MemoryRow], list[MemoryRow]]:
    """(rows to insert, rows to write over the held ones) of ``rows`` given the rows the store
    ``held`` by id. A missing row is inserted. A held one takes the imported row when they
    differ and the held copy is not newer (``updated_at``: an edit made on the target after an
    earlier copy wins); access counts never go down (the larger and the later last access
    stay). A row equal to the held one in all of that is left as it is."""
    fresh: list[MemoryRow] = []
    write: list[MemoryRow] = []
    for memory, vector in rows:
        old = held.get(memory.id)
        if old is None:
            fresh.append((memory, vector))
            continue
        held_memory, held_vector = old
        if held_memory.updated_at <= memory.updated_at:
            merged: MemoryRow = (_counted(memory, held_memory), vector)
        else:
            merged = (_counted(held_memory, memory), held_vector)
        if merged[0] != held_memory or not _same_vector(merged[1], held_vector):
            write.append(merged)
    return fresh, write
