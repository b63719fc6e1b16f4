"""Keyword candidates on PostgreSQL: three ranked lists over the caller's visible rows.

* "words": the word tsvector (title weight A, content and tags D; each word as written and
  as its English stem) against any of the query's words or their stems, ranked by
  ``ts_rank`` with title counting double (as SQLite's bm25 weights); a word found as written
  matches both lexemes, so it ranks above a stem-only match.
* "cjk": the CJK gram tsvector against any of the query's bigrams, ranked by ``ts_rank``.
* "substring": words of at least ``MIN_SUBSTRING`` letters found inside longer words
  ("paint" -> "painting"), through the pg_trgm index; ranked by how many query words occur,
  shorter texts first on ties.

``ts_rank`` has no inverse document frequency (bm25 has): a rare word counts as much as a
frequent one. On large stores the English words found in more than 10% of all rows are left
out first (``keyword_index.prune_common``, counts cached by ``TermStats``), as on SQLite.
Every list is keyed by tenant and user (``_sql.visibility``).
"""

from __future__ import annotations

import time
from typing import Any

from ..keyword_index import COMMON_MIN_ROWS, MIN_SUBSTRING, KeywordQuery, prune_common
from ..store import KeywordOptions, Visibility
from ._db import Conn
from ._sql import any_of, like_pattern, visibility
from .schema import TRIGRAM_TEXT

# one query word: as written, or its English stem (the two halves of the word tsvector)
WORD_QUERY = "plainto_tsquery('simple', %s) || plainto_tsquery('english', %s)"
_WEIGHTS = "'{0.5, 0.5, 0.5, 1.0}'"  # D, C, B, A: content/tags 0.5, title 1.0


async def _ranked(conn: Conn, sql: str, params: list[Any]) -> list[tuple[str, float]]:
    cur = await conn.execute(sql, params)
    return [(str(r[0]), float(r[1])) for r in await cur.fetchall()]


class TermStats:
    """Row counts of English words over the whole store (as an idf would count), cached for
    ``ttl_s``; a miss costs one count through the word index."""

    def __init__(self, ttl_s: float = 300.0) -> None:
        self.ttl_s = ttl_s
        self._cache: dict[str, tuple[int, float]] = {}  # word ("" = all rows) -> (rows, expiry)

    async def _rows(self, conn: Conn, word: str) -> int:
        now = time.monotonic()
        hit = self._cache.get(word)
        if hit is not None and hit[1] >= now:
            return hit[0]
        if len(self._cache) > 50_000:
            self._cache.clear()
        if word:
            sql, params = f"SELECT COUNT(*) FROM memories WHERE words @@ ({WORD_QUERY})", [word, word]
        else:  # exact up to the floor, the planner's estimate above it
            sql = (
                f"SELECT GREATEST((SELECT COUNT(*) FROM (SELECT 1 FROM memories LIMIT {COMMON_MIN_ROWS + 1}) s),"
                " (SELECT reltuples::bigint FROM pg_class WHERE oid = 'memories'::regclass))"
            )
            params = []
        cur = await conn.execute(sql, params)
        row = await cur.fetchone()
        n = int(row[0]) if row and row[0] is not None else 0
        self._cache[word] = (n, now + self.ttl_s)
        return n

    async def pruned(self, conn: Conn, query: KeywordQuery) -> KeywordQuery:
        if len(query.words) < 2:
            return query
        total = await self._rows(conn, "")
        if total <= COMMON_MIN_ROWS:  # no word can be common: skip the counts
            return query
        return prune_common(query, {w: await self._rows(conn, w) for w in query.words}, total)


async def _visible_at_most(conn: Conn, where: Visibility, n: int) -> bool:
    clause, args = visibility(Visibility(where.tenant, where.user_id, include_disabled=True))
    cur = await conn.execute(f"SELECT COUNT(*) FROM (SELECT 1 FROM memories WHERE {clause} LIMIT {n + 1}) s", args)
    row = await cur.fetchone()
    return row is not None and int(row[0]) <= n


async def keyword_lists(
    conn: Conn, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions
) -> list[tuple[list[tuple[str, float]], str]]:
    clause, args = visibility(where)
    out: list[tuple[list[tuple[str, float]], str]] = []
    if query.words and options.words:
        # each word parsed as the index parsed the text (an apostrophe splits like it did)
        tsquery = " || ".join([WORD_QUERY] * len(query.words))
        sql = (
            f"SELECT id, ts_rank({_WEIGHTS}, words, q) AS r FROM memories, ({'SELECT ' + tsquery} AS q) x "
            f"WHERE {clause} AND words @@ q ORDER BY r DESC, seq DESC LIMIT %s"
        )
        words = [w for word in query.words for w in (word, word)]
        out.append((await _ranked(conn, sql, [*words, *args, k]), "words"))
    if query.grams and options.words:
        sql = (
            "SELECT id, ts_rank(cjk, q) AS r FROM memories, (SELECT %s::tsquery AS q) x "
            f"WHERE {clause} AND cjk @@ q ORDER BY r DESC, seq DESC LIMIT %s"
        )
        out.append((await _ranked(conn, sql, [any_of(query.grams), *args, k]), "cjk"))
    patterns = [like_pattern(w) for w in query.words if len(w) >= MIN_SUBSTRING]
    if patterns and options.substrings and await _visible_at_most(conn, where, options.substring_max_rows):
        text = TRIGRAM_TEXT
        sql = (
            f"SELECT id, (SELECT COUNT(*) FROM unnest(%s::text[]) AS p WHERE {text} ILIKE p)"
            f" + 1.0 / (10 + length({text})) AS r FROM memories "
            f"WHERE {clause} AND {text} ILIKE ANY(%s::text[]) ORDER BY r DESC, seq DESC LIMIT %s"
        )
        out.append((await _ranked(conn, sql, [patterns, *args, patterns, k]), "substring"))
    return out
