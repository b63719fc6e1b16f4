"""Keyword candidates on PostgreSQL: three ranked lists over the caller's visible rows.

* "words": the ``simple`` tsvector (title weight A, content and tags D) against any of the
  query's words, ranked by ``ts_rank`` with title counting double (as SQLite's bm25 weights).
* "cjk": the CJK gram tsvector against any of the query's bigrams, ranked by ``ts_rank``.
* "substring": words of at least ``MIN_SUBSTRING`` letters found inside longer words
  ("paint" -> "painting"), through the pg_trgm index; ranked by how many query words occur,
  shorter texts first on ties.

``ts_rank`` has no inverse document frequency (bm25 has): a rare word counts as much as a
frequent one. Every list is keyed by tenant and user (``_sql.visibility``).
"""

from __future__ import annotations

from typing import Any

from ..keyword_index import MIN_SUBSTRING, KeywordQuery
from ..store import Visibility
from ._db import Conn
from ._sql import any_of, like_pattern, visibility
from .schema import TRIGRAM_TEXT

_WEIGHTS = "'{0.5, 0.5, 0.5, 1.0}'"  # D, C, B, A: content/tags 0.5, title 1.0


async def _ranked(conn: Conn, sql: str, params: list[Any]) -> list[tuple[str, float]]:
    cur = await conn.execute(sql, params)
    return [(str(r[0]), float(r[1])) for r in await cur.fetchall()]


async def keyword_lists(
    conn: Conn, where: Visibility, query: KeywordQuery, k: int
) -> list[tuple[list[tuple[str, float]], str]]:
    clause, args = visibility(where)
    out: list[tuple[list[tuple[str, float]], str]] = []
    if query.words:
        # each word parsed as the index parsed the text (an apostrophe splits like it did)
        tsquery = " || ".join(["plainto_tsquery('simple', %s)"] * len(query.words))
        sql = (
            f"SELECT id, ts_rank({_WEIGHTS}, words, q) AS r FROM memories, ({'SELECT ' + tsquery} AS q) x "
            f"WHERE {clause} AND words @@ q ORDER BY r DESC, seq DESC LIMIT %s"
        )
        out.append((await _ranked(conn, sql, [*query.words, *args, k]), "words"))
    if query.grams:
        sql = (
            "SELECT id, ts_rank(cjk, q) AS r FROM memories, (SELECT %s::tsquery AS q) x "
            f"WHERE {clause} AND cjk @@ q ORDER BY r DESC, seq DESC LIMIT %s"
        )
        out.append((await _ranked(conn, sql, [any_of(query.grams), *args, k]), "cjk"))
    patterns = [like_pattern(w) for w in query.words if len(w) >= MIN_SUBSTRING]
    if patterns:
        text = TRIGRAM_TEXT
        sql = (
            f"SELECT id, (SELECT COUNT(*) FROM unnest(%s::text[]) AS p WHERE {text} ILIKE p)"
            f" + 1.0 / (10 + length({text})) AS r FROM memories "
            f"WHERE {clause} AND {text} ILIKE ANY(%s::text[]) ORDER BY r DESC, seq DESC LIMIT %s"
        )
        out.append((await _ranked(conn, sql, [patterns, *args, patterns, k]), "substring"))
    return out
