"""``LearningService``: the learning side of one gateway process, owned by its ``Services``.

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

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from gateway.filter_loader import validated_options
from gateway.learning.consolidate_job import consolidate_every
from gateway.learning.job_writer import JobWriter
from gateway.learning.pending import SharedPending
from gateway.learning.pii_process import IsolatedScrubber
from gateway.learning.pipeline import Pipeline, PipelineSettings
from gateway.learning.workers import WorkerPool

if TYPE_CHECKING:
    from gateway.config import Config
    from gateway.services import Services

log = logging.getLogger("memorelay.learning")

# the names a config may give the learning filter (built-in name, or its class path)
FILTER_NAMES = ("learning", "filters.learning:LearningFilter")
QUEUE_FULL_LOG_S = 60.0  # "queue full" is logged at most this often


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
    decay_floor: float = Field(0.05, ge=0, le=1)
    workers: int = Field(2, ge=1, le=32)
    # jobs pending or running in the shared queue, every replica's (``pending``)
    max_pending: int = Field(10_000, ge=1)
    max_attempts: int = Field(5, ge=1)
    max_items: int = Field(5, ge=1, le=20)
    lease_s: float = Field(120, gt=0)
    # the most a chat's answer waits on the store for learning (settings, the job's write);
    # past it the chat is answered "skipped; reason=store-unavailable" (see job_writer)
    store_timeout_ms: float = Field(50, gt=0, le=60_000)
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


def learning_options(config: Config) -> LearningOptions | None:
    """The options of the config's ``learning`` filter (the first, if several), or None."""
    for spec in config.filter_specs:
        if spec.name in FILTER_NAMES:
            return validated_options(LearningOptions, spec, config.source)
    return None


class LearningService:
    def __init__(self, services: Services, options: LearningOptions) -> None:
        self.options = options
        self.services = services
        self._consolidation: asyncio.Future[None] | None = None
        self._full_logged_at = -QUEUE_FULL_LOG_S
        self._full_since_log = 0
        services.memory.learning_default = options.consent == "opt_out"
        services.memory.decay_half_life_days = options.decay_half_life_days
        services.memory.decay_floor = options.decay_floor
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
        """Load Presidio in its own process (a second or two), then start the workers; a
        failure stops what started and fails start-up. Call it from the event loop's thread:
        the scrubber child dies with the thread that spawned it (``pii_process``)."""
        try:
            await self.pending.start()
            await self.scrubber.start_async()
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
        try:
            await self.writer.stop()
            await self.pool.stop()
        finally:
            with contextlib.suppress(Exception):
                await self.pending.close()
            # joins the child process (a second or so), off the event loop
            await asyncio.get_running_loop().run_in_executor(None, self.scrubber.stop)

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

    def submitted(self, job_id: int, authorization: str | None) -> None:
        """A job this replica queued: hold its caller's key, count it, wake a worker."""
        self.pool.submitted(job_id, authorization)
