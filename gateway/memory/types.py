"""Memory records and the values that cross the memory package's public seam; ``Memory`` and
``TenantConflict`` are the store's (``gateway.store.records``), named here for the package."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from gateway.store.records import Memory, TenantConflict

__all__ = [
    "CATEGORIES",
    "SCOPES",
    "SOURCES",
    "Category",
    "Memory",
    "MemoryPoisoning",
    "MemoryValidationError",
    "NewMemory",
    "Scope",
    "ScoredMemory",
    "Source",
    "TenantConflict",
]

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
    kind: str = ""  # ``gateway.store.kinds.KINDS``; empty: derived from the other fields (``derive_kind``)

    @classmethod
    def like(cls, memory: Memory) -> NewMemory:
        """A memory with the fields of ``memory`` that a caller chooses (a deleted one stored again):
        a new id, and its dates, use count and enabled state start afresh."""
        return cls(
            title=memory.title,
            content=memory.content,
            category=memory.category,
            subcategory=memory.subcategory,
            tags=list(memory.tags),
            scope=memory.scope,
            source=memory.source,
            source_conversation_id=memory.source_conversation_id,
            score=memory.score,
            slot=memory.slot,
            pinned=memory.pinned,
            kind=memory.kind,
        )
