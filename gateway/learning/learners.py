"""The two learners: an LLM through the ``complete()`` seam (``completers``), or the built-in rules.

Both score a turn and extract items. The built-in rules do it in two local steps; the LLM
learner in one upstream call (``combined``) whose score is recomputed from its dimensions,
never taken from its total, and whose items may name a memory they repeat or update.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime

from gateway.learning import heuristic
from gateway.learning.combined import Known, combined_prompt, parse_combined
from gateway.learning.completers import Completer
from gateway.learning.errors import RetryableError
from gateway.learning.extraction import KnowledgeItem
from gateway.learning.scoring import ScoreResult
from gateway.memory.store import LearningStore

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
    """What learning looks at: the latest user turn, the answer, a little context, and the
    conversation's time (relative dates in what is learned are resolved from it)."""

    user_text: str
    assistant_text: str
    transcript: str
    usage: Usage = field(default_factory=Usage)
    time: datetime = field(default_factory=lambda: datetime.now(UTC))
    # candidates the learner itself turned down, by reason code (``gate``): for the learning log
    rejected: list[str] = field(default_factory=list)


class HeuristicLearner:
    """The built-in rules; the parse (spaCy, jieba) runs in a thread, off the event loop."""

    name = "heuristic"

    async def score(self, turn: Turn) -> ScoreResult:
        result = await asyncio.to_thread(heuristic.score_turn, turn.user_text, turn.assistant_text, turn.time)
        turn.rejected = heuristic.rejections(turn.user_text, turn.time)  # cached: read by score_turn
        return result

    async def extract(self, turn: Turn, max_items: int) -> list[KnowledgeItem]:
        return await asyncio.to_thread(
            heuristic.extract_items, turn.user_text, turn.assistant_text, max_items=max_items, now=turn.time
        )


class LLMLearner:
    """Asks ``model`` through a ``Completer`` (the chat routing, or the Anthropic upstream)."""

    def __init__(self, model: str, completer: Completer, store: LearningStore) -> None:
        self.name = f"llm:{model}"
        self.model = model
        self.completer = completer
        self.store = store

    async def learn(self, turn: Turn, max_items: int, known: list[Known]) -> tuple[ScoreResult, list[KnowledgeItem]]:
        """Score and extract in one call: the editable scoring and extraction prompts together."""
        scoring, _ = await self.store.get_prompt("scoring")
        extraction, _ = await self.store.get_prompt("extraction")
        prompt = combined_prompt(scoring, extraction, turn.transcript, known, turn.time)
        answer = await self.completer.complete(self.model, prompt)
        turn.usage.add(answer.prompt_tokens, answer.completion_tokens)
        return parse_combined(answer.text, max_items=max_items, known=known)


Learner = HeuristicLearner | LLMLearner
