"""The citation log: which memory was injected into which response (never conversation text)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..records import (
    Use,
)


class CitationLog(Protocol):
    """The citation log: one row per memory injected into a response."""

    async def add_uses(self, uses: Sequence[Use]) -> None:
        """Append to the citation log (announces no change)."""
        ...

    async def move_uses(self, tenant: str, user_id: str, from_ids: Sequence[str], to_id: str) -> int:
        """Credit the user's logged uses of ``from_ids`` to ``to_id`` (a consolidation's kept or
        summary memory, which holds their facts now), in place: ids, times and totals stay as
        they were; answers how many moved."""
        ...

    async def uses(
        self, memory_id: str, tenant: str, user_id: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """A memory's uses in ``tenant`` (only ``user_id``'s when given), newest first, and the
        total: {memory_id, user_id, conversation_id, surface, time}."""
        ...

    async def count_uses(self, tenant: str, user_id: str) -> int:
        """How many memory uses the user's responses recorded (any memory they saw)."""
        ...

    async def recent_uses(self, tenant: str, user_id: str, conversation_id: str | None, limit: int) -> list[Use]:
        """The user's newest ``limit`` uses (only those of ``conversation_id`` when given), newest
        first; one response's uses stay next to each other (the recall statistics, ``recall``)."""
        ...

    async def use_counts(self, tenant: str, ids: Sequence[str], user_id: str | None = None) -> dict[str, int]:
        """How many uses each of ``ids`` has in ``tenant`` (only ``user_id``'s when given), one
        grouped read for a page of memories; every id is answered (0 without uses)."""
        ...

    async def most_used(self, tenant: str, user_id: str, since: str, limit: int) -> list[tuple[str, int]]:
        """(memory id, uses) of the memories most injected into the user's responses since
        ``since`` (ISO time), most first (ties by id)."""
        ...

    async def prune_uses(self, cutoff: str) -> int:
        """Delete uses older than ``cutoff`` (ISO time); answers how many."""
        ...

    async def uses_after(self, after_id: int, limit: int) -> list[tuple[int, Use]]:
        """(id, use) of the logged uses with an id above ``after_id``, oldest first (for
        ``memorelay memories migrate``; ``add_uses`` stores them in the target)."""
        ...
