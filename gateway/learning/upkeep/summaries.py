"""One memory from a cluster of small related facts (consolidation, ``consolidation``).

``RuleSummary`` works offline: the members' clauses, de-duplicated (``dedup.normalise``), joined
in order under the first member's title, within a length cap. A member whose new clauses do not
fit is left out of the summary (and so stays active): nothing a member says is dropped.

``LLMSummary`` asks the configured learning model once per cluster for strict JSON
``{"title": ..., "content": ...}``; any failure (the upstream refuses or is down, the answer is
not that JSON, longer than ``max_chars``, or it does not hold the members' facts: ``missing``)
falls back to the rules, so a round never stops on the model and the originals, disabled once
summarised, are never replaced by a summary that lost or made up a fact.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Protocol

import orjson

from gateway.learning.llm.completers import Completer
from gateway.learning.steps.dedup import content_words, normalise, numbers
from gateway.memory import Memory, validate

log = logging.getLogger("memorelay.learning")

_CLAUSE_END = re.compile(r"(?<=[.!?;。！？；])\s*|\n+")
_ENDS = (".", "!", "?", "。", "！", "？", ";", "；")
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


@dataclass(frozen=True, slots=True)
class Summary:
    """The summary's title and content, and the members whose facts it holds."""

    title: str
    content: str
    members: list[Memory]


class Summariser(Protocol):
    name: str

    async def summarise(self, members: list[Memory], max_chars: int) -> Summary: ...


def clauses(text: str) -> list[str]:
    """The sentences (or clauses ended by ; or a newline) of ``text``, stripped."""
    return [c.strip() for c in _CLAUSE_END.split(text) if c and c.strip()]


def _sentence(clause: str) -> str:
    return clause if clause.endswith(_ENDS) else clause + "."


def _title(members: list[Memory]) -> str:
    title = members[0].title.split("\n", 1)[0].strip()
    return title[: validate.MAX_TITLE] or "Summary"


class RuleSummary:
    """Offline: de-duplicated clauses of the members, in order, within ``max_chars``."""

    name = "rules"

    async def summarise(self, members: list[Memory], max_chars: int) -> Summary:
        seen: set[str] = set()
        kept: list[str] = []
        used: list[Memory] = []
        length = 0
        for m in members:
            fresh: list[str] = []
            for clause in clauses(m.content):
                key = normalise(clause)
                if key and key not in seen and key not in {normalise(c) for c in fresh}:
                    fresh.append(_sentence(clause))
            added = sum(len(c) + 1 for c in fresh)
            if fresh and length + added > max_chars:
                continue  # it would not fit: this member stays as it is
            for clause in fresh:
                seen.add(normalise(clause))
            kept.extend(fresh)
            length += added
            used.append(m)
        return Summary(_title(members), " ".join(kept), used)


def summary_prompt(members: list[Memory], max_chars: int) -> str:
    facts = "\n".join(f"{i}. {m.title}: {m.content}" for i, m in enumerate(members, start=1))
    return (
        "You merge short facts that a memory system keeps about one user into one memory.\n"
        f"Facts:\n{facts}\n\n"
        "Write one memory that keeps every fact above, adds nothing, and says each thing once, "
        f"in the facts' language, at most {max_chars} characters. Answer with JSON only, no prose: "
        '{"title": "<one line, at most 80 characters>", "content": "<the merged facts>"}'
    )


def parse_summary(text: str, max_chars: int) -> tuple[str, str]:
    """The (title, content) of a model's answer; ``ValueError`` unless it is the asked-for JSON."""
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object")
    data = orjson.loads(body[start : end + 1])
    if not isinstance(data, dict):
        raise ValueError("not an object")
    title, content = data.get("title"), data.get("content")
    if not isinstance(title, str) or not isinstance(content, str):
        raise ValueError("title and content must be strings")
    title, content = title.strip(), content.strip()
    if not title or not content or "\n" in title or len(title) > validate.MAX_TITLE:
        raise ValueError("title must be one non-empty line, content non-empty")
    if len(content) > min(validate.MAX_CONTENT, max_chars):
        raise ValueError(f"content longer than {max_chars} characters")
    return title, content


# a member's share of content words a summary must hold (a rewording may drop a filler word)
COVERAGE = 0.75


def missing(members: list[Memory], content: str) -> str:
    """Why ``content`` does not hold the members' facts ("" when it does): each member's every
    number or date and at least ``COVERAGE`` of its content words (stemmed, stop words out) must
    be in it, and it may bring no number of its own and at most as many new content words as
    it keeps: a summary that drops or invents a fact is refused. A token check, not a proof.
    The reason names no word (it is logged)."""
    text = normalise(content)
    words, found = content_words(text), numbers(text)
    known_words: set[str] = set()
    known_numbers: set[str] = set()
    for i, m in enumerate(members, start=1):
        own = normalise(m.content)
        theirs, counts = content_words(own), numbers(own)
        known_words |= theirs
        known_numbers |= set(counts)
        lost = set(counts) - set(found)
        if lost:
            return f"fact {i} loses {len(lost)} of its numbers"
        if theirs and len(theirs & words) < COVERAGE * len(theirs):
            return f"fact {i} loses {len(theirs - words)} of its {len(theirs)} content words"
    made_up = set(found) - known_numbers
    if made_up:
        return f"adds {len(made_up)} numbers of its own"
    new = words - known_words
    if len(new) > max(2, len(words & known_words)):
        return f"adds {len(new)} content words of its own"
    return ""


class LLMSummary:
    """One upstream call per cluster (the learning model), the rules when it fails."""

    def __init__(self, model: str, completer: Completer) -> None:
        self.name = f"llm:{model}"
        self.model = model
        self.completer = completer
        self.rules = RuleSummary()
        self.fallbacks = 0  # clusters summarised by the rules after a failed call

    async def summarise(self, members: list[Memory], max_chars: int) -> Summary:
        try:
            answer = await self.completer.complete(self.model, summary_prompt(members, max_chars))
            title, content = parse_summary(answer.text, max_chars)
            if reason := missing(members, content):
                raise ValueError(reason)
        except Exception as exc:  # boundary: any failed call (refused, down, malformed) uses the rules
            self.fallbacks += 1
            log.info("consolidation summary by %s failed (%s): using the rules", self.name, exc)
            return await self.rules.summarise(members, max_chars)
        return Summary(title, content, list(members))
