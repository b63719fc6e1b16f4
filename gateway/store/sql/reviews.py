"""Supersedes waiting for review (``roles.reviews.Reviews``)."""

from __future__ import annotations

from typing import Any

from ..records import Review, ReviewState
from .base import SqlBase, equal_to, page

_COLUMNS = "id, tenant, user_id, old_id, new_id, reason, created_at, state, decided_by, decided_at"


def _values(r: Review) -> tuple[Any, ...]:
    return (r.id, r.tenant, r.user_id, r.old_id, r.new_id, r.reason, r.created_at, r.state, r.decided_by, r.decided_at)


class SqlReviews(SqlBase):
    async def add_review(self, review: Review) -> None:
        async with self._writer() as w:
            await w.execute(f"INSERT INTO memory_reviews ({_COLUMNS}) VALUES ({', '.join('?' * 10)})", _values(review))

    async def get_review(self, review_id: str) -> Review | None:
        rows = await self._query(f"SELECT {_COLUMNS} FROM memory_reviews WHERE id = ?", [review_id])
        return Review(*rows[0]) if rows else None

    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[list[Review], int]:
        where, args = equal_to((("tenant", tenant), ("user_id", user_id), ("state", state)))
        total = await self._count(f"SELECT COUNT(*) FROM memory_reviews WHERE {where}", args)
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM memory_reviews WHERE {where} ORDER BY created_at, id LIMIT ? OFFSET ?",
            [*args, *page(limit, offset)],
        )
        return [Review(*r) for r in rows], total

    async def decide_review(self, review_id: str, state: ReviewState, decided_by: str, decided_at: str) -> bool:
        async with self._writer() as w:
            changed = await w.execute(
                "UPDATE memory_reviews SET state = ?, decided_by = ?, decided_at = ? "
                "WHERE id = ? AND state = 'pending'",
                (state, decided_by, decided_at, review_id),
            )
            return changed == 1
