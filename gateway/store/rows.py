"""How rows look to both backends: a memory's columns in order, the fields a write may
change, and the row → ``Memory`` mapping (tags are stored as JSON text by both); the same for
a console session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from .records import ConsoleSession, Memory

MEMORY_COLUMNS = (
    "id, tenant, user_id, scope, category, subcategory, title, content, tags, source, "
    "source_conversation_id, score, enabled, disabled_reason, created_at, updated_at, "
    "access_count, last_access_at, slot, pinned, kind"
)


def column_values(m: Memory) -> tuple[Any, ...]:
    """The ``MEMORY_COLUMNS`` of ``m``, in order (both backends insert them; each adds its own
    index column after them)."""
    return (
        m.id,
        m.tenant,
        m.user_id,
        m.scope,
        m.category,
        m.subcategory,
        m.title,
        m.content,
        orjson.dumps(m.tags).decode(),
        m.source,
        m.source_conversation_id,
        m.score,
        m.enabled,
        m.disabled_reason,
        m.created_at,
        m.updated_at,
        m.access_count,
        m.last_access_at,
        m.slot,
        m.pinned,
        m.kind,
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
        "kind",
    }
)


def _tags(text: str) -> list[str]:
    # memorelay writes a JSON array of strings; an older or hand-edited row may hold another
    # JSON value: its non-string parts are no tags (a scalar would otherwise read letter by letter)
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return []
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


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
        tags=_tags(row[8]),
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
        kind=str(row[20]),
    )


SESSION_COLUMNS = "key, kind, tenant, user_id, expires, link_nonce, link_expires"
# the meta key of the random seed that signs console links when console.secret is empty
LINK_SEED_KEY = "console_link_seed"


def row_to_session(row: Sequence[Any]) -> ConsoleSession:
    """A row selected as ``SESSION_COLUMNS``."""
    return ConsoleSession(
        key=str(row[0]),
        kind=str(row[1]),
        tenant=str(row[2]),
        user_id=str(row[3]),
        expires=float(row[4]),
        link_nonce=None if row[5] is None else str(row[5]),
        link_expires=None if row[6] is None else float(row[6]),
    )
