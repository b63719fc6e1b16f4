"""A validated new memory as the store keeps it: its id, owner and first timestamps."""

from __future__ import annotations

import uuid

from ._validate import identity
from .types import Memory, NewMemory


def stored(tenant: str, user_id: str, clean: NewMemory, stamp: str) -> Memory:
    """``clean`` (``_validate.new_memory``'s answer) as a fresh, enabled memory of its owner."""
    t, u = identity(tenant, user_id, clean.scope)
    return Memory(
        id="mem_" + uuid.uuid4().hex,
        tenant=t,
        user_id=u,
        scope=clean.scope,
        category=clean.category,
        subcategory=clean.subcategory,
        title=clean.title,
        content=clean.content,
        tags=list(clean.tags),
        source=clean.source,
        source_conversation_id=clean.source_conversation_id,
        score=clean.score,
        enabled=True,
        disabled_reason=None,
        created_at=stamp,
        updated_at=stamp,
        access_count=0,
        last_access_at=None,
        slot=clean.slot,
        pinned=clean.pinned,
        kind=clean.kind,
    )
