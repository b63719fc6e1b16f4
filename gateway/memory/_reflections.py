"""The reflection reports role of the memory service: stored, listed and deleted with the
user's data. Built by ``gateway.learning.upkeep.reflection``."""

from __future__ import annotations

from datetime import timedelta

from gateway.store import MemoryStore, Reflection, ReflectionKind

from ._clock import now_iso


class ReflectionReports:
    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    async def add(self, reflection: Reflection) -> None:
        await self.store.add_reflection(reflection)

    async def latest(self, tenant: str, user_id: str) -> Reflection | None:
        """The user's newest report (``user_id`` "": the tenant's), None without any."""
        found, _ = await self.store.reflections(tenant, user_id, limit=1, offset=0)
        return found[0] if found else None

    async def page(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        """Newest first, and the total; ``None`` filters nothing (``kind``: users' or tenants' only)."""
        return await self.store.reflections(tenant, user_id, limit=limit, offset=offset, kind=kind)

    async def prune(self, retention_days: int) -> int:
        """Delete reports older than ``retention_days`` days (with the citation log's retention)."""
        return await self.store.prune_reflections(now_iso(-timedelta(days=retention_days)))
