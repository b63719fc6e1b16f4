"""The PostgreSQL backend: several memorelay replicas on one database (pgvector for vectors,
full text + pg_trgm for keywords, a shared learning queue, LISTEN/NOTIFY for changes).

``create_backend(config)`` builds the stores on one ``Database`` (one pool, one change
listener); ``open`` them before use (the first applies the migrations).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import Backend
from .connection import Database
from .console import PostgresConsoleStore
from .learning import PostgresLearningStore
from .memories import PostgresMemoryStore

if TYPE_CHECKING:
    from gateway.config import Config

__all__ = [
    "POOL_MAX",
    "Database",
    "PostgresConsoleStore",
    "PostgresLearningStore",
    "PostgresMemoryStore",
    "create_backend",
    "postgres_backend",
]

# connections per replica: requests, learning workers and the console share them; the
# change listener holds one more of its own. 10 replicas x 11 stay under PostgreSQL's
# default max_connections (100) with room for operators.
POOL_MAX = 8


def create_backend(config: Config) -> Backend:
    """Every store on the database at ``config.memory.database`` (a ``postgresql://`` URL)."""
    return postgres_backend(config.memory.database)


def postgres_backend(url: str) -> Backend:
    """Every store on the database at ``url``, sharing one pool and one change listener."""
    database = Database(url, min_size=1, max_size=POOL_MAX)
    return Backend(
        kind="postgres",
        memories=PostgresMemoryStore(database),
        learning=PostgresLearningStore(database),
        console=PostgresConsoleStore(database),
    )
