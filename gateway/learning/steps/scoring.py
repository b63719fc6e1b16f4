"""Turn scoring: the weighted value of a conversation turn (SPEC section 4, step 3).

The model answers ``{"score", "dimensions": {"density", "clarity", "depth", "relevance",
"novelty"}, "reason"}``. The gateway ignores the model's own ``score`` and computes the
weighted sum of the dimensions itself, so a model cannot talk a turn past the threshold.

Scale: dimensions are meant to be 0..1. When the largest dimension is above 1 the answer is
read as a 0..10 scale (divided by 10), or, above 10, as a percentage (divided by 100); each
value is then clamped to 0..1. Missing dimensions count as 0; an answer with none of the five
is malformed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from gateway.learning.errors import MalformedOutput
from gateway.learning.steps.extraction import find_json

WEIGHTS: dict[str, float] = {
    "density": 0.3,
    "clarity": 0.2,
    "depth": 0.2,
    "relevance": 0.2,
    "novelty": 0.1,
}
MAX_REASON = 500

_ALIASES = {
    "information_density": "density",
    "info_density": "density",
    "intent_clarity": "clarity",
    "clarity_of_intent": "clarity",
    "intent": "clarity",
    "conversation_depth": "depth",
    "business_relevance": "relevance",
    "domain_relevance": "relevance",
    "newness": "novelty",
    "信息密度": "density",
    "意图明确性": "clarity",
    "用户意图明确性": "clarity",
    "对话深度": "depth",
    "业务相关性": "relevance",
    "新颖性": "novelty",
}


@dataclass(frozen=True)
class ScoreResult:
    """A turn's weighted score (0..1), the clamped dimensions it came from, and why."""

    score: float
    dimensions: dict[str, float] = field(default_factory=dict)
    reason: str = ""


def weighted_score(dimensions: dict[str, float]) -> float:
    """Weighted sum over ``WEIGHTS``; missing dimensions count as 0."""
    total = sum(WEIGHTS[name] * dimensions.get(name, 0.0) for name in WEIGHTS)
    return round(min(1.0, max(0.0, total)), 4)


def parse_score(raw: str) -> ScoreResult:
    """Parse a scoring answer; raise ``MalformedOutput`` when no dimension can be read."""
    value = find_json(raw)
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, dict)), None)
    if not isinstance(value, dict):
        raise MalformedOutput("scoring answer is not a JSON object")
    return score_of(value)


def score_of(value: dict[str, Any]) -> ScoreResult:
    """The ``ScoreResult`` of a decoded answer object (``parse_score``, ``combined``)."""
    source = value.get("dimensions")
    if not isinstance(source, dict):
        source = value  # some models flatten the dimensions into the top level
    found = _read_dimensions(source)
    if not found:
        raise MalformedOutput("scoring answer has none of the five dimensions")
    dimensions = _rescale(found)
    reason = value.get("reason")
    reason_text = reason.strip()[:MAX_REASON] if isinstance(reason, str) else ""
    return ScoreResult(weighted_score(dimensions), dimensions, reason_text)


def _read_dimensions(source: dict[str, Any]) -> dict[str, float]:
    found: dict[str, float] = {}
    for key, raw in source.items():
        name = str(key).strip().lower().replace(" ", "_")
        name = _ALIASES.get(name, name)
        if name not in WEIGHTS or name in found:
            continue
        number = _number(raw)
        if number is not None:
            found[name] = number
    return found


def _number(raw: object) -> float | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, dict):
        raw = raw.get("score", raw.get("value"))
    if isinstance(raw, str):
        raw = raw.strip().rstrip("%")
    try:
        number = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _rescale(found: dict[str, float]) -> dict[str, float]:
    top = max(found.values())
    divisor = 1.0 if top <= 1.0 else 10.0 if top <= 10.0 else 100.0
    return {name: round(min(1.0, max(0.0, found.get(name, 0.0) / divisor)), 4) for name in WEIGHTS}
