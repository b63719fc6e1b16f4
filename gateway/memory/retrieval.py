"""Hybrid retrieval: vector candidates and keyword candidates, fused.

Default fusion ("score"): each list's scores (cosine, -bm25) are
min-max scaled to [0, 1] within the list and summed with weights (vector 1.0, each keyword
list 0.8, the partial-word list 0.5). Keyword lists: stemmed words, CJK bigrams, partial
words, each searched by the store within the caller's partitions (``MemoryStore.keyword_candidates``).
On the LoCoMo dev sample this beat reciprocal rank fusion, where each list contributes
``weight / (rrf_k + rank)`` ("rrf", still available); see bench/README.md. The vector
list comes from the caller's partitions only (own personal + tenant shared/system,
``MemoryStore.vector_candidates``). The retriever is backend-neutral. Without an embedder,
retrieval is keyword-only. Disabled memories are left out unless asked for. A search with a
relevance floor (``min_similarity``, the user-facing ``?q=`` searches) keeps only the hits
that matched a keyword list or whose cosine to the query reaches the floor: min-max scaling
makes the best hit of any query look perfect, so the floor is judged on the raw evidence. A long query is
cut to its head and tail first (``bounds.bound_query``), and its embedding and vector search
are urgent work on the shared CPU thread: a chat is waiting for them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from gateway.store import KeywordOptions, MemoryStore, Visibility
from gateway.store.keyword_index import SHARED_OWNER, parse_query
from gateway.store.keyword_index import partition_key as _partition_key
from gateway.store.vector_index import PartitionKey

from .bounds import bound_query
from .embedders import Embedder
from .recall import POOL_FACTOR, RecallStats, rerank
from .types import Memory, ScoredMemory
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


def above_floor(
    fused: list[tuple[str, float]],
    vector_list: Sequence[tuple[str, float]] | None,
    keyword_lists: Sequence[tuple[Sequence[tuple[str, float]], str]],
    min_similarity: float,
) -> list[tuple[str, float]]:
    """``fused`` without the hits that have no evidence of relevance: no keyword list matched
    them and their cosine to the query is under ``min_similarity`` (0: all kept)."""
    if min_similarity <= 0:
        return fused
    lexical = {mid for ranked, _ in keyword_lists for mid, _ in ranked}
    cosine = dict(vector_list or ())
    return [(mid, s) for mid, s in fused if mid in lexical or cosine.get(mid, -1.0) >= min_similarity]


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
    # "memories_fts": the word and CJK lists (an empty tuple leaves them out, for comparisons)
    keyword_indexes: tuple[str, ...] = ("memories_fts",)
    # leave out English words found in > 10% of all rows (and > 2000 rows): a latency guard for
    # large stores, inactive on small ones (keyword_index.prune_common)
    prune_common_terms: bool = True

    def keyword_options(self) -> KeywordOptions:
        return KeywordOptions(
            words="memories_fts" in self.keyword_indexes,
            substrings=self.substring_weight > 0,
            substring_max_rows=self.substring_max_rows,
            prune_common=self.prune_common_terms,
        )

    def weight(self, kind: str) -> float:
        """The fusion weight of a keyword list of ``kind`` ("words", "cjk", "substring")."""
        return self.substring_weight if kind == "substring" else self.keyword_weight


class HybridRetriever:
    """Guarantees: results are visible to the caller, match the filters, are enabled unless
    ``include_disabled``, and come most relevant first."""

    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder | None,
        settings: RetrievalSettings | None = None,
        working_set: WorkingSet | None = None,
        recall: RecallStats | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings or RetrievalSettings()
        self.working_set = working_set
        self.recall = recall

    def _recalled(
        self,
        fused: list[tuple[str, float]],
        rows: dict[str, Memory],
        where: Visibility,
        limit: int,
        conversation: str | None,
    ) -> list[tuple[str, float]]:
        """``fused`` with its head re-ordered by the recall paths (``recall``); each keeps its
        relevance score. Only the pool's candidates move: nothing else comes in."""
        assert self.recall is not None
        pool = fused[: limit * POOL_FACTOR]
        signals = self.recall.signals(where.tenant, where.user_id, conversation)
        relevance = dict(pool)
        order = rerank(pool, rows, signals, self.recall.settings, ranks_only=self.settings.fusion == "rrf")
        return [(mid, relevance[mid]) for mid, _ in order] + fused[len(pool) :]

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
        min_similarity: float = 0.0,
    ) -> list[ScoredMemory]:
        """From the working set when it holds the caller's partitions (enabled memories
        only), else from the store. With ``cached_rows`` (injection) the rows come from the
        working set too, whose access counts may lag; otherwise from the store. ``recall``
        (injection): the relevant head re-ordered by recency, popularity, co-occurrence and
        fatigue in ``conversation`` (``recall``). ``min_similarity``: the relevance floor
        (``above_floor``)."""
        recall = recall and self.recall is not None and self.recall.settings.on
        if limit <= 0 or not query.strip():
            return []
        query = bound_query(query)
        depth = max(self.settings.depth, limit * 2)
        where = Visibility(
            tenant, user_id, category=category, scope=scope, include_disabled=include_disabled, kind=kind
        )
        if self.working_set is not None and not include_disabled:
            view = await self.working_set.view(tenant, user_id, wait=False)
            if view is not None:
                held = await self._search_view(
                    view,
                    where,
                    query,
                    limit,
                    depth,
                    cached_rows=cached_rows,
                    recall=recall,
                    conversation=conversation,
                    min_similarity=min_similarity,
                )
                if held is not None:
                    self.working_set.stats.served += 1
                    return held
            self.working_set.stats.missed += 1
        lists: list[list[tuple[str, float]]] = []
        weights: list[float] = []
        # the two run concurrently: embedding + vector search on the CPU thread, the keyword
        # lists in the database (both release the GIL for most of their work)
        vector_list, keyword_lists = await asyncio.gather(
            self._vector(where, query, depth),
            self.store.keyword_candidates(where, parse_query(query), depth, self.settings.keyword_options()),
        )
        if vector_list is not None:
            lists.append(vector_list[: self.settings.vector_depth])
            weights.append(self.settings.vector_weight)
        for ranked, list_kind in keyword_lists:
            lists.append(ranked)
            weights.append(self.settings.weight(list_kind))
        if self.settings.fusion == "score":
            fused = score_fusion(lists, weights)
        else:
            fused = rrf([[mid for mid, _ in ranked] for ranked in lists], self.settings.rrf_k, weights)
        fused = above_floor(fused, vector_list, keyword_lists, min_similarity)
        found = await self.store.fetch([mid for mid, _ in fused[: limit * 3]])
        if recall:
            fused = self._recalled(fused, found, where, limit, conversation)
        out: list[ScoredMemory] = []
        for mid, score in fused:
            m = found.get(mid)
            if m is None or m.tenant != tenant:
                continue
            if m.scope == "personal" and m.user_id != user_id:
                continue
            if (category and m.category != category) or (scope and m.scope != scope) or (kind and m.kind != kind):
                continue
            if not m.enabled and not include_disabled:
                continue
            out.append(ScoredMemory(memory=m, relevance=score))
            if len(out) >= limit:
                break
        return out

    async def _search_view(
        self,
        view: View,
        where: Visibility,
        query: str,
        limit: int,
        depth: int,
        *,
        cached_rows: bool,
        recall: bool = False,
        conversation: str | None = None,
        min_similarity: float = 0.0,
    ) -> list[ScoredMemory] | None:
        """``search`` from the working set; None when a change reached the view meanwhile and
        its rows were not confirmed by the store (the caller then searches the store)."""
        embedder = self.embedder

        async def vector() -> list[tuple[str, float]] | None:
            if embedder is None:
                return None
            qvec = (await embedder.embed([query], urgent=True))[0]
            return view.vector_candidates(where, qvec, min(depth, self.settings.vector_depth))

        # three at once: the query embedding on the CPU thread, then the vector list here; the
        # keyword lists in another thread (the model, numpy and SQLite release the GIL)
        vector_list, keyword_lists = await asyncio.gather(
            vector(),
            asyncio.to_thread(
                view.keyword_candidates, where, parse_query(query), depth, self.settings.keyword_options()
            ),
        )
        lists: list[list[tuple[str, float]]] = []
        weights: list[float] = []
        if vector_list is not None:
            lists.append(vector_list)
            weights.append(self.settings.vector_weight)
        for ranked, list_kind in keyword_lists:
            lists.append(ranked)
            weights.append(self.settings.weight(list_kind))
        if self.settings.fusion == "score":
            fused = score_fusion(lists, weights)
        else:
            fused = rrf([[mid for mid, _ in ranked] for ranked in lists], self.settings.rrf_k, weights)
        fused = above_floor(fused, vector_list, keyword_lists, min_similarity)
        if recall:  # the pool's held rows give recency (their access times may lag a little)
            fused = self._recalled(
                fused, view.memories([mid for mid, _ in fused[: limit * POOL_FACTOR]]), where, limit, conversation
            )
        top = [mid for mid, _ in fused[:limit]]
        # another replica's acknowledged delete may not have reached this view yet: confirm
        trust_view = cached_rows and not self.store.shared
        rows: dict[str, Memory] = view.memories(top) if trust_view else await self.store.fetch(top)
        if trust_view and not view.current:
            # rows a change reached meanwhile; confirmed rows stay right (read after the view),
            # at worst missing a memory written while this search ran
            return None
        out = [ScoredMemory(memory=rows[mid], relevance=score) for mid, score in fused[:limit] if mid in rows]
        # a row read from the store is checked again, as in ``search``
        return [s for s in out if s.memory.enabled and s.memory.tenant == where.tenant]

    async def _vector(self, where: Visibility, query: str, depth: int) -> list[tuple[str, float]] | None:
        if self.embedder is None:
            return None
        qvec = (await self.embedder.embed([query], urgent=True))[0]
        # a category or kind filter is applied after the vector search, so look deeper
        k = depth * 3 if where.category or where.kind or where.scope in ("shared", "system") else depth
        return await self.store.vector_candidates(where, qvec, k)
