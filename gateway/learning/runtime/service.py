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
from typing import TYPE_CHECKING

from gateway.learning.options import LearningOptions
from gateway.learning.privacy.pii_process import IsolatedScrubber
from gateway.learning.privacy.redact import PII_ONLY
from gateway.learning.runtime.job_writer import JobWriter
from gateway.learning.runtime.pending import SharedPending
from gateway.learning.runtime.workers import WorkerPool
from gateway.learning.steps.commands import Command, remember_item
from gateway.learning.steps.pipeline import Pipeline
from gateway.learning.steps.pipeline_records import Outcome, PipelineSettings
from gateway.learning.upkeep.consolidate_job import consolidate_every
from gateway.store import Job

if TYPE_CHECKING:
    from gateway.learning.parts import LearningParts

log = logging.getLogger("memorelay.learning")

QUEUE_FULL_LOG_S = 60.0  # "queue full" is logged at most this often


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
            # ends the child process (after the workers, so no job still waits on it), off the event loop
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
