"""``MemoryService``: the memory package's facade, used by the gateway, filters and APIs.

Every method is keyed by tenant (and user) by construction: a user reads their own personal
memories plus their tenant's shared and system memories, and changes only their own
personal ones. SQLite is the source of truth; the vector index beside the database
(``<database>.index/``) is derived, saved on ``close`` / ``checkpoint`` and rebuilt at
``open`` when missing, stale or corrupt. ``db`` is the open aiosqlite connection, exposed so
the learning queue can keep its own tables in the same database file (it should use its own
table names and commit its own writes).
"""

from __future__ import annotations

import builtins
import logging
import uuid
from pathlib import Path
from typing import Any

import aiosqlite
import numpy as np

from gateway.errors import TooManyMemories
from gateway.storage import StoreHealth

from . import _validate
from ._access import AccessCounter
from ._admin import AdminMixin
from ._clock import now_iso
from ._indexing import embed_missing, embed_text, expected_meta, load_or_rebuild, rebuild
from ._offload import run_cpu
from ._partition_rows import SQLitePartitionSource
from ._purge import DeletedTextPurger
from ._tenants import TenantMixin
from ._user_data import UserDataMixin
from .embedders import Embedder
from .retrieval import HybridRetriever, RetrievalSettings, partition_key
from .sqlite_store import SQLiteMemoryStore
from .store import Change
from .types import Memory, NewMemory, ScoredMemory
from .vector_index import PartitionedIndex
from .working_set import DEFAULT_BUDGET_MB, DEFAULT_MAX_ROWS, WorkingSet, budget_bytes

log = logging.getLogger("memorelay.memory")


def _small(memory: Memory) -> dict[str, Any]:
    return {
        "title": memory.title,
        "category": memory.category,
        "scope": memory.scope,
        "enabled": memory.enabled,
    }


