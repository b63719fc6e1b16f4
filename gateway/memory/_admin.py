"""Admin operations of ``MemoryService`` (SPEC section 6): any user's memories, promotion,
tenant-wide statistics and the audit log. ``tenant=None`` means all tenants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from . import _validate
from ._clock import now_iso
from .types import Memory

if TYPE_CHECKING:
    import numpy as np

    from .sqlite_store import SQLiteMemoryStore


class AdminMixin:
    if TYPE_CHECKING:  # provided by MemoryService
        _store: SQLiteMemoryStore

        async def _apply(self, m: Memory, changes: dict[str, Any], *, actor: str, action: str) -> Memory: ...
        async def _delete(self, memories: list[Memory], *, actor: str) -> int: ...
        async def _audit(
            self,
            action: str,
            actor: str,
            m: Memory | None,
            *,
            before: Any = None,
            after: Any = None,
        ) -> None: ...
        async def _index_add(self, memories: list[Memory], vectors: np.ndarray) -> None: ...
        async def _index_remove(self, memories: list[Memory]) -> None: ...
        def _changed(self, memories: list[Memory]) -> None: ...

    async def list_users(self, tenant: str | None) -> list[dict[str, Any]]:
        """Users with personal memories: tenant, user_id, memories, enabled."""
        where, args = ("tenant = ? AND ", [tenant]) if tenant is not None else ("", [])
        rows = await self._store.rows(
            f"SELECT tenant, user_id, COUNT(*), SUM(enabled) FROM memories WHERE {where}"
            "scope = 'personal' GROUP BY tenant, user_id ORDER BY tenant, user_id",
            args,
        )
        return [{"tenant": r[0], "user_id": r[1], "memories": int(r[2]), "enabled": int(r[3])} for r in rows]

    async def admin_get(self, memory_id: str) -> Memory | None:
        return await self._store.fetch_one(memory_id)

    async def admin_update(self, memory_id: str, changes: dict[str, Any], *, actor: str) -> Memory | None:
        """Change any memory (also ``score`` and ``disabled_reason``); None if missing."""
        clean = _validate.changes(changes, _validate.ADMIN_UPDATE_KEYS)
        m = await self._store.fetch_one(memory_id)
        if m is None:
            return None
        return await self._apply(m, clean, actor=actor, action="update")

    async def admin_delete(self, memory_id: str, *, actor: str) -> bool:
        m = await self._store.fetch_one(memory_id)
        return m is not None and await self._delete([m], actor=actor) == 1

    async def promote(self, memory_id: str, *, actor: str) -> Memory | None:
        """Personal -> shared: the memory leaves its owner's partition for the tenant's shared
        one; the former owner stays recorded in the audit entry."""
        m = await self._store.fetch_one(memory_id)
        if m is None:
            return None
        if m.scope != "personal":
            return m
        new = Memory(**{**m.to_json(), "scope": "shared", "user_id": "", "updated_at": now_iso()})
        async with self._store.transaction():
            await self._store.write_fields(m.id, {"scope": "shared", "user_id": "", "updated_at": new.updated_at})
            await self._audit(
                "promote",
                actor,
                m,
                before={"scope": "personal", "user_id": m.user_id},
                after={"scope": "shared"},
            )
            await self._store.bump_generation()
        self._changed([m, new])
        await self._index_remove([m])
        vec = await self._store.embedding(m.id)
        if vec is not None and new.enabled:
            await self._index_add([new], vec.reshape(1, -1))
        return new

    async def admin_stats(self, tenant: str | None) -> dict[str, Any]:
        """Totals, by_category, by_scope, by_source, users and learned_per_day (auto)."""
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])

        async def grouped(column: str) -> dict[str, int]:
            rows = await self._store.rows(f"SELECT {column}, COUNT(*) FROM memories {where} GROUP BY {column}", args)
            return {str(r[0]): int(r[1]) for r in rows}

        and_where = f"{where} AND" if where else "WHERE"
        per_day = await self._store.rows(
            f"SELECT substr(created_at, 1, 10) AS day, COUNT(*) FROM memories {and_where} "
            "source = 'auto' GROUP BY day ORDER BY day",
            args,
        )
        total = await self._store.scalar(f"SELECT COUNT(*) FROM memories {where}", args)
        enabled = await self._store.scalar(f"SELECT COUNT(*) FROM memories {and_where} enabled = 1", args)
        users = await self._store.scalar(
            f"SELECT COUNT(DISTINCT tenant || char(0) || user_id) FROM memories {and_where} scope = 'personal'",
            args,
        )
        return {
            "total": total,
            "enabled": enabled,
            "users": users,
            "by_category": await grouped("category"),
            "by_scope": await grouped("scope"),
            "by_source": await grouped("source"),
            "learned_per_day": {str(r[0]): int(r[1]) for r in per_day},
        }

    async def audit_log(
        self, *, tenant: str | None = None, limit: int = 100, offset: int = 0
    ) -> tuple[list[dict[str, Any]], int]:
        """Audit entries, newest first, and the total."""
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])
        total = await self._store.scalar(f"SELECT COUNT(*) FROM audit_log {where}", args)
        rows = await self._store.rows(
            "SELECT id, time, actor, action, tenant, user_id, memory_id, before, after "
            f"FROM audit_log {where} ORDER BY id DESC LIMIT ? OFFSET ?",
            [*args, max(0, int(limit)), max(0, int(offset))],
        )
        keys = ("id", "time", "actor", "action", "tenant", "user_id", "memory_id")
        out = []
        for r in rows:
            entry: dict[str, Any] = dict(zip(keys, r[:7], strict=True))
            entry["before"] = orjson.loads(r[7]) if r[7] else None
            entry["after"] = orjson.loads(r[8]) if r[8] else None
            out.append(entry)
        return out, total
