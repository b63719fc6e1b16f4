"""``learning``: after a successful chat, queue a durable job; workers learn from it later.

SPEC §3–4. The decision (``X-Memorelay-Learning: queued`` or ``skipped; reason=…``)
is made before the response goes out; the durable job is written before the client
has the whole answer (a whole body: before it is sent; a stream: before the chunk that
ends the answer), so a gateway killed right after answering still learns it. Nothing
from an opted-out request is written anywhere.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway.chain import ChatContext, ChatResponse, Completion, Handler
from gateway.learning.pii_process import IsolatedScrubber
from gateway.learning.pipeline import Pipeline, PipelineSettings, job_payload
from gateway.learning.workers import WorkerPool
from gateway.services import Services

log = logging.getLogger("memorelay.learning")


class LearningFilter:
    """Queues learning jobs for chats with a user who has not opted out."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")
        model: str = ""
        threshold: float = Field(0.6, ge=0, le=1)
        dedup_threshold: float = Field(0.85, gt=0, le=1)
        max_memories_per_user: int = Field(500, ge=1)
        retention_days: int = Field(365, ge=1)
        workers: int = Field(2, ge=1, le=32)
        max_pending: int = Field(10_000, ge=1)
        max_attempts: int = Field(5, ge=1)
        max_items: int = Field(5, ge=1, le=20)
        lease_s: float = Field(120, gt=0)
        retention_interval_s: float = Field(3600, gt=0)
        # opt_in: nothing is learned for a user until they turn learning on (page or settings API)
        consent: Literal["opt_in", "opt_out"] = "opt_out"

    name = "learning"

    def __init__(self, options: Options, services: Services) -> None:
        self.options = options
        self.services = services
        self.scrubber = IsolatedScrubber()
        services.memory.learning_default = options.consent == "opt_out"
        settings = PipelineSettings(
            options.model,
            options.threshold,
            options.dedup_threshold,
            options.max_memories_per_user,
            options.max_items,
        )
        self.pool = WorkerPool(
            services,
            Pipeline(services, settings, self.scrubber),
            workers=options.workers,
            max_attempts=options.max_attempts,
            lease_s=options.lease_s,
            retention_days=options.retention_days,
            retention_interval_s=options.retention_interval_s,
        )

    async def start(self) -> None:
        # Presidio + spaCy load in their own process (a second or two); a failure stops start-up
        try:
            await self.scrubber.start_async()
            await self.pool.start()
        except BaseException:
            await self.pool.stop()
            await asyncio.get_running_loop().run_in_executor(None, self.scrubber.stop)
            raise

    async def stop(self) -> None:
        await self.pool.stop()
        # joins the child process (a second or so), off the event loop
        await asyncio.get_running_loop().run_in_executor(None, self.scrubber.stop)

    async def __call__(self, ctx: ChatContext, call_next: Handler) -> ChatResponse:
        reason = await self._skip_reason(ctx)
        response = await call_next(ctx)
        if reason is None and not response.ok:
            reason = "upstream-error"
        if reason is not None:
            ctx.response_headers["x-memorelay-learning"] = f"skipped; reason={reason}"
            self.services.metrics.learning_skipped.labels(reason).inc()
            return response
        ctx.response_headers["x-memorelay-learning"] = "queued"
        response.on_complete.append(self._enqueue)
        return response

    async def _skip_reason(self, ctx: ChatContext) -> str | None:
        if ctx.opt_out.learning:
            return "opt-out"
        user = ctx.identity.user
        if user is None:
            return "no-user"
        if not any(m["role"] == "user" for m in ctx.transcript()):
            # e.g. a Responses call that only returns a tool output: its history lives upstream
            return "no-user-turn"
        settings = await self.services.memory.get_settings(ctx.identity.tenant, user)
        if not settings.get("learning_enabled", True):
            return "disabled"
        if not await self.services.learning.writable():  # full or failing disk: see gateway.storage
            return "store-unavailable"
        if self.pool.pending >= self.options.max_pending:
            log.warning("learning queue full (%d pending): a chat was not queued", self.pool.pending)
            return "queue-full"
        return None

    async def _enqueue(self, ctx: ChatContext, completion: Completion) -> None:
        user = ctx.identity.user
        if user is None or not completion.content:
            return
        payload = job_payload(ctx.transcript(), completion.content, ctx.dialect.name)
        try:
            authorization = ctx.caller.upstream_authorization
            job_id = await self.services.learning.enqueue(
                ctx.identity.tenant,
                user,
                ctx.identity.conversation,
                ctx.model,
                payload,
                key_holder=self.pool.key_holder(ctx.model, ctx.dialect.name, authorization),
            )
        except Exception as exc:  # boundary: the header already said queued; the lost job is logged and counted
            log.error("learning job not written (tenant %s): %s", ctx.identity.tenant, exc)
            self.services.metrics.learning_jobs.labels("unwritten").inc()
            return
        self.pool.submitted(job_id, authorization)
