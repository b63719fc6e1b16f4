"""Memory records and the values that cross the memory package's public seam (SPEC section 4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Scope = Literal["personal", "shared", "system"]
Category = Literal["user_preference", "business", "technical", "organizational", "domain"]
Source = Literal["auto", "manual", "system"]

CATEGORIES: tuple[str, ...] = (
    "user_preference",
    "business",
    "technical",
    "organizational",
    "domain",
)
SCOPES: tuple[str, ...] = ("personal", "shared", "system")
SOURCES: tuple[str, ...] = ("auto", "manual", "system")


class MemoryValidationError(ValueError):
    """A memory field is invalid; the message names the field (mapped to HTTP 400)."""

    def __init__(self, field_name: str, message: str | None = None) -> None:
        # MemoryValidationError("title", "must be one line") -> "title: must be one line";
        # a single argument is taken as the whole message
        super().__init__(field_name if message is None else f"{field_name}: {message}")
        self.field = field_name if message is not None else None


class MemoryPoisoning(MemoryValidationError):
    """A memory's text tries to steer the assistant rather than state a fact (mapped to HTTP
    400 ``memory_poisoning``): refused on every write path, as the learner refuses it."""

    code = "memory_poisoning"

    def __init__(self, reason: str) -> None:
        super().__init__(
            "content",
            f"reads as an instruction to the assistant, not a fact about the user ({reason}); "
            "memories are injected into later prompts, so they may only state facts and preferences",
        )


class TenantConflict(Exception):
    """The target tenant of a move already holds different settings for these user ids."""

    def __init__(self, user_ids: list[str]) -> None:
        super().__init__(f"the target tenant already has different settings for users: {', '.join(user_ids)}")
        self.user_ids = user_ids


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
    kind: str = "fact"  # fact | preference | relation | episode | rule (``gateway.memory.kinds``)

    def to_json(self) -> dict[str, Any]:
        """All SPEC section 4 fields, JSON-ready."""
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


@dataclass(slots=True)
class ScoredMemory:
    """A search hit; higher ``relevance`` means more relevant."""

    memory: Memory
    relevance: float


@dataclass(slots=True)
class NewMemory:
    """What a caller supplies to create a memory; validated by the service."""

    title: str
    content: str
    category: str
    subcategory: str = ""
    tags: tuple[str, ...] | list[str] = field(default_factory=tuple)
    scope: str = "personal"
    source: str = "manual"
    source_conversation_id: str | None = None
    score: float = 1.0
    slot: str | None = None
    pinned: bool = False
    kind: str = ""  # ``gateway.memory.kinds.KINDS``; empty: derived from the other fields (``derive_kind``)
