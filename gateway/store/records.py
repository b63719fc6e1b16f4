"""The records that cross the store seam: a memory as stored, and what a caller hands a store
and what it answers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

import numpy as np


@dataclass(slots=True)
class Memory:
    """One stored memory; the database is its source of truth."""

    id: str
    tenant: str
    user_id: str
    scope: str
    category: str
    subcategory: str
    title: str
    content: str
    tags: list[str]
    source: str
    source_conversation_id: str | None
    score: float
    enabled: bool
    disabled_reason: str | None
    created_at: str
    updated_at: str
    access_count: int
    last_access_at: str | None
    slot: str | None = None  # profile slot ("home.city", "team.size"): one active value per slot
    pinned: bool = False  # L1: injected first on every turn, whatever the query
    kind: str = "fact"  # fact | preference | relation | episode | rule (``gateway.store.kinds``)

    def to_json(self) -> dict[str, Any]:
        """Every field, JSON-ready (the memory object of the API)."""
        return {
            "id": self.id,
            "tenant": self.tenant,
            "user_id": self.user_id,
            "scope": self.scope,
            "category": self.category,
            "subcategory": self.subcategory,
            "kind": self.kind,
            "slot": self.slot,
            "pinned": self.pinned,
            "title": self.title,
            "content": self.content,
            "tags": list(self.tags),
            "source": self.source,
            "source_conversation_id": self.source_conversation_id,
            "score": self.score,
            "enabled": self.enabled,
            "disabled_reason": self.disabled_reason,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "access_count": self.access_count,
            "last_access_at": self.last_access_at,
        }


class TenantConflict(Exception):
    """The target tenant of a move already holds different settings for these user ids."""

    def __init__(self, user_ids: list[str]) -> None:
        super().__init__(f"the target tenant already has different settings for users: {', '.join(user_ids)}")
        self.user_ids = user_ids


# personal memories live in the partition (tenant, user_id); shared and system ones in
# (tenant, SHARED_OWNER) (see keyword_index.SHARED_OWNER)


@dataclass(frozen=True, slots=True)
class Change:
    """A committed change: ``kind`` "memories" or "settings" of one partition owner
    (``user_id`` is ``keyword_index.SHARED_OWNER`` for a tenant's shared/system memories;
    ``"*"`` for every user of the tenant, e.g. after a tenant move). ``ids``: the memories it
    touched when the writer knows them (a cache may then re-read just those rows instead of
    the whole partition); None: any of the partition's. Changes compare by partition only."""

    kind: Literal["memories", "settings"]
    tenant: str
    user_id: str
    ids: frozenset[str] | None = field(default=None, compare=False)


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
    kind: str | None = None  # ``gateway.store.kinds.KINDS``


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
    unused over ``period_start``..``period_end`` (see ``gateway.learning.upkeep.reflection``). ``report``
    holds counts and memory ids only, never memory text."""

    id: str
    tenant: str
    user_id: str
    period_start: str  # ISO time
    period_end: str  # ISO time
    created_at: str  # ISO time
    report: dict[str, Any]


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


class UserSummary(TypedDict):
    """A user with personal memories, as operators list them (the admin API answers these
    fields as they are): how many memories, how many of them enabled."""

    tenant: str
    user_id: str
    memories: int
    enabled: int


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One audit-log entry: who (``actor``) did what (``action``) to which memory, with JSON
    values of its state ``before`` and ``after`` (a deleted memory's earlier entries keep only
    the names of the fields). ``id`` is the store's, None until the entry is stored."""

    time: str
    actor: str
    action: str
    tenant: str | None = None
    user_id: str | None = None
    memory_id: str | None = None
    before: Any = None
    after: Any = None
    id: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The fields as the admin API and a backup write them (``id`` first, once stored)."""
        stored = {} if self.id is None else {"id": self.id}
        return {
            **stored,
            "time": self.time,
            "actor": self.actor,
            "action": self.action,
            "tenant": self.tenant,
            "user_id": self.user_id,
            "memory_id": self.memory_id,
            "before": self.before,
            "after": self.after,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AuditEntry:
        """An entry as ``to_json`` wrote it, without its id (another store's ids do not carry)."""
        return cls(
            time=data["time"],
            actor=data["actor"],
            action=data["action"],
            tenant=data.get("tenant"),
            user_id=data.get("user_id"),
            memory_id=data.get("memory_id"),
            before=data.get("before"),
            after=data.get("after"),
        )


@dataclass(frozen=True, slots=True)
class PersonalStats:
    """A user's personal memories counted: all and enabled, by category and kind, and when the
    newest auto memory was learned. The memory service adds ``weak`` (auto memories decayed
    below the floor, which retention removes), ``pinned`` and ``uses`` (memories injected into
    the user's responses)."""

    total: int
    enabled: int
    by_category: dict[str, int]
    by_kind: dict[str, int]
    last_learned_at: str | None
    weak: int = 0
    pinned: int = 0
    uses: int = 0

    def to_json(self) -> dict[str, Any]:
        """The fields in the order the memories API answers them."""
        return {
            "total": self.total,
            "enabled": self.enabled,
            "by_category": self.by_category,
            "by_kind": self.by_kind,
            "last_learned_at": self.last_learned_at,
            "weak": self.weak,
            "pinned": self.pinned,
            "uses": self.uses,
        }


@dataclass(frozen=True, slots=True)
class TenantStats:
    """A tenant's memories counted (all tenants' when none is named): ``users`` with personal
    memories, counts by category, kind, scope and source, and auto memories learned per day."""

    total: int
    enabled: int
    users: int
    by_category: dict[str, int]
    by_kind: dict[str, int]
    by_scope: dict[str, int]
    by_source: dict[str, int]
    learned_per_day: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """The fields in the order the admin API answers them."""
        return {
            "total": self.total,
            "enabled": self.enabled,
            "users": self.users,
            "by_category": self.by_category,
            "by_kind": self.by_kind,
            "by_scope": self.by_scope,
            "by_source": self.by_source,
            "learned_per_day": self.learned_per_day,
        }


@dataclass(slots=True)
class Job:
    """A learning job as a worker sees it: both stores hand these out of the queue."""

    id: int
    tenant: str
    user_id: str
    conversation_id: str | None
    model: str
    payload: dict[str, Any]
    attempts: int
    # the replica that holds this job's caller key in memory (pass-through mode), or None
    key_holder: str | None = None
    # this claim's lease token: the store renews, finishes or retries the job only with it
    lease: str = ""
