"""Hybrid retrieval: vector candidates and keyword candidates, fused.

Default fusion ("score"): each list's scores (cosine, -bm25) are
min-max scaled to [0, 1] within the list and summed with weights (vector 1.0, each keyword
list 1.6). Keyword lists: porter-stemmed words, CJK bigrams, both from one FTS5 table
searched within the caller's partitions.
On the LoCoMo dev sample this beat reciprocal rank fusion, where each list contributes
``weight / (rrf_k + rank)`` ("rrf", still available); see bench/README.md. The vector
list comes from the caller's partitions only (own personal + tenant shared/system); keyword
lists come from the partitioned FTS5 index (``keyword_index``). Without an embedder,
retrieval is keyword-only. Disabled memories are left out unless asked for. A long query is
cut to its head and tail first (``bounds.bound_query``), and its embedding and vector search
are urgent work on the shared CPU thread: a chat is waiting for them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._offload import run_cpu
from .bounds import bound_query
from .embedders import Embedder
from .keyword_index import (
    COMMON_MIN_ROWS,
    SHARED_OWNER,
    KeywordQuery,
    doc_freq_sql,
    filter_sql,
    parse_query,
    prune_common,
    visibility_sql,
    word_match,
)
from .keyword_index import partition_key as _partition_key
from .sqlite_store import SQLiteMemoryStore
from .store import KeywordOptions, Visibility
from .types import Memory, ScoredMemory
from .vector_index import PartitionedIndex, PartitionKey
from .working_set import View, WorkingSet

__all__ = ["SHARED_OWNER", "HybridRetriever", "RetrievalSettings", "partition_key"]


def partition_key(tenant: str, scope: str, user_id: str) -> PartitionKey:
    """Personal memories live in (tenant, user); shared and system in (tenant, SHARED_OWNER).
    The keyword index partitions the same way (``keyword_index.partition_token``)."""
    return _partition_key(tenant, scope, user_id)


def rrf(
    lists: Sequence[Sequence[str]], k: float = 60.0, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists, best first."""
    scores: dict[str, float] = {}
    for n, ranked in enumerate(lists):
        w = 1.0 if weights is None else weights[n]
        for rank, mid in enumerate(ranked, start=1):
            scores[mid] = scores.get(mid, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: kv[1], reverse=True)


def score_fusion(lists: Sequence[Sequence[tuple[str, float]]], weights: Sequence[float]) -> list[tuple[str, float]]:
    """Weighted sum of per-list scores, each min-max scaled to [0, 1] within its list."""
    scores: dict[str, float] = {}
    for ranked, w in zip(lists, weights, strict=True):
        if not ranked:
            continue
        top = max(score for _, score in ranked)
        low = min(score for _, score in ranked)
        span = top - low
        for mid, score in ranked:
            scaled = (score - low) / span if span > 0 else 1.0
            scores[mid] = scores.get(mid, 0.0) + w * scaled
    return sorted(scores.items(), key=lambda kv: kv[1], reverse=True)


@dataclass(slots=True)
class RetrievalSettings:
    """Fusion knobs (tuned on the LoCoMo dev sample, see bench/README.md)."""

    fusion: str = "score"  # "score" (min-max scaled scores, weighted sum) or "rrf" (ranks)
    rrf_k: float = 60.0
    depth: int = 50  # candidates per list
    vector_weight: float = 1.0
    # per keyword list (stemmed words, CJK bigrams), and the partitioned trigram list (partial
    # words: "paint" finds "painting"; 0 turns it off). Chosen on the LoCoMo dev sample
    # (bench/README.md): R@5 turns 0.546, observations 0.595.
    keyword_weight: float = 0.8
    substring_weight: float = 0.5
    # the trigram list matches substrings, so it is costly on big partitions: it runs only when
    # the caller's visible rows are at most this many (max_memories_per_user defaults to 500)
    substring_max_rows: int = 2000
    vector_depth: int = 50  # how many vector hits enter the fusion
    keyword_indexes: tuple[str, ...] = ("memories_fts",)
    # leave out English words found in > 10% of all rows (and > 2000 rows): a latency guard for
    # large stores, inactive on small ones (keyword_index.prune_common); row counts are cached
    prune_common_terms: bool = True
    term_stats_ttl_s: float = 300.0


