"""Tenant-level operations of ``MemoryService``: which tenants hold a user id, and moving a
tenant's data to another tenant (an API key rotated in pass-through mode, or a move to a
fixed ``auth.tenant``).

``move_tenant`` moves memories, user settings, the audit trail and the learning tables' rows
(log, queued jobs, usage) in one transaction. It is idempotent (a second run finds nothing
left to move) and refuses, before writing anything, to overwrite a user's settings that
differ in the target tenant. Memory ids are unique across tenants, so they never collide.
The derived vector index is keyed by tenant: the move bumps its generation, so saved index
files are stale and the gateway rebuilds them at its next start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._indexing import rebuild
from .types import MemoryValidationError

if TYPE_CHECKING:
    from .sqlite_store import SQLiteMemoryStore
    from .types import Memory
    from .vector_index import PartitionedIndex

MAX_TENANT_LENGTH = 128
# the learning queue's tables (gateway.learning.store) live in the same file when the gateway
# has run; each is keyed by (tenant, user_id)
_LEARNING_TABLES = ("learning_log", "learning_jobs")
_USAGE_SUMS = ("prompt_tokens", "completion_tokens", "jobs")


class TenantConflict(Exception):
    """The target tenant already holds different settings for these user ids."""

    def __init__(self, user_ids: list[str]) -> None:
        super().__init__(f"the target tenant already has different settings for users: {', '.join(user_ids)}")
        self.user_ids = user_ids


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


def _only_user(user_id: str | None, column: str) -> tuple[str, list[Any]]:
    return (f" AND {column} = ?", [user_id]) if user_id is not None else ("", [])


class TenantMixin:
    if TYPE_CHECKING:  # provided by MemoryService
        _store: SQLiteMemoryStore
        _index: PartitionedIndex | None
        _settings_cache: dict[tuple[str, str], dict[str, Any]]

        def _moved(self, source: str, target: str) -> None: ...

        async def _audit(
            self,
            action: str,
            actor: str,
            m: Memory | None,
            *,
            tenant: str | None = None,
            user_id: str | None = None,
            before: Any = None,
            after: Any = None,
        ) -> None: ...

    async def tenants_of(self, user_id: str) -> list[tuple[str, int]]:
        """(tenant, personal memories) for every tenant holding ``user_id``, most first."""
        rows = await self._store.rows(
            "SELECT tenant, COUNT(*) AS n FROM memories WHERE user_id = ? AND scope = 'personal' "
            "GROUP BY tenant ORDER BY n DESC, tenant",
            (user_id,),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    async def move_tenant(self, source: str, target: str, *, user_id: str | None = None, actor: str) -> TenantMove:
        """Move ``source``'s data (only ``user_id``'s when given) to ``target``; see the module
        docstring. Without ``user_id`` the tenant's shared and system memories move too."""
        if not source:
            raise MemoryValidationError("from", "must be a non-empty tenant")
        if not target or len(target) > MAX_TENANT_LENGTH:
            raise MemoryValidationError("to", f"must be a tenant of 1 to {MAX_TENANT_LENGTH} characters")
        if source == target:
            raise MemoryValidationError("to", "is the same tenant as from")
        user_sql, user_args = _only_user(user_id, "user_id")
        db = self._store.db
        async with self._store.transaction():
            settings = await self._move_settings(source, target, user_id)
            scope_sql = " AND scope = 'personal'" if user_id is not None else ""
            memories = await db.execute(
                f"UPDATE memories SET tenant = ? WHERE tenant = ?{scope_sql}{user_sql}", [target, source, *user_args]
            )
            audit = await db.execute(
                f"UPDATE audit_log SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
            )
            learning = await self._move_learning_rows(source, target, user_sql, user_args)
            moved = TenantMove(memories.rowcount, settings, audit.rowcount, learning)
            if moved.memories:
                await self._store.bump_generation()
            if moved.anything:
                await self._audit(
                    "move_tenant",
                    actor,
                    None,
                    tenant=target,
                    user_id=user_id,
                    before={"tenant": source},
                    after={"tenant": target, "memories": moved.memories},
                )
        self._settings_cache.clear()
        if moved.memories:
            self._moved(source, target)
        if moved.memories and self._index is not None:
            await rebuild(self._store, self._index)
        return moved

    async def _move_settings(self, source: str, target: str, user_id: str | None) -> int:
        """Move user settings, first refusing (``TenantConflict``) any the target holds
        differently; settings equal in both tenants leave the source."""
        own_sql, user_args = _only_user(user_id, "o.user_id")
        conflicts = await self._store.rows(
            "SELECT o.user_id FROM user_settings o JOIN user_settings n ON n.tenant = ? AND n.user_id = o.user_id "
            f"WHERE o.tenant = ? AND o.settings != n.settings{own_sql} ORDER BY o.user_id",
            [target, source, *user_args],
        )
        if conflicts:
            raise TenantConflict([str(r[0]) for r in conflicts])
        db = self._store.db
        same = await db.execute(
            "DELETE FROM user_settings AS o WHERE o.tenant = ? AND EXISTS (SELECT 1 FROM user_settings n "
            f"WHERE n.tenant = ? AND n.user_id = o.user_id){own_sql}",
            [source, target, *user_args],
        )
        user_sql, _ = _only_user(user_id, "user_id")
        moved = await db.execute(
            f"UPDATE user_settings SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
        )
        return int(same.rowcount + moved.rowcount)

    async def _move_learning_rows(self, source: str, target: str, user_sql: str, user_args: list[Any]) -> int:
        db = self._store.db
        present = {
            str(r[0])
            for r in await self._store.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?", ["learning_%"]
            )
        }
        moved = 0
        for table in _LEARNING_TABLES:
            if table in present:
                cur = await db.execute(
                    f"UPDATE {table} SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
                )
                moved += cur.rowcount
        if "learning_usage" in present:
            sums = ", ".join(_USAGE_SUMS)
            added = ", ".join(f"{c} = {c} + excluded.{c}" for c in _USAGE_SUMS)
            await db.execute(
                f"INSERT INTO learning_usage (tenant, user_id, day, {sums}) SELECT ?, user_id, day, {sums} "
                f"FROM learning_usage WHERE tenant = ?{user_sql} "
                f"ON CONFLICT (tenant, user_id, day) DO UPDATE SET {added}",
                [target, source, *user_args],
            )
            cur = await db.execute(f"DELETE FROM learning_usage WHERE tenant = ?{user_sql}", [source, *user_args])
            moved += cur.rowcount
        return moved
