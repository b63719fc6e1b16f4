"""Per-user data of ``MemoryService``: counts, statistics, settings and retention
(``max_memories_per_user`` eviction and ``retention_days`` expiry, SPEC section 4 step 7)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import orjson

from ._clock import now_iso
from .types import Memory, MemoryValidationError

if TYPE_CHECKING:
    from .sqlite_store import SQLiteMemoryStore


_SETTINGS_CACHE_MAX = 100_000


class UserDataMixin:
    if TYPE_CHECKING:  # provided by MemoryService
        _store: SQLiteMemoryStore
        _settings_cache: dict[tuple[str, str], dict[str, Any]]
        learning_default: bool

        async def _delete(self, memories: list[Memory], *, actor: str) -> int: ...

    # -- per-user info ----------------------------------------------------------------------
    async def count_personal(self, tenant: str, user_id: str) -> int:
        return await self._store.scalar(
            "SELECT COUNT(*) FROM memories WHERE tenant = ? AND user_id = ? AND scope = 'personal'",
            (tenant, user_id),
        )

    async def stats(self, tenant: str, user_id: str) -> dict[str, Any]:
        """Personal totals: total, enabled, by_category, last_learned_at (newest auto)."""
        rows = await self._store.rows(
            "SELECT category, COUNT(*), SUM(enabled), MAX(CASE WHEN source = 'auto' "
            "THEN created_at END) FROM memories WHERE tenant = ? AND user_id = ? "
            "AND scope = 'personal' GROUP BY category",
            (tenant, user_id),
        )
        learned = [r[3] for r in rows if r[3]]
        return {
            "total": sum(int(r[1]) for r in rows),
            "enabled": sum(int(r[2] or 0) for r in rows),
            "by_category": {r[0]: int(r[1]) for r in rows},
            "last_learned_at": max(learned) if learned else None,
        }

    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any]:
        # read on every chat with a user (learning filter): served from a write-through
        # cache, since this process is the only writer of settings
        cached = self._settings_cache.get((tenant, user_id))
        if cached is not None:
            return dict(cached)
        rows = await self._store.rows(
            "SELECT settings FROM user_settings WHERE tenant = ? AND user_id = ?",
            (tenant, user_id),
        )
        # a user who never chose: learning.consent opt_out learns (True), opt_in does not
        settings: dict[str, Any] = {"learning_enabled": self.learning_default}
        if rows:
            settings.update(orjson.loads(rows[0][0]))
        self._cache_settings(tenant, user_id, settings)
        return dict(settings)

    def _cache_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> None:
        if len(self._settings_cache) >= _SETTINGS_CACHE_MAX:
            self._settings_cache.clear()
        self._settings_cache[(tenant, user_id)] = dict(settings)

    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> dict[str, Any]:
        """Merge ``settings`` (only ``learning_enabled``, a bool) into the user's settings."""
        if not isinstance(settings, dict):
            raise MemoryValidationError("settings", "must be an object")
        for key, value in settings.items():
            if key != "learning_enabled":
                raise MemoryValidationError(str(key), "unknown setting")
            if not isinstance(value, bool):
                raise MemoryValidationError(key, "must be a boolean")
        merged = {**(await self.get_settings(tenant, user_id)), **settings}
        async with self._store.transaction():
            await self._store.db.execute(
                "INSERT INTO user_settings (tenant, user_id, settings, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (tenant, user_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (tenant, user_id, orjson.dumps(merged).decode(), now_iso()),
            )
        self._cache_settings(tenant, user_id, merged)
        return merged

    # -- retention --------------------------------------------------------------------------
    async def evict_lowest(
        self, tenant: str, user_id: str, keep: int, *, actor: str, protect: Sequence[str] = ()
    ) -> int:
        """Delete the lowest-value auto memories (disabled first, then score, access count,
        age) until the user has at most ``keep`` personal memories; manual ones and the ids
        in ``protect`` (what a learning job just stored) stay."""
        excess = await self.count_personal(tenant, user_id) - max(0, keep)
        if excess <= 0:
            return 0
        spared = f" AND m.id NOT IN ({', '.join('?' * len(protect))})" if protect else ""
        victims = await self._store.select(
            "m.tenant = ? AND m.user_id = ? AND m.scope = 'personal' AND m.source = 'auto'" + spared,
            [tenant, user_id, *protect, excess],
            "ORDER BY m.enabled ASC, m.score ASC, m.access_count ASC, m.created_at ASC LIMIT ?",
        )
        return await self._delete(victims, actor=actor)

    async def expire(self, retention_days: int, *, actor: str) -> int:
        """Delete auto memories never accessed and not created/refreshed for
        ``retention_days`` days."""
        cutoff = now_iso(-timedelta(days=retention_days))
        victims = await self._store.select("m.source = 'auto' AND m.access_count = 0 AND m.updated_at < ?", [cutoff])
        return await self._delete(victims, actor=actor)