class MemoryService(UserDataMixin, AdminMixin, TenantMixin):
    """See the module docstring. ``open`` must be awaited before use; ``ready`` tells."""

    def __init__(
        self,
        database_path: str,
        embedder: Embedder | None,
        *,
        ef: int = 128,
        hnsw_threshold: int = 2_000,
        retrieval: RetrievalSettings | None = None,
        busy_timeout_ms: int = 5_000,
        max_page_count: int | None = None,
        health: StoreHealth | None = None,
        working_set_mb: float = DEFAULT_BUDGET_MB,
        working_set_max_rows: int = DEFAULT_MAX_ROWS,
    ) -> None:
        self.database_path = database_path
        self.embedder = embedder
        self.ef = ef
        self.hnsw_threshold = hnsw_threshold
        self.retrieval_settings = retrieval or RetrievalSettings()
        self.ready = False
        self._settings_cache: dict[tuple[str, str], dict[str, Any]] = {}
        # learning_enabled of a user with no stored setting (the learning filter's consent option)
        self.learning_default = True
        self.index_state = "none"  # "loaded" | "rebuilt" | "reindexed" | "none"
        self._store = SQLiteMemoryStore(
            database_path, busy_timeout_ms=busy_timeout_ms, max_page_count=max_page_count, health=health
        )
        self._access = AccessCounter(self._store)
        self._purger = DeletedTextPurger(self._store)
        self._index: PartitionedIndex | None = None
        self._retriever: HybridRetriever | None = None
        # retrieval for the users this process serves, from memory (0 MB: always the store)
        self._working_set_bytes = budget_bytes(working_set_mb)
        self._working_set_max_rows = working_set_max_rows
        self.working_set: WorkingSet | None = None

    # -- lifecycle --------------------------------------------------------------------------
    @property
    def db(self) -> aiosqlite.Connection:
        return self._store.db

    @property
    def index_folder(self) -> Path | None:
        if self.database_path in ("", ":memory:") or self.database_path.startswith("file:"):
            return None
        return Path(self.database_path + ".index")

    async def open(self) -> None:
        """Open SQLite (WAL, migrations), warm the embedder, load or rebuild the index."""
        if self.index_folder is not None:
            Path(self.database_path).parent.mkdir(parents=True, exist_ok=True)
        await self._store.open()
        try:
            if self.embedder is not None:
                dim = int((await self.embedder.embed(["warm up"])).shape[1])
                self._index = PartitionedIndex(dim, ef=self.ef, hnsw_threshold=self.hnsw_threshold)
                name = await self._store.get_meta("embedding_model")
                old_dim = await self._store.get_meta("embedding_dim")
                if name is not None and (name != self.embedder.name or old_dim != str(dim)):
                    log.warning("embedding model changed (%s -> %s); reindexing", name, self.embedder.name)
                    await self.reindex()
                    self.index_state = "reindexed"
                else:
                    await self._record_model(dim)
                    await embed_missing(self._store, self.embedder, everything=False)
                    self.index_state = await load_or_rebuild(self._store, self._index, self.embedder, self.index_folder)
            if self._working_set_bytes > 0:
                source = SQLitePartitionSource(self._store, None if self._index is None else self._index.dim)
                self.working_set = WorkingSet(source, self._working_set_bytes, self._working_set_max_rows)
            self._retriever = HybridRetriever(
                self._store, self._index, self.embedder, self.retrieval_settings, self.working_set
            )
            self._access.start()
            self.ready = True
        except BaseException:
            await self._store.close()
            raise

    async def _record_model(self, dim: int) -> None:
        assert self.embedder is not None
        async with self._store.transaction():
            await self._store.set_meta("embedding_model", self.embedder.name)
            await self._store.set_meta("embedding_dim", str(dim))

    async def checkpoint(self) -> None:
        """Save the vector index files now (also done by ``close``)."""
        if self._index is None or self.embedder is None or self.index_folder is None:
            return
        meta = await expected_meta(self._store, self.embedder)
        await run_cpu(self._index.save, self.index_folder, meta)

    async def close(self) -> None:
        """Write buffered access counts, save the index files and close the database."""
        if self.ready:
            try:
                if self.working_set is not None:
                    self.working_set.close()
                await self._access.stop()
                await self._purger.stop()
                await self.checkpoint()
            finally:
                self.ready = False
                await self._store.close()
        else:
            await self._store.close()  # a failed open leaves nothing behind either

    async def reindex(self) -> int:
        """Re-embed every memory and rebuild the vector index (FTS5 is rebuilt too)."""
        async with self._store.transaction():
            await self._store.db.execute("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')")
        if self.embedder is None or self._index is None:
            return 0
        done = await embed_missing(self._store, self.embedder, everything=True)
        await self._record_model(self._index.dim)
        await rebuild(self._store, self._index)
        if self.working_set is not None:
            self.working_set.clear()
        return done

    def _changed(self, memories: builtins.list[Memory]) -> None:
        """After a committed change to ``memories``: their partitions leave the working set
        (the store's ``on_change`` once every backend has one)."""
        if self.working_set is None:
            return
        for tenant, owner in {partition_key(m.tenant, m.scope, m.user_id) for m in memories}:
            self.working_set.changed(Change("memories", tenant, owner))

    def _moved(self, source: str, target: str) -> None:
        """After memories moved between tenants: both tenants' partitions leave the working set."""
        if self.working_set is not None:
            for tenant in (source, target):
                self.working_set.changed(Change("memories", tenant, "*"))

    # -- index upkeep -----------------------------------------------------------------------
    async def _embed(self, texts: list[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        return await self.embedder.embed(texts)

    async def _index_add(self, memories: list[Memory], vectors: np.ndarray) -> None:
        if self._index is None:
            return
        index = self._index

        def run() -> None:
            for m, v in zip(memories, vectors, strict=True):
                index.add(partition_key(m.tenant, m.scope, m.user_id), [m.id], v.reshape(1, -1))

        await run_cpu(run)

    async def _index_remove(self, memories: list[Memory]) -> None:
        if self._index is None or not memories:
            return
        index = self._index

        def run() -> None:
            for m in memories:
                index.remove(partition_key(m.tenant, m.scope, m.user_id), [m.id])

        await run_cpu(run)

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
        await self._store.audit(
            {
                "time": now_iso(),
                "actor": actor,
                "action": action,
                "tenant": m.tenant if m else tenant,
                "user_id": m.user_id if m else user_id,
                "memory_id": m.id if m else None,
                "before": before,
                "after": after,
            }
        )

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
        memories: list[Memory] = []
        for item in items:
            clean = _validate.new_memory(item)
            t, u = _validate.identity(tenant, user_id, clean.scope)
            memories.append(
                Memory(
                    id="mem_" + uuid.uuid4().hex,
                    tenant=t,
                    user_id=u,
                    scope=clean.scope,
                    category=clean.category,
                    subcategory=clean.subcategory,
                    title=clean.title,
                    content=clean.content,
                    tags=list(clean.tags),
                    source=clean.source,
                    source_conversation_id=clean.source_conversation_id,
                    score=clean.score,
                    enabled=True,
                    disabled_reason=None,
                    created_at=stamp,
                    updated_at=stamp,
                    access_count=0,
                    last_access_at=None,
                    slot=clean.slot,
                )
            )
        vectors = await self._embed([embed_text(m.title, m.content) for m in memories])
        async with self._store.transaction():
            if manual_cap is not None:
                await self._check_manual_cap(memories, manual_cap)
            await self._store.insert(memories, vectors)
            for m in memories:
                await self._audit("create", actor, m, after=_small(m))
            if vectors is not None:
                await self._store.bump_generation()
        self._changed(memories)
        if vectors is not None:
            await self._index_add(memories, vectors)
        return memories

    async def _check_manual_cap(self, memories: builtins.list[Memory], cap: int) -> None:
        # counted inside the write transaction, so concurrent requests cannot overshoot it
        for tenant, user_id in {(m.tenant, m.user_id) for m in memories if m.scope == "personal"}:
            adding = sum(1 for m in memories if (m.tenant, m.user_id) == (tenant, user_id) and m.source == "manual")
            have = await self._store.scalar(
                "SELECT COUNT(*) FROM memories WHERE tenant = ? AND user_id = ? AND scope = 'personal'"
                " AND source = 'manual'",
                (tenant, user_id),
            )
            if adding and have + adding > cap:
                raise TooManyMemories(
                    f"this user already has {have} manual memories, the most allowed is {cap} "
                    "(memory.max_manual_memories_per_user): delete some first"
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
        m = await self._store.fetch_one(memory_id)
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
    ) -> tuple[builtins.list[Memory], int]:
        """Visible memories, newest first, and the total matching count."""
        clauses = ["m.tenant = ?"]
        args: builtins.list[Any] = [tenant]
        if personal_only or scope == "personal":
            clauses.append("m.scope = 'personal' AND m.user_id = ?")
            args.append(user_id if user_id is not None else "\x00none")
        elif user_id is None:
            clauses.append("m.scope IN ('shared', 'system')")
        else:
            clauses.append("(m.scope IN ('shared', 'system') OR (m.scope = 'personal' AND m.user_id = ?))")
            args.append(user_id)
        if scope is not None:
            clauses.append("m.scope = ?")
            args.append(scope)
        if category is not None:
            clauses.append("m.category = ?")
            args.append(category)
        if not include_disabled:
            clauses.append("m.enabled = 1")
        where = " AND ".join(clauses)
        total = await self._store.scalar(f"SELECT COUNT(*) FROM memories m WHERE {where}", args)
        page = await self._store.select(
            where,
            [*args, max(0, int(limit)), max(0, int(offset))],
            "ORDER BY m.created_at DESC, m.rowid DESC LIMIT ? OFFSET ?",
        )
        return page, total

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
    ) -> builtins.list[ScoredMemory]:
        """Hybrid retrieval over own personal (none when ``user_id`` is None) + tenant shared
        and system memories, most relevant first. ``cached_rows``: rows may come from the
        working set (injection: their access counts may lag; everything else is current)."""
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
        )

    async def in_slot(self, tenant: str, user_id: str, slot: str) -> builtins.list[Memory]:
        """The user's enabled personal memories holding profile ``slot`` (newest first)."""
        return await self._store.select(
            "m.tenant = ? AND m.user_id = ? AND m.scope = 'personal' AND m.enabled = 1 AND m.slot = ?",
            [tenant, user_id, slot],
            "ORDER BY m.created_at DESC, m.rowid DESC",
        )

    async def nearest(self, tenant: str, user_id: str, text: str, k: int = 3) -> builtins.list[tuple[Memory, float]]:
        """The user's closest enabled personal memories by cosine (for dedup)."""
        if self.embedder is None or self._index is None:
            return []
        qvec = (await self.embedder.embed([text]))[0]
        hits = await run_cpu(self._index.search, partition_key(tenant, "personal", user_id), qvec, k)
        found = await self._store.fetch([mid for mid, _ in hits])
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
        m = await self._store.fetch_one(memory_id)
        if not self._own(m, tenant, user_id):
            return None
        assert m is not None
        return await self._apply(m, clean, actor=actor, action="update")

    async def _apply(self, m: Memory, changes: dict[str, Any], *, actor: str, action: str) -> Memory:
        fields = {k: v for k, v in changes.items() if getattr(m, k) != v}
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
        index_changed = vector is not None or "enabled" in fields
        async with self._store.transaction():
            await self._store.write_fields(m.id, fields)
            if vector is not None:
                await self._store.set_embedding(m.id, vector)
            await self._audit(
                action,
                actor,
                new,
                before=before,
                after={k: v for k, v in fields.items() if k != "updated_at"},
            )
            if index_changed:
                await self._store.bump_generation()
        self._changed([new])
        if index_changed and self._index is not None:
            if new.enabled:
                vec = vector if vector is not None else await self._store.embedding(m.id)
                if vec is not None:
                    await self._index_add([new], vec.reshape(1, -1))
            else:
                await self._index_remove([new])
        return new

    async def disable(self, tenant: str, user_id: str, memory_id: str, reason: str, *, actor: str) -> bool:
        """Disable the user's own personal memory; it leaves active search."""
        m = await self._store.fetch_one(memory_id)
        if not self._own(m, tenant, user_id):
            return False
        assert m is not None
        await self._apply(m, {"enabled": False, "disabled_reason": reason}, actor=actor, action="disable")
        return True

    async def _delete(self, memories: builtins.list[Memory], *, actor: str) -> int:
        if not memories:
            return 0
        async with self._store.transaction():
            await self._store.delete([m.id for m in memories])
            for m in memories:
                # ids and kinds only: a deleted memory's text stays nowhere (issue 7 item 7)
                await self._audit("delete", actor, m, before={"scope": m.scope, "category": m.category})
            await self._store.bump_generation()
        self._changed(memories)
        self._purger.schedule()
        await self._index_remove(memories)
        return len(memories)

    async def delete(self, tenant: str, user_id: str, memory_id: str, *, actor: str) -> bool:
        """Delete the user's own personal memory for good."""
        m = await self._store.fetch_one(memory_id)
        if not self._own(m, tenant, user_id):
            return False
        assert m is not None
        return await self._delete([m], actor=actor) == 1

    async def delete_all(self, tenant: str, user_id: str, *, actor: str) -> int:
        """Delete every personal memory of the user."""
        mems = await self._store.select("m.tenant = ? AND m.user_id = ? AND m.scope = 'personal'", [tenant, user_id])
        return await self._delete(mems, actor=actor)

    async def touch(self, memory_ids: builtins.list[str]) -> None:
        """Count an injection: access_count += 1, last_access_at = now. Never lost: counts
        that cannot be written now (database locked) stay buffered and are written by the
        next touch, the periodic flush or ``close`` (see ``_access``)."""
        await self._access.touch(memory_ids)

    async def refresh(self, memory_id: str) -> None:
        """Bump updated_at (a duplicate was seen again)."""
        async with self._store.transaction():
            await self._store.write_fields(memory_id, {"updated_at": now_iso()})
