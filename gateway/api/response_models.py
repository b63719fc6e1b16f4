"""What the memory and admin APIs answer, as pydantic models for the OpenAPI document.

The endpoints build these shapes as plain JSON (``Memory.to_json()`` and the services' dicts); the
models describe them, and the schemathesis test (tests/api/test_openapi_fuzz.py) checks every
answer against them. Models of fixed shapes refuse extra keys, so a field added to an answer but
not here fails that test.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway.memory.types import Category, Scope, Source
from gateway.store.kinds import Kind


class _Fixed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Memory(_Fixed):
    """One memory with the fields the user and admin APIs show; times are ISO 8601 UTC."""

    id: str
    tenant: str
    user_id: str = Field(description="the owner; empty for shared and system memories")
    scope: Scope
    category: Category
    subcategory: str
    kind: Kind = Field(
        description="fact, preference, relation, episode (a dated event) or rule (a standing instruction)"
    )
    slot: str | None = Field(description="profile slot (e.g. stack.database); a new value supersedes the old")
    title: str
    content: str
    tags: list[str]
    source: Source
    source_conversation_id: str | None
    score: float
    enabled: bool
    pinned: bool = Field(description="L1: injected first on every turn, whatever the query")
    disabled_reason: str | None
    created_at: str
    updated_at: str
    access_count: int
    last_access_at: str | None


class MemoryHit(Memory):
    """A listed memory; with ``q`` it carries its ``relevance`` (higher is more relevant)."""

    uses: int = Field(
        description="responses this memory went into (citation log, kept learning.retention_days): the "
        "calling user's own in the user API, every user's in the admin API"
    )
    relevance: float | None = Field(default=None, description="present only when the list was searched with q")


class MemoryPage(_Fixed):
    data: list[MemoryHit]
    total: int = Field(description="all matching memories, not just this page")


class UserStats(_Fixed):
    total: int
    enabled: int
    by_category: dict[str, int]
    by_kind: dict[str, int] = Field(description="own personal memories per kind")
    last_learned_at: str | None
    pinned: int = Field(description="own pinned memories")
    uses: int = Field(description="memories injected into the user's responses (citation log)")
    weak: int = Field(
        description="own auto memories whose strength (score halved every learning.decay_half_life_days, "
        "learning.episode_half_life_days for an episode, without use) fell below learning.decay_floor; "
        "retention removes them"
    )


class MemoryUse(_Fixed):
    """One injection of a memory into a response (the citation log keeps no conversation text)."""

    memory_id: str
    user_id: str
    conversation_id: str | None = Field(description="the X-Memorelay-Conversation header, when sent")
    surface: str = Field(description="the API surface: chat_completions, responses, messages, ...")
    time: str


class MemoryUsePage(_Fixed):
    data: list[MemoryUse]
    total: int = Field(description="all recorded uses, not just this page")


class Review(_Fixed):
    """A supersede waiting for a decision (``learning.review: queue``), with both memories: the
    new one is disabled ("pending review of <old id>") and the old one stays in use until then."""

    id: str
    tenant: str
    user_id: str
    old_memory_id: str
    new_memory_id: str
    reason: str = Field(description="why the new memory was taken to supersede the old one")
    state: Literal["pending", "accepted", "rejected"]
    created_at: str
    decided_by: str | None = Field(description="user:<id> or admin, once decided")
    decided_at: str | None
    old: Memory | None = Field(description="null once the memory was deleted")
    new: Memory | None = Field(description="null once the memory was deleted")


class ReviewPage(_Fixed):
    data: list[Review]
    total: int = Field(description="all matching reviews, not just this page")


class ReflectionMerge(_Fixed):
    into: str = Field(description="the memory kept")
    ids: list[str] = Field(description="the memories merged into it (now disabled: merged into <into>)")


class ReflectionUse(_Fixed):
    id: str
    uses: int = Field(description="injections into the user's responses in the period (citation log)")


class Reflection(_Fixed):
    """A reflection report: what a user's memory (or, ``kind`` tenant, all of a tenant's users')
    did over a period. Counts and memory ids only (at most 100 ids of each kind), never text.
    Kinds: learned (new auto memories), merged (near-duplicates merged into another),
    consolidated (small facts compressed into a summary), summaries (the summaries made),
    superseded (replaced by a newer statement), decayed (strength below learning.decay_floor),
    most_used (most injected), stale (unused for learning.reflection_stale_days)."""

    id: str
    tenant: str
    user_id: str = Field(description="empty for a tenant report")
    kind: Literal["user", "tenant"]
    period_start: str
    period_end: str
    created_at: str
    users: int = Field(description="users the report covers (1 for a user report)")
    counts: dict[str, int]
    ids: dict[str, list[str]]
    merges: list[ReflectionMerge]
    most_used: list[ReflectionUse]


class ReflectionPage(_Fixed):
    data: list[Reflection]
    total: int = Field(description="all matching reports, not just this page")


class Settings(_Fixed):
    learning_enabled: bool


class Export(_Fixed):
    """``GET /api/memories/export``: every personal memory of the user, disabled ones too."""

    version: int
    tenant: str
    user_id: str
    exported_at: str
    memories: list[Memory]


class UserSummary(_Fixed):
    tenant: str
    user_id: str
    memories: int
    enabled: int


class UserPage(_Fixed):
    data: list[UserSummary]
    total: int


class TokensOfDay(_Fixed):
    prompt_tokens: int
    completion_tokens: int
    jobs: int


class LearningStats(_Fixed):
    jobs: dict[str, int] = Field(description="learning jobs by status")
    tokens_per_day: dict[str, TokensOfDay]


class AdminStats(_Fixed):
    total: int
    enabled: int
    users: int
    by_category: dict[str, int]
    by_kind: dict[str, int]
    by_scope: dict[str, int]
    by_source: dict[str, int]
    learned_per_day: dict[str, int]
    learning: LearningStats


class AuditEntry(_Fixed):
    id: int
    time: str
    actor: str
    action: str = Field(description="create, update, disable, delete, promote, expire …")
    tenant: str | None
    user_id: str | None
    memory_id: str | None
    before: Any
    after: Any


class AuditPage(_Fixed):
    data: list[AuditEntry]
    total: int


class LearningLogEntry(BaseModel):
    """One learning job: score and dimensions, items extracted, what was added, duplicate or
    superseded, tokens, duration and error. Learners may add fields, so more keys are allowed."""

    model_config = ConfigDict(extra="allow")
    id: int
    job_id: int | None
    tenant: str
    user_id: str
    time: str
    learner: str | None = None
    score: float | None = None
    dimensions: dict[str, float] | None = None
    items_extracted: int | None = None
    added: list[str] | None = None
    duplicates: list[str] | None = None
    tokens: int | None = None
    duration_ms: float | None = None
    error: str | None = None


class LearningLogPage(_Fixed):
    data: list[LearningLogEntry]
    total: int


class Prompt(_Fixed):
    name: Literal["scoring", "extraction"]
    prompt: str
    source: Literal["override", "default"]


class ConsoleLink(_Fixed):
    """A signed link that opens the user's ``/me/`` page once, until ``expires_at``."""

    url: str = Field(description="{console.public_url or this server}/me/open?token=…")
    expires_at: str = Field(description="ISO 8601 UTC (console.link_ttl_s from now)")


class ErrorDetail(_Fixed):
    message: str
    type: str
    param: str | None
    code: str | None


class Error(_Fixed):
    """OpenAI's error shape, for every 4xx the APIs answer."""

    error: ErrorDetail
