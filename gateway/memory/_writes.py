"""``MemoryWrites``: every change of memories, shared by the service and its roles.

A change is validated, keyed (a personal memory's text gets its ``slot``), embedded, checked
against the per-user caps inside its write transaction (so concurrent requests cannot
overshoot them), written and audited in that one transaction. A delete keeps ids and kinds
only in the audit trail, and schedules the purge of the deleted text (``_purge``)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import numpy as np

from gateway.errors import ReviewPending, TooManyMemories, TooManyPinned
from gateway.store import AuditEntry, MemoryStore

from ._clock import now_iso
from ._indexing import embed_text
from ._new import stored
from ._policy import MemoryPolicy
from ._purge import DeletedTextPurger
from ._validate import USER_UPDATE_KEYS, new_memory, not_poisoning
from ._validate import changes as valid_changes
from ._validate import slot as valid_slot
from .embedders import Embedder
from .types import Memory, NewMemory

# the disabled_reason of a memory held back until its supersede reviews decide (``_reviews``)
PENDING_REASON = "pending review of "


def _small(memory: Memory) -> dict[str, Any]:
    return {
        "title": memory.title,
        "category": memory.category,
        "kind": memory.kind,
        "scope": memory.scope,
        "enabled": memory.enabled,
    }


def owned(m: Memory | None, tenant: str, user_id: str) -> bool:
    """Whether ``m`` is the user's own personal memory (what a user may change)."""
    return m is not None and m.tenant == tenant and m.scope == "personal" and m.user_id == user_id


def refuse_pending(m: Memory, changes: dict[str, Any]) -> None:
    """A memory waiting for its supersede review is enabled only by deciding the review:
    enabled by hand, it and the memory it would replace would both be in use."""
    if changes.get("enabled") is True and not m.enabled and (m.disabled_reason or "").startswith(PENDING_REASON):
        raise ReviewPending(
            f"memory {m.id} is waiting for review ({m.disabled_reason}): accept or reject that review "
            "instead of enabling the memory",
            param="enabled",
        )


