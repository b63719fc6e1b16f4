"""Token counting (tiktoken, offline) and trimming the memory block to a budget.

tiktoken would download its encodings; litellm ships cl100k_base and o200k_base, so
``TIKTOKEN_CACHE_DIR`` is pointed at that folder (found without importing litellm, whose
import costs seconds) before the first encoder loads.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from .render import render_block
from .types import ScoredMemory

_env_lock = threading.Lock()


def _point_tiktoken_at_litellm() -> None:
    with _env_lock:
        if os.environ.get("TIKTOKEN_CACHE_DIR"):
            return
        spec = importlib.util.find_spec("litellm")
        if spec is None or not spec.submodule_search_locations:
            return
        folder = Path(list(spec.submodule_search_locations)[0]) / "litellm_core_utils" / "tokenizers"
        if folder.is_dir():
            os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)


def encoding_name(model: str) -> str:
    """o200k_base for gpt-4o*, gpt-4.1*, gpt-5* and o-series models; cl100k_base otherwise."""
    name = model.lower().rsplit("/", 1)[-1]
    if name.startswith(("gpt-4o", "gpt-4.1", "gpt-5", "chatgpt-4o")):
        return "o200k_base"
    if len(name) > 1 and name[0] == "o" and name[1].isdigit():
        return "o200k_base"
    return "cl100k_base"


@lru_cache(maxsize=4)
def _encoding(name: str) -> Any:
    with _load_lock:
        _point_tiktoken_at_litellm()
        import tiktoken

        encoding = tiktoken.get_encoding(name)
        _loaded.add(name)
        return encoding


_load_lock = threading.Lock()
_loaded: set[str] = set()


def load_all_tokenizers() -> None:
    """Load both encodings now (about half a second, blocking): tiktoken holds the GIL while
    it builds one, which would stall the event loop if a request paid for it."""
    for name in ("o200k_base", "cl100k_base"):
        _encoding(name)


async def load_tokenizer(model: str) -> None:
    """Load ``model``'s encoding (a few hundred ms, once) in a thread, so that a caller with a
    deadline (injection's ``timeout_ms``) can give up waiting: the load goes on, and a later
    call finds it done."""
    name = encoding_name(model)
    if name not in _loaded:
        await asyncio.to_thread(_encoding, name)


def count_tokens(text: str, model: str) -> int:
    """Tokens in ``text`` for ``model`` (special tokens counted as plain text)."""
    if not text:
        return 0
    return len(_encoding(encoding_name(model)).encode(text, disallowed_special=()))


def fit_to_budget(
    memories: list[ScoredMemory], budget_tokens: int, model: str, *, pinned: int = 0
) -> tuple[list[ScoredMemory], int]:
    """Drop the lowest ``memory.score`` first (the least relevant among equal scores) until
    the rendered block fits ``budget_tokens``; the first ``pinned`` memories (L1) go only once
    every other one is gone, last first. Returns the kept memories, in their input order
    (the pinned ones kept still first), and the block's token count (0 when nothing is kept)."""
    kept = list(memories)
    pins = max(0, min(pinned, len(kept)))
    while kept:
        tokens = count_tokens(render_block([s.memory for s in kept], pinned=pins), model)
        if tokens <= budget_tokens:
            return kept, tokens
        if len(kept) > pins:
            worst = pins + min(
                range(len(kept) - pins),
                key=lambda i: (kept[pins + i].memory.score, kept[pins + i].relevance, -i),
            )
        else:
            worst, pins = pins - 1, pins - 1
        kept.pop(worst)
    return [], 0
