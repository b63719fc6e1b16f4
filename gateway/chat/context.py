"""The neutral values of one chat request, whatever API surface it came in on.

The filter chain and the upstreams see only these: the request (``ChatContext``), the
answer (``ChatResponse``, and the assembled ``Completion``), the plain transcript that
learning reads, and the ``Dialect`` protocol each wire format (``gateway.dialects``)
implements so that nobody else parses a surface's body.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict

from gateway.auth import Caller
from gateway.chat.identity import Identity, OptOut
from gateway.errors import GatewayError

Placement = Literal["system", "last_user"]


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


class TranscriptMessage(TypedDict):
    """One turn handed to learning: plain text, the memory block already removed."""

    role: Literal["user", "assistant"]
    content: str


class StreamObserver(Protocol):
    """Watches a relayed stream's bytes; never holds a chunk back."""

    def feed(self, chunk: bytes) -> None: ...

    @property
    def ended(self) -> bool:
        """True once a fed chunk carried the end of the answer (its text is complete)."""

    def completion(self) -> Completion | None:
        """The assembled answer, or None when the stream did not finish properly."""


class Dialect(Protocol):
    """One API surface's wire format. Every method is pure over the body except ``place_block``
    (edits it); which upstream serves the surface is the router's business (``gateway.upstreams``)."""

    name: str
    route: str
    # the SSE event a stream gets when the upstream breaks it off (gateway.http.streaming)
    broken_stream_event: bytes

    def validate(self, body: dict[str, Any]) -> str:
        """Raise ``BadRequest`` for a body the surface cannot carry; return the model name."""

    def body_user(self, body: dict[str, Any]) -> str | None:
        """The end user named in the body (the header wins over it), if the surface has one."""

    def query_text(self, body: dict[str, Any]) -> str:
        """The latest user turn, plus a little of the previous one when it is short."""

    def place_block(self, body: dict[str, Any], block: str, placement: Placement) -> None: ...

    def transcript(self, body: dict[str, Any]) -> list[TranscriptMessage]:
        """User and assistant turns of this request, oldest first, without the memory block."""

    def completion_from_body(self, body: bytes) -> Completion | None: ...

    def observer(self) -> StreamObserver: ...

    def error_bytes(self, exc: GatewayError) -> bytes: ...
