"""Keyword candidates on SQLite: FTS5 word and CJK lists ranked by bm25 within the caller's
partitions, and the partial-word list on the trigram table (``keywords`` builds the SQL).

The word and CJK lists run on the store's main connection and the partial-word list on its
reader connection, at once; common English words are pruned first on large stores, with row
counts over the whole store (as bm25's idf counts) cached for ``ttl_s`` (``term_stats``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..fts5 import substring_match, word_match
from ..keyword_index import KeywordQuery, visible_partitions
from ..records import KeywordOptions, Visibility
from ..term_stats import TermStats
from .keywords import doc_freq_sql, expressions, filter_sql, fts_sql, scoped_match, trigram_sql

Rows = Callable[[str, Sequence[Any]], Awaitable[list[Any]]]
Lists = list[tuple[list[tuple[str, float]], str]]


async def _nothing() -> Lists:
    return []


def _filter(where: Visibility) -> tuple[str, list[Any]]:
    return filter_sql(
        where.tenant,
        where.user_id,
        category=where.category,
        kind=where.kind,
        scope=where.scope,
        include_disabled=where.include_disabled,
    )


class KeywordSearch:
    def __init__(
        self, rows: Rows, read_rows: Rows, visible_rows: Callable[[str, str | None], Awaitable[int]], ttl_s: float
    ) -> None:
        self._rows = rows  # the main connection
        self._read_rows = read_rows  # the reader connection (the main one where there is none)
        self._visible_rows = visible_rows
        self._terms = TermStats(ttl_s)

    async def candidates(self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions) -> Lists:
        if options.prune_common:
            query = await self._terms.pruned(query, self._term_rows)
        substrings = options.substrings and (
            await self._visible_rows(where.tenant, where.user_id) <= options.substring_max_rows
        )
        words = self._word_lists(query, where, k) if options.words else _nothing()
        if substrings:
            lists, ranked = await asyncio.gather(words, self._substring_list(query, where, k))
        else:
            lists, ranked = await words, []
        if ranked:
            lists.append((ranked, "substring"))
        return lists

    async def _count(self, sql: str, params: Sequence[Any]) -> int:
        rows = await self._rows(sql, params)
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    async def _term_rows(self, word: str) -> int:
        """Rows holding ``word``, one FTS5 count; "" an upper bound of all rows, O(log n)."""
        if word:
            return await self._count(doc_freq_sql(), [word_match(word)])
        return await self._count("SELECT MAX(rowid) FROM memories", [])

    async def _word_lists(self, query: KeywordQuery, where: Visibility, limit: int) -> Lists:
        """One ranked list per expression (words, CJK) over the caller's visible partitions;
        score = -bm25."""
        parts = visible_partitions(where.tenant, where.user_id, where.scope)
        if not parts:
            return []
        sql_where, args = _filter(where)
        # rank within the partitions first, then filter the best few (a category filter may
        # drop many rows, so it ranks everything); retry in full if too few survive
        candidates = None if where.category is not None or where.kind is not None else limit * 2 + 20
        lists: Lists = []
        for kind, expression in expressions(query):
            params = [scoped_match(parts, expression), *args]
            rows = await self._rows(fts_sql(sql_where, limit, candidates=candidates), params)
            if candidates is not None and len(rows) < limit:
                rows = await self._rows(fts_sql(sql_where, limit), params)
            lists.append(([(r[0], -float(r[1])) for r in rows], kind))
        return lists

    async def _substring_list(self, query: KeywordQuery, where: Visibility, limit: int) -> list[tuple[str, float]]:
        """Partial-word matches (``memories_tri``) of the query's longer words, over the
        caller's visible partitions only, best first (score = -bm25)."""
        expression = substring_match(query)
        if expression is None:
            return []
        tokens = visible_partitions(where.tenant, where.user_id, where.scope)
        marks = ", ".join("?" * len(tokens))
        numbers = [r[0] for r in await self._read_rows(f"SELECT id FROM partitions WHERE token IN ({marks})", tokens)]
        sql_where, args = _filter(where)
        found: list[tuple[str, float]] = []
        for number in numbers:
            low, high = number << 32, (number << 32) | 0xFFFFFFFF
            rows = await self._read_rows(trigram_sql(sql_where, limit), [expression, low, high, *args])
            found.extend((r[0], -float(r[1])) for r in rows)
        found.sort(key=lambda hit: hit[1], reverse=True)
        return found[:limit]
