"""Supersedes waiting for an operator's decision."""

from __future__ import annotations

from typing import Protocol

from ..records import (
    Review,
    ReviewState,
)


class Reviews(Protocol):
    """Supersedes waiting for (or given) a decision."""

    async def add_review(self, review: Review) -> None: ...
    async def get_review(self, review_id: str) -> Review | None: ...
    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[list[Review], int]:
        """Oldest first, and the total matching; ``None`` filters nothing (every tenant, user, state)."""
        ...

    async def decide_review(self, review_id: str, state: ReviewState, decided_by: str, decided_at: str) -> bool:
        """Record a decision on a pending review; False when it is missing or already decided
        (two deciders racing: exactly one wins)."""
        ...
