"""Partitioned keyword retrieval over SQLite FTS5: the SQL builders (the MATCH strings are
``gateway.store.fts5``'s, shared with the working set's in-memory index).

``memories_fts`` is an external-content index (``porter unicode61``) over the view
``memories_fts_src`` (a projection of ``memories``), kept in sync by triggers (see
``schema.MIGRATIONS``). Its columns:

* ``part``: one opaque token naming the row's retrieval partition
  (``keyword_index.partition_token``): a user's personal memories, or a tenant's shared +
  system memories, the same partitions as the vector index.
* ``title``, ``content``, ``tags``: English words, porter-stemmed.
* ``cjk``: CJK text as overlapping character bigrams plus unigrams
  (``keyword_index.cjk_grams``), because ``unicode61`` would keep a CJK run as one token.

Every search is ``part : (<visible partitions>) AND (<terms>)``: FTS5 intersects the
partition's doclist with the terms' doclists, so the work follows the caller's own rows,
not the store. ``part`` has weight 0 in ``bm25`` so it does not affect ranking. The token
values are computed in Python by SQL functions registered on every connection
(``SQL_FUNCTIONS``); writing to ``memories`` on a connection without them fails.

``memories_tri`` is the trigram (partial-word) index, partitioned by rowid range: an index
rowid is (partition number << 32) | memories.rowid (see ``trigram_sql``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..fts5 import any_term, cjk_match, words_match
from ..keyword_index import KeywordQuery, cjk_grams, partition_token

# (name, number of arguments, function): SQL functions the FTS view and triggers call.
SQL_FUNCTIONS: tuple[tuple[str, int, Callable[..., str]], ...] = (
    ("memorelay_part", 3, partition_token),
    ("memorelay_cjk", 1, cjk_grams),
)
FTS_TABLES = frozenset({"memories_fts"})


def expressions(query: KeywordQuery) -> list[tuple[str, str]]:
    """(kind, term expression) per keyword list ("words", "cjk"), each ranked on its own."""
    found = (("words", words_match(query)), ("cjk", cjk_match(query)))
    return [(kind, e) for kind, e in found if e]


def doc_freq_sql(table: str = "memories_fts") -> str:
    """Rows (all partitions) whose English columns hold the one word given as parameter
    (a MATCH string from ``word_match``)."""
    if table not in FTS_TABLES:
        raise ValueError(f"unknown FTS table {table!r}")
    return f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?"


def scoped_match(parts: list[str], expression: str) -> str:
    """The MATCH string: ``expression`` restricted to the partitions ``parts``."""
    return f"part : ({any_term(parts)}) AND ({expression})"


def visibility_sql(user_id: str | None, alias: str = "m") -> tuple[str, list[object]]:
    """WHERE fragment limiting rows to what ``user_id`` may see (tenant bound separately)."""
    if user_id is None:
        return f"{alias}.scope IN ('shared', 'system')", []
    return (
        f"({alias}.scope IN ('shared', 'system') OR ({alias}.scope = 'personal' AND {alias}.user_id = ?))",
        [user_id],
    )


def filter_sql(
    tenant: str,
    user_id: str | None,
    *,
    category: str | None,
    scope: str | None,
    include_disabled: bool,
    alias: str = "m",
    kind: str | None = None,
) -> tuple[str, list[object]]:
    """The full WHERE clause (without ``WHERE``) for a retrieval over visible rows."""
    vis, params = visibility_sql(user_id, alias)
    clauses = [f"{alias}.tenant = ?", vis]
    args: list[object] = [tenant, *params]
    if category is not None:
        clauses.append(f"{alias}.category = ?")
        args.append(category)
    if scope is not None:
        clauses.append(f"{alias}.scope = ?")
        args.append(scope)
    if kind is not None:
        clauses.append(f"{alias}.kind = ?")
        args.append(kind)
    if not include_disabled:
        clauses.append(f"{alias}.enabled = 1")
    return " AND ".join(clauses), args


def fts_sql(where: str, limit: int, table: str = "memories_fts", *, candidates: int | None = None) -> str:
    """FTS5 query ranked by bm25 (``part`` weight 0, title double); parameters: the MATCH
    string (``scoped_match``), then ``where``'s. The partitioned MATCH already bounds rows to
    the caller's partitions; ``where`` re-checks them (defence in depth) plus the category and
    enabled filters. With ``candidates``, only the best that many FTS rows are checked against
    ``where`` (cheaper; the caller retries without it if fewer than ``limit`` survive)."""
    if table not in FTS_TABLES:
        raise ValueError(f"unknown FTS table {table!r}")
    inner = f" ORDER BY rank LIMIT {int(candidates)}" if candidates is not None else ""
    return (
        f"SELECT m.id, f.rank FROM (SELECT rowid, bm25({table}, 0.0, 2.0, 1.0, 1.0, 1.0) AS rank "
        f"FROM {table} WHERE {table} MATCH ?{inner}) f "
        f"CROSS JOIN memories m ON m.rowid = f.rowid "
        f"WHERE {where} ORDER BY f.rank LIMIT {int(limit)}"
    )


def trigram_sql(where: str, limit: int) -> str:
    """Partial-word search over one partition of ``memories_tri``: parameters are the MATCH
    string (``substring_match``), the partition's rowid range (low, high), then ``where``'s.
    The rowid range lets FTS5 seek to the partition instead of ranking the store."""
    return (
        "SELECT m.id, f.rank FROM (SELECT rowid, bm25(memories_tri, 2.0, 1.0, 1.0) AS rank "
        "FROM memories_tri WHERE memories_tri MATCH ? AND rowid BETWEEN ? AND ?) f "
        "CROSS JOIN memories m ON m.rowid = (f.rowid & 4294967295) "
        f"WHERE {where} ORDER BY f.rank LIMIT {int(limit)}"
    )
