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
out first (``keyword_index.prune_common``, counts cached by ``term_stats.TermStats``), as on SQLite.
Every list is keyed by tenant and user (``sql.visibility``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..keyword_index import COMMON_MIN_ROWS, MIN_SUBSTRING, KeywordQuery
from ..records import KeywordOptions, Visibility
from ..term_stats import TermStats
from .connection import Conn, Database
from .keywords import any_of, like_pattern, visibility
from .schema import TRIGRAM_TEXT

# one query word: as written, or its English stem (the two halves of the word tsvector)
WORD_QUERY = "plainto_tsquery('simple', %s) || plainto_tsquery('english', %s)"
SCAN_MAX = 2000  # partitions up to this many rows are matched row by row, not through GIN
_WEIGHTS = "'{0.5, 0.5, 0.5, 1.0}'"  # D, C, B, A: content/tags 0.5, title 1.0


async def _term_rows(conn: Conn, word: str) -> int:
    """Rows holding ``word`` through the word index; "" counts every row (exact up to the
    floor, the planner's estimate above it)."""
    if word:
        sql, params = f"SELECT COUNT(*) FROM memories WHERE words @@ ({WORD_QUERY})", [word, word]
    else:
        sql = (
            f"SELECT GREATEST((SELECT COUNT(*) FROM (SELECT 1 FROM memories LIMIT {COMMON_MIN_ROWS + 1}) s),"
            " (SELECT reltuples::bigint FROM pg_class WHERE oid = 'memories'::regclass))"
        )
        params = []
    cur = await conn.execute(sql, params)
    row = await cur.fetchone()
    return int(row[0]) if row and row[0] is not None else 0


async def _visible_rows(conn: Conn, where: Visibility, cap: int) -> int:
    """The caller's visible rows (disabled included), counted up to ``cap``."""
    clause, args = visibility(Visibility(where.tenant, where.user_id, include_disabled=True))
    cur = await conn.execute(f"SELECT COUNT(*) FROM (SELECT 1 FROM memories WHERE {clause} LIMIT {cap}) s", args)
    row = await cur.fetchone()
    return int(row[0]) if row else 0


async def keyword_lists(
    db: Database, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions, terms: TermStats
) -> list[tuple[list[tuple[str, float]], str]]:
    async with db.connection() as conn:
        if options.prune_common:
            query = await terms.pruned(query, lambda word: _term_rows(conn, word))
        visible = await _visible_rows(conn, where, max(SCAN_MAX, options.substring_max_rows) + 1)
    clause, args = visibility(where)
    if visible <= SCAN_MAX:
        # a small partition: match its rows directly (OFFSET 0 keeps the match out of the
        # subquery), rather than walk the store-wide text index for every query term
        source, source_args = f"(SELECT * FROM memories WHERE {clause} OFFSET 0) m", args
        extra, extra_args = "", []
    else:
        source, source_args = "memories m", []
        extra, extra_args = f"{clause} AND ", args
    searches: list[tuple[str, list[Any], str]] = []
    if query.words and options.words:
        # each word as written and as its English stem (both halves of the word tsvector)
        tsquery = " || ".join([WORD_QUERY] * len(query.words))
        words = [w for word in query.words for w in (word, word)]
        sql = (
            f"SELECT id, ts_rank({_WEIGHTS}, words, q) AS r FROM {source}, (SELECT {tsquery} AS q) x "
            f"WHERE {extra}words @@ q ORDER BY r DESC, seq DESC LIMIT %s"
        )
        searches.append((sql, [*source_args, *words, *extra_args, k], "words"))
    if query.grams and options.words:
        sql = (
            f"SELECT id, ts_rank(cjk, q) AS r FROM {source}, (SELECT %s::tsquery AS q) x "
            f"WHERE {extra}cjk @@ q ORDER BY r DESC, seq DESC LIMIT %s"
        )
        searches.append((sql, [*source_args, any_of(query.grams), *extra_args, k], "cjk"))
    patterns = [like_pattern(w) for w in query.words if len(w) >= MIN_SUBSTRING]
    if patterns and options.substrings and visible <= options.substring_max_rows:
        text = TRIGRAM_TEXT
        sql = (
            f"SELECT id, (SELECT COUNT(*) FROM unnest(%s::text[]) AS p WHERE {text} ILIKE p)"
            f" + 1.0 / (10 + length({text})) AS r FROM {source} "
            f"WHERE {extra}{text} ILIKE ANY(%s::text[]) ORDER BY r DESC, seq DESC LIMIT %s"
        )
        searches.append((sql, [patterns, *source_args, *extra_args, patterns, k], "substring"))

    async def ranked(sql: str, params: list[Any]) -> list[tuple[str, float]]:
        async with db.connection() as conn:  # each list on its own connection: they run at once
            cur = await conn.execute(sql, params)
            return [(str(r[0]), float(r[1])) for r in await cur.fetchall()]

    lists = await asyncio.gather(*(ranked(sql, params) for sql, params, _ in searches))
    return [(hits, kind) for hits, (_, _, kind) in zip(lists, searches, strict=True)]
