"""The ``learning`` filter's options (``LearningOptions``), read once from the config.

The filter, the learning service and the memory service (consent, decay) all take them
from here; ``learning_options`` finds them in the config's filter list.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from gateway.config import Config
from gateway.filter_loader import validated_options
from gateway.memory import KINDS

# per-user caps of learning.max_per_kind. An upgrade derives every older memory's kind as fact
# (or preference for user_preference), so the defaults must not evict what max_memories_per_user
# kept: facts get the whole per-user cap (LearningOptions follows max_memories_per_user), the
# other kinds ample room; standing rules stay few (every rule applies to every answer)
DEFAULT_MAX_PER_KIND: dict[str, int] = {"fact": 500, "preference": 200, "relation": 200, "episode": 200, "rule": 50}

# the names a config may give the learning filter (built-in name, or its class path)
FILTER_NAMES = ("learning", "filters.learning:LearningFilter")


class PiiOptions(BaseModel):
    """``learning.pii``: how what identifies people is treated in stored memories."""

    model_config = ConfigDict(extra="forbid")
    # the names of the user's relations (family, pets, colleagues) are facts and kept; false:
    # each is replaced by the relation ("The user has a daughter."), never by a gap
    keep_names: bool = True


class LearningOptions(BaseModel):
    """The ``learning`` filter's options: what is learned, how memories decay, how the queue runs."""

    model_config = ConfigDict(extra="forbid")
    model: str = ""
    threshold: float = Field(0.6, ge=0, le=1)
    dedup_threshold: float = Field(0.85, gt=0, le=1)
    max_memories_per_user: int = Field(500, ge=1)
    retention_days: int = Field(365, ge=1)
    # an auto memory's strength halves every decay_half_life_days without use; retention
    # removes those below decay_floor (pinned, manual and system memories never decay)
    decay_half_life_days: float = Field(90, gt=0)
    # an episode (a dated event) fades on its own, shorter half-life: last month's trip matters
    # less than a standing fact of the same age
    episode_half_life_days: float = Field(30, gt=0)
    decay_floor: float = Field(0.05, ge=0, le=1)
    # at most this many personal memories of each kind per user (within max_memories_per_user):
    # past a cap the weakest auto memory of that kind goes first; a kind left out is not capped.
    # Left unset, the fact cap is max_memories_per_user (see _fact_cap_follows_user_cap)
    max_per_kind: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_MAX_PER_KIND))
    workers: int = Field(2, ge=1, le=32)
    # jobs pending or running in the shared queue, every replica's (``pending``)
    max_pending: int = Field(10_000, ge=1)
    max_attempts: int = Field(5, ge=1)
    max_items: int = Field(5, ge=1, le=20)
    lease_s: float = Field(120, gt=0)
    # the most a chat's answer waits on the store for learning (settings, the job's write);
    # past it the chat is answered "skipped; reason=store-unavailable" (see job_writer)
    store_timeout_ms: float = Field(200, gt=0, le=60_000)
    retention_interval_s: float = Field(3600, gt=0)
    # opt_in: nothing is learned for a user until they turn learning on (page or settings API)
    consent: Literal["opt_in", "opt_out"] = "opt_out"
    # queue: a supersede waits for the user (or an operator) to accept or reject it, and the
    # old memory stays in use until then; review_scope says which (see verdicts.Verdicts.reviewed)
    review: Literal["auto", "queue"] = "auto"
    review_scope: Literal["uncertain", "all"] = "uncertain"
    # consolidation (gateway.learning.upkeep.consolidation) every consolidate_interval_h hours (0: off;
    # `memorelay memories consolidate` runs a round by hand), then a reflection report per user
    # and per tenant (gateway.learning.upkeep.reflection)
    consolidate_interval_h: float = Field(24, ge=0)
    consolidate_merge_threshold: float = Field(0.9, gt=0, le=1)
    consolidate_cluster_threshold: float = Field(0.6, gt=0, le=1)
    consolidate_min_cluster: int = Field(3, ge=2, le=50)
    consolidate_max_cluster: int = Field(8, ge=2, le=50)
    consolidate_small_chars: int = Field(300, ge=1)
    consolidate_summary_chars: int = Field(800, ge=50, le=8000)
    reflection_stale_days: float = Field(60, gt=0)
    pii: PiiOptions = PiiOptions()

    @field_validator("max_per_kind")
    @classmethod
    def _known_kinds(cls, value: dict[str, int]) -> dict[str, int]:
        for kind, cap in value.items():
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind!r}: the kinds are {', '.join(KINDS)}")
            if cap < 1:
                raise ValueError(f"{kind}: must be at least 1")
        return value

    # checked on the second key of each pair, so the error names it (fields validate in order)
    @field_validator("consolidate_cluster_threshold")
    @classmethod
    def _cluster_within_merge(cls, value: float, info: ValidationInfo) -> float:
        merge = info.data.get("consolidate_merge_threshold")
        if merge is not None and value > merge:
            raise ValueError(
                f"must not be above consolidate_merge_threshold ({merge}): a cluster gathers related "
                "facts, looser than the near-duplicates a merge takes"
            )
        return value

    @field_validator("consolidate_max_cluster")
    @classmethod
    def _max_within_min(cls, value: int, info: ValidationInfo) -> int:
        smallest = info.data.get("consolidate_min_cluster")
        if smallest is not None and value < smallest:
            raise ValueError(f"must not be below consolidate_min_cluster ({smallest})")
        return value

    @model_validator(mode="after")
    def _fact_cap_follows_user_cap(self) -> LearningOptions:
        # facts (every memory an upgrade could not otherwise place) may fill the per-user cap
        # by default, so raising max_memories_per_user never lets the fact cap evict sooner
        if "max_per_kind" not in self.model_fields_set:
            self.max_per_kind["fact"] = self.max_memories_per_user
        return self


def learning_options(config: Config) -> LearningOptions | None:
    """The options of the config's ``learning`` filter (the first, if several), or None."""
    for spec in config.filter_specs:
        if spec.name in FILTER_NAMES:
            return validated_options(LearningOptions, spec, config.source)
    return None
