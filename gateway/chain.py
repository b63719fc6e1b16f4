"""The chat filter chain: an onion of ``async def __call__(ctx, call_next)`` filters.

Filters see a dialect-neutral view of the request (``query_text``,
``place_memory_block``, ``transcript``); the request's dialect owns the wire format
(``gateway.dialects``). A filter may still edit ``ctx.body`` before ``call_next``, look at the ``ChatResponse``
after it, add ``ctx.response_headers``, and register ``response.on_complete``
callbacks. Those run with the assembled final assistant message just before the
client has the whole response (a whole body: before it is sent; a stream: when the
end of the answer is seen, before the chunk carrying it is forwarded), so what they
write survives a crash right after the answer; they hold back no other chunk. The
chain is built once, at start-up.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from gateway.auth import Caller
from gateway.identity import Identity, OptOut

if TYPE_CHECKING:
    from gateway.dialects.base import Dialect, Placement, TranscriptMessage


@dataclass(slots=True)
class Completion:
    """What the assistant answered, assembled from a body or from stream deltas."""

    content: str
    finish_reason: str | None
    usage: dict[str, Any] | None


CompletionCallback = Callable[["ChatContext", Completion], Awaitable[None]]


@dataclass(slots=True)
class ChatResponse:
    """The upstream's answer as the chain sees it: a whole body or a byte stream."""

    status_code: int
    headers: dict[str, str]
    body: bytes | None = None
    stream: AsyncIterator[bytes] | None = None
    on_complete: list[CompletionCallback] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return 200 <= self.status_code < 300


@dataclass(slots=True)
class ChatContext:
    """Everything one chat request carries through the chain."""

    body: dict[str, Any]
    identity: Identity
    opt_out: OptOut
    caller: Caller
    model: str
    headers: Mapping[str, str]
    dialect: Dialect
    query_string: bytes = b""
    started_at: float = field(default_factory=time.perf_counter)
    response_headers: dict[str, str] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    # set by the terminal handler just before the upstream call (for X-Memorelay-Overhead-Ms)
    upstream_started_at: float | None = None

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    def query_text(self) -> str:
        """What retrieval searches for: the latest user turn plus a little context."""
        return self.dialect.query_text(self.body)

    def place_memory_block(self, block: str, placement: Placement) -> None:
        self.dialect.place_block(self.body, block, placement)

    def transcript(self) -> list[TranscriptMessage]:
        """This request's user and assistant turns as plain text, the memory block removed."""
        return self.dialect.transcript(self.body)


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
