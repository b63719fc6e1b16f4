"""The operators' views across users and tenants, and moving a tenant's rows."""

from __future__ import annotations

from typing import Protocol

from ..records import TenantStats, UserSummary


class Operators(Protocol):
    """Operators' views over users and tenants, and the tenant move."""

    async def users(self, tenant: str | None) -> list[UserSummary]:
        """Users with personal memories, sorted by tenant and user."""
        ...

    async def tenants(self) -> list[str]: ...
    async def admin_stats(self, tenant: str | None) -> TenantStats: ...

    async def learned_per_day(self, since: str, tenant: str | None) -> list[tuple[str, str, int]]:
        """(day, category, memories learned) for auto memories created since ``since``."""
        ...

    async def tenants_holding(self, user_id: str) -> list[tuple[str, int]]:
        """(tenant, personal memories) of every tenant holding ``user_id``, most first."""
        ...

    async def move_tenant(self, source: str, target: str, user_id: str | None) -> dict[str, int]:
        """Move memories (only ``user_id``'s personal ones when given; else shared/system too),
        settings, audit entries and learning rows (log, jobs, usage summed per day) from
        ``source`` to ``target``. Raises ``types.TenantConflict`` before writing anything when
        the target holds different settings for a user; equal settings just leave the source.
        Answers counts: memories, settings, audit_entries, learning_rows."""
        ...
