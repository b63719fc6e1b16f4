"""What injection puts before one chat turn: the caller's pinned memories first, then the best
matches for the query, fitted to a token budget and rendered as the memory block.

The ``memory_injection`` filter and the MCP ``recall`` tool both call ``select``, so an agent
that recalls sees the very memories, and the very block text, that a chat would be given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .budget import fit_to_budget, load_tokenizer
from .render import render_block
from .service import MemoryService
from .types import Memory, ScoredMemory


@dataclass(frozen=True, slots=True)
class Selection:
    """The memories kept (block order: pinned first), their block, its tokens and the budget."""

    memories: list[Memory] = field(default_factory=list)
    block: str = ""
    tokens: int = 0
    budget: int = 0
    # pinned memories among the candidates: the recall statistics leave them out
    pinned_ids: frozenset[str] = frozenset()

    @property
    def ids(self) -> list[str]:
        return [m.id for m in self.memories]


EMPTY = Selection()


async def select(
    memory: MemoryService,
    tenant: str,
    user: str | None,
    query: str,
    *,
    model: str,
    context_window: Callable[[str], int],
    top_k: int,
    budget_percent: float,
    max_tokens: int,
    conversation: str | None = None,
    category: str | None = None,
    keep: Callable[[Memory], bool] | None = None,
) -> Selection:
    """Pinned memories (never counted against ``top_k``, the last to leave when the budget is
    short), then up to ``top_k`` matches ranked by the recall paths; the budget is
    ``budget_percent`` of the model's context window, capped at ``max_tokens``.
    ``category`` and ``keep`` narrow the candidates (the MCP ``recall`` filters)."""
    pinned = [m for m in await memory.pinned(tenant, user) if _wanted(m, category, keep)]
    pinned_ids = frozenset(m.id for m in pinned)
    found: list[ScoredMemory] = []
    if query:
        # pinned ones are already in: ask for that many more so they never use up top_k
        hits = await memory.search(
            tenant,
            user,
            query,
            limit=top_k + len(pinned),
            category=category,
            cached_rows=True,
            recall=True,
            conversation=conversation,
        )
        found = [s for s in hits if s.memory.id not in pinned_ids and _wanted(s.memory, None, keep)][:top_k]
    if not found and not pinned:
        return EMPTY
    budget = min(int(context_window(model) * budget_percent / 100), max_tokens)
    candidates = [ScoredMemory(memory=m, relevance=1.0) for m in pinned] + found
    await load_tokenizer(model)  # the first load runs in a thread, so a caller's deadline holds
    kept, tokens = fit_to_budget(candidates, budget, model, pinned=len(pinned))
    if not kept:
        return Selection(budget=budget, pinned_ids=pinned_ids)
    pins = sum(1 for s in kept if s.memory.id in pinned_ids)
    memories = [s.memory for s in kept]
    return Selection(memories, render_block(memories, pinned=pins), tokens, budget, pinned_ids)


def _wanted(m: Memory, category: str | None, keep: Callable[[Memory], bool] | None) -> bool:
    return (category is None or m.category == category) and (keep is None or keep(m))
