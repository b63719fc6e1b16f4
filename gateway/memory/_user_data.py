"""The per-user role of the memory service: counts, statistics, settings and retention
(``max_memories_per_user`` and ``max_per_kind`` eviction and ``retention_days`` expiry, SPEC
section 4 step 7).

Decay: an auto memory's strength is score x 0.5 ** (days since last use / half-life); last use
is its last injection (``last_access_at``) or else its last update; episodes have their own,
usually shorter, half-life (``episode_half_life_days``). The cap and retention evict
the weakest first; retention also removes auto memories weaker than the floor. Pinned, manual
and system memories never decay and are never evicted or expired."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from gateway.store import Change, MemoryStore, PersonalStats

from ._clock import now_iso
from ._policy import MemoryPolicy
from ._writes import MemoryWrites
from .types import MemoryValidationError

_SETTINGS_CACHE_MAX = 100_000


class UserData:
    def __init__(self, store: MemoryStore, writes: MemoryWrites, policy: MemoryPolicy) -> None:
        self.store = store
        self.writes = writes
        self.policy = policy
        self._settings_cache: dict[tuple[str, str], dict[str, Any]] = {}
        self._settings_changes = 0  # bumped by every settings change (a read racing one is not cached)

    def changed(self, change: Change) -> None:
        """The store's ``on_change``: a settings change (on any replica) leaves the cache."""
        if change.kind != "settings":
            return
        self._settings_changes += 1
        if change.user_id == "*":
            for key in [k for k in self._settings_cache if k[0] == change.tenant]:
                del self._settings_cache[key]
        else:
            self._settings_cache.pop((change.tenant, change.user_id), None)

    # -- per-user info ----------------------------------------------------------------------
    async def count_personal(self, tenant: str, user_id: str) -> int:
        return await self.store.count_personal(tenant, user_id)

    async def stats(self, tenant: str, user_id: str) -> PersonalStats:
        """The store's personal totals with the weak, pinned and used counts (``PersonalStats``)."""
        return dataclasses.replace(
            await self.store.personal_stats(tenant, user_id),
            weak=await self.store.count_weak(tenant, user_id, self.policy.decay()),
            pinned=await self.store.count_pinned(tenant, user_id),
            uses=await self.store.count_uses(tenant, user_id),
        )

    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any]:
        # read on every chat with a user (learning filter): served from a cache that the
        # store's on_change callbacks invalidate (a change on any replica)
        cached = self._settings_cache.get((tenant, user_id))
        if cached is not None:
            return dict(cached)
        changes = self._settings_changes
        stored = await self.store.get_settings(tenant, user_id)
        # a user who never chose: learning.consent opt_out learns (True), opt_in does not
        settings: dict[str, Any] = {"learning_enabled": self.policy.learning_default}
        settings.update(stored or {})
        if changes == self._settings_changes:  # no change landed during the read
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
        await self.store.put_settings(tenant, user_id, merged)
        return merged

    # -- retention --------------------------------------------------------------------------
    async def evict_lowest(
        self, tenant: str, user_id: str, keep: int, *, actor: str, protect: Sequence[str] = ()
    ) -> int:
        """Delete the weakest auto memories (disabled first, then decayed strength, access
        count, age) until the user has at most ``keep`` personal memories; pinned and manual
        ones and the ids in ``protect`` (what a learning job just stored) stay."""
        excess = await self.count_personal(tenant, user_id) - max(0, keep)
        if excess <= 0:
            return 0
        victims = await self.store.lowest_value(tenant, user_id, excess, protect, self.policy.decay())
        return await self.writes.delete(victims, actor=actor)

    async def evict_per_kind(
        self, tenant: str, user_id: str, caps: Mapping[str, int], *, actor: str, protect: Sequence[str] = ()
    ) -> int:
        """``evict_lowest`` within each kind: a user over ``caps[kind]`` memories of a kind loses
        the weakest auto ones of that kind (kinds without a cap are not limited)."""
        have = await self.store.count_by_kind(tenant, user_id)
        decay = self.policy.decay()
        evicted = 0
        for kind, cap in caps.items():
            excess = have.get(kind, 0) - max(0, cap)
            if excess > 0:
                victims = await self.store.lowest_value(tenant, user_id, excess, protect, decay, kind=kind)
                evicted += await self.writes.delete(victims, actor=actor)
        return evicted

    async def expire(self, retention_days: int, *, actor: str) -> int:
        """Delete unpinned auto memories never accessed and not created/refreshed for
        ``retention_days`` days, and those whose strength decayed below the floor."""
        cutoff = now_iso(-timedelta(days=retention_days))
        victims = await self.store.expired(cutoff, self.policy.decay())
        return await self.writes.delete(victims, actor=actor)

    async def prune_uses(self, retention_days: int) -> int:
        """Delete citation-log rows older than ``retention_days`` days."""
        return await self.store.prune_uses(now_iso(-timedelta(days=retention_days)))
