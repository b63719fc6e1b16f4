"""One upstream call per learned turn: the scoring and the extraction prompt asked together.

The LLM learner sends one prompt built from the two editable prompts (``config/prompts``,
``/api/admin/prompts/{scoring|extraction}``), the user's nearest active memories (a short
reference and the title of each) and the conversation once. The model answers one JSON object:

    {"dimensions": {...}, "reason": "...",
     "items": [{"title", "content", "kind", "category", "subcategory", "tags", "slot",
                "same_as": "m2" | "updates": "m1"}]}

The gateway still computes the score from the dimensions (``scoring.score_of``) and applies
the threshold before storing anything. ``same_as`` / ``updates`` are the model's judgement of an
item against one of the memories it was shown; a reference that was not sent is ignored, so
the model can never touch any other memory.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gateway.learning.errors import MalformedOutput
from gateway.learning.llm.prompts import PLACEHOLDER
from gateway.learning.steps.extraction import KnowledgeItem, entries_of, find_json
from gateway.learning.steps.scoring import ScoreResult, score_of

log = logging.getLogger("memorelay.learning")

MAX_KNOWN = 8
_MAX_KNOWN_TITLE = 120
# the label line before a trailing placeholder ("Conversation:\n\n{conversation}")
_TRAILING = re.compile(r"(?:\n[^\n]{0,40}[:：][ \t]*)?\s*" + re.escape(PLACEHOLDER) + r"\s*$")
_INLINE = "the conversation at the end of this message"

_FRAME = """Do two jobs on the conversation at the end of this message and answer with ONE JSON
object, nothing else:

{"dimensions": {"density": 0.8, "clarity": 0.7, "depth": 0.6, "relevance": 0.9, "novelty": 0.5}, \
"reason": "one short sentence", "items": [...]}

Job 1 fills "dimensions" and "reason"; job 2 fills "items" with the items it describes, in
this object instead of its own answer format ([] when there is little durable to keep).
"""

_KNOWN = """
## Already remembered about the user

{lines}

If an item says the same as one of these, add "same_as": "<ref>"; if it replaces one with
a new value (new employer, city, tool, number, changed preference), add "updates": "<ref>".
Only these refs; neither for a new fact.
"""


@dataclass(frozen=True, slots=True)
class Known:
    """A memory shown to the model: the reference it sees, the real id, the title."""

    ref: str
    memory_id: str
    title: str


def known_memories(memories: list[tuple[str, str]]) -> list[Known]:
    """Number ``(memory_id, title)`` pairs as ``m1``, ``m2`` … (at most ``MAX_KNOWN``)."""
    return [Known(f"m{k}", mid, title) for k, (mid, title) in enumerate(memories[:MAX_KNOWN], start=1)]


def job_text(prompt: str) -> str:
    """An editable prompt without its conversation (which the combined prompt gives once)."""
    text = _TRAILING.sub("", prompt.rstrip())
    return text.replace(PLACEHOLDER, _INLINE).rstrip()


def combined_prompt(
    scoring: str, extraction: str, transcript: str, known: list[Known], when: datetime | None = None
) -> str:
    """The one prompt the LLM learner sends for a turn (module docstring); ``when``, the
    conversation's time, lets the model write an episode's date as a calendar date."""
    parts = [_FRAME, "\n## Job 1\n\n", job_text(scoring), "\n\n## Job 2\n\n", job_text(extraction), "\n"]
    if when is not None:
        parts.append(f"\n## Conversation time\n\n{when.strftime('%Y-%m-%d (%A) %H:%M %Z').strip()}\n")
    if known:
        lines = "\n".join(f"- {k.ref}: {_one_line(k.title)}" for k in known)
        parts.append(_KNOWN.replace("{lines}", lines))
    parts.append(f"\n## Conversation\n\n{transcript}")
    return "".join(parts)


def parse_combined(raw: str, *, max_items: int, known: list[Known]) -> tuple[ScoreResult, list[KnowledgeItem]]:
    """The score and the items of a combined answer; ``MalformedOutput`` when either is unusable."""
    value = find_json(raw)
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, dict) and "items" in v), None)
    if not isinstance(value, dict):
        raise MalformedOutput("combined answer is not a JSON object")
    rating = next((value[k] for k in ("rating", "scoring") if isinstance(value.get(k), dict)), value)
    score = score_of(rating)
    listed = value.get("items", value.get("memories"))
    if listed is None:
        return score, []
    if not isinstance(listed, list):
        raise MalformedOutput("combined answer's items are not a JSON array")
    items: list[KnowledgeItem] = []
    for item, entry in entries_of(listed, max_items=max_items):
        item.same_as = _resolve(entry.get("same_as"), known)
        item.updates = None if item.same_as else _resolve(entry.get("updates"), known)
        items.append(item)
    return score, items


def _resolve(ref: Any, known: list[Known]) -> str | None:
    """The memory id a reference names, only if that memory was sent; else ``None``."""
    if ref is None or isinstance(ref, bool) or not isinstance(ref, str | int):
        return None
    text = str(ref).strip()
    if isinstance(ref, int) or text.isdigit():
        text = f"m{text}"
    for k in known:
        if text.lower() == k.ref or text == k.memory_id:
            return k.memory_id
    log.info("the learner referred to a memory it was not shown (%r): ignored", text[:40])
    return None


def _one_line(text: str) -> str:
    line = re.sub(r"\s+", " ", text).strip()
    return line if len(line) <= _MAX_KNOWN_TITLE else line[: _MAX_KNOWN_TITLE - 1].rstrip() + "…"
