"""A replica's working set: the partitions of the users it serves, held in memory so that
retrieval for injection reads no database.

A partition is a user's personal memories, or a tenant's shared + system memories
(``keyword_index.partition_key``). For each held partition the working set keeps its enabled
memories (the rows retrieval renders), their embeddings as one L2-normalised float32 matrix
(exact cosine by one matrix product) and an in-memory SQLite database with the store's FTS5
tables (``porter unicode61 remove_diacritics 2`` words with CJK bigrams, and ``trigram``
substrings; see ``sqlite_store`` migrations 3-4): the keyword lists are the store's lists, with
bm25 statistics of the partition instead of the whole store.

* Loaded on first use from ``source.partition_rows`` (one load per partition at a time; the
  others wait for it), in a worker thread.
* Bounded: at most ``budget_bytes`` in all, least recently used partitions leave first; a
  partition of more than ``max_rows`` memories (or bigger than the budget) is not held, and
  ``view`` answers None so retrieval searches the store.
* Kept current by ``changed`` (wired to ``MemoryStore.on_change``). A change that names its
  memories (``Change.ids``: PostgreSQL's do, up to a few dozen) is applied in place: those rows
  alone are read again and laid over the held partition (``Partition.patched``: the new and
  rewritten rows in a small layer scored with the partition's statistics, the removed and
  rewritten ones hidden below), and views wait for that one read rather than search the store
  meanwhile; a layer grown past an eighth of its base is folded into a new partition in the
  background. Any other change drops the partition and the next use reloads it. Every
  partition has a change counter; a load that saw a change while it read is thrown away
  (never installed), so a memory deleted or disabled before the change was delivered is never
  served from the working set afterwards. A view taken before a change knows it
  (``View.current``).

``changed`` and ``view`` run on the event loop thread (the store calls its change callbacks
there); only partition builds run in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import orjson

from gateway.store import Change, KeywordOptions, PartitionRows, Visibility
from gateway.store.fts5 import cjk_match, substring_match, word_match, words_match
from gateway.store.keyword_index import (
    COMMON_MIN_ROWS,
    MIN_SUBSTRING,
    SHARED_OWNER,
    KeywordQuery,
    cjk_grams,
    prune_common,
)

from ._bm25 import Postings
from .types import Memory

log = logging.getLogger("memorelay.memory")

PartitionKey = tuple[str, str]  # (tenant, owner): owner is a user id or SHARED_OWNER

DEFAULT_BUDGET_MB = 256.0
DEFAULT_MAX_ROWS = 50_000
# a held Memory object beyond its text (dataclass, strings' headers, dict slot)
_ROW_OVERHEAD = 700
_LOAD_ATTEMPTS = 3
# a partition found too large is not read again for this long (changes do not clear the mark:
# reading a huge partition to learn it is still huge would cost more than searching the store)
TOO_LARGE_RECHECK_S = 600.0
_MAX_ENTRIES = 100_000
# a layer of patched rows is folded into its base once it holds (rows + hidden) more than
# this many, or an eighth of the base: searching a layer costs a little, rebuilding a lot
_LAYER_MIN = 64
_LAYER_FRACTION = 8

# The store's FTS5 tables for one partition (sqlite_store migrations 3 and 4). ``part`` holds
# one token, as in the store, so document lengths (and bm25) are counted the same way.
_SCHEMA = """
CREATE VIRTUAL TABLE words USING fts5 (
    part, title, content, tags, cjk, tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE tri USING fts5 (title, content, tags, tokenize='trigram');
"""
# same column weights as keyword_index.fts_sql / trigram_sql
_WORDS_SQL = "SELECT rowid, bm25(words, 0.0, 2.0, 1.0, 1.0, 1.0) AS r FROM words WHERE words MATCH ? ORDER BY r"
_TRI_SQL = "SELECT rowid, bm25(tri, 2.0, 1.0, 1.0) AS r FROM tri WHERE tri MATCH ? ORDER BY r"

Hits = list[tuple[str, float]]


class PartitionSource(Protocol):
    """Where partitions come from (``MemoryStore.partition_rows``)."""

    async def partition_rows(
        self, tenant: str, owner: str, *, limit: int | None = None, ids: Collection[str] | None = None
    ) -> PartitionRows: ...


class Partition:
    """One partition held in memory; read-only once built (a change replaces it). A patched
    one is a layer: its own rows (new or rewritten memories) over ``base``, whose ``hidden``
    ids it leaves out; ``base`` is never a layer itself."""

    __slots__ = (
        "_by_rowid",
        "_doc_freq",
        "_has_vector",
        "base",
        "by_id",
        "db",
        "hidden",
        "memories",
        "nbytes",
        "postings",
        "valid",
        "vectors",
    )

    def __init__(
        self, rows: PartitionRows, base: Partition | None = None, hidden: frozenset[str] = frozenset()
    ) -> None:
        self.base = base
        self.hidden = hidden
        self.memories = list(rows.memories)
        self.by_id = {m.id: m for m in self.memories}
        self._by_rowid = [m.id for m in self.memories]
        self.vectors = _normalised(rows.vectors, len(self.memories))
        # rows without an embedding are zero rows: never a vector candidate, as in the store
        self._has_vector = np.zeros(0, dtype=bool) if self.vectors is None else np.asarray(self.vectors.any(axis=1))
        # false once a change made it stale: views holding it stop trusting it
        self.valid = True
        self._doc_freq: dict[str, int] = {}  # word -> rows holding it (the partition never changes)
        db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        db.executescript(_SCHEMA)
        tags = [orjson.dumps(m.tags).decode() for m in self.memories]
        db.executemany(
            "INSERT INTO words (rowid, part, title, content, tags, cjk) VALUES (?, 'p0', ?, ?, ?, ?)",
            [
                (i, m.title, m.content, t, cjk_grams(f"{m.title} {m.content} {t}"))
                for i, (m, t) in enumerate(zip(self.memories, tags, strict=True))
            ],
        )
        db.executemany(
            "INSERT INTO tri (rowid, title, content, tags) VALUES (?, ?, ?, ?)",
            [(i, m.title, m.content, t) for i, (m, t) in enumerate(zip(self.memories, tags, strict=True))],
        )
        self.db = db
        # the word and CJK lists, ranked in numpy with FTS5's terms and bm25 (see _bm25)
        like = None if base is None else base.postings
        self.postings: Postings = Postings(db, "words", len(self.memories), like=like)
        pages = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
        text = sum(len(m.title) + len(m.content) + len(t) for m, t in zip(self.memories, tags, strict=True))
        vec_bytes = 0 if self.vectors is None else int(self.vectors.nbytes)
        self.nbytes = int(pages) + vec_bytes + self.postings.nbytes + 2 * text + _ROW_OVERHEAD * len(self.memories)
        if base is not None:
            self.nbytes += base.nbytes

    def __len__(self) -> int:
        below = 0 if self.base is None else len(self.base) - len(self.hidden)
        return len(self.memories) + below

    def get(self, memory_id: str) -> Memory | None:
        """The held row of ``memory_id``, if this partition serves it."""
        m = self.by_id.get(memory_id)
        if m is None and self.base is not None and memory_id not in self.hidden:
            m = self.base.by_id.get(memory_id)
        return m

    def _below(self, hits: Hits) -> Hits:
        return [hit for hit in hits if hit[0] not in self.hidden]

    # -- patches --------------------------------------------------------------------------
    def patched(self, rows: PartitionRows, ids: Collection[str]) -> Partition:
        """This partition after a change to the memories ``ids``: ``rows`` are those of them
        it still holds (enabled, in this partition), in a layer over the base; the others,
        and the old versions of rewritten ones, are hidden."""
        base = self.base or self
        touched = set(ids)
        kept = [i for i, m in enumerate(self.memories) if m.id not in touched] if self.base is not None else []
        memories = [self.memories[i] for i in kept] + list(rows.memories)
        vectors = _stacked(
            [(None if self.vectors is None else self.vectors[kept], len(kept)), (rows.vectors, len(rows.memories))],
            base.vectors,
        )
        hidden = frozenset((self.hidden | touched) & base.by_id.keys())
        return Partition(PartitionRows(memories, vectors), base, hidden)

    @property
    def crowded(self) -> bool:
        """A layer big enough to fold into its base (``folded``)."""
        if self.base is None:
            return False
        return len(self.memories) + len(self.hidden) > max(_LAYER_MIN, len(self.base) // _LAYER_FRACTION)

    def folded(self) -> Partition:
        """The same rows as one partition (no layer)."""
        if self.base is None:
            return self
        base = self.base
        below = [i for i, m in enumerate(base.memories) if m.id not in self.hidden]
        memories = [base.memories[i] for i in below] + self.memories
        vectors = _stacked(
            [(None if base.vectors is None else base.vectors[below], len(below)), (self.vectors, len(self.memories))],
            base.vectors,
        )
        return Partition(PartitionRows(memories, vectors))

    # -- search ---------------------------------------------------------------------------
    def vector_hits(self, query: np.ndarray, k: int, keep: Callable[[Memory], bool] | None) -> Hits:
        """The ``k`` memories closest to ``query`` (L2-normalised) by cosine, best first."""
        own = self._vector_hits(query, k, keep)
        if self.base is None:
            return own
        below = self._below(self.base.vector_hits(query, k + len(self.hidden), keep))
        return _merge([own, below], k)

    def _vector_hits(self, query: np.ndarray, k: int, keep: Callable[[Memory], bool] | None) -> Hits:
        if self.vectors is None or k <= 0 or not self.memories or self.vectors.shape[1] != query.shape[0]:
            return []
        # einsum, not a BLAS product: OpenBLAS would spread a big one over threads that spin
        # against the query embedding (p99 1.5 ms instead of 12 ms for 10k rows here)
        sims = np.einsum("ij,j->i", self.vectors, query.astype(np.float32, copy=False))
        sims[~self._has_vector] = -np.inf
        if keep is not None:
            sims[[i for i, m in enumerate(self.memories) if not keep(m)]] = -np.inf
        n = len(sims)
        top = np.argpartition(-sims, k - 1)[:k] if k < n else np.arange(n)
        top = top[np.argsort(-sims[top], kind="stable")]
        ids = self._by_rowid
        return [(ids[i], float(sims[i])) for i in top if sims[i] != -np.inf]

    def _phrase_scores(self, kind: str, text: str) -> tuple[np.ndarray, np.ndarray]:
        """FTS5's bm25 part of one query word that is a phrase of several tokens."""
        one = KeywordQuery(words=[text]) if kind == "words" else KeywordQuery(grams=[text])
        match = words_match(one) if kind == "words" else cjk_match(one)
        rows = self.db.execute(_WORDS_SQL, (match,)).fetchall()
        return np.array([r[0] for r in rows], dtype=np.int64), np.array([-r[1] for r in rows], dtype=np.float64)

    def doc_freq(self, word: str) -> int:
        """Rows whose English columns hold ``word`` (for common-term pruning; a layer's base
        counts its hidden rows too)."""
        below = 0 if self.base is None else self.base.doc_freq(word)
        return below + self._own_doc_freq(word)

    def _own_doc_freq(self, word: str) -> int:
        n = self._doc_freq.get(word)
        if n is None:
            n = self._doc_freq[word] = int(
                self.db.execute("SELECT COUNT(*) FROM words WHERE words MATCH ?", (word_match(word),)).fetchone()[0]
            )
        return n

    def keyword_hits(
        self, kind: str, terms: list[str], match: str, k: int, keep: Callable[[Memory], bool] | None
    ) -> Hits:
        """One keyword list of ``kind`` (score = -bm25, higher is better), best first: the
        OR of ``terms``, whose FTS5 MATCH string is ``match``."""
        own = self._keyword_hits(kind, terms, match, k, keep)
        if self.base is None:
            return own
        below = self._below(self.base.keyword_hits(kind, terms, match, k + len(self.hidden), keep))
        return _merge([own, below], k)

    def _keyword_hits(
        self, kind: str, terms: list[str], match: str, k: int, keep: Callable[[Memory], bool] | None
    ) -> Hits:
        ids = self._by_rowid
        if kind != "substring":
            mask = None if keep is None else np.fromiter((keep(m) for m in self.memories), dtype=bool)
            ranked = self.postings.ranked(kind, terms, k, mask, self._phrase_scores)
            return [(ids[row], score) for row, score in ranked]
        out: Hits = []
        if keep is None:
            rows = self.db.execute(f"{_TRI_SQL} LIMIT ?", (match, k)).fetchall()
            return [(ids[r[0]], -float(r[1])) for r in rows]
        for rowid, rank in self.db.execute(_TRI_SQL, (match,)):
            if keep(self.by_id[ids[rowid]]):
                out.append((ids[rowid], -float(rank)))
                if len(out) >= k:
                    break
        return out


def _stacked(parts: list[tuple[np.ndarray | None, int]], like: np.ndarray | None) -> np.ndarray | None:
    """The vectors of several row runs as one matrix (a run without vectors, or of another
    size than ``like``'s, gets zero rows: never a vector candidate); None without any."""
    sizes = [v.shape[1] for v, n in parts if v is not None and n]
    if not sizes:
        return None
    dim = like.shape[1] if like is not None else sizes[0]
    out = np.zeros((sum(n for _, n in parts), dim), dtype=np.float32)
    at = 0
    for v, n in parts:
        if v is not None and n and v.shape[1] == dim:
            out[at : at + n] = v.reshape(n, dim)
        at += n
    return out


def _normalised(vectors: np.ndarray | None, n: int) -> np.ndarray | None:
    if vectors is None or n == 0:
        return None
    mat = np.array(vectors, dtype=np.float32, copy=True).reshape(n, -1)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    np.divide(mat, norms, out=mat, where=norms > 0)
    return mat


@dataclass(slots=True)
class View:
    """The partitions one (tenant, user) sees, as held when the view was taken; answers the
    store's two candidate calls (``MemoryStore.vector_candidates`` / ``keyword_candidates``)
    for enabled memories, and the rows to render."""

    tenant: str
    user_id: str | None
    personal: Partition | None
    shared: Partition

    @property
    def current(self) -> bool:
        """False once a change reached one of its partitions after the view was taken."""
        return self.shared.valid and (self.personal is None or self.personal.valid)

    @property
    def rows(self) -> int:
        return len(self.shared) + (len(self.personal) if self.personal is not None else 0)

    def _parts(self, where: Visibility) -> tuple[list[Partition], Callable[[Memory], bool] | None]:
        if where.tenant != self.tenant or where.user_id != self.user_id or where.include_disabled:
            raise ValueError("a working-set view answers its own user's enabled memories only")
        parts: list[Partition] = []
        if self.personal is not None and where.scope in (None, "personal"):
            parts.append(self.personal)
        if not where.personal_only and where.scope in (None, "shared", "system"):
            parts.append(self.shared)
        category, scope, kind = where.category, where.scope, where.kind
        if category is None and kind is None and scope in (None, "personal"):
            return parts, None
        return (
            parts,
            lambda m: (
                (category is None or m.category == category)
                and (scope is None or m.scope == scope)
                and (kind is None or m.kind == kind)
            ),
        )

    def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> Hits:
        parts, keep = self._parts(where)
        return _merge([p.vector_hits(query, k, keep) for p in parts], k)

    def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[Hits, str]]:
        """Ranked lists with their kinds ("words", "cjk", "substring"), as the store's; common
        words are counted in the caller's partitions (the store counts them in all)."""
        options = options or KeywordOptions()
        parts, keep = self._parts(where)
        rows = self.rows
        if options.prune_common and rows > COMMON_MIN_ROWS and len(query.words) > 1:
            query = prune_common(query, {w: sum(p.doc_freq(w) for p in parts) for w in query.words}, rows)
        substrings = options.substrings and rows <= options.substring_max_rows
        out: list[tuple[Hits, str]] = []
        for kind, terms, match in (
            ("words", query.words if options.words else [], words_match(query)),
            ("cjk", query.grams if options.words else [], cjk_match(query)),
            (
                "substring",
                [w for w in query.words if len(w) >= MIN_SUBSTRING] if substrings else [],
                substring_match(query),
            ),
        ):
            if not terms or match is None:
                continue
            hits = _merge([p.keyword_hits(kind, terms, match, k, keep) for p in parts], k)
            if kind != "substring" or hits:
                out.append((hits, kind))
        return out

    def memories(self, ids: Sequence[str]) -> dict[str, Memory]:
        """The held rows of ``ids`` (those still in the view's partitions)."""
        out: dict[str, Memory] = {}
        for mid in ids:
            m = (self.personal.get(mid) if self.personal is not None else None) or self.shared.get(mid)
            if m is not None:
                out[mid] = m
        return out