class HybridRetriever:
    """Guarantees: results are visible to the caller, match the filters, are enabled unless
    ``include_disabled``, and come most relevant first."""

    def __init__(
        self,
        store: SQLiteMemoryStore,
        index: PartitionedIndex | None,
        embedder: Embedder | None,
        settings: RetrievalSettings | None = None,
        working_set: WorkingSet | None = None,
    ) -> None:
        self.store = store
        self.index = index
        self.embedder = embedder
        self.settings = settings or RetrievalSettings()
        self.working_set = working_set
        # word -> (rows holding it, expiry); ("", ...) holds the total row count
        self._doc_freq: dict[str, tuple[int, float]] = {}

    async def _term_stats(self, words: list[str]) -> tuple[dict[str, int], int]:
        """Row counts of ``words`` and of the whole store, over all partitions (as bm25's idf
        is), cached for ``term_stats_ttl_s``. A miss costs one FTS5 count of the word."""
        now = time.monotonic()
        cache = self._doc_freq
        if len(cache) > 50_000:
            cache.clear()
        out: dict[str, int] = {}
        for word in ["", *words]:
            hit = cache.get(word)
            if hit is None or hit[1] < now:
                if word:
                    n = await self.store.scalar(doc_freq_sql(), [word_match(word)])
                else:  # an upper bound of the row count, O(log n)
                    n = await self.store.scalar("SELECT MAX(rowid) FROM memories", [])
                hit = (n, now + self.settings.term_stats_ttl_s)
                cache[word] = hit
            out[word] = hit[0]
        return out, out.pop("")

    async def _keyword_query(self, query: str) -> KeywordQuery:
        parsed = parse_query(query)
        if not self.settings.prune_common_terms or len(parsed.words) < 2:
            return parsed
        _, total = await self._term_stats([])
        if total <= COMMON_MIN_ROWS:  # no word can be common: skip the counts
            return parsed
        doc_freq, total = await self._term_stats(parsed.words)
        return prune_common(parsed, doc_freq, total)

    async def _rows_visible(self, tenant: str, user_id: str | None) -> int:
        """Rows in the caller's partitions (own personal + tenant shared), from the in-memory
        vector index when there is one."""
        keys = [_partition_key(tenant, "shared", "")]
        if user_id is not None:
            keys.append(_partition_key(tenant, "personal", user_id))
        if self.index is not None:
            return sum(self.index.partition_size(k) for k in keys)
        vis, args = visibility_sql(user_id)
        return await self.store.scalar(f"SELECT COUNT(*) FROM memories m WHERE m.tenant = ? AND {vis}", [tenant, *args])

    async def _keywords(
        self,
        tenant: str,
        user_id: str | None,
        query: str,
        depth: int,
        *,
        category: str | None,
        scope: str | None,
        include_disabled: bool,
    ) -> list[tuple[list[tuple[str, float]], float]]:
        """The keyword lists with their fusion weights: stemmed words, CJK grams, substrings."""
        parsed = await self._keyword_query(query)
        options = {"limit": depth, "category": category, "scope": scope, "include_disabled": include_disabled}
        substrings = self.settings.substring_weight > 0 and (
            await self._rows_visible(tenant, user_id) <= self.settings.substring_max_rows
        )
        words = self.store.keyword_search(
            parsed,
            tenant,
            user_id,
            indexes=self.settings.keyword_indexes,
            **options,  # type: ignore[arg-type]
        )
        if substrings:  # the two run at once, on the store's two connections
            lists, ranked = await asyncio.gather(
                words,
                self.store.trigram_search(parsed, tenant, user_id, **options),  # type: ignore[arg-type]
            )
        else:
            lists, ranked = await words, []
        out = [(hits, self.settings.keyword_weight) for hits in lists]
        if ranked:
            out.append((ranked, self.settings.substring_weight))
        return out

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
    ) -> list[ScoredMemory]:
        """With ``cached_rows`` (injection) the rows come from the working set, whose access
        counts may lag; otherwise from the store."""
        if limit <= 0 or not query.strip():
            return []
        query = bound_query(query)
        depth = max(self.settings.depth, limit * 2)
        if self.working_set is not None and not include_disabled:
            view = await self.working_set.view(tenant, user_id, wait=False)
            if view is not None:
                where = Visibility(tenant, user_id, category=category, scope=scope)
                held = await self._search_view(view, where, query, limit, depth, cached_rows=cached_rows)
                if held is not None:
                    return held
        lists: list[list[tuple[str, float]]] = []
        weights: list[float] = []
        # the two lists run concurrently: embedding + vector search on the CPU thread, the
        # keyword query on SQLite's thread (both release the GIL for most of their work)
        vector_list, keyword_lists = await asyncio.gather(
            self._vector(
                tenant,
                user_id,
                query,
                depth,
                scope=scope,
                include_disabled=include_disabled,
                category=category,
            ),
            self._keywords(
                tenant,
                user_id,
                query,
                depth,
                category=category,
                scope=scope,
                include_disabled=include_disabled,
            ),
        )
        if vector_list is not None:
            lists.append(vector_list[: self.settings.vector_depth])
            weights.append(self.settings.vector_weight)
        for ranked, weight in keyword_lists:
            lists.append(ranked)
            weights.append(weight)
        if self.settings.fusion == "score":
            fused = score_fusion(lists, weights)
        else:
            fused = rrf([[mid for mid, _ in ranked] for ranked in lists], self.settings.rrf_k, weights)
        found = await self.store.fetch([mid for mid, _ in fused[: limit * 3]])
        out: list[ScoredMemory] = []
        for mid, score in fused:
            m = found.get(mid)
            if m is None or m.tenant != tenant:
                continue
            if m.scope == "personal" and m.user_id != user_id:
                continue
            if (category and m.category != category) or (scope and m.scope != scope):
                continue
            if not m.enabled and not include_disabled:
                continue
            out.append(ScoredMemory(memory=m, relevance=score))
            if len(out) >= limit:
                break
        return out

    async def _search_view(
        self, view: View, where: Visibility, query: str, limit: int, depth: int, *, cached_rows: bool
    ) -> list[ScoredMemory] | None:
        """``search`` from the working set; None when a change reached the view meanwhile
        (the caller then searches the store)."""
        options = KeywordOptions(
            words="memories_fts" in self.settings.keyword_indexes,
            substrings=self.settings.substring_weight > 0,
            substring_max_rows=self.settings.substring_max_rows,
            prune_common=self.settings.prune_common_terms,
        )
        embedder = self.embedder

        async def vector() -> list[tuple[str, float]] | None:
            if embedder is None:
                return None
            qvec = (await embedder.embed([query], urgent=True))[0]
            return view.vector_candidates(where, qvec, min(depth, self.settings.vector_depth))

        # three at once: the query embedding on the CPU thread, then the vector list here; the
        # keyword lists in another thread (the model, numpy and SQLite release the GIL)
        vector_list, keyword_lists = await asyncio.gather(
            vector(), asyncio.to_thread(view.keyword_candidates, where, parse_query(query), depth, options)
        )
        lists: list[list[tuple[str, float]]] = []
        weights: list[float] = []
        if vector_list is not None:
            lists.append(vector_list)
            weights.append(self.settings.vector_weight)
        for ranked, kind in keyword_lists:
            lists.append(ranked)
            weights.append(self.settings.substring_weight if kind == "substring" else self.settings.keyword_weight)
        if self.settings.fusion == "score":
            fused = score_fusion(lists, weights)
        else:
            fused = rrf([[mid for mid, _ in ranked] for ranked in lists], self.settings.rrf_k, weights)
        top = [mid for mid, _ in fused[:limit]]
        rows: dict[str, Memory] = view.memories(top) if cached_rows else await self.store.fetch(top)
        if not view.current:
            return None
        out = [ScoredMemory(memory=rows[mid], relevance=score) for mid, score in fused[:limit] if mid in rows]
        # a row read from the store is checked again, as in ``search``
        return [s for s in out if s.memory.enabled and s.memory.tenant == where.tenant]

    async def _vector(
        self,
        tenant: str,
        user_id: str | None,
        query: str,
        depth: int,
        *,
        scope: str | None,
        category: str | None,
        include_disabled: bool,
    ) -> list[tuple[str, float]] | None:
        if self.embedder is None or self.index is None:
            return None
        qvec = (await self.embedder.embed([query], urgent=True))[0]
        keys: list[PartitionKey] = []
        if user_id is not None and scope in (None, "personal"):
            keys.append(partition_key(tenant, "personal", user_id))
        if scope in (None, "shared", "system"):
            keys.append(partition_key(tenant, "shared", ""))
        # a category filter is applied after the vector search, so look deeper
        k = depth * 3 if category or scope in ("shared", "system") else depth
        index = self.index

        def run() -> list[tuple[str, float]]:
            return [hit for key in keys for hit in index.search(key, qvec, k)]

        hits = await run_cpu(run, urgent=True)
        if include_disabled:
            hits.extend(await self._disabled_hits(tenant, user_id, qvec, scope, category))
        hits.sort(key=lambda h: h[1], reverse=True)
        return hits[:k]

    async def _disabled_hits(
        self,
        tenant: str,
        user_id: str | None,
        qvec: np.ndarray,
        scope: str | None,
        category: str | None,
    ) -> list[tuple[str, float]]:
        # disabled memories are not in the index; they are few, so score them exactly
        where, args = filter_sql(tenant, user_id, category=category, scope=scope, include_disabled=True)
        rows = await self.store.rows(
            f"SELECT m.id, m.embedding FROM memories m WHERE {where} AND m.enabled = 0 "
            "AND m.embedding IS NOT NULL LIMIT 10000",
            args,
        )
        if not rows:
            return []
        mat = np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
        if mat.shape[1] != qvec.shape[0]:
            return []
        sims = mat @ qvec
        return [(r[0], float(s)) for r, s in zip(rows, sims, strict=True)]