def _entry(
    action: str,
    actor: str,
    m: Memory | None,
    *,
    tenant: str | None = None,
    user_id: str | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """One audit-log entry: who did what to which memory, with its before and after."""
    return AuditEntry(
        time=now_iso(),
        actor=actor,
        action=action,
        tenant=m.tenant if m else tenant,
        user_id=m.user_id if m else user_id,
        memory_id=m.id if m else None,
        before=before,
        after=after,
    )


class MemoryWrites:
    def __init__(
        self, store: MemoryStore, embedder: Embedder | None, policy: MemoryPolicy, max_pinned_per_user: int
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.policy = policy
        self.max_pinned_per_user = max_pinned_per_user
        self.purger = DeletedTextPurger(store)

    async def audit(
        self,
        action: str,
        actor: str,
        m: Memory | None,
        *,
        tenant: str | None = None,
        user_id: str | None = None,
        before: Any = None,
        after: Any = None,
    ) -> None:
        await self.store.audit(_entry(action, actor, m, tenant=tenant, user_id=user_id, before=before, after=after))

    async def key(self, content: str) -> str | None:
        if self.policy.key_of is None:
            return None
        return await asyncio.to_thread(self.policy.key_of, content)

    # -- create -----------------------------------------------------------------------------
    async def add_many(
        self, tenant: str, user_id: str, items: list[NewMemory], *, actor: str, manual_cap: int | None = None
    ) -> list[Memory]:
        stamp = now_iso()
        memories = [stored(tenant, user_id, await self._clean(item), stamp) for item in items]
        vectors = await self._embed([embed_text(m.title, m.content) for m in memories])
        async with self.store.transaction():
            if manual_cap is not None:
                await self._check_manual_cap(memories, manual_cap)
            await self.check_pinned_cap([m for m in memories if m.pinned])
            await self.store.insert(memories, vectors)
            for m in memories:
                await self.audit("create", actor, m, after=_small(m))
        return memories

    async def _clean(self, item: NewMemory) -> NewMemory:
        clean = new_memory(item)
        if clean.slot is None and clean.scope == "personal" and clean.source == "manual":
            clean.slot = valid_slot(await self.key(clean.content))
        return clean

    async def supersede(
        self, tenant: str, user_id: str, item: NewMemory, olds: Sequence[Memory], why: str, *, actor: str
    ) -> tuple[Memory, list[str]]:
        stamp = now_iso()
        new = stored(tenant, user_id, await self._clean(item), stamp)
        vectors = await self._embed([embed_text(new.title, new.content)])
        reason = f"superseded by {new.id} ({why})"
        own = [m for m in olds if owned(m, tenant, user_id)]
        audit = {new.id: _entry("create", actor, new, after=_small(new))}
        for m in own:
            before = {"enabled": True, "disabled_reason": m.disabled_reason}
            after = {"enabled": False, "disabled_reason": reason}
            audit[m.id] = _entry("disable", actor, m, before=before, after=after)
        async with self.store.transaction():
            await self.check_pinned_cap([new] if new.pinned else [])
            replaced = await self.store.supersede(new, vectors, own, reason, stamp, audit)
        return new, replaced

    async def _embed(self, texts: list[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        return await self.embedder.embed(texts)

    async def _check_manual_cap(self, memories: list[Memory], cap: int) -> None:
        # counted inside the write transaction, so concurrent requests cannot overshoot it
        for tenant, user_id in {(m.tenant, m.user_id) for m in memories if m.scope == "personal"}:
            adding = sum(1 for m in memories if (m.tenant, m.user_id) == (tenant, user_id) and m.source == "manual")
            have = await self.store.count_personal(tenant, user_id, source="manual")
            if adding and have + adding > cap:
                raise TooManyMemories(
                    f"this user already has {have} manual memories, the most allowed is {cap} "
                    "(memory.max_manual_memories_per_user): delete some first"
                )

    async def check_pinned_cap(self, pinning: list[Memory]) -> None:
        # inside the write transaction, like the manual cap; shared/system pins are an
        # operator's choice and not capped per user
        cap = self.max_pinned_per_user
        for tenant, user_id in {(m.tenant, m.user_id) for m in pinning if m.scope == "personal"}:
            adding = sum(1 for m in pinning if (m.tenant, m.user_id) == (tenant, user_id) and m.scope == "personal")
            have = await self.store.count_pinned(tenant, user_id)
            if have + adding > cap:
                raise TooManyPinned(
                    f"this user already has {have} pinned memories, the most allowed is {cap} "
                    "(memory.max_pinned_per_user): unpin one first"
                )

    # -- change -----------------------------------------------------------------------------
    async def update_own(
        self, tenant: str, user_id: str, memory_id: str, changes: dict[str, Any], *, actor: str
    ) -> Memory | None:
        clean = valid_changes(changes, USER_UPDATE_KEYS)
        m = await self.store.fetch_one(memory_id)
        if not owned(m, tenant, user_id):
            return None
        assert m is not None
        refuse_pending(m, clean)
        if "title" in clean or "content" in clean:
            not_poisoning(clean.get("title", m.title), clean.get("content", m.content))
        return await self.apply(m, clean, actor=actor, action="update")

    async def apply(self, m: Memory, changes: dict[str, Any], *, actor: str, action: str) -> Memory:
        """Write what ``changes`` changes of ``m`` (validated already) with its audit entry."""
        fields = {k: v for k, v in changes.items() if getattr(m, k) != v}
        if "content" in fields and m.scope == "personal":
            # a key is what the text says: an edited memory is never superseded through its old one
            slot = valid_slot(await self.key(fields["content"]))
            if slot != m.slot:
                fields["slot"] = slot
        if "enabled" in fields:
            if fields["enabled"]:
                fields["disabled_reason"] = None
            else:
                fields.setdefault("disabled_reason", changes.get("disabled_reason") or action)
        if not fields:
            return m
        before = {k: getattr(m, k) for k in fields}
        fields["updated_at"] = now_iso()
        new = Memory(**{**m.to_json(), **fields})
        vector: np.ndarray | None = None
        if ("title" in fields or "content" in fields) and self.embedder is not None:
            vector = (await self.embedder.embed([embed_text(new.title, new.content)]))[0]
        async with self.store.transaction():
            if fields.get("pinned") is True:
                await self.check_pinned_cap([new])
            await self.store.write_fields(m.id, fields)
            if vector is not None:
                await self.store.set_embedding(m.id, vector)
            await self.audit(
                action,
                actor,
                new,
                before=before,
                after={k: v for k, v in fields.items() if k != "updated_at"},
            )
        return new

    async def disable_own(self, tenant: str, user_id: str, memory_id: str, reason: str, *, actor: str) -> bool:
        m = await self.store.fetch_one(memory_id)
        if not owned(m, tenant, user_id):
            return False
        assert m is not None
        await self.apply(m, {"enabled": False, "disabled_reason": reason}, actor=actor, action="disable")
        return True

    # -- delete -----------------------------------------------------------------------------
    async def delete(self, memories: list[Memory], *, actor: str) -> int:
        """Delete ``memories`` for good, in one transaction; how many."""
        if not memories:
            return 0
        async with self.store.transaction():
            await self.store.delete([m.id for m in memories])
            for m in memories:
                # ids and kinds only: a deleted memory's text stays nowhere
                await self.audit("delete", actor, m, before={"scope": m.scope, "category": m.category})
        self.purger.schedule()
        return len(memories)

    async def delete_own(self, tenant: str, user_id: str, memory_id: str, *, actor: str) -> bool:
        m = await self.store.fetch_one(memory_id)
        if not owned(m, tenant, user_id):
            return False
        assert m is not None
        return await self.delete([m], actor=actor) == 1

    async def delete_all(self, tenant: str, user_id: str, *, actor: str) -> int:
        mems = await self.store.personal(tenant, user_id)
        async with self.store.transaction():
            await self.store.delete_reflections(tenant, user_id)
            return await self.delete(mems, actor=actor)

    async def refresh(self, memory_id: str) -> None:
        await self.store.write_fields(memory_id, {"updated_at": now_iso()})