def _merge(lists: list[Hits], k: int) -> Hits:
    if len(lists) == 1:
        return lists[0][:k]
    merged = [hit for hits in lists for hit in hits]
    merged.sort(key=lambda hit: hit[1], reverse=True)
    return merged[:k]


@dataclass(slots=True)
class WorkingSetStats:
    held: int = 0
    bytes: int = 0
    hits: int = 0
    loads: int = 0
    stale_loads: int = 0
    evictions: int = 0
    too_large: int = 0
    invalidations: int = 0
    patches: int = 0
    folds: int = 0
    # memory searches answered from held partitions, and those the store answered instead
    served: int = 0
    missed: int = 0

    def counts(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(slots=True)
class _Entry:
    partition: Partition | None  # None: too large to hold (retrieval searches the store)
    rows: int = 0
    since: float = field(default_factory=time.monotonic)


@dataclass
class WorkingSet:
    """See the module docstring."""

    source: PartitionSource
    budget_bytes: int = int(DEFAULT_BUDGET_MB * 1024 * 1024)
    max_rows: int = DEFAULT_MAX_ROWS
    stats: WorkingSetStats = field(default_factory=WorkingSetStats)
    _held: OrderedDict[PartitionKey, _Entry] = field(default_factory=OrderedDict)
    _loading: dict[PartitionKey, asyncio.Task[_Entry | None]] = field(default_factory=dict)
    # changes being applied in place: the memory ids still to re-read, and the task reading them
    _pending: dict[PartitionKey, set[str]] = field(default_factory=dict)
    _patching: dict[PartitionKey, asyncio.Task[None]] = field(default_factory=dict)
    _folding: dict[PartitionKey, asyncio.Task[None]] = field(default_factory=dict)
    # change counters: a load installs only if neither moved while it read
    _versions: dict[PartitionKey, int] = field(default_factory=dict)
    _tenant_versions: dict[str, int] = field(default_factory=dict)

    # -- invalidation -------------------------------------------------------------------
    def changed(self, change: Change) -> None:
        """A committed change (``MemoryStore.on_change``): drop what it touches."""
        if change.kind != "memories":
            return
        self.stats.invalidations += 1
        if change.user_id == "*":
            self._tenant_versions[change.tenant] = self._tenant_versions.get(change.tenant, 0) + 1
            for key in [key for key in self._held if key[0] == change.tenant]:
                self._drop(key)
            return
        key = (change.tenant, change.user_id)
        self._versions[key] = self._versions.get(key, 0) + 1
        entry = self._held.get(key)
        if change.ids is not None and entry is not None and entry.partition is not None:
            # views taken before the change stop trusting it; the next ones wait for the patch
            entry.partition.valid = False
            self._pending.setdefault(key, set()).update(change.ids)
            if key not in self._patching:
                self._patching[key] = asyncio.ensure_future(self._patch(key))
            return
        if entry is None or entry.partition is not None:
            self._drop(key)

    def clear(self) -> None:
        """Drop everything (e.g. after a reindex changed every embedding)."""
        for tenant in {key[0] for key in [*self._held, *self._loading]}:
            self.changed(Change("memories", tenant, "*"))

    def _stamp(self, key: PartitionKey) -> tuple[int, int]:
        return self._versions.get(key, 0), self._tenant_versions.get(key[0], 0)

    def _drop(self, key: PartitionKey) -> None:
        entry = self._held.pop(key, None)
        if entry is not None and entry.partition is not None:
            entry.partition.valid = False
            self.stats.bytes -= entry.partition.nbytes
        self.stats.held = len(self._held)

    # -- reads ----------------------------------------------------------------------------
    def holds(self, tenant: str, owner: str) -> bool:
        entry = self._held.get((tenant, owner))
        return entry is not None and entry.partition is not None

    async def view(self, tenant: str, user_id: str | None, *, wait: bool = True) -> View | None:
        """The caller's partitions from memory, or None when one of them is not held (too
        large, over budget, or changing while it loaded). A partition not yet loaded is
        loaded first; without ``wait`` it loads in the background and this call answers None
        at once (a request need not wait for a big load: the store answers it meanwhile). A
        change being applied in place is waited for, with or without ``wait``."""
        keys = [(tenant, SHARED_OWNER)] + ([] if user_id is None else [(tenant, user_id)])
        patches = [self._patching[key] for key in keys if key in self._patching]
        if patches:  # one read by id: far shorter than searching the store meanwhile
            await asyncio.wait(patches)
        if not wait:
            missing = [self._start_load(key) for key in keys if self._entry(key) is None]
            if missing:
                return None
        parts = [await self._partition(key) for key in keys]
        if any(part is None for part in parts):
            return None
        shared, personal = parts[0], parts[1] if user_id is not None else None
        assert shared is not None
        view = View(tenant, user_id, personal, shared)
        return view if view.current else None

    def _start_load(self, key: PartitionKey) -> asyncio.Task[_Entry | None]:
        task = self._loading.get(key)
        if task is None:
            task = asyncio.ensure_future(self._load(key))
            self._loading[key] = task
            task.add_done_callback(lambda t: self._loaded(key, t))
        return task

    def _loaded(self, key: PartitionKey, task: asyncio.Task[_Entry | None]) -> None:
        self._loading.pop(key, None)
        if not task.cancelled() and task.exception() is not None:  # retrieval used the store
            log.warning("could not load a memory partition: %s", type(task.exception()).__name__)

    def close(self) -> None:
        """Stop loads and patches in flight and drop everything (the store is closing)."""
        for task in [*self._loading.values(), *self._patching.values(), *self._folding.values()]:
            task.cancel()
        for key in list(self._held):
            self._drop(key)

    def _entry(self, key: PartitionKey) -> _Entry | None:
        entry = self._held.get(key)
        if entry is not None and entry.partition is None and time.monotonic() - entry.since > TOO_LARGE_RECHECK_S:
            self._drop(key)  # maybe small enough by now
            return None
        return entry

    async def _partition(self, key: PartitionKey) -> Partition | None:
        entry = self._entry(key)
        if entry is None:
            entry = await asyncio.shield(self._start_load(key))
            if entry is None:
                return None
        else:
            self._held.move_to_end(key)
            self.stats.hits += 1
        return entry.partition

    async def _load(self, key: PartitionKey) -> _Entry | None:
        tenant, owner = key
        for _ in range(_LOAD_ATTEMPTS):
            stamp = self._stamp(key)
            rows = await self.source.partition_rows(tenant, owner, limit=self.max_rows + 1)
            if len(rows.memories) > self.max_rows:
                entry = _Entry(None, len(rows.memories))
            else:
                entry = _Entry(await asyncio.to_thread(Partition, rows), len(rows.memories))
            if self._stamp(key) != stamp:  # changed while we read: what we hold may be stale
                self.stats.stale_loads += 1
                continue
            self.stats.loads += 1
            self._install(key, entry)
            return entry
        return None

    async def _patch(self, key: PartitionKey) -> None:
        """Apply the changes pending for ``key`` in place, a round per batch of ids: read
        those rows (after the changes were announced, so at least as new as them) and lay them
        over the held partition. A partition dropped meanwhile is left alone (its next use
        loads it); one that cannot be patched is dropped."""
        try:
            while ids := self._pending.pop(key, None):
                entry = self._held.get(key)
                if entry is None or entry.partition is None:
                    return
                tenant_stamp = self._tenant_versions.get(key[0], 0)
                rows = await self.source.partition_rows(key[0], key[1], ids=sorted(ids))
                part = await asyncio.to_thread(entry.partition.patched, rows, ids)
                if self._held.get(key) is not entry or self._tenant_versions.get(key[0], 0) != tenant_stamp:
                    continue  # dropped meanwhile: its reload reads these rows; later changes go on
                part.valid = key not in self._pending  # changed again meanwhile: the next round
                self.stats.patches += 1
                fresh = _Entry(part, len(part))
                self._install(key, fresh)
                if part.crowded and key not in self._folding:
                    self._folding[key] = asyncio.ensure_future(self._fold(key, fresh))
        except Exception as exc:  # boundary: retrieval falls back to the store, then reloads
            log.warning("could not apply a change to a memory partition: %s", type(exc).__name__)
            self._drop(key)
        finally:
            # no await from the last look at ``_pending`` to here: a change arriving later
            # starts a new patch
            self._patching.pop(key, None)

    async def _fold(self, key: PartitionKey, entry: _Entry) -> None:
        """Rebuild a crowded layered partition as one, off the request path; kept only if
        nothing changed it meanwhile."""
        try:
            assert entry.partition is not None
            flat = await asyncio.to_thread(entry.partition.folded)
        except Exception as exc:  # boundary: the layered partition keeps serving
            log.warning("could not fold a memory partition: %s", type(exc).__name__)
            return
        finally:
            self._folding.pop(key, None)
        if self._held.get(key) is entry and entry.partition.valid and key not in self._patching:
            self.stats.folds += 1
            self._install(key, _Entry(flat, len(flat)), stale=False)
            return
        # changed while it folded: a patch still running folds its own result; otherwise the
        # partition now held was installed while this fold ran (and skipped folding), so fold it
        current = self._held.get(key)
        if (
            current is not None
            and current.partition is not None
            and current.partition.crowded
            and current.partition.valid
            and key not in self._patching
        ):
            self._folding[key] = asyncio.ensure_future(self._fold(key, current))

    def _install(self, key: PartitionKey, entry: _Entry, *, stale: bool = True) -> None:
        part = entry.partition
        if part is not None and part.nbytes > self.budget_bytes:
            log.info("memory partition of %d rows is over the working-set budget; searched in the store", len(part))
            entry = _Entry(None, entry.rows)
        if entry.partition is None:
            self.stats.too_large += 1
        old = self._held.get(key)
        self._drop(key)
        if not stale and old is not None and old.partition is not None:
            old.partition.valid = True  # the same rows, rebuilt: views holding it stay current
        self._held[key] = entry
        if entry.partition is not None:
            self.stats.bytes += entry.partition.nbytes
        # least recently used first; markers of too-large partitions are small, but bounded too
        while self.stats.bytes > self.budget_bytes or len(self._held) > _MAX_ENTRIES:
            victim = next(k for k, e in self._held.items() if e.partition is not None or len(self._held) > _MAX_ENTRIES)
            gone = self._held.pop(victim)
            if gone.partition is not None:
                self.stats.bytes -= gone.partition.nbytes
                self.stats.evictions += 1
        self.stats.held = len(self._held)


def budget_bytes(mb: float) -> int:
    """``memory.working_set_mb`` in bytes (0 turns the working set off)."""
    return max(0, math.floor(mb * 1024 * 1024))
