"""``learning``: after a successful chat, queue a durable job; workers learn from it later.

The decision (``X-Memorelay-Learning: queued`` or ``skipped; reason=…``)
is made before the response goes out; an explicit "remember …" is scrubbed while the upstream
answers, so the header says ``skipped; reason=pii-only`` when nothing of it would be kept and
``queued; note=identifiers-removed`` when its identifiers are left out; the durable job is written before the client
has the whole answer (a whole body: before it is sent; a stream: before the chunk that
ends the answer), so a gateway killed right after answering still learns it. No store call
holds the answer longer than ``store_timeout_ms`` (``gateway.learning.runtime.job_writer``). Nothing
from an opted-out request is written anywhere.
"""

from __future__ import annotations

import asyncio
import logging

from gateway.chat import ChatContext, ChatResponse, Completion, Handler
from gateway.config import ConfigError
from gateway.learning.options import LearningOptions
from gateway.learning.privacy.redact import PII_ONLY
from gateway.learning.runtime.job_writer import JobRequest
from gateway.learning.runtime.service import LearningService
from gateway.learning.steps.commands import parse_command
from gateway.learning.steps.job_payload import job_payload
from gateway.memory import strip_block
from gateway.services import Services

log = logging.getLogger("memorelay.learning")

_REMEMBER_CHECK_S = 3.0  # past this the header says "queued" and the job alone decides


class LearningFilter:
    """Queues learning jobs for chats with a user who has not opted out. The workers, the
    scrubber process and retention belong to the application (``gateway.learning.runtime.service``),
    configured from this filter's options; this filter decides, enqueues and hands over the
    caller's key."""

    Options = LearningOptions

    name = "learning"

    def __init__(self, options: LearningOptions, services: Services) -> None:
        if services.learning_service is None:
            raise ConfigError("the learning filter needs the gateway's learning service (configure it by name)")
        self.learning: LearningService = services.learning_service
        self.services = services

    async def __call__(self, ctx: ChatContext, call_next: Handler) -> ChatResponse:
        reason = await self._skip_reason(ctx)
        # an explicit "remember …" is read while the upstream answers, so the header can say
        # what becomes of it (``LearningService.remember_note``)
        check = self._remember_check(ctx) if reason is None else None
        response = await call_next(ctx)
        if reason is None and not response.ok:
            reason = "upstream-error"
        note = await self._note(check) if check is not None and reason is None else None
        if note == PII_ONLY:
            reason = PII_ONLY  # nothing of it would be stored: no job is written
        if reason is not None:
            ctx.response_headers["x-memorelay-learning"] = f"skipped; reason={reason}"
            self.services.metrics.learning_skipped.labels(reason).inc()
            return response
        ctx.response_headers["x-memorelay-learning"] = f"queued; note={note}" if note else "queued"
        response.on_complete.append(self._enqueue)
        return response

    def _remember_check(self, ctx: ChatContext) -> asyncio.Future[str | None] | None:
        users = [m["content"] for m in ctx.transcript() if m["role"] == "user"]
        command = parse_command(strip_block(users[-1])) if users else None
        if command is None or command.kind != "remember":
            return None
        return asyncio.ensure_future(self.learning.remember_note(command.text))

    @staticmethod
    async def _note(check: asyncio.Future[str | None]) -> str | None:
        try:
            return await asyncio.wait_for(check, _REMEMBER_CHECK_S)
        except Exception as exc:  # boundary: slow or failing scrubber: the job decides (fails closed)
            log.info("remember check gave no answer: %s", type(exc).__name__)
            return None

    async def _skip_reason(self, ctx: ChatContext) -> str | None:
        if ctx.opt_out.learning:
            return "opt-out"
        user = ctx.identity.user
        if user is None:
            return "no-user"
        if not any(m["role"] == "user" for m in ctx.transcript()):
            # e.g. a Responses call that only returns a tool output: its history lives upstream
            return "no-user-turn"
        writer = self.learning.writer
        if writer.stalled:  # the store did not answer a moment ago: do not wait on it again
            return "store-unavailable"
        answered, settings = await writer.bounded(self.services.memory.get_settings(ctx.identity.tenant, user))
        if not answered or settings is None:
            return "store-unavailable"
        if not settings.get("learning_enabled", True):
            return "disabled"
        answered, writable = await writer.bounded(self.services.learning.writable())
        if answered and not writable:  # full or failing disk (gateway.store.sqlite.faults), database away
            return "store-unavailable"  # (a probe merely slow goes on: the write is bounded too)
        if self.learning.queue_full():  # the shared queue, every replica's jobs
            return "queue-full"
        return None

    async def _enqueue(self, ctx: ChatContext, completion: Completion) -> None:
        user = ctx.identity.user
        if user is None or not completion.content:
            return
        payload = job_payload(ctx.transcript(), completion.content, ctx.dialect.name, ctx.identity.time)
        self.services.telemetry.stamp(payload)  # the job's trace links back to this chat's
        authorization = ctx.caller.upstream_authorization
        job = JobRequest(
            ctx.identity.tenant,
            user,
            ctx.identity.conversation,
            ctx.model,
            payload,
            self.learning.key_holder(ctx.model, ctx.dialect.name, authorization),
            authorization,
        )
        try:  # at most learning.store_timeout_ms; a slower write finishes in the background
            await self.learning.writer.write(job)
        except Exception as exc:  # boundary: the header already said queued; the lost job is logged and counted
            log.error("learning job not written (tenant %s): %s", ctx.identity.tenant, exc)
            self.services.metrics.learning_jobs.labels("unwritten").inc()
