"""The two learners: an LLM through the gateway's own upstream routing, or the built-in rules.

Both score a turn and extract items; the LLM learner's scores are recomputed from
its dimensions (``parse_score``), never taken from its total.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from gateway.auth import Caller
from gateway.chain import ChatContext
from gateway.errors import GatewayError
from gateway.identity import NO_OPT_OUT, Identity
from gateway.learning import heuristic
from gateway.learning.errors import LearningError, MalformedOutput
from gateway.learning.extraction import KnowledgeItem, parse_items
from gateway.learning.prompts import render
from gateway.learning.scoring import ScoreResult, parse_score
from gateway.learning.store import LearningStore
from gateway.upstreams import UpstreamRouter


class RetryableError(LearningError):
    """The learner's upstream failed in a way worth retrying (429, 5xx, unreachable)."""


@dataclass(slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, usage: dict[str, Any] | None) -> None:
        if usage:
            self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            self.completion_tokens += int(usage.get("completion_tokens") or 0)


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
    """Asks ``model`` through the same routing as chat (aliases via litellm, else the default)."""

    def __init__(
        self,
        model: str,
        upstreams: UpstreamRouter,
        store: LearningStore,
        tenant: str,
        authorization: str | None,
    ) -> None:
        self.name = f"llm:{model}"
        self.model = model
        self.upstreams = upstreams
        self.store = store
        self.tenant = tenant
        self.authorization = authorization

    async def score(self, turn: Turn) -> ScoreResult:
        prompt, _ = await self.store.get_prompt("scoring")
        return parse_score(await self._ask(render(prompt, turn.transcript), turn))

    async def extract(self, turn: Turn, max_items: int) -> list[KnowledgeItem]:
        prompt, _ = await self.store.get_prompt("extraction")
        return parse_items(await self._ask(render(prompt, turn.transcript), turn), max_items=max_items)

    async def _ask(self, prompt: str, turn: Turn) -> str:
        body = {
            "model": self.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0,
        }
        ctx = ChatContext(
            body,
            Identity(self.tenant, None, None),
            NO_OPT_OUT,
            Caller(self.tenant, self.authorization),
            self.model,
            {},
        )
        try:
            response = await self.upstreams.for_model(self.model).chat(ctx)
        except GatewayError as exc:
            raise RetryableError(f"learner upstream: {exc.message}") from exc
        if response.status_code == 429 or response.status_code >= 500:
            raise RetryableError(f"learner upstream answered {response.status_code}")
        if not response.ok:
            raise LearningError(f"learner upstream answered {response.status_code}")
        try:
            data = orjson.loads(response.body or b"")
            turn.usage.add(data.get("usage"))
            content = data["choices"][0]["message"]["content"]
        except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise MalformedOutput("learner answer is not a chat completion") from exc
        if not isinstance(content, str):
            raise MalformedOutput("learner answer has no text content")
        return content
