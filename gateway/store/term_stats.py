"""Row counts of English words over the whole store, as an idf counts them, cached for a
while: both backends leave out the words common enough to drown a keyword list
(``keyword_index.prune_common``) once a store is large."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from .keyword_index import COMMON_MIN_ROWS, KeywordQuery, prune_common

# the rows holding a word, through the backend's index ("" counts every row: an upper bound
# or an estimate is good enough)
Count = Callable[[str], Awaitable[int]]
_MAX_WORDS = 50_000  # cached words before the cache starts over


class TermStats:
    """Counts of words, each kept ``ttl_s`` seconds; a miss costs one count of the backend's."""

    def __init__(self, ttl_s: float = 300.0) -> None:
        self.ttl_s = ttl_s
        self._cache: dict[str, tuple[int, float]] = {}  # word -> (rows, expiry)

    async def rows(self, word: str, count: Count) -> int:
        now = time.monotonic()
        hit = self._cache.get(word)
        if hit is not None and hit[1] >= now:
            return hit[0]
        if len(self._cache) > _MAX_WORDS:
            self._cache.clear()
        n = await count(word)
        self._cache[word] = (n, now + self.ttl_s)
        return n

    async def pruned(self, query: KeywordQuery, count: Count) -> KeywordQuery:
        """``query`` without its common words (a query of one word keeps it)."""
        if len(query.words) < 2:
            return query
        total = await self.rows("", count)
        if total <= COMMON_MIN_ROWS:  # no word can be common: skip the counts
            return query
        return prune_common(query, {w: await self.rows(w, count) for w in query.words}, total)
