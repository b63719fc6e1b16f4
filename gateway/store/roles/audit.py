"""The audit log of memory changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class AuditLog(Protocol):
    """The audit log: appended on every memory change, listed by operators, copied by backup."""

    async def audit(self, entry: dict[str, Any]) -> None: ...
    async def audit_entries(
        self, tenant: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]: ...
    async def audit_after(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        """Audit entries with an id above ``after_id``, oldest first (as ``audit_entries``)."""
        ...

    async def import_audit(self, entries: Sequence[dict[str, Any]]) -> None:
        """Append another store's audit entries in their order, times kept (new ids)."""
        ...
