"""Who calls an MCP tool, and the injection options ``recall`` follows (no heavy imports)."""

from __future__ import annotations

from dataclasses import dataclass

from gateway.chat.identity import OptOut


@dataclass(frozen=True, slots=True)
class McpCaller:
    """Who calls: from the same credentials and headers as a chat."""

    tenant: str
    user: str
    conversation: str | None
    opt_out: OptOut


@dataclass(frozen=True, slots=True)
class InjectionOptions:
    """The injection filter's options that ``recall`` follows (its defaults without one)."""

    top_k: int = 5
    budget_percent: float = 10
    max_tokens: int = 2000
