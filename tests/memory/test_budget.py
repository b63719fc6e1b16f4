from __future__ import annotations

from gateway.memory import ScoredMemory, count_tokens, fit_to_budget, render_block
from gateway.memory.budget import encoding_name
from tests.memory.test_render import make


def scored(title: str, score: float, relevance: float) -> ScoredMemory:
    m = make(title, title + " " + "detail " * 40, "technical")
    m.id, m.score = "mem_" + title, score
    return ScoredMemory(memory=m, relevance=relevance)


def test_count_tokens_offline() -> None:
    assert count_tokens("hello world", "gpt-4o-mini") == 2
    assert count_tokens("hello world", "gpt-3.5-turbo") == 2
    assert count_tokens("", "gpt-4o") == 0
    assert count_tokens("<|endoftext|>", "gpt-4") > 1
    assert encoding_name("gpt-4o") == "o200k_base"
    assert encoding_name("o3-mini") == "o200k_base"
    assert encoding_name("openai/gpt-4o-mini") == "o200k_base"
    assert encoding_name("claude-sonnet") == "cl100k_base"


def test_fit_drops_lowest_score_first() -> None:
    items = [scored("a", 0.9, 3), scored("b", 0.2, 2), scored("c", 0.7, 1)]
    full = count_tokens(render_block([s.memory for s in items]), "gpt-4o")
    kept, tokens = fit_to_budget(items, full, "gpt-4o")
    assert [s.memory.title for s in kept] == ["a", "b", "c"] and tokens == full
    kept, tokens = fit_to_budget(items, full - 1, "gpt-4o")
    assert [s.memory.title for s in kept] == ["a", "c"]
    assert tokens == count_tokens(render_block([s.memory for s in kept]), "gpt-4o")
    assert tokens <= full - 1
    kept, tokens = fit_to_budget(items, tokens - 1, "gpt-4o")
    assert [s.memory.title for s in kept] == ["a"]
    assert fit_to_budget(items, 5, "gpt-4o") == ([], 0)


def test_pinned_memories_leave_last_and_render_first() -> None:
    # two pinned ones with the lowest scores: every retrieved one goes before them
    items = [scored("p1", 0.1, 1), scored("p2", 0.1, 1), scored("r1", 0.9, 3), scored("r2", 0.8, 2)]
    full = count_tokens(render_block([s.memory for s in items], pinned=2), "gpt-4o")
    kept, tokens = fit_to_budget(items, full - 1, "gpt-4o", pinned=2)
    assert [s.memory.title for s in kept] == ["p1", "p2", "r1"]
    assert tokens == count_tokens(render_block([s.memory for s in kept], pinned=2), "gpt-4o")
    only_pins = count_tokens(render_block([s.memory for s in items[:2]], pinned=2), "gpt-4o")
    kept, _ = fit_to_budget(items, only_pins, "gpt-4o", pinned=2)
    assert [s.memory.title for s in kept] == ["p1", "p2"]
    kept, _ = fit_to_budget(items, only_pins - 1, "gpt-4o", pinned=2)
    assert [s.memory.title for s in kept] == ["p1"]  # the last pinned one goes first
    block = render_block([s.memory for s in items], pinned=2)
    assert block.index("p2") < block.index("### Technical") < block.index("r1")
