from __future__ import annotations

import pytest

from gateway.learning.llm.prompts import PLACEHOLDER, render
from gateway.store.prompts import default_prompt


@pytest.mark.parametrize("name", ["scoring", "extraction"])
def test_default_prompts(name: str) -> None:
    text = default_prompt(name)  # type: ignore[arg-type]
    assert text.count(PLACEHOLDER) == 1
    filled = render(text, "user: hi\nassistant: hello")
    assert "user: hi" in filled and PLACEHOLDER not in filled


def test_prompt_contents() -> None:
    scoring = default_prompt("scoring")
    for word in ("density", "clarity", "depth", "relevance", "novelty", '"reason"'):
        assert word in scoring
    extraction = default_prompt("extraction")
    for word in ("user_preference", "business", "technical", "organizational", "domain", "[]"):
        assert word in extraction


def test_render_without_placeholder_appends() -> None:
    assert render("Rate this.", "conv") == "Rate this.\n\nconv"


def test_unknown_prompt() -> None:
    with pytest.raises(ValueError):
        default_prompt("other")  # type: ignore[arg-type]
