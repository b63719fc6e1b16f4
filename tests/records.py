"""A stored memory for tests that build rows by hand: every field a plain default, so a test
names only the fields it is about."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gateway.memory import Memory

STAMP = "2026-01-01T00:00:00Z"


def stored_memory(**fields: Any) -> Memory:
    """A personal, enabled, never-used memory of user ``u`` in tenant ``t``, with ``fields`` set."""
    base = Memory(
        id="mem_1",
        tenant="t",
        user_id="u",
        scope="personal",
        category="domain",
        subcategory="",
        title="",
        content="",
        tags=[],
        source="auto",
        source_conversation_id=None,
        score=0.8,
        enabled=True,
        disabled_reason=None,
        created_at=STAMP,
        updated_at=STAMP,
        access_count=0,
        last_access_at=None,
    )
    return replace(base, **fields)
