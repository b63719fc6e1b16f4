"""Operators' views over users and tenants, and the tenant move (``roles.operators.Operators``)."""

from __future__ import annotations

from typing import Any

from ..keyword_index import SHARED_OWNER
from ..records import Change, TenantConflict, TenantStats, UserSummary
from .base import SqlBase, Writer

# the learning tables, keyed by (tenant, user_id), that a tenant move carries
_LEARNING_TABLES = ("learning_log", "learning_jobs")
_USAGE_SUMS = ("prompt_tokens", "completion_tokens", "jobs")
# tables whose rows follow their tenant in a move, and are not counted (they hold no memory
# text): the citation log, the reviews and the reflection reports (a user's reports follow
# them; a whole tenant's also carry its tenant reports)
_FOLLOWERS = ("memory_uses", "memory_reviews", "reflections")


def _only_user(user_id: str | None, column: str = "user_id") -> tuple[str, list[Any]]:
    return (f" AND {column} = ?", [user_id]) if user_id is not None else ("", [])


class SqlOperators(SqlBase):
    async def users(self, tenant: str | None) -> list[UserSummary]:
        where, args = ("tenant = ? AND ", [tenant]) if tenant is not None else ("", [])
        rows = await self._query(
            f"SELECT tenant, user_id, COUNT(*), COUNT(*) FILTER (WHERE enabled) FROM memories WHERE {where}"
            "scope = 'personal' GROUP BY tenant, user_id ORDER BY tenant, user_id",
            args,
        )
        return [UserSummary(tenant=r[0], user_id=r[1], memories=int(r[2]), enabled=int(r[3])) for r in rows]

    async def tenants(self) -> list[str]:
        return [str(r[0]) for r in await self._query("SELECT DISTINCT tenant FROM memories ORDER BY tenant")]

    async def admin_stats(self, tenant: str | None) -> TenantStats:
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])
        and_where = f"{where} AND" if where else "WHERE"
        totals = await self._query(f"SELECT COUNT(*), COUNT(*) FILTER (WHERE enabled) FROM memories {where}", args)
        users = await self._count(
            f"SELECT COUNT(*) FROM (SELECT DISTINCT tenant, user_id FROM memories {and_where} scope = 'personal') u",
            args,
        )

        async def grouped(column: str) -> dict[str, int]:
            rows = await self._query(f"SELECT {column}, COUNT(*) FROM memories {where} GROUP BY {column}", args)
            return {str(r[0]): int(r[1]) for r in rows}

        per_day = await self._query(
            f"SELECT substr(created_at, 1, 10) AS day, COUNT(*) FROM memories {and_where} source = 'auto' "
            "GROUP BY day ORDER BY day",
            args,
        )
        total, enabled = totals[0]
        return TenantStats(
            total=int(total),
            enabled=int(enabled or 0),
            users=users,
            by_category=await grouped("category"),
            by_kind=await grouped("kind"),
            by_scope=await grouped("scope"),
            by_source=await grouped("source"),
            learned_per_day={str(r[0]): int(r[1]) for r in per_day},
        )

    async def learned_per_day(self, since: str, tenant: str | None) -> list[tuple[str, str, int]]:
        extra, args = ("AND tenant = ?", [tenant]) if tenant else ("", [])
        rows = await self._query(
            "SELECT substr(created_at, 1, 10) AS day, category, COUNT(*) FROM memories "
            f"WHERE source = 'auto' AND created_at >= ? {extra} GROUP BY day, category ORDER BY day, category",
            [since, *args],
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def tenants_holding(self, user_id: str) -> list[tuple[str, int]]:
        rows = await self._query(
            "SELECT tenant, COUNT(*) AS n FROM memories WHERE user_id = ? AND scope = 'personal' "
            "GROUP BY tenant ORDER BY n DESC, tenant",
            (user_id,),
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    async def move_tenant(self, source: str, target: str, user_id: str | None) -> dict[str, int]:
        user_sql, user_args = _only_user(user_id)
        moving = [target, source, *user_args]
        async with self._writer() as w:
            settings = await self._move_settings(w, source, target, user_id)
            scope_sql = " AND scope = 'personal'" if user_id is not None else ""
            memories = await w.execute(f"UPDATE memories SET tenant = ? WHERE tenant = ?{scope_sql}{user_sql}", moving)
            audit = await w.execute(f"UPDATE audit_log SET tenant = ? WHERE tenant = ?{user_sql}", moving)
            for table in _FOLLOWERS:
                await w.execute(f"UPDATE {table} SET tenant = ? WHERE tenant = ?{user_sql}", moving)
            learning = await self._move_learning_rows(w, source, target, user_id)
            if memories:
                w.reindex()
            who = user_id if user_id is not None else "*"
            for tenant in (source, target):
                if memories:
                    w.changed(Change("memories", tenant, who))
                    if user_id is None:
                        w.changed(Change("memories", tenant, SHARED_OWNER))
                if settings:
                    w.changed(Change("settings", tenant, who))
        return {"memories": memories, "settings": settings, "audit_entries": audit, "learning_rows": learning}

    async def _move_settings(self, w: Writer, source: str, target: str, user_id: str | None) -> int:
        """Move user settings, first refusing (``TenantConflict``) any the target holds
        differently; settings equal in both tenants leave the source."""
        own_sql, user_args = _only_user(user_id, "o.user_id")
        conflicts = await self._query(
            "SELECT o.user_id FROM user_settings o JOIN user_settings n ON n.tenant = ? AND n.user_id = o.user_id "
            f"WHERE o.tenant = ? AND o.settings <> n.settings{own_sql} ORDER BY o.user_id",
            [target, source, *user_args],
        )
        if conflicts:
            raise TenantConflict([str(r[0]) for r in conflicts])
        same = await w.execute(
            "DELETE FROM user_settings AS o WHERE o.tenant = ? AND EXISTS (SELECT 1 FROM user_settings n "
            f"WHERE n.tenant = ? AND n.user_id = o.user_id){own_sql}",
            [source, target, *user_args],
        )
        user_sql, _ = _only_user(user_id)
        moved = await w.execute(
            f"UPDATE user_settings SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
        )
        return same + moved

    async def _move_learning_rows(self, w: Writer, source: str, target: str, user_id: str | None) -> int:
        """The learning log and jobs move; usage is summed per day into the target's."""
        user_sql, user_args = _only_user(user_id)
        moved = 0
        for table in _LEARNING_TABLES:
            moved += await w.execute(
                f"UPDATE {table} SET tenant = ? WHERE tenant = ?{user_sql}", [target, source, *user_args]
            )
        sums = ", ".join(_USAGE_SUMS)
        added = ", ".join(f"{c} = learning_usage.{c} + excluded.{c}" for c in _USAGE_SUMS)
        await w.execute(
            f"INSERT INTO learning_usage (tenant, user_id, day, {sums}) SELECT ?, user_id, day, {sums} "
            f"FROM learning_usage WHERE tenant = ?{user_sql} "
            f"ON CONFLICT (tenant, user_id, day) DO UPDATE SET {added}",
            [target, source, *user_args],
        )
        return moved + await w.execute(f"DELETE FROM learning_usage WHERE tenant = ?{user_sql}", [source, *user_args])
