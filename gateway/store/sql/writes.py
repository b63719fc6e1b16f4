"""Writes of memory rows (``roles.memories``, ``roles.vectors``, ``roles.copying``), written once
over what each backend stores beside a row's columns (``stored``: SQLite the embedding's
bytes; PostgreSQL also the CJK tsvector).

Every write announces the partitions it changed (``Writer.changed``), naming the memories it
touched so that another replica can re-read just those rows, and tells ``_moved``
of each row whose embedding or partition changed, for a backend whose vector index lives
outside the database (SQLite's hnswlib files).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar

import numpy as np
import orjson

from .._copy import sort_import
from ..keyword_index import partition_key
from ..records import Change, Memory, MemoryRow
from ..rows import MEMORY_COLUMNS, WRITABLE_FIELDS, column_values
from ..vector_index import PartitionKey
from .base import Writer
from .embeddings import SqlEmbeddedRows

# fields whose change alone no reader of memories notices: no change is announced for them
QUIET_FIELDS = frozenset({"updated_at", "score", "access_count", "last_access_at"})
# what follows a memory: its uses and reviews go with it; its audit entries keep only the
# names of the fields they recorded (``scrub_audit``)
_USES, _REVIEWS = "memory_uses", "memory_reviews"
# the tables a wipe empties beside the memories and the settings
_WIPED = ("audit_log", _USES, _REVIEWS, "reflections")


def _touched(key: PartitionKey, memory_id: str) -> Change:
    """The change of ``key``'s partition that names the memory it touched."""
    return Change("memories", *key, ids=frozenset((memory_id,)))


def _assignments(fields: dict[str, Any]) -> tuple[str, list[Any]]:
    """``SET`` clause and values of ``fields`` (tags as JSON text); ``ValueError`` names any
    field a write may not change."""
    bad = set(fields) - WRITABLE_FIELDS
    if bad:
        raise ValueError(f"not writable: {sorted(bad)}")
    values = [
        orjson.dumps(v).decode() if k == "tags" else bool(v) if k in ("enabled", "pinned") else v
        for k, v in fields.items()
    ]
    return ", ".join(f"{k} = ?" for k in fields), values


