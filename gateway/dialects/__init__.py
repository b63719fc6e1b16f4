"""One module per API surface the filter chain runs on (SPEC §2): chat completions,
the Responses API and Anthropic Messages, behind the ``Dialect`` protocol."""

from __future__ import annotations

from gateway.dialects.anthropic_messages import ANTHROPIC_MESSAGES, AnthropicMessages
from gateway.dialects.base import Dialect, Placement, StreamObserver, TranscriptMessage
from gateway.dialects.chat_completions import CHAT_COMPLETIONS, ChatCompletions
from gateway.dialects.responses import RESPONSES, Responses

__all__ = [
    "ANTHROPIC_MESSAGES",
    "CHAT_COMPLETIONS",
    "RESPONSES",
    "AnthropicMessages",
    "ChatCompletions",
    "Dialect",
    "Placement",
    "Responses",
    "StreamObserver",
    "TranscriptMessage",
]
