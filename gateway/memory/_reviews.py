"""Supersedes waiting for review (``learning.review: queue``), a role of the memory service.

Queued: the new memory is stored disabled ("pending review of <old id>") and the old one stays
active, so nothing changes in what is injected until someone decides. Accepted: the new memory
is enabled and the old one disabled with a reason naming the new one (as an automatic supersede
would have done). Rejected: the old memory stays, the new one stays disabled with the reason
"rejected", and the review keeps who decided and when. Every memory change is audited.
"""

from __future__ import annotations

import uuid

from gateway.errors import NotFound, ReviewDecided
from gateway.store import MemoryStore, Review, ReviewState

from ._clock import now_iso
from ._writes import PENDING_REASON, MemoryWrites
from .types import Memory


class ReviewDesk:
    def __init__(self, store: MemoryStore, writes: MemoryWrites) -> None:
        self.store = store
        self.writes = writes

    async def queue_supersede(self, new: Memory, olds: list[Memory], reason: str, *, actor: str) -> list[Review]:
        """Hold back ``new`` (just stored) from superseding ``olds`` until reviews decide: one
        review per old memory, the new one disabled meanwhile."""
        stamp = now_iso()
        reviews = [
            Review("rev_" + uuid.uuid4().hex, new.tenant, new.user_id, old.id, new.id, reason, stamp) for old in olds
        ]
        pending = PENDING_REASON + ", ".join(old.id for old in olds)
        async with self.store.transaction():
            await self.writes.apply(new, {"enabled": False, "disabled_reason": pending}, actor=actor, action="disable")
            for review in reviews:
                await self.store.add_review(review)
        return reviews

    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[list[tuple[Review, Memory | None, Memory | None]], int]:
        """Reviews (oldest first) with their old and new memories (None once deleted), and the total."""
        found, total = await self.store.reviews(tenant, user_id, state, limit=limit, offset=offset)
        memories = await self.store.fetch([i for r in found for i in (r.old_id, r.new_id)])
        return [(r, memories.get(r.old_id), memories.get(r.new_id)) for r in found], total

    async def decide(
        self, review_id: str, accept: bool, *, tenant: str | None, user_id: str | None, actor: str
    ) -> Review:
        """Accept or reject a pending review. ``tenant``/``user_id`` (None: any, for operators)
        scope which reviews the caller may decide: another user's is ``NotFound``; one already
        decided is ``ReviewDecided``."""
        review = await self.store.get_review(review_id)
        if (
            review is None
            or (tenant is not None and review.tenant != tenant)
            or (user_id is not None and review.user_id != user_id)
        ):
            raise NotFound(f"no review {review_id[:80]!r}")
        state: ReviewState = "accepted" if accept else "rejected"
        stamp = now_iso()
        async with self.store.transaction():
            if not await self.store.decide_review(review.id, state, actor, stamp):
                done = review.state if review.state != "pending" else "decided"
                raise ReviewDecided(f"review {review.id} was already {done}")
            found = await self.store.fetch([review.old_id, review.new_id])
            new, old = found.get(review.new_id), found.get(review.old_id)
            if accept:
                if new is not None:
                    await self.writes.apply(new, {"enabled": True}, actor=actor, action="accept review")
                if old is not None and old.enabled:
                    why = f"superseded by {review.new_id} (review {review.id} accepted)"
                    await self.writes.apply(
                        old, {"enabled": False, "disabled_reason": why}, actor=actor, action="accept review"
                    )
            elif new is not None and not new.enabled:  # not when another review of it accepted it
                await self.writes.apply(
                    new, {"enabled": False, "disabled_reason": "rejected"}, actor=actor, action="reject review"
                )
        decided = await self.store.get_review(review.id)
        assert decided is not None
        return decided
