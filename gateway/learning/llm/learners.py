"""The two learners: an LLM through the ``complete()`` seam (``completers``), or the built-in rules.

Both score a turn and extract items. The built-in rules do it in two local steps; the LLM
learner in one upstream call (``combined``) whose score is recomputed from its dimensions,
never taken from its total, and whose items may name a memory they repeat or update.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime

from gateway.learning.errors import MalformedOutput, RetryableError
from gateway.learning.llm.combined import Known, combined_prompt, parse_combined
from gateway.learning.llm.completers import Completer
from gateway.learning.offline import heuristic
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.scoring import ScoreResult
from gateway.store import LearningStore

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
        try:
            if echoes_prompt(answer.text, prompt):
                raise MalformedOutput("the answer repeats the prompt instead of answering it")
            return parse_combined(answer.text, max_items=max_items, known=known)
        except MalformedOutput as exc:
            self._warn_once(exc)
            raise

    def _warn_once(self, exc: MalformedOutput) -> None:
        if self.model in _warned:
            return
        _warned.add(self.model)
        log.warning(
            "learning model %r gives unusable answers (%s): nothing is learned from them. Is the upstream "
            "a model that can follow the scoring prompt? learning.model: heuristic "
            "(MEMORELAY_LEARNING_MODEL=heuristic) learns without one",
            self.model,
            exc,
        )


log = logging.getLogger("memorelay.learning")
_warned: set[str] = set()  # models already warned about, once per process
_MIN_ECHO = 40


def echoes_prompt(answer: str, prompt: str) -> bool:
    """Whether ``answer`` repeats the prompt (an echo server, a model that parrots): it holds
    the prompt's opening, or one of the prompt's own example JSON lines, verbatim."""
    opening = prompt.strip()[:160]
    if len(opening) >= _MIN_ECHO and opening in answer:
        return True
    examples = (line.strip() for line in prompt.splitlines() if line.strip().startswith("{"))
    return any(len(e) >= _MIN_ECHO and e in answer for e in examples)


Learner = HeuristicLearner | LLMLearner
