"""The chat filter chain: an onion of ``async def __call__(ctx, call_next)`` filters.

Filters see a dialect-neutral view of the request (``query_text``, ``place_memory_block``,
``transcript``); the request's dialect owns the wire format (``gateway.dialects``; the
``Dialect`` protocol is in ``gateway.chat.context``). A filter may still edit ``ctx.body``
before ``call_next``, look at the ``ChatResponse`` after it, add ``ctx.response_headers``,
and register ``response.on_complete`` callbacks. Those run with the assembled final
assistant message just before the client has the whole response (a whole body: before it
is sent; a stream: when the end of the answer is seen, before the chunk carrying it is
forwarded), so what they write survives a crash right after the answer; they hold back no
other chunk. The chain is built once, at start-up.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from gateway.chat.context import ChatContext, ChatResponse

Handler = Callable[[ChatContext], Awaitable[ChatResponse]]


@runtime_checkable
class ChatFilter(Protocol):
    """A filter of the chain. ``start``/``stop`` are optional lifecycle hooks."""

    name: str

    async def __call__(self, ctx: ChatContext, call_next: Handler) -> ChatResponse: ...


FilterTimer = Callable[[str, float], None]


def build_chain(filters: list[ChatFilter], terminal: Handler, timer: FilterTimer) -> Handler:
    """Compose the filters around ``terminal``, outermost first; done once at start-up."""
    handler = terminal
    for f in reversed(filters):
        handler = _timed(f, handler, timer)
    return handler


def _timed(f: ChatFilter, inner: Handler, timer: FilterTimer) -> Handler:
    # per-filter time excludes the time spent in the filters and upstream inside it
    async def run(ctx: ChatContext) -> ChatResponse:
        inside = 0.0

        async def call_next(c: ChatContext) -> ChatResponse:
            nonlocal inside
            t = time.perf_counter()
            try:
                return await inner(c)
            finally:
                inside += time.perf_counter() - t

        start = time.perf_counter()
        try:
            return await f(ctx, call_next)
        finally:
            timer(f.name, time.perf_counter() - start - inside)

    return run
