"""``memory_injection``: the user's relevant memories, fitted to a token budget, before the call.

Pinned (L1) memories come first on every turn, whatever the query: they are served from a
per-caller cache (``MemoryService.pinned``), never count against ``top_k``, and are the last
to leave when the budget is short. Each injection is logged (which memories, conversation id,
surface; no text) for ``GET /api/memories/{id}/uses``, written off the chat's path. The
retrieved ones are ranked with the recall paths (``memory.recall``: recency, popularity,
co-occurrence, fatigue in the ``X-Memorelay-Conversation``), from statistics held in process.

Retrieval is hybrid (vector + keyword); the request's dialect places the block after
the existing system content (``placement: system``) or just before the latest user
turn (``placement: last_user``). Memory fails open: past ``timeout_ms`` or on any
error the request is relayed without memories, and the failure is logged and counted.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway.chat import ChatContext, ChatResponse, Handler
from gateway.memory import load_all_tokenizers, select
from gateway.services import Services

log = logging.getLogger("memorelay.injection")


class MemoryInjectionFilter:
    """Injects ≤ ``top_k`` of the caller's memories within the token budget; never fails a chat."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")
        top_k: int = Field(5, ge=1, le=50)
        budget_percent: float = Field(10, gt=0, le=100)
        max_tokens: int = Field(2000, gt=0)
        placement: Literal["system", "last_user"] = "system"
        timeout_ms: float = Field(200, gt=0)

    name = "memory_injection"

    def __init__(self, options: Options, services: Services) -> None:
        self.options = options
        self.services = services
        self._touches: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        # before the gateway is ready: building an encoding holds the GIL for a few hundred
        # ms, which no request's timeout_ms could bound
        await asyncio.to_thread(load_all_tokenizers)

    async def stop(self) -> None:
        if self._touches:
            await asyncio.gather(*self._touches, return_exceptions=True)

    async def __call__(self, ctx: ChatContext, call_next: Handler) -> ChatResponse:
        injected: list[str] = []
        tokens = 0
        if not ctx.opt_out.injection:
            with self.services.telemetry.span("memory_injection") as span:
                injected, tokens = await self._inject(ctx)
                span.set(
                    {
                        "memorelay.memory.injected": len(injected),
                        "memorelay.memory.tokens": tokens,
                        "memorelay.memory.timed_out": ctx.state.get("memory_failure") == "timeout",
                        "memorelay.memory.failed": "memory_failure" in ctx.state,
                    }
                )
        ctx.response_headers["x-memorelay-memories"] = str(len(injected))
        ctx.response_headers["x-memorelay-memory-tokens"] = str(tokens)
        response = await call_next(ctx)
        if injected:
            # access stats and the citation log are bookkeeping: off the hot path, after the call
            identity = ctx.identity
            self.services.memory.record_uses(
                identity.tenant,
                identity.user or "",
                injected,
                identity.conversation,
                ctx.dialect.name,
                pinned=ctx.state.get("memory_pinned", ()),
            )
            task = asyncio.ensure_future(self._touch(injected))
            self._touches.add(task)
            task.add_done_callback(self._touches.discard)
        return response

    async def _inject(self, ctx: ChatContext) -> tuple[list[str], int]:
        query = ctx.query_text()
        metrics = self.services.metrics
        retrieval = asyncio.ensure_future(self._retrieve(ctx, query))
        try:
            # not wait_for: it would wait out the cancellation too, and a database that stopped
            # answering can take seconds to cancel a query; the task is left to end on its own
            done, _ = await asyncio.wait({retrieval}, timeout=self.options.timeout_ms / 1000)
            if not done:
                retrieval.cancel()
                retrieval.add_done_callback(_consume)
                log.warning("memory retrieval over %.0f ms: relayed without memories", self.options.timeout_ms)
                metrics.memory_failures.labels("timeout").inc()
                ctx.state["memory_failure"] = "timeout"
                return [], 0
            block, ids, tokens = retrieval.result()
        except Exception as exc:  # boundary: memory fails open (the chat is answered without it)
            log.warning("memory retrieval failed (%s): relayed without memories", type(exc).__name__)
            metrics.memory_failures.labels("error").inc()
            ctx.state["memory_failure"] = "error"
            return [], 0
        if not ids:
            return [], 0
        ctx.place_memory_block(block, self.options.placement)
        ctx.state["memory_block"] = block
        metrics.memories_injected.inc(len(ids))
        return ids, tokens

    async def _retrieve(self, ctx: ChatContext, query: str) -> tuple[str, list[str], int]:
        services, options = self.services, self.options
        chosen = await select(
            services.memory,
            ctx.identity.tenant,
            ctx.identity.user,
            query,
            model=ctx.model,
            context_window=services.model_info.context_window,
            top_k=options.top_k,
            budget_percent=options.budget_percent,
            max_tokens=options.max_tokens,
            conversation=ctx.identity.conversation,
        )
        if not chosen.memories:
            return "", [], 0
        ctx.state["memory_pinned"] = chosen.pinned_ids  # left out of the recall statistics
        return chosen.block, chosen.ids, chosen.tokens

    async def _touch(self, ids: list[str]) -> None:
        try:
            await self.services.memory.touch(ids)
        except Exception as exc:  # boundary: stats must not surface as errors
            log.warning("could not update access stats: %s", type(exc).__name__)


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve a timed-out retrieval's outcome, so asyncio does not log it as never seen."""
    if not task.cancelled():
        task.exception()