class SqlMemoryWrites(SqlEmbeddedRows):
    # the columns each backend stores after ``MEMORY_COLUMNS``, and their placeholders
    stored_columns: ClassVar[tuple[str, ...]]
    stored_marks: ClassVar[tuple[str, ...]]
    # the SET clause that reduces an audit entry's before / after to their field names
    scrub_audit: ClassVar[str]

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[None]: ...

    @abstractmethod
    def stored(self, memory: Memory, vector: np.ndarray | None) -> tuple[Any, ...]:
        """The values of ``stored_columns`` for ``memory``."""

    async def _fields_written(self, w: Writer, memory_id: str, fields: dict[str, Any], old: PartitionKey) -> None:
        """What a backend keeps beside the row follows ``fields`` (nothing by default)."""

    def _moved(self, memory_id: str, old: PartitionKey | None) -> None:
        """The row's embedding or partition changed (``old``: where it was, if anywhere)."""

    def _values(self, row: MemoryRow) -> tuple[Any, ...]:
        return (*column_values(row[0]), *self.stored(*row))

    def _insert_sql(self, tail: str = "") -> str:
        columns = ", ".join((MEMORY_COLUMNS, *self.stored_columns))
        marks = ", ".join(("?",) * len(MEMORY_COLUMNS.split(",")) + self.stored_marks)
        return f"INSERT INTO memories ({columns}) VALUES ({marks}){tail}"

    async def _partitions(self, ids: Sequence[str]) -> dict[str, PartitionKey]:
        out: dict[str, PartitionKey] = {}
        for chunk in self.dialect.chunks(ids):
            among, args = self.dialect.any_of("id", chunk)
            for mid, tenant, scope, user_id in await self._query(
                f"SELECT id, tenant, scope, user_id FROM memories WHERE {among}", args
            ):
                out[mid] = partition_key(tenant, scope, user_id)
        return out

    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None:
        if not memories:
            return
        vectors = [None if embeddings is None else embeddings[i] for i in range(len(memories))]
        async with self._writer() as w:
            await w.executemany(self._insert_sql(), [self._values(r) for r in zip(memories, vectors, strict=True)])
            for m in memories:
                if embeddings is not None:
                    self._moved(m.id, None)
                w.changed(_touched(partition_key(m.tenant, m.scope, m.user_id), m.id))

    async def write_fields(self, memory_id: str, fields: dict[str, Any]) -> None:
        if not fields:
            return
        assignments, values = _assignments(fields)
        async with self._writer() as w:
            before = await self._query(
                f"SELECT tenant, scope, user_id FROM memories WHERE id = ?{self.dialect.lock}", (memory_id,)
            )
            await w.execute(f"UPDATE memories SET {assignments} WHERE id = ?", (*values, memory_id))
            if not before:
                return
            tenant, scope, user_id = before[0]
            old = partition_key(tenant, scope, user_id)
            await self._fields_written(w, memory_id, fields, old)
            if set(fields) - QUIET_FIELDS:
                new = partition_key(tenant, str(fields.get("scope", scope)), str(fields.get("user_id", user_id)))
                for key in (old, new):
                    w.changed(_touched(key, memory_id))

    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None:
        await self.set_embeddings([(memory_id, vector)])

    async def set_embeddings(self, vectors: Sequence[tuple[str, np.ndarray | None]]) -> None:
        if not vectors:
            return
        async with self._writer() as w:
            olds = await self._partitions([mid for mid, _ in vectors])
            await w.executemany(
                "UPDATE memories SET embedding = ? WHERE id = ?", [(self.dialect.vector(v), mid) for mid, v in vectors]
            )
            for mid, _ in vectors:
                self._moved(mid, olds.get(mid))
            for mid, key in olds.items():
                w.changed(_touched(key, mid))

    async def _delete_where(self, w: Writer, clause: str, args: Sequence[Any]) -> None:
        for mid, tenant, scope, user_id in await w.fetch(
            f"DELETE FROM memories WHERE {clause} RETURNING id, tenant, scope, user_id", args
        ):
            key = partition_key(tenant, scope, user_id)
            self._moved(mid, key)
            w.changed(_touched(key, mid))

    async def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows, their uses and reviews, and scrub their text from earlier audit entries."""
        if not ids:
            return
        d = self.dialect
        async with self._writer() as w:
            for chunk in d.chunks(ids):
                among, args = d.any_of("id", chunk)
                await self._delete_where(w, among, args)
                among, args = d.any_of("memory_id", chunk)
                await w.execute(f"UPDATE audit_log SET {self.scrub_audit} WHERE {among}", args)
                await w.execute(f"DELETE FROM {_USES} WHERE {among}", args)
                old, args = d.any_of("old_id", chunk)
                new, _ = d.any_of("new_id", chunk)
                await w.execute(f"DELETE FROM {_REVIEWS} WHERE {old} OR {new}", [*args, *args])

    async def wipe(self) -> None:
        async with self._writer() as w:
            await self._delete_where(w, "TRUE", ())
            for tenant, user_id in await w.fetch("DELETE FROM user_settings RETURNING tenant, user_id"):
                w.changed(Change("settings", tenant, user_id))
            for table in _WIPED:
                await w.execute(f"DELETE FROM {table}")

    async def import_memories(self, rows: Sequence[MemoryRow]) -> tuple[int, int]:
        if not rows:
            return 0, 0
        async with self._writer() as w:
            held = await self._held_rows([m.id for m, _ in rows])
            fresh, replace = sort_import(rows, held)
            # a row another replica inserted since the read is left to it
            insert = self._insert_sql(" ON CONFLICT (id) DO NOTHING")
            inserted = await w.executemany(insert, [self._values(r) for r in fresh]) if fresh else 0
            columns = [c.strip() for c in MEMORY_COLUMNS.split(",")][1:]
            assignments = [f"{c} = ?" for c in columns]
            assignments += [f"{c} = {mark}" for c, mark in zip(self.stored_columns, self.stored_marks, strict=True)]
            if replace:
                await w.executemany(
                    f"UPDATE memories SET {', '.join(assignments)} WHERE id = ?",
                    [(*self._values(r)[1:], r[0].id) for r in replace],
                )
            for m, _ in (*fresh, *replace):
                old = held.get(m.id)
                old_key = None if old is None else partition_key(old[0].tenant, old[0].scope, old[0].user_id)
                self._moved(m.id, old_key)
                for key in (old_key, partition_key(m.tenant, m.scope, m.user_id)):
                    if key is not None:
                        w.changed(_touched(key, m.id))
        return inserted, len(replace)
