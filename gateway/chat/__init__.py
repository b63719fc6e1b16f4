"""The chat wing: a request's neutral values, the filter chain, the one endpoint, identity.

Every API surface (``gateway.dialects``) runs through the same ``DialectEndpoint``
(``gateway.chat.endpoint``) and the same chain; the values re-exported here are what a
filter, an upstream or a dialect may rely on.
"""

from __future__ import annotations

from gateway.chat.chain import ChatFilter, FilterTimer, Handler, build_chain
from gateway.chat.context import (
    ChatContext,
    ChatResponse,
    Completion,
    CompletionCallback,
    Dialect,
    Placement,
    StreamObserver,
    TranscriptMessage,
)

__all__ = [
    "ChatContext",
    "ChatFilter",
    "ChatResponse",
    "Completion",
    "CompletionCallback",
    "Dialect",
    "FilterTimer",
    "Handler",
    "Placement",
    "StreamObserver",
    "TranscriptMessage",
    "build_chain",
]
