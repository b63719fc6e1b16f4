"""How a memory row looks to both backends: its columns in order, the fields a write may
change, and the row → ``Memory`` mapping (tags are stored as JSON text by both)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from .types import Memory

MEMORY_COLUMNS = (
    "id, tenant, user_id, scope, category, subcategory, title, content, tags, source, "
    "source_conversation_id, score, enabled, disabled_reason, created_at, updated_at, "
    "access_count, last_access_at, slot, pinned"
)
WRITABLE_FIELDS = frozenset(
    {
        "user_id",
        "scope",
        "category",
        "subcategory",
        "title",
        "content",
        "tags",
        "score",
        "enabled",
        "disabled_reason",
        "updated_at",
        "access_count",
        "last_access_at",
        "slot",
        "pinned",
    }
)


def row_to_memory(row: Sequence[Any]) -> Memory:
    """A row selected as ``MEMORY_COLUMNS`` (extra columns after them are ignored)."""
    return Memory(
        id=row[0],
        tenant=row[1],
        user_id=row[2],
        scope=row[3],
        category=row[4],
        subcategory=row[5],
        title=row[6],
        content=row[7],
        tags=list(orjson.loads(row[8])),
        source=row[9],
        source_conversation_id=row[10],
        score=float(row[11]),
        enabled=bool(row[12]),
        disabled_reason=row[13],
        created_at=row[14],
        updated_at=row[15],
        access_count=int(row[16]),
        last_access_at=row[17],
        slot=row[18],
        pinned=bool(row[19]),
    )
