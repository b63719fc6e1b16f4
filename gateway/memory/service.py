"""``MemoryService``: the memory package's facade, used by the gateway, filters and APIs.

Every method is keyed by tenant (and user) by construction: a user reads their own personal
memories plus their tenant's shared and system memories, and changes only their own
personal ones. The service is handed an open ``store.MemoryStore`` (``backend.open_backend``)
and runs no SQL: the store keeps its indexes in step with what it commits. The service reads
(retrieval, pinned memories, the citation log) and hands everything else to small role
objects it holds, each given only the parts it uses: ``MemoryWrites`` (validate, key, embed,
cap, write and audit every change), ``UserData`` (counts, settings cached and invalidated
through ``on_change``, so a write on another replica reaches this one too, retention),
``Operator``, ``Tenants``, ``ReviewDesk``, ``Consolidation`` and ``ReflectionReports``; they
share one ``MemoryPolicy``. ``open`` prepares the store's vectors for the embedder
(re-embedding everything when the model changed); ``close`` writes buffered access counts and
saves derived vector files, and leaves the store open (its owner closes it).
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Literal, TypeVar

import numpy as np

from gateway.store import (
    AuditEntry,
    MemoryStore,
    PartitionRows,
    PersonalStats,
    Reflection,
    ReflectionKind,
    Review,
    ReviewState,
    TenantStats,
    Use,
    UserSummary,
    Visibility,
)
from gateway.store.offload import run_cpu

from ._access import AccessCounter
from ._admin import Operator
from ._clock import now_iso
from ._consolidate import Consolidation
from ._indexing import embed_missing, embed_text
from ._pinned import PinnedCache
from ._policy import MemoryPolicy
from ._reflections import ReflectionReports
from ._reviews import ReviewDesk
from ._tenants import TenantMove, Tenants
from ._user_data import UserData
from ._uses import UseLog
from ._writes import MemoryWrites
from .embedders import Embedder
from .recall import RecallSettings, RecallStats
from .retrieval import HybridRetriever, RetrievalSettings
from .types import Memory, NewMemory, ScoredMemory
from .working_set import DEFAULT_BUDGET_MB, DEFAULT_MAX_ROWS, WorkingSet, budget_bytes

log = logging.getLogger("memorelay.memory")
T = TypeVar("T")


class MemoryService:
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
        policy: MemoryPolicy | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.retrieval_settings = retrieval or RetrievalSettings()
        self.ready = False
        # the learning side's choices (consent default, decay, keys), shared with the roles
        self.policy = policy or MemoryPolicy()
        self.index_state = "none"  # "loaded" | "rebuilt" | "reindexed" | "none"
        self._dim = 0
        self._warming: asyncio.Future[np.ndarray] | None = None
        self._access = AccessCounter(store)
        self._uses = UseLog(store)
        # L1: the pinned memories injected first on every turn, cached per caller (the cap
        # is checked by every write that pins)
        self._writes = MemoryWrites(store, embedder, self.policy, max_pinned_per_user)
        self._user_data = UserData(store, self._writes, self.policy)
        self._operator = Operator(store, self._writes)
        self._tenants = Tenants(store, self._writes)
        self._reviews = ReviewDesk(store, self._writes)
        self._consolidation = Consolidation(store, self._writes)
        self._reflections = ReflectionReports(store)
        # the relevance floor of the searches people read (``search(floor=True)``)
        self.search_min_relevance = search_min_relevance
        self._pinned = PinnedCache(store)
        store.on_change(self._pinned.changed)
        # injection's ranking paths beyond relevance, from the citation log held in process
        self.recall = RecallStats(store, recall or RecallSettings(), flush=lambda: self._uses.flush(deadline_s=1.0))
        store.on_change(self.recall.changed)
        self._retriever: HybridRetriever | None = None
        store.on_change(self._user_data.changed)
        # retrieval from memory for the users this process serves (0 MB: always the store);
        # a committed change drops the partitions it touched (the store's on_change)
        self.working_set: WorkingSet | None = None
        if budget_bytes(working_set_mb) > 0:
            self.working_set = WorkingSet(store, budget_bytes(working_set_mb), working_set_max_rows)
            store.on_change(self.working_set.changed)

    @property
    def max_pinned_per_user(self) -> int:
        return self._writes.max_pinned_per_user

    # read by the reflection reports (what decayed); set through ``policy``
    @property
    def decay_half_life_days(self) -> float:
        return self.policy.decay_half_life_days

    @property
    def episode_half_life_days(self) -> float:
        return self.policy.episode_half_life_days

    @property
    def decay_floor(self) -> float:
        return self.policy.decay_floor

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
                await self._writes.purger.stop()
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

    async def touch(self, memory_ids: builtins.list[str]) -> None:
        """Count an injection: access_count += 1, last_access_at = now. Never lost: counts
        that cannot be written now (database locked) stay buffered and are written by the
        next touch, the periodic flush or ``close`` (see ``_access``)."""
        await self._access.touch(memory_ids)

    # -- writes (``MemoryWrites``) -----------------------------------------------------------
    async def add(
        self, tenant: str, user_id: str, item: NewMemory, *, actor: str, manual_cap: int | None = None
    ) -> Memory:
        """Validate, embed and store one memory; audit "create". With ``manual_cap``, a user
        who already has that many manual personal memories gets ``TooManyMemories``."""
        return (await self.add_many(tenant, user_id, [item], actor=actor, manual_cap=manual_cap))[0]

    async def add_many(
        self, tenant: str, user_id: str, items: builtins.list[NewMemory], *, actor: str, manual_cap: int | None = None
    ) -> builtins.list[Memory]:
        """Like ``add`` for many items, embedded in batches and stored in one transaction."""
        return await self._writes.add_many(tenant, user_id, items, actor=actor, manual_cap=manual_cap)

    async def supersede(
        self, tenant: str, user_id: str, item: NewMemory, olds: Sequence[Memory], why: str, *, actor: str
    ) -> tuple[Memory, builtins.list[str]]:
        """Store ``item`` and disable the user's ``olds`` ("superseded by <new id> (why)") in one
        store transaction, auditing each write. An old memory edited, disabled or deleted since
        it was read is left as it is: the answer names the ids actually disabled."""
        return await self._writes.supersede(tenant, user_id, item, olds, why, actor=actor)

    async def update(
        self, tenant: str, user_id: str, memory_id: str, changes: dict[str, Any], *, actor: str
    ) -> Memory | None:
        """Change the user's own personal memory; None if missing or not theirs."""
        return await self._writes.update_own(tenant, user_id, memory_id, changes, actor=actor)

    async def disable(self, tenant: str, user_id: str, memory_id: str, reason: str, *, actor: str) -> bool:
        """Disable the user's own personal memory; it leaves active search."""
        return await self._writes.disable_own(tenant, user_id, memory_id, reason, actor=actor)

    async def delete(self, tenant: str, user_id: str, memory_id: str, *, actor: str) -> bool:
        """Delete the user's own personal memory for good."""
        return await self._writes.delete_own(tenant, user_id, memory_id, actor=actor)

    async def delete_all(self, tenant: str, user_id: str, *, actor: str) -> int:
        """Delete every personal memory of the user, and their reflection reports."""
        return await self._writes.delete_all(tenant, user_id, actor=actor)

    async def refresh(self, memory_id: str) -> None:
        """Bump updated_at (a duplicate was seen again)."""
        await self._writes.refresh(memory_id)

    # -- per user (``UserData``) ------------------------------------------------------------
    async def count_personal(self, tenant: str, user_id: str) -> int:
        return await self._user_data.count_personal(tenant, user_id)

    async def stats(self, tenant: str, user_id: str) -> PersonalStats:
        return await self._user_data.stats(tenant, user_id)

    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any]:
        return await self._user_data.get_settings(tenant, user_id)

    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> dict[str, Any]:
        return await self._user_data.put_settings(tenant, user_id, settings)

    async def evict_lowest(
        self, tenant: str, user_id: str, keep: int, *, actor: str, protect: Sequence[str] = ()
    ) -> int:
        return await self._user_data.evict_lowest(tenant, user_id, keep, actor=actor, protect=protect)

    async def evict_per_kind(
        self, tenant: str, user_id: str, caps: Mapping[str, int], *, actor: str, protect: Sequence[str] = ()
    ) -> int:
        return await self._user_data.evict_per_kind(tenant, user_id, caps, actor=actor, protect=protect)

    async def expire(self, retention_days: int, *, actor: str) -> int:
        return await self._user_data.expire(retention_days, actor=actor)

    async def prune_uses(self, retention_days: int) -> int:
        return await self._user_data.prune_uses(retention_days)

    # -- operators (``Operator``, ``Tenants``) ------------------------------------------------
    async def list_users(self, tenant: str | None) -> builtins.list[UserSummary]:
        return await self._operator.list_users(tenant)

    async def admin_get(self, memory_id: str) -> Memory | None:
        return await self._operator.get(memory_id)

    async def admin_update(self, memory_id: str, changes: dict[str, Any], *, actor: str) -> Memory | None:
        return await self._operator.update(memory_id, changes, actor=actor)

    async def admin_delete(self, memory_id: str, *, actor: str) -> bool:
        return await self._operator.delete(memory_id, actor=actor)

    async def promote(self, memory_id: str, *, actor: str) -> Memory | None:
        return await self._operator.promote(memory_id, actor=actor)

    async def admin_stats(self, tenant: str | None) -> TenantStats:
        return await self._operator.stats(tenant)

    async def audit_log(
        self, *, tenant: str | None = None, limit: int = 100, offset: int = 0
    ) -> tuple[builtins.list[AuditEntry], int]:
        return await self._operator.audit_log(tenant=tenant, limit=limit, offset=offset)

    async def tenants_of(self, user_id: str) -> builtins.list[tuple[str, int]]:
        return await self._tenants.tenants_of(user_id)

    async def move_tenant(self, source: str, target: str, *, user_id: str | None = None, actor: str) -> TenantMove:
        return await self._tenants.move_tenant(source, target, user_id=user_id, actor=actor)

    # -- reviews, consolidation, reflections ------------------------------------------------
    async def queue_supersede(
        self, new: Memory, olds: builtins.list[Memory], reason: str, *, actor: str
    ) -> builtins.list[Review]:
        return await self._reviews.queue_supersede(new, olds, reason, actor=actor)

    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[builtins.list[tuple[Review, Memory | None, Memory | None]], int]:
        return await self._reviews.reviews(tenant, user_id, state, limit=limit, offset=offset)

    async def decide_review(
        self, review_id: str, accept: bool, *, tenant: str | None, user_id: str | None, actor: str
    ) -> Review:
        return await self._reviews.decide(review_id, accept, tenant=tenant, user_id=user_id, actor=actor)

    async def merge_into(
        self, kept: Memory, merged: builtins.list[Memory], carry: dict[str, Any], *, actor: str
    ) -> bool:
        return await self._consolidation.merge_into(kept, merged, carry, actor=actor)

    async def compress(
        self, summary: Memory, vector: np.ndarray | None, members: builtins.list[Memory], *, actor: str
    ) -> bool:
        return await self._consolidation.compress(summary, vector, members, actor=actor)

    async def add_reflection(self, reflection: Reflection) -> None:
        await self._reflections.add(reflection)

    async def latest_reflection(self, tenant: str, user_id: str) -> Reflection | None:
        return await self._reflections.latest(tenant, user_id)

    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[builtins.list[Reflection], int]:
        return await self._reflections.page(tenant, user_id, limit=limit, offset=offset, kind=kind)

    async def prune_reflections(self, retention_days: int) -> int:
        return await self._reflections.prune(retention_days)
