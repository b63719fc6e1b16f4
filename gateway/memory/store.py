"""The store seam: everything memorelay keeps, behind one interface per concern.

Backends: ``gateway/memory/sqlite/`` (the embedded default: one process, SQLite in WAL mode,
hnswlib for vectors, FTS5 for keywords) and ``gateway/memory/postgres/`` (several replicas on
one PostgreSQL: pgvector, full-text + pg_trgm, a shared job queue). All SQL lives in those two
folders; the service, retrieval, learning, console and APIs are handed a ``Backend`` and never
build or query a database themselves. ``tests/memory/test_store_contract.py`` runs the same
tests against both.

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

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from gateway.learning.jobs import Job
from gateway.learning.prompts import PromptName

from .keyword_index import KeywordQuery
from .types import Memory

# personal memories live in the partition (tenant, user_id); shared and system ones in
# (tenant, SHARED_OWNER) (see keyword_index.SHARED_OWNER)


@dataclass(frozen=True, slots=True)
class Change:
    """A committed change: ``kind`` "memories" or "settings" of one partition owner
    (``user_id`` is ``keyword_index.SHARED_OWNER`` for a tenant's shared/system memories;
    ``"*"`` for every user of the tenant, e.g. after a tenant move)."""

    kind: Literal["memories", "settings"]
    tenant: str
    user_id: str


@dataclass(frozen=True, slots=True)
class Visibility:
    """Which memories a read may return: own personal (when ``user_id`` is set) plus the
    tenant's shared and system ones, narrowed by the optional filters."""

    tenant: str
    user_id: str | None
    category: str | None = None
    scope: str | None = None
    include_disabled: bool = False
    personal_only: bool = False
    kind: str | None = None  # ``gateway.memory.kinds.KINDS``


@dataclass(frozen=True, slots=True)
class KeywordOptions:
    """Which keyword lists ``keyword_candidates`` builds (the retrieval settings decide)."""

    words: bool = True  # the word (stemmed) and CJK-gram lists
    substrings: bool = True  # the partial-word list ("paint" finds "painting") ...
    substring_max_rows: int = 2000  # ... only when the caller sees at most this many rows
    prune_common: bool = True  # leave out English words found in > 10% of all rows (large stores)


# a memory with its stored embedding (None without one), as copied between stores
MemoryRow = tuple[Memory, np.ndarray | None]


@dataclass(frozen=True, slots=True)
class SettingsRow:
    """One user's stored settings and when they were last written (ISO time)."""

    tenant: str
    user_id: str
    settings: dict[str, Any]
    updated_at: str


@dataclass(frozen=True, slots=True)
class PartitionRows:
    """One partition's enabled memories in store order, for a replica's working set
    (``working_set``), which renders them without another read; row i of ``vectors`` is
    ``memories[i]``'s embedding (a row of zeros where it has none; None without any)."""

    memories: list[Memory]
    vectors: np.ndarray | None


@dataclass(frozen=True, slots=True)
class Decay:
    """How an auto memory fades: strength = score x 0.5 ** (days since last use / half-life),
    last use = ``last_access_at`` or else ``updated_at``, measured at ``now`` (ISO time); the
    half-life is ``episode_half_life_days`` for an episode (a dated event matters less as it
    ages) and ``half_life_days`` for every other kind. Pinned, manual and system memories never
    decay. Below ``floor`` a memory is weak: retention removes it (``learning.decay_half_life_days``,
    ``learning.episode_half_life_days``, ``learning.decay_floor``)."""

    now: str
    half_life_days: float = 90.0
    floor: float = 0.05
    episode_half_life_days: float = 30.0

    def strength_args(self) -> tuple[str, float, float]:
        """What a backend's strength expression binds: now, the episode half-life, the other one."""
        return self.now, self.episode_half_life_days, self.half_life_days

    def half_life(self, kind: str) -> float:
        return self.episode_half_life_days if kind == "episode" else self.half_life_days


