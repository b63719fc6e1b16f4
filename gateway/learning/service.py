"""``LearningService``: the learning side of one gateway process, built by ``gateway.compose``.

It holds the PII scrubber's child process, the worker pool (which also runs retention and
the wiping of dead jobs' conversations) and the shared queue's pending count, and is
started and stopped with the other services in the application's lifespan. It exists when
the config has a ``learning`` filter and takes that filter's options (``LearningOptions``);
the filter itself only decides, enqueues and hands over the caller's key
(``filters/learning.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from gateway.filter_loader import validated_options
from gateway.learning.commands import Command, remember_item
from gateway.learning.consolidate_job import consolidate_every
from gateway.learning.job_writer import JobWriter
from gateway.learning.jobs import Job
from gateway.learning.pending import SharedPending
from gateway.learning.pii_process import IsolatedScrubber
from gateway.learning.pipeline import Outcome, Pipeline, PipelineSettings
from gateway.learning.redact import PII_ONLY
from gateway.learning.workers import WorkerPool
from gateway.memory import KINDS

# per-user caps of learning.max_per_kind. An upgrade derives every older memory's kind as fact
# (or preference for user_preference), so the defaults must not evict what max_memories_per_user
# kept: facts get the whole per-user cap (LearningOptions follows max_memories_per_user), the
# other kinds ample room; standing rules stay few (every rule applies to every answer)
DEFAULT_MAX_PER_KIND: dict[str, int] = {"fact": 500, "preference": 200, "relation": 200, "episode": 200, "rule": 50}

if TYPE_CHECKING:
    from gateway.config import Config
    from gateway.learning.parts import LearningParts

log = logging.getLogger("memorelay.learning")

# the names a config may give the learning filter (built-in name, or its class path)
FILTER_NAMES = ("learning", "filters.learning:LearningFilter")
QUEUE_FULL_LOG_S = 60.0  # "queue full" is logged at most this often


class PiiOptions(BaseModel):
    """``learning.pii``: how what identifies people is treated in stored memories."""

    model_config = ConfigDict(extra="forbid")
    # the names of the user's relations (family, pets, colleagues) are facts and kept; false:
    # each is replaced by the relation ("The user has a daughter."), never by a gap
    keep_names: bool = True


class LearningOptions(BaseModel):
    """The ``learning`` filter's options (SPEC §4)."""

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
    # old memory stays in use until then; review_scope says which (see Pipeline._reviewed)
    review: Literal["auto", "queue"] = "auto"
    review_scope: Literal["uncertain", "all"] = "uncertain"
    # consolidation (gateway.learning.consolidation) every consolidate_interval_h hours (0: off;
    # `memorelay memories consolidate` runs a round by hand), then a reflection report per user
    # and per tenant (gateway.learning.reflection)
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


class LearningService:
    def __init__(self, services: LearningParts, options: LearningOptions) -> None:
        self.options = options
        self.services = services
        self._consolidation: asyncio.Future[None] | None = None
        self._scrubber_loading: asyncio.Future[None] | None = None
        self._full_logged_at = -QUEUE_FULL_LOG_S
        self._full_since_log = 0
        self.scrubber = IsolatedScrubber()
        self.pending = SharedPending(services.learning, services.metrics)
        settings = PipelineSettings(
            options.model,
            options.threshold,
            options.dedup_threshold,
            options.max_memories_per_user,
            options.max_items,
            options.review,
            options.review_scope,
            options.max_per_kind,
            options.pii.keep_names,
        )
        self.pool = WorkerPool(
            services,
            Pipeline(services, settings, self.scrubber),
            self.pending,
            workers=options.workers,
            max_attempts=options.max_attempts,
            lease_s=options.lease_s,
            retention_days=options.retention_days,
            retention_interval_s=options.retention_interval_s,
        )
        self.writer = JobWriter(
            services.learning, services.metrics, self.pool.submitted, timeout_s=options.store_timeout_ms / 1000
        )

    async def start(self) -> None:
        """Start loading Presidio in its own process (a second or two, not waited for) and the
        workers; a failure stops what started and fails start-up. Call it from the event loop's thread:
        the scrubber child dies with the thread that spawned it (``pii_process``)."""
        try:
            await self.pending.start()
            self.start_loading()
            await self.pool.start()
            if self.options.consolidate_interval_h > 0:
                self._consolidation = asyncio.ensure_future(consolidate_every(self.services, self.options))
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        if self._consolidation is not None:  # a round cut short leaves whole groups only
            self._consolidation.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._consolidation
            self._consolidation = None
        if self._scrubber_loading is not None:
            self._scrubber_loading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._scrubber_loading
            self._scrubber_loading = None
        try:
            await self.writer.stop()
            await self.pool.stop()
        finally:
            with contextlib.suppress(Exception):
                await self.pending.close()
            # joins the child process (a second or so), off the event loop
            await asyncio.get_running_loop().run_in_executor(None, self.scrubber.stop)

    async def remember_note(self, text: str) -> str | None:
        """What becomes of an explicit "remember …" of ``text``, for the response header:
        ``pii-only`` (nothing is left once its identifiers are removed), ``identifiers-removed``
        or None. The learning job computes the same from the same functions; a scrubbing
        failure raises (``PiiError``) and the header stays ``queued``."""
        keep_names = self.options.pii.keep_names
        scrubbed = await self.scrubber.scrub(text, keep_names=keep_names)
        item = await asyncio.to_thread(remember_item, scrubbed)
        if item is None:
            return PII_ONLY
        return "identifiers-removed" if scrubbed != text else None

    def start_loading(self) -> None:
        """Spawn Presidio's process (once): it loads there while the rest of start-up runs and
        while the gateway already serves (scrubs sent meanwhile wait for it in the child)."""
        if self._scrubber_loading is None:
            self._scrubber_loading = self.scrubber.start_in_background()

    @property
    def scrubber_loaded(self) -> bool:
        """Whether Presidio finished loading (or failed to: then scrubbing fails closed)."""
        return self._scrubber_loading is not None and self._scrubber_loading.done()

    def queue_full(self) -> bool:
        """Whether the shared queue holds ``max_pending`` jobs (a count at most a second old)."""
        count = self.pending.count
        if count < self.options.max_pending:
            return False
        # one line per interval, not per chat (memorelay_learning_skipped counts every one)
        self._full_since_log += 1
        now = time.monotonic()
        if now - self._full_logged_at >= QUEUE_FULL_LOG_S:
            log.warning(
                "learning queue full (%d pending): %d chat(s) not queued since the last report",
                count,
                self._full_since_log,
            )
            self._full_logged_at, self._full_since_log = now, 0
        return True

    def key_holder(self, model: str, dialect: str, authorization: str | None) -> str | None:
        """This replica's id when a job of this chat will be learned with the caller's key."""
        return self.pool.key_holder(model, dialect, authorization)

    async def command(self, tenant: str, user_id: str, conversation: str | None, command: Command) -> Outcome:
        """Carry out an explicit remember or forget now (the MCP tools), as the pipeline learns a
        chat's command; nothing is queued and no caller key is needed."""
        job = Job(0, tenant, user_id, conversation, "heuristic", {}, 0)
        return await self.pool.pipeline.command(job, command)

    def submitted(self, job_id: int, authorization: str | None) -> None:
        """A job this replica queued: hold its caller's key, count it, wake a worker."""
        self.pool.submitted(job_id, authorization)
