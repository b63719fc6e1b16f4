"""The SQL both backends run: every statement that is the same on SQLite and PostgreSQL,
written once with ``?`` placeholders and parametrised by the backend's ``Dialect``
(placeholders, id lists, JSON columns). ``sqlite/`` and ``postgres/`` keep only what truly
differs: connections and schema, full text (FTS5 / tsvector), vectors (hnswlib / pgvector),
time arithmetic, and how a write finds the partitions it changed.

A backend store inherits ``SharedStatements`` and gives it two primitives (``base.SqlBase``):
a read on the store's connection and a write session inside the store's transaction; the
memory stores also say what they keep beside a memory's columns (``writes.SqlMemoryWrites``)."""

from __future__ import annotations

from .audit import SqlAudit
from .base import POSTGRES, SQLITE, Dialect, SqlBase, Writer
from .memories import SqlMemoryReads
from .meta import SqlMeta
from .operators import SqlOperators
from .reflections import SqlReflections
from .reviews import SqlReviews
from .settings import SqlSettings
from .supersede import SqlSupersede
from .uses import SqlCitationLog

__all__ = ["POSTGRES", "SQLITE", "Dialect", "SharedStatements", "SqlBase", "Writer"]


class SharedStatements(
    SqlMeta,
    SqlMemoryReads,
    SqlSupersede,
    SqlCitationLog,
    SqlReviews,
    SqlReflections,
    SqlSettings,
    SqlAudit,
    SqlOperators,
):
    """Every role method whose SQL is the same on both backends."""
