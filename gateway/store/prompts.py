"""The learning prompts the store keeps: their names, and the default texts it answers where
no override is stored (``config/prompts/*.md``; an installed wheel carries a copy)."""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Literal

PromptName = Literal["scoring", "extraction"]
PROMPT_NAMES: tuple[PromptName, ...] = ("scoring", "extraction")
# a source checkout's config/prompts (editable installs, tests) ...
PROMPTS_DIR = Path(__file__).resolve().parents[2] / "config" / "prompts"


def _packaged_dir() -> Path:
    """... else the copy an installed wheel carries as package data (``setup.py``)."""
    return Path(str(importlib.resources.files("gateway") / "_defaults" / "prompts"))


def default_prompt(name: PromptName, *, directory: Path | None = None) -> str:
    """Return the text of the default prompt ``name`` (read from ``config/prompts``)."""
    if name not in ("scoring", "extraction"):
        raise ValueError(f"unknown prompt {name!r}")
    folder = directory or (PROMPTS_DIR if PROMPTS_DIR.is_dir() else _packaged_dir())
    path = folder / f"{name}.md"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise FileNotFoundError(f"default prompt {name!r} not found at {path}") from exc