@dataclass(frozen=True, slots=True)
class Use:
    """One memory injected into one response: the citation log (never conversation text)."""

    tenant: str
    user_id: str
    memory_id: str
    conversation_id: str | None
    surface: str  # the dialect's name ("chat_completions", "responses", "messages", ...)
    time: str  # ISO time


ReviewState = Literal["pending", "accepted", "rejected"]
ReflectionKind = Literal["user", "tenant"]


@dataclass(frozen=True, slots=True)
class Review:
    """A supersede waiting for (or given) a decision (``learning.review: queue``): the new
    memory is stored disabled until the review is accepted; the old one stays active until then."""

    id: str
    tenant: str
    user_id: str
    old_id: str
    new_id: str
    reason: str  # why the learner took it for a supersede (the dedup rule's words)
    created_at: str  # ISO time
    state: ReviewState = "pending"
    decided_by: str | None = None
    decided_at: str | None = None


@dataclass(frozen=True, slots=True)
class Reflection:
    """A reflection report: what a user's memory (``user_id`` set) or a whole tenant's
    (``user_id`` "") learned, merged, consolidated, superseded, let fade, used most and left
    unused over ``period_start``..``period_end`` (see ``gateway.learning.reflection``). ``report``
    holds counts and memory ids only, never memory text."""

    id: str
    tenant: str
    user_id: str
    period_start: str  # ISO time
    period_end: str  # ISO time
    created_at: str  # ISO time
    report: dict[str, Any]


