"""Filling the scoring and extraction prompts (their names and default texts are the store's,
``gateway.store.prompts``: it answers an operator's override or the default).

Each prompt holds a ``{conversation}`` placeholder that the pipeline fills with
``str.replace``; ``str.format`` would trip over the JSON braces in the prompts.
"""

from __future__ import annotations

PLACEHOLDER = "{conversation}"


def render(prompt: str, conversation: str) -> str:
    """Fill the ``{conversation}`` placeholder (appending the conversation if it is missing)."""
    if PLACEHOLDER in prompt:
        return prompt.replace(PLACEHOLDER, conversation)
    return f"{prompt.rstrip()}\n\n{conversation}"
