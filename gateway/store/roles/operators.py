"""The operators' views across users and tenants, and moving a tenant's rows."""

from __future__ import annotations

from typing import Any, Protocol


class Operators(Protocol):
    """Operators' views over users and tenants, and the tenant move."""

    async def users(self, tenant: str | None) -> list[dict[str, Any]]:
        """{tenant, user_id, memories, enabled} of users with personal memories, sorted."""
        ...

    async def tenants(self) -> list[str]: ...
    async def admin_stats(self, tenant: str | None) -> dict[str, Any]:
        """total, enabled, users (with personal memories), by_category, by_kind, by_scope, by_source,
        learned_per_day (day -> auto memories created)."""
        ...

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