class MemoryStore(Protocol):
    """Memories, their embeddings and indexes, user settings, the audit log, metadata."""

    # True when other processes write the same database (PostgreSQL): their changes reach
    # this one by notification, a moment later, so a working set's rows are confirmed by a
    # read before they are injected (an acknowledged delete on another replica is never
    # injected). False for SQLite: this process is the only writer and hears every change
    # at commit.
    shared: bool

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    def transaction(self) -> AbstractAsyncContextManager[None]: ...
    def on_change(self, callback: Callable[[Change], None]) -> None: ...

    # -- metadata ---------------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...

    # -- vectors: prepared once the embedder's name and dimension are known -----------------
    async def prepare_vectors(self, model: str, dim: int, *, reembedded: bool = False) -> str:
        """Load or rebuild the vector index for ``model``/``dim``; answers the index state:
        "loaded" | "rebuilt", or "reindex" when the stored vectors came from another model
        (meta ``embedding_model`` / ``embedding_dim``) and everything must be re-embedded. The
        caller then stores new vectors for ``texts_to_embed(everything=True)`` and calls again
        with ``reembedded=True``, which records the model and rebuilds."""
        ...

    async def texts_to_embed(self, *, everything: bool) -> list[tuple[str, str, str]]:
        """(id, title, content) of memories lacking a vector (or all of them)."""
        ...

    async def set_embeddings(self, vectors: Sequence[tuple[str, np.ndarray]]) -> None: ...
    async def save_vectors(self) -> None:
        """Persist derived vector files, if the backend keeps any (SQLite: hnswlib files)."""
        ...

    # -- memories ---------------------------------------------------------------------------
    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None: ...
    async def fetch(self, ids: Sequence[str]) -> dict[str, Memory]: ...
    async def fetch_one(self, memory_id: str) -> Memory | None: ...
    async def embedding(self, memory_id: str) -> np.ndarray | None: ...
    async def write_fields(self, memory_id: str, fields: dict[str, Any]) -> None: ...
    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None: ...
    async def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows and scrub their text from earlier audit entries."""
        ...

    async def add_access(self, counts: Sequence[tuple[str, int, str]]) -> None:
        """(id, injections to add, last_access_at) for each memory."""
        ...

    async def list_visible(self, where: Visibility, *, limit: int, offset: int) -> tuple[list[Memory], int]:
        """Newest first, and the total matching."""
        ...

    async def count_personal(
        self, tenant: str, user_id: str, *, source: str | None = None, kind: str | None = None
    ) -> int: ...
    async def count_by_kind(self, tenant: str, user_id: str) -> dict[str, int]:
        """The user's personal memories per kind (kinds they have none of are absent)."""
        ...

    async def personal(self, tenant: str, user_id: str) -> list[Memory]: ...
    async def in_slot(self, tenant: str, user_id: str, slot: str) -> list[Memory]:
        """Enabled personal memories holding ``slot``, newest first."""
        ...

    async def lowest_value(
        self, tenant: str, user_id: str, n: int, protect: Sequence[str], decay: Decay, *, kind: str | None = None
    ) -> list[Memory]:
        """The ``n`` unpinned auto memories (of ``kind``, when given) to evict first: disabled,
        then the weakest (``Decay`` strength), then fewest accesses, oldest."""
        ...

    async def expired(self, cutoff: str, decay: Decay) -> list[Memory]:
        """Unpinned auto memories either never accessed and not updated since ``cutoff`` (ISO
        time) or weaker than ``decay.floor``."""
        ...

    async def count_weak(self, tenant: str, user_id: str, decay: Decay) -> int:
        """The user's unpinned auto memories weaker than ``decay.floor``."""
        ...

    async def personal_stats(self, tenant: str, user_id: str) -> dict[str, Any]:
        """total, enabled, by_category, by_kind, last_learned_at (newest auto memory)."""
        ...

    # -- pinned (L1) memories and the citation log ------------------------------------------
    async def pinned(self, tenant: str, user_id: str | None) -> list[Memory]:
        """The enabled pinned memories the caller sees (own personal + tenant shared/system),
        oldest first."""
        ...

    async def count_pinned(self, tenant: str, user_id: str) -> int:
        """The user's pinned personal memories, disabled ones included (the cap counts them)."""
        ...

    async def add_uses(self, uses: Sequence[Use]) -> None:
        """Append to the citation log (announces no change)."""
        ...

    async def move_uses(self, tenant: str, user_id: str, from_ids: Sequence[str], to_id: str) -> int:
        """Credit the user's logged uses of ``from_ids`` to ``to_id`` (a consolidation's kept or
        summary memory, which holds their facts now), in place: ids, times and totals stay as
        they were; answers how many moved."""
        ...

    async def uses(
        self, memory_id: str, tenant: str, user_id: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """A memory's uses in ``tenant`` (only ``user_id``'s when given), newest first, and the
        total: {memory_id, user_id, conversation_id, surface, time}."""
        ...

    async def count_uses(self, tenant: str, user_id: str) -> int:
        """How many memory uses the user's responses recorded (any memory they saw)."""
        ...

    async def recent_uses(self, tenant: str, user_id: str, conversation_id: str | None, limit: int) -> list[Use]:
        """The user's newest ``limit`` uses (only those of ``conversation_id`` when given), newest
        first; one response's uses stay next to each other (the recall statistics, ``recall``)."""
        ...

    async def use_counts(self, tenant: str, ids: Sequence[str], user_id: str | None = None) -> dict[str, int]:
        """How many uses each of ``ids`` has in ``tenant`` (only ``user_id``'s when given), one
        grouped read for a page of memories; every id is answered (0 without uses)."""
        ...

    async def prune_uses(self, cutoff: str) -> int:
        """Delete uses older than ``cutoff`` (ISO time); answers how many."""
        ...

    async def uses_after(self, after_id: int, limit: int) -> list[tuple[int, Use]]:
        """(id, use) of the logged uses with an id above ``after_id``, oldest first (for
        ``memorelay memories migrate``; ``add_uses`` stores them in the target)."""
        ...

    # -- supersedes waiting for review ------------------------------------------------------
    async def add_review(self, review: Review) -> None: ...
    async def get_review(self, review_id: str) -> Review | None: ...
    async def reviews(
        self, tenant: str | None, user_id: str | None, state: ReviewState | None, *, limit: int, offset: int
    ) -> tuple[list[Review], int]:
        """Oldest first, and the total matching; ``None`` filters nothing (every tenant, user, state)."""
        ...

    async def decide_review(self, review_id: str, state: ReviewState, decided_by: str, decided_at: str) -> bool:
        """Record a decision on a pending review; False when it is missing or already decided
        (two deciders racing: exactly one wins)."""
        ...

    # -- reflection reports -----------------------------------------------------------------
    async def add_reflection(self, reflection: Reflection) -> None: ...
    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        """Newest first (then by id: ids grow with time), and the total matching; ``None``
        filters nothing (``user_id`` "" is the tenant reports; ``kind`` "user" only users'
        reports, "tenant" only tenants')."""
        ...

    async def delete_reflections(self, tenant: str, user_id: str) -> int:
        """Delete a user's reports (with the rest of their data); answers how many."""
        ...

    async def prune_reflections(self, cutoff: str) -> int:
        """Delete reports created before ``cutoff`` (ISO time); answers how many."""
        ...

    async def reflections_after(self, created_at: str, reflection_id: str, limit: int) -> list[Reflection]:
        """Reports after (``created_at``, ``reflection_id``) in (created_at, id) order, oldest
        first (``memorelay backup`` pages with the last one's; "", "" starts at the first)."""
        ...

    async def import_reflections(self, reflections: Sequence[Reflection]) -> None:
        """Store reports as they are, ids and times kept (``memorelay restore``)."""
        ...

    async def most_used(self, tenant: str, user_id: str, since: str, limit: int) -> list[tuple[str, int]]:
        """(memory id, uses) of the memories most injected into the user's responses since
        ``since`` (ISO time), most first (ties by id)."""
        ...

    # -- candidates for retrieval (store-side search) ---------------------------------------
    async def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Visible memories by cosine similarity, best first (disabled ones only when asked)."""
        ...

    async def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[list[tuple[str, float]], str]]:
        """Ranked (id, score) lists, higher is better, each with its kind for the fusion
        weights, in this order: "words", "cjk", "substring" (a list without terms is left out;
        ``options`` None: ``KeywordOptions()``)."""
        ...

    async def count_visible(self, tenant: str, user_id: str | None) -> int:
        """Rows (disabled included) the caller sees: own personal + tenant shared/system."""
        ...

    async def partition_rows(self, tenant: str, owner: str, *, limit: int | None = None) -> PartitionRows:
        """The enabled memories of one partition (owner = user id or SHARED_OWNER), at most
        ``limit`` (the working set asks for its row cap + 1 to learn a partition is too big)."""
        ...

    # -- settings ---------------------------------------------------------------------------
    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any] | None: ...
    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> None: ...

    # -- audit, operators -------------------------------------------------------------------
    async def audit(self, entry: dict[str, Any]) -> None: ...
    async def audit_entries(
        self, tenant: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]: ...
    async def users(self, tenant: str | None) -> list[dict[str, Any]]:
        """{tenant, user_id, memories, enabled} of users with personal memories, sorted."""
        ...

    async def tenants(self) -> list[str]: ...
    async def admin_stats(self, tenant: str | None) -> dict[str, Any]:
        """total, enabled, users (with personal memories), by_category, by_kind, by_scope, by_source,
        learned_per_day (day -> auto memories created)."""
        ...

    async def learned_per_day(self, since: str, tenant: str | None) -> list[tuple[str, str, int]]:
        """(day, category, memories learned) for auto memories created since ``since``."""
        ...

    async def tenants_holding(self, user_id: str) -> list[tuple[str, int]]:
        """(tenant, personal memories) of every tenant holding ``user_id``, most first."""
        ...

    async def move_tenant(self, source: str, target: str, user_id: str | None) -> dict[str, int]:
        """Move memories (only ``user_id``'s personal ones when given; else shared/system too),
        settings, audit entries and learning rows (log, jobs, usage summed per day) from
        ``source`` to ``target``. Raises ``types.TenantConflict`` before writing anything when
        the target holds different settings for a user; equal settings just leave the source.
        Answers counts: memories, settings, audit_entries, learning_rows."""
        ...

    # -- copying between stores (``memorelay memories migrate``) -----------------------------
    def iter_memories(self, batch: int) -> AsyncIterator[list[MemoryRow]]:
        """Every memory with its embedding, in store order, ``batch`` at a time (each batch
        one read: a store written meanwhile is walked without repeats or gaps of old rows)."""
        ...

    async def import_memories(self, rows: Sequence[MemoryRow]) -> tuple[int, int]:
        """Store copies of another store's memories with their ids, times and counts; answers
        (inserted, written over). A memory this store lacks is inserted; one it holds takes the
        copy when they differ and its own is not newer (``updated_at``), and keeps the larger
        access count (``_copy.sort_import``); importing the same rows again changes nothing."""
        ...

    async def all_settings(self) -> list[SettingsRow]: ...
    async def import_settings(self, rows: Sequence[SettingsRow]) -> int:
        """Write the users' settings this store lacks or holds older (by ``updated_at``, kept
        as given); answers how many were written."""
        ...

    async def audit_after(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        """Audit entries with an id above ``after_id``, oldest first (as ``audit_entries``)."""
        ...

    async def import_audit(self, entries: Sequence[dict[str, Any]]) -> None:
        """Append another store's audit entries in their order, times kept (new ids)."""
        ...

    def exclusive(self, name: str) -> AbstractAsyncContextManager[bool]:
        """Try to hold the database-wide lock ``name`` for the block without waiting: True when
        this process holds it (PostgreSQL: a session advisory lock, so one replica of several
        runs a scheduled job); SQLite, one host's file, always answers True."""
        ...

    async def wipe(self) -> None:
        """Delete every memory, user setting, audit entry, use (citation log) and review in one
        transaction (``memorelay restore --force``); metadata such as the embedding model stays."""
        ...

    # -- housekeeping -----------------------------------------------------------------------
    async def rebuild_keyword_index(self) -> None: ...
    async def compact(self) -> None:
        """After deletes: leave no deleted text in index segments or logs (SQLite: FTS
        optimize + WAL truncate; PostgreSQL: nothing beyond its own vacuum)."""
        ...


class LearningStore(Protocol):
    """The durable learning queue (leases, retries, dead letter), the learning log, learning
    token usage and prompt overrides. Jobs are claimed by any worker of any replica; a job
    whose lease ran out (its worker died) is claimable again; nothing re-queues at start."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def writable(self) -> bool:
        """False while the database cannot take writes (full disk, I/O errors)."""
        ...

    async def compact(self) -> None:
        """Leave no copy of wiped payloads behind (SQLite: WAL truncate)."""
        ...

    async def enqueue(
        self,
        tenant: str,
        user_id: str,
        conversation_id: str | None,
        model: str,
        payload: dict[str, Any],
        *,
        key_holder: str | None = None,
    ) -> int: ...
    async def claim(self, lease_s: float, *, replica: str, holder_wait_s: float) -> Job | None:
        """Lease the oldest due job: pending and due, or running with an expired lease. A job
        whose ``key_holder`` is another replica is given only ``holder_wait_s`` after it was
        created (its holder had the time to learn it with the caller's key). The job carries
        a fresh lease token (``Job.lease``) that ``renew``, ``finish`` and ``retry`` check."""
        ...

    async def renew(self, job: Job, lease_s: float) -> bool:
        """Extend the lease of ``job`` (as claimed) to ``lease_s`` from now; False, changing
        nothing, when the job is no longer this claim's (its lease ran out and it was claimed
        again, or it ended)."""
        ...

    async def finish(
        self, job: Job, status: str = "done", error: str | None = None, *, log_entry: dict[str, Any] | None = None
    ) -> bool:
        """End ``job`` (done / dead) and write ``log_entry`` to the learning log, in one
        transaction, only while this claim holds the lease; False, changing nothing, if not."""
        ...

    async def retry(self, job: Job, delay_s: float, error: str, *, count_attempt: bool = True) -> bool:
        """Make ``job`` due again in ``delay_s``, only while this claim holds the lease."""
        ...

    async def pending_count(self) -> int: ...
    async def job_counts(self) -> dict[str, int]: ...

    async def log(self, job_id: int | None, tenant: str, user_id: str, entry: dict[str, Any]) -> None: ...
    async def log_entries(
        self, *, tenant: str | None = None, user_id: str | None = None, limit: int = 50, offset: int = 0
    ) -> tuple[list[dict[str, Any]], int]: ...
    async def log_since(self, since: str, tenant: str | None, limit: int) -> list[dict[str, Any]]:
        """The stored entries (as logged) of log rows since ``since`` (ISO time), newest first."""
        ...

    async def add_usage(self, tenant: str, user_id: str, prompt_tokens: int, completion_tokens: int) -> None: ...
    async def stats(self, tenant: str | None) -> dict[str, Any]: ...

    async def get_prompt(self, name: PromptName) -> tuple[str, str]:
        """(text, "override" | "default"): a stored override wins over the prompt file."""
        ...

    async def put_prompt(self, name: PromptName, text: str, *, actor: str) -> None: ...
    async def reset_prompt(self, name: PromptName) -> None: ...

    async def dead_jobs(self, *, limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]: ...
    async def wipe_dead_payloads(
        self, *, older_than_s: float | None = None, tenant: str | None = None, user_id: str | None = None
    ) -> int: ...
    async def retry_dead(self, job_id: int) -> bool: ...
    async def discard_dead(self, job_id: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class ConsoleSession:
    """A signed-in console browser as stored: the hash of its cookie value, never the value
    (a reader of the database cannot ride the session), whose session it is and until when.
    ``link_nonce`` / ``link_expires`` name the ``/me/`` link that started a user session."""

    key: str  # hex SHA-256 of the cookie value (see gateway.console.sessions)
    kind: str  # "user" | "operator"
    tenant: str  # "" for an operator
    user_id: str  # "" for an operator
    expires: float  # unix seconds
    link_nonce: str | None = None
    link_expires: float | None = None


class ConsoleStore(Protocol):
    """Console sessions and revoked console links, shared by every replica on the database
    (a session started on one replica works on all; a logout on one ends it on all). Every
    read goes to the database (a primary-key lookup): nothing is cached, so no replica can
    serve a session another one has ended. Expired rows are never answered and are removed
    by ``purge_expired``."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def add_session(self, session: ConsoleSession) -> None: ...
    async def session(self, key: str, now: float) -> ConsoleSession | None:
        """The session stored under ``key`` unless it expired by ``now``."""
        ...

    async def end_session(self, key: str) -> ConsoleSession | None:
        """Delete the session; answers what it was (None when there was none)."""
        ...

    async def revoke_link(self, nonce: str, expires: float) -> None:
        """Refuse the link ``nonce`` until ``expires`` (when it dies anyway) and end every
        session it started, in one transaction."""
        ...

    async def link_revoked(self, nonce: str) -> bool: ...
    async def purge_expired(self, now: float) -> int:
        """Remove sessions and revocations expired by ``now``; answers the rows removed."""
        ...

    async def link_seed(self, candidate: str) -> str:
        """The random seed of the console-link key shared by every replica (used when
        ``console.secret`` is empty on a shared database): the stored one, or ``candidate``
        stored now when there is none (replicas racing here all get the first one stored)."""
        ...


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
