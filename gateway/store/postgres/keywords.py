"""Small pure helpers of the PostgreSQL memory store: row mapping, the tsvector / tsquery
literals for CJK grams and LIKE patterns, and the shared visibility clauses in psycopg's
placeholder style."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ..keyword_index import cjk_grams
from ..records import Memory, Visibility
from ..sql.base import POSTGRES
from ..sql.visibility import partition as shared_partition
from ..sql.visibility import visible

# tsvector positions stop at 16383 and a lexeme keeps at most 256 of them
_MAX_POSITION = 16383


def memory_cjk(m: Memory) -> str:
    """The CJK tsvector literal of ``m`` (its tags as they are stored, JSON text)."""
    return cjk_vector(m.title, m.content, orjson.dumps(m.tags).decode())


def _lexeme(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def cjk_vector(title: str, content: str, tags: str) -> str:
    """tsvector literal of the CJK bigrams and unigrams (``keyword_index.cjk_grams``) of a
    memory's text, with positions so a repeated gram counts more."""
    positions: dict[str, list[int]] = {}
    for i, gram in enumerate(cjk_grams(f"{title} {content} {tags}").split()):
        at = positions.setdefault(gram, [])
        if len(at) < 256:
            at.append(min(i + 1, _MAX_POSITION))
    return " ".join(f"{_lexeme(g)}:{','.join(map(str, sorted(set(p))))}" for g, p in positions.items())


def any_of(terms: Sequence[str]) -> str:
    """tsquery literal matching any of ``terms`` taken verbatim (no parsing)."""
    return " | ".join(_lexeme(t) for t in terms)


def like_pattern(word: str) -> str:
    """``%word%`` with LIKE's special characters escaped (backslash is the escape)."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def visibility(where: Visibility, *, enabled_only: bool | None = None) -> tuple[str, list[Any]]:
    """``sql.visibility.visible`` in psycopg's placeholder style."""
    clause, args = visible(where, enabled_only=enabled_only)
    return POSTGRES.statement(clause), args


def partition(tenant: str, owner: str) -> tuple[str, list[Any]]:
    """``sql.visibility.partition`` in psycopg's placeholder style."""
    clause, args = shared_partition(tenant, owner)
    return POSTGRES.statement(clause), args
