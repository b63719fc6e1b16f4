"""Reflection reports of a user's or a tenant's memory over a period."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..records import (
    Reflection,
    ReflectionKind,
)


class Reflections(Protocol):
    """Reflection reports: stored, listed, pruned, copied by backup."""

    async def add_reflection(self, reflection: Reflection) -> None: ...
    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        """Newest first (then by id: ids grow with time), and the total matching; ``None``
        filters nothing (``user_id`` "" is the tenant reports; ``kind`` "user" only users'
        reports, "tenant" only tenants')."""
        ...

    async def delete_reflections(self, tenant: str, user_id: str) -> int:
        """Delete a user's reports (with the rest of their data); answers how many."""
        ...

    async def prune_reflections(self, cutoff: str) -> int:
        """Delete reports created before ``cutoff`` (ISO time); answers how many."""
        ...

    async def reflections_after(self, created_at: str, reflection_id: str, limit: int) -> list[Reflection]:
        """Reports after (``created_at``, ``reflection_id``) in (created_at, id) order, oldest
        first (``memorelay backup`` pages with the last one's; "", "" starts at the first)."""
        ...

    async def import_reflections(self, reflections: Sequence[Reflection]) -> None:
        """Store reports as they are, ids and times kept (``memorelay restore``)."""
        ...
