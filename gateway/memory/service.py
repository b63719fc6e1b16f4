"""``MemoryService``: the memory package's facade, used by the gateway, filters and APIs.

Every method is keyed by tenant (and user) by construction: a user reads their own personal
memories plus their tenant's shared and system memories, and changes only their own
personal ones. The service is handed an open ``store.MemoryStore`` (``backend.open_backend``)
and runs no SQL: the store keeps its indexes in step with what it commits; the service
validates, embeds, audits, and caches user settings (invalidated through ``on_change``, so
a write on another replica reaches this one too). ``open`` prepares the store's vectors for
the embedder (re-embedding everything when the model changed); ``close`` writes buffered
access counts and saves derived vector files, and leaves the store open (its owner closes it).
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import logging
from collections.abc import Callable, Collection, Sequence
from typing import Any, Literal, TypeVar

import numpy as np

from gateway.errors import TooManyMemories, TooManyPinned
from gateway.store import Change, MemoryStore, PartitionRows, Use, Visibility
from gateway.store.offload import run_cpu

from . import _validate
from ._access import AccessCounter
from ._admin import AdminMixin
from ._clock import now_iso
from ._consolidate import ConsolidationMixin
from ._indexing import embed_missing, embed_text
from ._new import stored
from ._pinned import PinnedCache
from ._purge import DeletedTextPurger
from ._reflections import ReflectionMixin
from ._reviews import ReviewMixin, refuse_pending
from ._tenants import TenantMixin
from ._user_data import UserDataMixin
from ._uses import UseLog
from .embedders import Embedder
from .recall import RecallSettings, RecallStats
from .retrieval import HybridRetriever, RetrievalSettings
from .types import Memory, NewMemory, ScoredMemory
from .working_set import DEFAULT_BUDGET_MB, DEFAULT_MAX_ROWS, WorkingSet, budget_bytes

log = logging.getLogger("memorelay.memory")
T = TypeVar("T")


def _small(memory: Memory) -> dict[str, Any]:
    return {
        "title": memory.title,
        "category": memory.category,
        "kind": memory.kind,
        "scope": memory.scope,
        "enabled": memory.enabled,
    }


class MemoryService(UserDataMixin, AdminMixin, TenantMixin, ReviewMixin, ConsolidationMixin, ReflectionMixin):
    """See the module docstring. ``open`` must be awaited before use; ``ready`` tells."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder | None,
        *,
        retrieval: RetrievalSettings | None = None,
        working_set_mb: float = DEFAULT_BUDGET_MB,
        working_set_max_rows: int = DEFAULT_MAX_ROWS,
        max_pinned_per_user: int = 10,
        recall: RecallSettings | None = None,
        search_min_relevance: float = 0.0,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.retrieval_settings = retrieval or RetrievalSettings()
        self.ready = False
        self._settings_cache: dict[tuple[str, str], dict[str, Any]] = {}
        self._settings_changes = 0  # bumped by every settings change (a read racing one is not cached)
        # learning_enabled of a user with no stored setting (the learning filter's consent option)
        self.learning_default = True
        # decay of auto memories (the learning filter's decay_half_life_days,
        # episode_half_life_days and decay_floor)
        self.decay_half_life_days = 90.0
        self.episode_half_life_days = 30.0
        self.decay_floor = 0.05
        self.index_state = "none"  # "loaded" | "rebuilt" | "reindexed" | "none"
        # the key (``slot``) of a personal memory's text, set by the learning service
        # (``gateway.learning.keys.derive_key``): an edited text gets its key again, or none
        self.key_of: Callable[[str], str | None] | None = None
        self._dim = 0
        self._warming: asyncio.Future[np.ndarray] | None = None
        self._access = AccessCounter(store)
        self._purger = DeletedTextPurger(store)
        self._uses = UseLog(store)
        # L1: the pinned memories injected first on every turn, cached per caller
        self.max_pinned_per_user = max_pinned_per_user
        # the relevance floor of the searches people read (``search(floor=True)``)
        self.search_min_relevance = search_min_relevance
        self._pinned = PinnedCache(store)
        store.on_change(self._pinned.changed)
        # injection's ranking paths beyond relevance, from the citation log held in process
        self.recall = RecallStats(store, recall or RecallSettings(), flush=lambda: self._uses.flush(deadline_s=1.0))
        store.on_change(self.recall.changed)
        self._retriever: HybridRetriever | None = None
        store.on_change(self._changed)
        # retrieval from memory for the users this process serves (0 MB: always the store);
        # a committed change drops the partitions it touched (the store's on_change)
        self.working_set: WorkingSet | None = None
        if budget_bytes(working_set_mb) > 0:
            self.working_set = WorkingSet(store, budget_bytes(working_set_mb), working_set_max_rows)
            store.on_change(self.working_set.changed)

    # -- lifecycle --------------------------------------------------------------------------
    def start_warming(self) -> None:
        """Begin loading the embedder's model (a second of CPU) in the CPU thread now, so it
        overlaps the rest of start-up (opening the store, Presidio's process); ``open`` waits."""
        if self.embedder is not None and self._warming is None:
            self._warming = asyncio.ensure_future(self.embedder.embed(["warm up"]))

    async def open(self, *, warm: Literal["now", "no"] = "now") -> None:
        """Prepare the store's vectors (the store is open already). ``warm="now"``: the
        embedder's model is loaded and memories written without a vector are embedded before
        this returns; ``no``: neither (a read-only command writes nothing, and loads the model
        only if it embeds a query). A remote embedder whose size is unknown is asked once here."""
        if self.embedder is not None:
            self._dim = self.embedder.dim or int((await self.embedder.embed(["warm up"])).shape[1])
            state = await self.store.prepare_vectors(self.embedder.name, self._dim)
            if state == "reindex":
                await self.reindex()
                self.index_state = "reindexed"
            else:
                self.index_state = state
                if warm == "now":
                    self.start_warming()
                    assert self._warming is not None
                    await self._warming
                    await embed_missing(self.store, self.embedder, everything=False)
        self._retriever = HybridRetriever(
            self.store, self.embedder, self.retrieval_settings, self.working_set, self.recall
        )
        self._access.start()
        self._uses.start()
        self.ready = True

    @property
    def warm(self) -> bool:
        """Whether the embedder's model is loaded (always, without an embedder)."""
        return self._warming is None or self._warming.done()

    def _changed(self, change: Change) -> None:
        if change.kind != "settings":
            return
        self._settings_changes += 1
        if change.user_id == "*":
            for key in [k for k in self._settings_cache if k[0] == change.tenant]:
                del self._settings_cache[key]
        else:
            self._settings_cache.pop((change.tenant, change.user_id), None)

    async def checkpoint(self) -> None:
        """Save the derived vector files now (also done by ``close``)."""
        await self.store.save_vectors()

    async def close(self, *, save: bool = True) -> None:
        """Write buffered access counts, purge deleted text and save the vector files (unless
        not ``save``: a read-only command leaves the index folder as it found it)."""
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # start-up failed already
                await self._warming
        if self.ready:
            try:
                if self.working_set is not None:
                    self.working_set.close()
                await self._access.stop()
                await self.recall.stop()
                await self._uses.stop()
                await self._purger.stop()
                if save:
                    await self.checkpoint()
            finally:
                self.ready = False

    async def reindex(self) -> int:
        """Re-embed every memory and rebuild the vector index (the keyword index too)."""
        await self.store.rebuild_keyword_index()
        if self.embedder is None:
            return 0
        done = await embed_missing(self.store, self.embedder, everything=True)
        await self.store.prepare_vectors(self.embedder.name, self._dim, reembedded=True)
        if self.working_set is not None:
            self.working_set.clear()  # every embedding changed
        return done

    # -- helpers ----------------------------------------------------------------------------
    async def _embed(self, texts: list[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        return await self.embedder.embed(texts)

    async def embed_memories(self, pairs: builtins.list[tuple[str, str]]) -> np.ndarray | None:
        """Vectors of memories to be stored, (title, content) each, at background priority
        (a waiting chat's query goes first); None without an embedder."""
        if self.embedder is None or not pairs:
            return None
        return await self.embedder.embed([embed_text(title, content) for title, content in pairs])

    async def personal_rows(self, tenant: str, user_id: str) -> PartitionRows:
        """The user's enabled personal memories with their stored embeddings, in one read."""
        return await self.store.partition_rows(tenant, user_id)

    @staticmethod
    async def background(fn: Callable[..., T], *args: object) -> T:
        """Run CPU work (a numpy scan) on the memory package's CPU thread, behind chat queries."""
        return await run_cpu(fn, *args)

    @staticmethod
    def _entry(
        action: str,
        actor: str,
        m: Memory | None,
        *,
        tenant: str | None = None,
        user_id: str | None = None,
        before: Any = None,
        after: Any = None,
    ) -> dict[str, Any]:
        return {
            "time": now_iso(),
            "actor": actor,
            "action": action,
            "tenant": m.tenant if m else tenant,
            "user_id": m.user_id if m else user_id,
            "memory_id": m.id if m else None,
            "before": before,
            "after": after,
        }

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
    ) -> None:
        entry = self._entry(action, actor, m, tenant=tenant, user_id=user_id, before=before, after=after)
        await self.store.audit(entry)

    # -- create -----------------------------------------------------------------------------
    async def add(
        self, tenant: str, user_id: str, item: NewMemory, *, actor: str, manual_cap: int | None = None
    ) -> Memory:
        """Validate, embed and store one memory; audit "create". With ``manual_cap``, a user
        who already has that many manual personal memories gets ``TooManyMemories``."""
        return (await self.add_many(tenant, user_id, [item], actor=actor, manual_cap=manual_cap))[0]

    async def add_many(
        self, tenant: str, user_id: str, items: list[NewMemory], *, actor: str, manual_cap: int | None = None
    ) -> list[Memory]:
        """Like ``add`` for many items, embedded in batches and stored in one transaction."""
        stamp = now_iso()
        memories = [stored(tenant, user_id, await self._clean(item), stamp) for item in items]
        vectors = await self._embed([embed_text(m.title, m.content) for m in memories])
        async with self.store.transaction():
            if manual_cap is not None:
                await self._check_manual_cap(memories, manual_cap)
            await self._check_pinned_cap([m for m in memories if m.pinned])
            await self.store.insert(memories, vectors)
            for m in memories:
                await self._audit("create", actor, m, after=_small(m))
        return memories

    async def _clean(self, item: NewMemory) -> NewMemory:
        clean = _validate.new_memory(item)
        if clean.slot is None and clean.scope == "personal" and clean.source == "manual":
            clean.slot = _validate.slot(await self._key(clean.content))
        return clean

    async def supersede(
        self, tenant: str, user_id: str, item: NewMemory, olds: Sequence[Memory], why: str, *, actor: str
    ) -> tuple[Memory, builtins.list[str]]:
        """Store ``item`` and disable the user's ``olds`` ("superseded by <new id> (why)") in one
        store transaction, auditing each write. An old memory edited, disabled or deleted since
        it was read is left as it is: the answer names the ids actually disabled."""
        stamp = now_iso()
        new = stored(tenant, user_id, await self._clean(item), stamp)
        vectors = await self._embed([embed_text(new.title, new.content)])
        reason = f"superseded by {new.id} ({why})"
        own = [m for m in olds if self._own(m, tenant, user_id)]
        audit = {new.id: self._entry("create", actor, new, after=_small(new))}
        for m in own:
            before = {"enabled": True, "disabled_reason": m.disabled_reason}
            after = {"enabled": False, "disabled_reason": reason}
            audit[m.id] = self._entry("disable", actor, m, before=before, after=after)
        async with self.store.transaction():
            await self._check_pinned_cap([new] if new.pinned else [])
            replaced = await self.store.supersede(new, vectors, own, reason, stamp, audit)
        return new, replaced

    async def _check_manual_cap(self, memories: builtins.list[Memory], cap: int) -> None:
        # counted inside the write transaction, so concurrent requests cannot overshoot it
        for tenant, user_id in {(m.tenant, m.user_id) for m in memories if m.scope == "personal"}:
            adding = sum(1 for m in memories if (m.tenant, m.user_id) == (tenant, user_id) and m.source == "manual")
            have = await self.store.count_personal(tenant, user_id, source="manual")
            if adding and have + adding > cap:
                raise TooManyMemories(
                    f"this user already has {have} manual memories, the most allowed is {cap} "
                    "(memory.max_manual_memories_per_user): delete some first"
                )

    async def _check_pinned_cap(self, pinning: builtins.list[Memory]) -> None:
        # inside the write transaction, like the manual cap; shared/system pins are an
        # operator's choice and not capped per user
        cap = self.max_pinned_per_user
        for tenant, user_id in {(m.tenant, m.user_id) for m in pinning if m.scope == "personal"}:
            adding = sum(1 for m in pinning if (m.tenant, m.user_id) == (tenant, user_id) and m.scope == "personal")
            have = await self.store.count_pinned(tenant, user_id)
            if have + adding > cap:
                raise TooManyPinned(
                    f"this user already has {have} pinned memories, the most allowed is {cap} "
                    "(memory.max_pinned_per_user): unpin one first"
                )

    # -- read -------------------------------------------------------------------------------
    @staticmethod
    def _visible(m: Memory | None, tenant: str, user_id: str | None) -> bool:
        return (
            m is not None
            and m.tenant == tenant
            and (m.scope != "personal" or (user_id is not None and m.user_id == user_id))
        )

    async def get(self, tenant: str, user_id: str | None, memory_id: str) -> Memory | None:
        """A visible memory (own personal, tenant shared/system), disabled included."""
        m = await self.store.fetch_one(memory_id)
        return m if self._visible(m, tenant, user_id) else None

    async def list(
        self,
        tenant: str,
        user_id: str | None,
        *,
        category: str | None = None,
        scope: str | None = None,
        include_disabled: bool = False,
        limit: int = 50,
        offset: int = 0,
        personal_only: bool = False,
        kind: str | None = None,
    ) -> tuple[builtins.list[Memory], int]:
        """Visible memories, newest first, and the total matching count."""
        where = Visibility(tenant, user_id, category, scope, include_disabled, personal_only, kind)
        return await self.store.list_visible(where, limit=limit, offset=offset)

    async def search(
        self,
        tenant: str,
        user_id: str | None,
        query: str,
        *,
        limit: int = 10,
        category: str | None = None,
        scope: str | None = None,
        include_disabled: bool = False,
        cached_rows: bool = False,
        recall: bool = False,
        conversation: str | None = None,
        kind: str | None = None,
        floor: bool = False,
    ) -> builtins.list[ScoredMemory]:
        """Hybrid retrieval over own personal (none when ``user_id`` is None) + tenant shared
        and system memories, most relevant first. ``cached_rows``: rows may come from the
        working set (injection: their access counts may lag; everything else is current).
        ``recall`` (injection): the relevant head re-ordered by recency, popularity,
        co-occurrence and fatigue in ``conversation`` (``memory.recall``). ``floor``: only hits
        that matched a word or reach ``memory.search_min_relevance`` in cosine (the ``?q=``
        searches of the APIs and consoles, which say "nothing matches" rather than list the
        least unrelated memories)."""
        if self._retriever is None:
            raise RuntimeError("memory service is not open")
        return await self._retriever.search(
            tenant,
            user_id,
            query,
            limit=limit,
            category=category,
            scope=scope,
            include_disabled=include_disabled,
            cached_rows=cached_rows,
            recall=recall,
            conversation=conversation,
            kind=kind,
            min_similarity=self.search_min_relevance if floor else 0.0,
        )

    async def pinned(self, tenant: str, user_id: str | None) -> builtins.list[Memory]:
        """The caller's enabled pinned memories (own personal + tenant shared/system), oldest
        first, from a per-caller cache the store's changes invalidate (``_pinned``). On a
        shared store (PostgreSQL) another replica's change reaches the cache a moment later,
        so the cached rows are confirmed by one read by id, as retrieval confirms the working
        set's: an acknowledged unpin, disable or delete is never injected."""
        rows = await self._pinned.get(tenant, user_id)
        if not rows or not self.store.shared:
            return rows
        current = await self.store.fetch([m.id for m in rows])
        return [
            current[m.id]
            for m in rows
            if m.id in current and current[m.id].pinned and current[m.id].enabled and current[m.id].tenant == tenant
        ]

    def record_uses(
        self,
        tenant: str,
        user_id: str,
        memory_ids: builtins.list[str],
        conversation_id: str | None,
        surface: str,
        pinned: Collection[str] = (),
    ) -> None:
        """Log that these memories went into one response (buffered, written off the chat's
        path); the recall statistics learn it at once, leaving out the ``pinned`` ones."""
        stamp = now_iso()
        uses = [Use(tenant, user_id, mid, conversation_id, surface, stamp) for mid in memory_ids]
        self._uses.record(uses)
        self.recall.record(uses, pinned)

    async def flush_uses(self) -> None:
        """Write the buffered citation log now."""
        await self._uses.flush(deadline_s=5.0)

    async def uses(
        self, tenant: str, user_id: str | None, memory_id: str, *, limit: int, offset: int, everyone: bool = False
    ) -> tuple[builtins.list[dict[str, Any]], int] | None:
        """A visible memory's uses, newest first, and the total (None when not visible). A
        user sees their own uses only (also of a shared memory); ``everyone``: all users'."""
        if await self.get(tenant, user_id, memory_id) is None:
            return None
        await self.flush_uses()
        who = None if everyone else (user_id or "")
        return await self.store.uses(memory_id, tenant, who, limit=limit, offset=offset)

    async def use_counts(
        self, tenant: str, user_id: str | None, ids: Sequence[str], *, everyone: bool = False
    ) -> dict[str, int]:
        """How many responses each memory of a listed page went into (one grouped read): the
        user's own uses (also of a shared memory); ``everyone``: all users' (operators)."""
        await self.flush_uses()  # a no-op unless injections are buffered
        return await self.store.use_counts(tenant, ids, None if everyone else (user_id or ""))

    async def in_slot(self, tenant: str, user_id: str, slot: str) -> builtins.list[Memory]:
        """The user's enabled personal memories holding profile ``slot`` (newest first)."""
        return await self.store.in_slot(tenant, user_id, slot)

    async def nearest(self, tenant: str, user_id: str, text: str, k: int = 3) -> builtins.list[tuple[Memory, float]]:
        """The user's closest enabled personal memories by cosine (for dedup)."""
        if self.embedder is None:
            return []
        qvec = (await self.embedder.embed([text]))[0]
        hits = await self.store.vector_candidates(Visibility(tenant, user_id, scope="personal"), qvec, k)
        found = await self.store.fetch([mid for mid, _ in hits])
        return [
            (found[mid], sim)
            for mid, sim in hits
            if mid in found
            and found[mid].enabled
            and found[mid].user_id == user_id
            and found[mid].tenant == tenant
            and found[mid].scope == "personal"
        ]

    # -- change -----------------------------------------------------------------------------
    def _own(self, m: Memory | None, tenant: str, user_id: str) -> bool:
        return m is not None and m.tenant == tenant and m.scope == "personal" and m.user_id == user_id

    async def update(
        self, tenant: str, user_id: str, memory_id: str, changes: dict[str, Any], *, actor: str
    ) -> Memory | None:
        """Change the user's own personal memory; None if missing or not theirs."""
        clean = _validate.changes(changes, _validate.USER_UPDATE_KEYS)
        m = await self.store.fetch_one(memory_id)
        if not self._own(m, tenant, user_id):
            return None
        assert m is not None
        refuse_pending(m, clean)
        if "title" in clean or "content" in clean:
            _validate.not_poisoning(clean.get("title", m.title), clean.get("content", m.content))
        return await self._apply(m, clean, actor=actor, action="update")

    async def _key(self, content: str) -> str | None:
        if self.key_of is None:
            return None
        return await asyncio.to_thread(self.key_of, content)

    async def _apply(self, m: Memory, changes: dict[str, Any], *, actor: str, action: str) -> Memory:
        fields = {k: v for k, v in changes.items() if getattr(m, k) != v}
        if "content" in fields and m.scope == "personal":
            # a key is what the text says: an edited memory is never superseded through its old one
            slot = _validate.slot(await self._key(fields["content"]))
            if slot != m.slot:
                fields["slot"] = slot
        if "enabled" in fields:
            if fields["enabled"]:
                fields["disabled_reason"] = None
            else:
                fields.setdefault("disabled_reason", changes.get("disabled_reason") or action)
        if not fields:
            return m
        before = {k: getattr(m, k) for k in fields}
        fields["updated_at"] = now_iso()
        new = Memory(**{**m.to_json(), **fields})
        vector: np.ndarray | None = None
        if ("title" in fields or "content" in fields) and self.embedder is not None:
            vector = (await self.embedder.embed([embed_text(new.title, new.content)]))[0]
        async with self.store.transaction():
            if fields.get("pinned") is True:
                await self._check_pinned_cap([new])
            await self.store.write_fields(m.id, fields)
            if vector is not None:
                await self.store.set_embedding(m.id, vector)
            await self._audit(
                action,
                actor,
                new,
                before=before,
                after={k: v for k, v in fields.items() if k != "updated_at"},
            )
        return new

    async def disable(self, tenant: str, user_id: str, memory_id: str, reason: str, *, actor: str) -> bool:
        """Disable the user's own personal memory; it leaves active search."""
        m = await self.store.fetch_one(memory_id)
        if not self._own(m, tenant, user_id):
            return False
        assert m is not None
        await self._apply(m, {"enabled": False, "disabled_reason": reason}, actor=actor, action="disable")
        return True

    async def _delete(self, memories: builtins.list[Memory], *, actor: str) -> int:
        if not memories:
            return 0
        async with self.store.transaction():
            await self.store.delete([m.id for m in memories])
            for m in memories:
                # ids and kinds only: a deleted memory's text stays nowhere (issue 7 item 7)
                await self._audit("delete", actor, m, before={"scope": m.scope, "category": m.category})
        self._purger.schedule()
        return len(memories)

    async def delete(self, tenant: str, user_id: str, memory_id: str, *, actor: str) -> bool:
        """Delete the user's own personal memory for good."""
        m = await self.store.fetch_one(memory_id)
        if not self._own(m, tenant, user_id):
            return False
        assert m is not None
        return await self._delete([m], actor=actor) == 1

    async def delete_all(self, tenant: str, user_id: str, *, actor: str) -> int:
        """Delete every personal memory of the user, and their reflection reports."""
        mems = await self.store.personal(tenant, user_id)
        async with self.store.transaction():
            await self.store.delete_reflections(tenant, user_id)
            return await self._delete(mems, actor=actor)

    async def touch(self, memory_ids: builtins.list[str]) -> None:
        """Count an injection: access_count += 1, last_access_at = now. Never lost: counts
        that cannot be written now (database locked) stay buffered and are written by the
        next touch, the periodic flush or ``close`` (see ``_access``)."""
        await self._access.touch(memory_ids)

    async def refresh(self, memory_id: str) -> None:
        """Bump updated_at (a duplicate was seen again)."""
        await self.store.write_fields(memory_id, {"updated_at": now_iso()})
