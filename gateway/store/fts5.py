"""FTS5 MATCH strings of a keyword query: used by the SQLite backend's ``memories_fts`` and
``memories_tri`` tables and by a replica's working set, which indexes its partitions in an
in-memory FTS5 table of the same columns (``title``, ``content``, ``tags``, ``cjk``)."""

from __future__ import annotations

from .keyword_index import MIN_SUBSTRING, KeywordQuery


def any_term(terms: list[str]) -> str:
    """FTS5 OR of the terms, each quoted (a term is matched as written, never parsed)."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def words_match(query: KeywordQuery) -> str | None:
    """Term expression over the English columns, or None without words."""
    terms = any_term(query.words)
    return f"{{title content tags}} : ({terms})" if terms else None


def cjk_match(query: KeywordQuery) -> str | None:
    """Term expression over the CJK gram column, or None without CJK."""
    terms = any_term(query.grams)
    return f"cjk : ({terms})" if terms else None


def substring_match(query: KeywordQuery) -> str | None:
    """Expression for the trigram index (``memories_tri``): the words of at least
    ``MIN_SUBSTRING`` letters as substrings ("paint" finds "painting", "repaint"), or None."""
    terms = any_term([w for w in query.words if len(w) >= MIN_SUBSTRING])
    return terms or None


def word_match(word: str) -> str:
    """MATCH string for one English word over the English columns (for ``doc_freq_sql``)."""
    return f"{{title content tags}} : ({any_term([word])})"
