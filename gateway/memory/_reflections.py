"""Reflection reports of ``MemoryService`` (a mixin): stored, listed and deleted with the
user's data. Built by ``gateway.learning.reflection``."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from ._clock import now_iso

if TYPE_CHECKING:
    from gateway.store import MemoryStore, Reflection, ReflectionKind


class ReflectionMixin:
    if TYPE_CHECKING:  # provided by MemoryService
        store: MemoryStore

    async def add_reflection(self, reflection: Reflection) -> None:
        await self.store.add_reflection(reflection)

    async def latest_reflection(self, tenant: str, user_id: str) -> Reflection | None:
        """The user's newest report (``user_id`` "": the tenant's), None without any."""
        found, _ = await self.store.reflections(tenant, user_id, limit=1, offset=0)
        return found[0] if found else None

    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        """Newest first, and the total; ``None`` filters nothing (``kind``: users' or tenants' only)."""
        return await self.store.reflections(tenant, user_id, limit=limit, offset=offset, kind=kind)

    async def prune_reflections(self, retention_days: int) -> int:
        """Delete reports older than ``retention_days`` days (with the citation log's retention)."""
        return await self.store.prune_reflections(now_iso(-timedelta(days=retention_days)))
