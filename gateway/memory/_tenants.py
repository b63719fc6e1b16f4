"""The tenants role of the memory service: which tenants hold a user id, and moving a
tenant's data to another tenant (an API key rotated in pass-through mode, or a move to a
fixed ``auth.tenant``).

``move_tenant`` moves memories, user settings, the audit trail and the learning tables' rows
(log, queued jobs, usage) in one transaction (``MemoryStore.move_tenant``). It is idempotent
(a second run finds nothing left to move) and refuses, before writing anything, to overwrite
a user's settings that differ in the target tenant. Memory ids are unique across tenants, so
they never collide. Derived indexes are keyed by tenant: the store rebuilds what it keeps in
memory, and saved vector files are stale, so a gateway started later rebuilds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from gateway.store import MemoryStore

from ._writes import MemoryWrites
from .types import MemoryValidationError, TenantConflict

__all__ = ["MAX_TENANT_LENGTH", "TenantConflict", "TenantMove", "Tenants"]

MAX_TENANT_LENGTH = 128


@dataclass(frozen=True, slots=True)
class TenantMove:
    """What ``move_tenant`` moved (counts of rows)."""

    memories: int
    settings: int
    audit_entries: int
    learning_rows: int

    @property
    def anything(self) -> bool:
        return bool(self.memories or self.settings or self.audit_entries or self.learning_rows)


class Tenants:
    def __init__(self, store: MemoryStore, writes: MemoryWrites) -> None:
        self.store = store
        self.writes = writes

    async def tenants_of(self, user_id: str) -> list[tuple[str, int]]:
        """(tenant, personal memories) for every tenant holding ``user_id``, most first."""
        return await self.store.tenants_holding(user_id)

    async def move_tenant(self, source: str, target: str, *, user_id: str | None = None, actor: str) -> TenantMove:
        """Move ``source``'s data (only ``user_id``'s when given) to ``target``; see the module
        docstring. Without ``user_id`` the tenant's shared and system memories move too."""
        if not source:
            raise MemoryValidationError("from", "must be a non-empty tenant")
        if not target or len(target) > MAX_TENANT_LENGTH:
            raise MemoryValidationError("to", f"must be a tenant of 1 to {MAX_TENANT_LENGTH} characters")
        if source == target:
            raise MemoryValidationError("to", "is the same tenant as from")
        async with self.store.transaction():
            moved = TenantMove(**(await self.store.move_tenant(source, target, user_id)))
            if moved.anything:
                await self.writes.audit(
                    "move_tenant",
                    actor,
                    None,
                    tenant=target,
                    user_id=user_id,
                    before={"tenant": source},
                    after={"tenant": target, "memories": moved.memories},
                )
        return moved
