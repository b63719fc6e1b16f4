"""The store seam: everything memorelay keeps, behind one interface per concern.

Backends: ``gateway/store/sqlite/`` (the embedded default: one process, SQLite in WAL mode,
hnswlib for vectors, FTS5 for keywords) and ``gateway/store/postgres/`` (several replicas on
one PostgreSQL: pgvector, full-text + pg_trgm, a shared job queue). Every statement the two
share is written once in ``sql/``, parametrised by the backend's dialect; the backends hold only
what differs. Each concern is a small Protocol in ``roles/`` (records in ``records.py``, errors
in ``errors.py``); ``MemoryStore`` and ``LearningStore`` are their unions. Nothing outside this
package imports a backend: the service, retrieval, learning, console and APIs are handed a
``Backend`` (``backend.open_backend``) and never build or query a database themselves.
``tests/memory/test_store_contract.py`` runs the same tests against both.

Guarantees every backend gives:
- every read is keyed by tenant (and user) by construction; a personal memory is visible only
  to its (tenant, user), shared/system memories to their tenant;
- writes made inside ``transaction()`` are atomic; derived indexes (vectors, keywords) follow
  the committed rows: a memory disabled or deleted in a committed transaction is never a
  candidate afterwards, on any replica;
- ``on_change`` callbacks fire after every committed change to a user's memories or settings,
  on every replica (in-process for SQLite, LISTEN/NOTIFY for PostgreSQL), within 1 s
  (access counts, ``updated_at`` alone and ``score`` are not changes worth a callback);
- embeddings are stored with the memory (float32), so vector indexes can always be rebuilt;
- a write method called outside ``transaction()`` runs in a transaction of its own; inside
  one, it joins it (``transaction()`` nests: an inner one joins the outer one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from .records import (
    AuditEntry,
    Change,
    ConsoleSession,
    Decay,
    Job,
    KeywordOptions,
    MemoryRow,
    PartitionRows,
    PersonalStats,
    Reflection,
    ReflectionKind,
    Review,
    ReviewState,
    SettingsRow,
    TenantStats,
    Use,
    UserSummary,
    Visibility,
)
from .roles.audit import AuditLog
from .roles.console import ConsoleStore
from .roles.copying import Copying
from .roles.learning import DeadLetters, LearningLog, LearningQueue, PromptOverrides
from .roles.lifecycle import Metadata, StoreLifecycle
from .roles.memories import MemoryRows
from .roles.operators import Operators
from .roles.reflections import Reflections
from .roles.retention import Retention
from .roles.reviews import Reviews
from .roles.search import Candidates
from .roles.settings import Settings
from .roles.uses import CitationLog
from .roles.vectors import EmbeddingStore

__all__ = [
    "AuditEntry",
    "AuditLog",
    "Backend",
    "Candidates",
    "Change",
    "CitationLog",
    "ConsoleSession",
    "ConsoleStore",
    "Copying",
    "DeadLetters",
    "Decay",
    "EmbeddingStore",
    "Job",
    "KeywordOptions",
    "LearningLog",
    "LearningQueue",
    "LearningStore",
    "MemoryRow",
    "MemoryRows",
    "MemoryStore",
    "Metadata",
    "Operators",
    "PartitionRows",
    "PromptOverrides",
    "Reflection",
    "ReflectionKind",
    "Reflections",
    "Retention",
    "Review",
    "ReviewState",
    "Reviews",
    "Settings",
    "SettingsRow",
    "PersonalStats",
    "TenantStats",
    "StoreLifecycle",
    "Use",
    "UserSummary",
    "Visibility",
]


class MemoryStore(
    StoreLifecycle,
    Metadata,
    EmbeddingStore,
    MemoryRows,
    Retention,
    Candidates,
    CitationLog,
    Reviews,
    Reflections,
    Settings,
    AuditLog,
    Operators,
    Copying,
    Protocol,
):
    """Memories, their embeddings and indexes, user settings, the audit log, metadata: the
    union of the memory roles (``roles/``), each of which a caller may ask for alone."""


class LearningStore(LearningQueue, LearningLog, PromptOverrides, DeadLetters, Protocol):
    """The durable learning queue (leases, retries, dead letter), the learning log, learning
    token usage and prompt overrides (``roles/learning.py``)."""


@dataclass(slots=True)
class Backend:
    """What ``open_backend(config)`` hands the application: the stores on one database."""

    kind: Literal["sqlite", "postgres"]
    memories: MemoryStore
    learning: LearningStore
    console: ConsoleStore

    async def open(self) -> None:
        """Open every store; on failure close what was opened and raise."""
        try:
            await self.memories.open()
            await self.learning.open()
            await self.console.open()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        try:
            try:
                await self.console.close()
            finally:
                await self.learning.close()
        finally:
            await self.memories.close()
