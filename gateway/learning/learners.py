"""The two learners: an LLM through the ``complete()`` seam (``completers``), or the built-in rules.

Both score a turn and extract items; the LLM learner's scores are recomputed from
its dimensions (``parse_score``), never taken from its total.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol

from gateway.learning import heuristic
from gateway.learning.completers import Completer
from gateway.learning.errors import RetryableError
from gateway.learning.extraction import KnowledgeItem, parse_items
from gateway.learning.prompts import render
from gateway.learning.scoring import ScoreResult, parse_score
from gateway.learning.store import LearningStore

__all__ = ["HeuristicLearner", "LLMLearner", "Learner", "RetryableError", "Turn", "Usage"]


@dataclass(slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, prompt_tokens: int, completion_tokens: int) -> None:
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens


@dataclass(slots=True)
class Turn:
    """What learning looks at: the latest user turn, the answer, and a little context."""

    user_text: str
    assistant_text: str
    transcript: str
    usage: Usage = field(default_factory=Usage)


class Learner(Protocol):
    name: str

    async def score(self, turn: Turn) -> ScoreResult: ...

    async def extract(self, turn: Turn, max_items: int) -> list[KnowledgeItem]: ...


class HeuristicLearner:
    """The built-in rules; the parse (spaCy, jieba) runs in a thread, off the event loop."""

    name = "heuristic"

    async def score(self, turn: Turn) -> ScoreResult:
        return await asyncio.to_thread(heuristic.score_turn, turn.user_text, turn.assistant_text)

    async def extract(self, turn: Turn, max_items: int) -> list[KnowledgeItem]:
        return await asyncio.to_thread(
            heuristic.extract_items, turn.user_text, turn.assistant_text, max_items=max_items
        )


class LLMLearner:
    """Asks ``model`` through a ``Completer`` (the chat routing, or the Anthropic upstream)."""

    def __init__(self, model: str, completer: Completer, store: LearningStore) -> None:
        self.name = f"llm:{model}"
        self.model = model
        self.completer = completer
        self.store = store

    async def score(self, turn: Turn) -> ScoreResult:
        prompt, _ = await self.store.get_prompt("scoring")
        return parse_score(await self._ask(render(prompt, turn.transcript), turn))

    async def extract(self, turn: Turn, max_items: int) -> list[KnowledgeItem]:
        prompt, _ = await self.store.get_prompt("extraction")
        return parse_items(await self._ask(render(prompt, turn.transcript), turn), max_items=max_items)

    async def _ask(self, prompt: str, turn: Turn) -> str:
        answer = await self.completer.complete(self.model, prompt)
        turn.usage.add(answer.prompt_tokens, answer.completion_tokens)
        return answer.text
