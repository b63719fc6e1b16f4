"""Keyword retrieval over SQLite FTS5 (``trigram`` tokenizer) plus a CJK bigram fallback.

The FTS5 table ``memories_fts`` is an external-content index over ``memories`` kept in sync
by triggers (see ``sqlite_store.MIGRATIONS``). Trigrams match substrings, which works for
Chinese, but a query term needs at least three characters; Chinese queries are therefore
split into character bigrams and matched with ``instr`` over the caller's visible rows
(those are bounded by the (tenant, user) index), so "咖啡" finds "我喜欢喝咖啡".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ffff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
MAX_TERMS = 32

# Function words carry no topic; dropping them keeps trigram matches meaningful.
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    both but by can could did do does doing done down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours out over own
    same she should so some such than that the their theirs them then there these they this
    those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves let lets any much many did does
    what's whats it's i'm don't didn't doesn't isn't wasn't ever""".split()
)


@dataclass(slots=True)
class KeywordQuery:
    """A parsed query: MATCH expressions for the trigram table (words and CJK trigrams) and
    the stemmed-word table (words only), and CJK bigrams for ``instr``."""

    match: str | None
    bigrams: list[str]
    words_match: str | None = None


def parse_query(text: str) -> KeywordQuery:
    """Split ``text`` into trigram-searchable words and CJK bigrams."""
    lowered = text.lower()
    words: list[str] = []
    for word in _WORD.findall(_CJK_RUN.sub(" ", lowered)):
        word = word.replace("’", "'")
        if len(word) >= 3 and word not in STOPWORDS and word not in words:
            words.append(word)
    bigrams: list[str] = []
    trigrams: list[str] = []
    for run in _CJK_RUN.findall(lowered):
        grams = [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
        for gram in grams:
            if gram not in bigrams:
                bigrams.append(gram)
        for i in range(len(run) - 2):
            if run[i : i + 3] not in trigrams:
                trigrams.append(run[i : i + 3])
    words, bigrams = words[:MAX_TERMS], bigrams[:MAX_TERMS]
    return KeywordQuery(
        match=_or(words + trigrams[:MAX_TERMS]), bigrams=bigrams, words_match=_or(words)
    )


def _or(terms: list[str]) -> str | None:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) or None


def visibility_sql(user_id: str | None, alias: str = "m") -> tuple[str, list[object]]:
    """WHERE fragment limiting rows to what ``user_id`` may see (tenant bound separately)."""
    if user_id is None:
        return f"{alias}.scope IN ('shared', 'system')", []
    return (
        f"({alias}.scope IN ('shared', 'system') OR "
        f"({alias}.scope = 'personal' AND {alias}.user_id = ?))",
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
    if not include_disabled:
        clauses.append(f"{alias}.enabled = 1")
    return " AND ".join(clauses), args


FTS_TABLES = frozenset({"memories_fts", "memories_words"})


def fts_sql(where: str, limit: int, table: str = "memories_fts") -> str:
    """FTS5 query on ``table`` (trigram or stemmed words) ranked by bm25 (title double)."""
    if table not in FTS_TABLES:
        raise ValueError(f"unknown FTS table {table!r}")
    return (
        f"SELECT m.id, bm25({table}, 2.0, 1.0, 1.0) AS rank FROM {table} "
        f"JOIN memories m ON m.rowid = {table}.rowid "
        f"WHERE {table} MATCH ? AND {where} ORDER BY rank LIMIT {int(limit)}"
    )


def bigram_sql(where: str, n_grams: int, limit: int) -> str:
    """Count how many query bigrams each visible row contains; rows with none are dropped."""
    hits = " + ".join(
        ["(instr(lower(m.title || ' ' || m.content || ' ' || m.tags), ?) > 0)"] * n_grams
    )
    return (
        f"SELECT id, hits FROM (SELECT m.id AS id, ({hits}) AS hits, m.created_at AS c "
        f"FROM memories m WHERE {where}) WHERE hits > 0 ORDER BY hits DESC, c DESC "
        f"LIMIT {int(limit)}"
    )
