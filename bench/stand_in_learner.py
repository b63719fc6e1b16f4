"""A stand-in LLM learner for benchmarks: the fake upstream, answering learning prompts itself.

``uvicorn --factory bench.stand_in_learner:app``: chat requests are echoed as by
``tests.fake_upstream.bench_app``; a learning prompt (the scoring prompt, the extraction prompt,
or both in one combined call) is answered with the built-in learner's score dimensions and
items for the conversation's last user turn, written as JSON the way a model would. It counts
the learning calls and their tokens (tiktoken, gpt-4o-mini) at ``GET /stand-in/calls``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from gateway.learning.offline.heuristic import extract_items, score_turn
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.memory.budget import count_tokens
from tests.fake_upstream import FakeUpstream

SCORING = "rate one conversation turn"
EXTRACTION = "Extract durable"
THRESHOLD = 0.6
_ROLE = re.compile(r"(?:^|\n)(System|User|Assistant): ")
COUNTS = {"learning_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}


def last_turn(prompt: str) -> tuple[str, str]:
    """The last user turn and the answer in the transcript at the end of a learning prompt."""
    parts = _ROLE.split(prompt)
    turns = list(zip(parts[1::2], parts[2::2], strict=True))
    users = [text for role, text in turns if role == "User"]
    answer = turns[-1][1] if turns and turns[-1][0] == "Assistant" else ""
    return (users[-1].strip() if users else ""), answer.strip()


def item_json(item: KnowledgeItem) -> dict[str, Any]:
    entry: dict[str, Any] = {"title": item.title, "content": item.content, "category": item.category}
    entry |= {"subcategory": item.subcategory, "tags": item.tags}
    return entry | ({"slot": item.slot} if item.slot else {})


def respond(body: dict[str, Any]) -> str | None:
    prompt = str((body.get("messages") or [{}])[-1].get("content", ""))
    scoring, extraction = SCORING in prompt, EXTRACTION in prompt
    if not (scoring or extraction):
        return None
    user, answer = last_turn(prompt)
    score = score_turn(user, answer)
    items = [item_json(i) for i in extract_items(user, answer)] if score.score >= THRESHOLD else []
    rating = {"score": score.score, "dimensions": score.dimensions, "reason": score.reason or "stand-in"}
    reply: Any = rating | {"items": items} if scoring and extraction else rating if scoring else items
    text = json.dumps(reply, ensure_ascii=False)
    COUNTS["learning_calls"] += 1
    COUNTS["prompt_tokens"] += count_tokens(prompt, "gpt-4o-mini")
    COUNTS["completion_tokens"] += count_tokens(text, "gpt-4o-mini")
    return text


async def calls(request: Request) -> JSONResponse:
    return JSONResponse(COUNTS)


def app() -> Starlette:
    fake = FakeUpstream(keep_records=False, responder=respond).app()
    return Starlette(routes=[Route("/stand-in/calls", calls), *fake.routes])
