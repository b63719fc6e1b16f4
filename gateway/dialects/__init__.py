"""One module per API surface the filter chain runs on: chat completions, the Responses API
and Anthropic Messages. Each is a pure wire format behind the ``Dialect`` protocol
(``gateway.chat.context``); which upstream answers is the router's choice."""

from __future__ import annotations

from gateway.dialects.anthropic_messages import ANTHROPIC_MESSAGES, AnthropicMessages
from gateway.dialects.chat_completions import CHAT_COMPLETIONS, ChatCompletions
from gateway.dialects.responses import RESPONSES, Responses

__all__ = [
    "ANTHROPIC_MESSAGES",
    "CHAT_COMPLETIONS",
    "RESPONSES",
    "AnthropicMessages",
    "ChatCompletions",
    "Responses",
]
