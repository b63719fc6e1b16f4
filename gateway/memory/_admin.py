"""The operator's role of the memory service: any user's memories, promotion, tenant-wide
statistics and the audit log. ``tenant=None`` means all tenants."""

from __future__ import annotations

from typing import Any

from gateway.store import AuditEntry, MemoryStore, TenantStats, UserSummary

from ._clock import now_iso
from ._validate import ADMIN_UPDATE_KEYS, not_poisoning
from ._validate import changes as valid_changes
from ._writes import MemoryWrites, refuse_pending
from .types import Memory


class Operator:
    def __init__(self, store: MemoryStore, writes: MemoryWrites) -> None:
        self.store = store
        self.writes = writes

    async def list_users(self, tenant: str | None) -> list[UserSummary]:
        """Users with personal memories, sorted by tenant and user."""
        return await self.store.users(tenant)

    async def get(self, memory_id: str) -> Memory | None:
        return await self.store.fetch_one(memory_id)

    async def update(self, memory_id: str, changes: dict[str, Any], *, actor: str) -> Memory | None:
        """Change any memory (also ``score`` and ``disabled_reason``); None if missing."""
        clean = valid_changes(changes, ADMIN_UPDATE_KEYS)
        m = await self.store.fetch_one(memory_id)
        if m is None:
            return None
        refuse_pending(m, clean)
        if "title" in clean or "content" in clean:
            not_poisoning(clean.get("title", m.title), clean.get("content", m.content))
        return await self.writes.apply(m, clean, actor=actor, action="update")

    async def delete(self, memory_id: str, *, actor: str) -> bool:
        m = await self.store.fetch_one(memory_id)
        return m is not None and await self.writes.delete([m], actor=actor) == 1

    async def promote(self, memory_id: str, *, actor: str) -> Memory | None:
        """Personal -> shared: the memory leaves its owner's partition for the tenant's shared
        one; the former owner stays recorded in the audit entry."""
        m = await self.store.fetch_one(memory_id)
        if m is None:
            return None
        if m.scope != "personal":
            return m
        # a shared memory reaches every user of the tenant: what the learner or the user
        # stored before the check widened is checked again here
        not_poisoning(m.title, m.content)
        new = Memory(**{**m.to_json(), "scope": "shared", "user_id": "", "updated_at": now_iso()})
        async with self.store.transaction():
            await self.store.write_fields(m.id, {"scope": "shared", "user_id": "", "updated_at": new.updated_at})
            await self.writes.audit(
                "promote",
                actor,
                m,
                before={"scope": "personal", "user_id": m.user_id},
                after={"scope": "shared"},
            )
        return new

    async def stats(self, tenant: str | None) -> TenantStats:
        return await self.store.admin_stats(tenant)

    async def audit_log(
        self, *, tenant: str | None = None, limit: int = 100, offset: int = 0
    ) -> tuple[list[AuditEntry], int]:
        """Audit entries, newest first, and the total."""
        return await self.store.audit_entries(tenant, limit=limit, offset=offset)
