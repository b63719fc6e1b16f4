"""What the pipeline's stages share: the settings of a run, a job's outcome (its learning-log
entry), the lease hold awaited before a job's first write, and the PII scrubber they call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    model: str
    threshold: float
    dedup_threshold: float
    max_memories_per_user: int
    max_items: int
    # "queue": a supersede that needs review waits for the user or an operator (``verdicts.Verdicts.reviewed``)
    review: str = "auto"
    review_scope: str = "uncertain"
    max_per_kind: Mapping[str, int] = field(default_factory=dict)  # learning.max_per_kind
    # names of the user's relations stay in memories; False: replaced by the relation
    keep_names: bool = True


@dataclass(slots=True)
class Outcome:
    """The learning-log entry of one job (no raw conversation text)."""

    learner: str
    score: float | None = None
    dimensions: dict[str, float] | None = None
    reason: str = ""
    command: str | None = None
    items_extracted: int = 0
    added: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    superseded: list[dict[str, str]] = field(default_factory=list)
    # supersedes waiting for review: {"review", "old", "new", "reason"}
    queued: list[dict[str, str]] = field(default_factory=list)
    rejected: list[dict[str, str]] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    evicted: int = 0
    tokens: int = 0
    duration_ms: float = 0.0
    error: str | None = None

    def entry(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def gated(code: str, title: str = "") -> dict[str, str]:
    """A learning-log entry for a candidate the precision gate turned down (``gate.REASONS``)."""
    return {"title": title[:80], "reason": code, "code": code}


Hold = Callable[[], Awaitable[None]]


async def unfenced() -> None:
    """No lease to confirm (a pipeline run outside the worker pool)."""


class Scrubber(Protocol):
    """PII scrubbing that fails closed (raises ``PiiError``); see ``pii_process``."""

    async def scrub(self, text: str, *, keep_names: bool = False) -> str: ...

    async def scrub_many(self, texts: list[str], *, keep_names: bool = False) -> list[str]: ...
