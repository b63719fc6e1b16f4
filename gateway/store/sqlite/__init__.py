"""The SQLite backend (the embedded default): one file in WAL mode, FTS5 for keywords,
hnswlib for vectors (``<database>.index/``). All of its SQL lives in this folder."""

from __future__ import annotations

from .console import SQLiteConsoleStore
from .learning import SQLiteLearningStore
from .memories import SQLiteMemoryStore

__all__ = ["SQLiteConsoleStore", "SQLiteLearningStore", "SQLiteMemoryStore"]
