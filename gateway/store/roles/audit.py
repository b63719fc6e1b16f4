"""The audit log of memory changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..records import AuditEntry


class AuditLog(Protocol):
    """The audit log: appended on every memory change, listed by operators, copied by backup."""

    async def audit(self, entry: AuditEntry) -> None: ...
    async def audit_entries(self, tenant: str | None, *, limit: int, offset: int) -> tuple[list[AuditEntry], int]:
        """Stored entries, newest first, and their total."""
        ...

    async def audit_after(self, after_id: int, limit: int) -> list[AuditEntry]:
        """Audit entries with an id above ``after_id``, oldest first (as ``audit_entries``)."""
        ...

    async def import_audit(self, entries: Sequence[AuditEntry]) -> None:
        """Append entries in their order, times kept (new ids: an entry's own is not written)."""
        ...
