"""memorelay: a transparent OpenAI-compatible gateway with per-user long-term memory.

The seams other code may rely on are re-exported here; everything else is internal.
"""

from __future__ import annotations

from gateway.chat import ChatContext, ChatFilter, ChatResponse, Completion, Handler
from gateway.config import Config, ConfigError, load_config

__all__ = [
    "ChatContext",
    "ChatFilter",
    "ChatResponse",
    "Completion",
    "Config",
    "ConfigError",
    "Handler",
    "load_config",
]
