from __future__ import annotations

import pytest

from gateway.learning.errors import MalformedOutput
from gateway.learning.steps.scoring import WEIGHTS, ScoreResult, parse_score, weighted_score

DIMS = '{"density": 0.8, "clarity": 0.7, "depth": 0.6, "relevance": 0.9, "novelty": 0.5}'


def test_weights() -> None:
    assert WEIGHTS == {
        "density": 0.3,
        "clarity": 0.2,
        "depth": 0.2,
        "relevance": 0.2,
        "novelty": 0.1,
    }
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)


def test_plain_json_and_model_score_is_ignored() -> None:
    result = parse_score('{"score": 0.99, "dimensions": ' + DIMS + ', "reason": "facts"}')
    assert isinstance(result, ScoreResult)
    assert result.score == pytest.approx(0.24 + 0.14 + 0.12 + 0.18 + 0.05)
    assert result.reason == "facts"
    assert result.dimensions["density"] == 0.8


@pytest.mark.parametrize(
    "raw",
    [
        '```json\n{"score": 0.1, "dimensions": ' + DIMS + ', "reason": "r"}\n```',
        'Here is my rating:\n{"score": 0.1, "dimensions": ' + DIMS + "}\nHope it helps!",
        '```\n{"dimensions": ' + DIMS + ",}\n```",
        "[" + '{"dimensions": ' + DIMS + "}]",
        DIMS,  # flattened, no "dimensions" key
    ],
)
def test_tolerant_wrapping(raw: str) -> None:
    assert parse_score(raw).score == pytest.approx(0.73)


def test_ten_point_scale_and_clamping() -> None:
    ten = parse_score('{"dimensions": {"density": 8, "clarity": 7, "depth": 6, "relevance": 9, "novelty": 5}}')
    assert ten.score == pytest.approx(0.73)
    clamped = parse_score('{"dimensions": {"density": -0.5, "clarity": "0.5", "depth": 1, "relevance": 1}}')
    assert clamped.dimensions == {
        "density": 0.0,
        "clarity": 0.5,
        "depth": 1.0,
        "relevance": 1.0,
        "novelty": 0.0,
    }
    assert clamped.score == pytest.approx(0.5)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "I think this is a good conversation.",
        '{"score": 0.9}',
        "[1, 2]",
        '{"dimensions": {"density": "high"}}',
    ],
)
def test_garbage_is_malformed(raw: str) -> None:
    with pytest.raises(MalformedOutput):
        parse_score(raw)


def test_weighted_score_missing_dimensions_count_zero() -> None:
    assert weighted_score({"density": 1.0}) == pytest.approx(0.3)
