"""The combined learning call: one prompt from both editable prompts, one answer parsed."""

from __future__ import annotations

import orjson
import pytest

from gateway.learning.errors import MalformedOutput
from gateway.learning.llm.combined import combined_prompt, job_text, known_memories, parse_combined
from gateway.learning.steps.scoring import weighted_score
from gateway.store.prompts import default_prompt

DIMS = {"density": 0.9, "clarity": 0.8, "depth": 0.7, "relevance": 0.9, "novelty": 0.6}
KNOWN = known_memories([("mem-acme", "Works at Acme"), ("mem-tabs", "Prefers tabs")])


def test_the_prompt_holds_both_editable_prompts_the_memories_and_the_conversation_once() -> None:
    scoring = "You rate one conversation turn. EDITED-SCORING.\n\nConversation:\n\n{conversation}"
    prompt = combined_prompt(scoring, default_prompt("extraction"), "User: I moved to Globex.", KNOWN)
    assert "EDITED-SCORING" in prompt and "Extract durable" in prompt
    assert prompt.count("I moved to Globex") == 1 and "{conversation}" not in prompt
    assert "- m1: Works at Acme" in prompt and "- m2: Prefers tabs" in prompt
    assert "mem-acme" not in prompt  # the model sees references, never the ids
    assert "Already remembered" not in combined_prompt(scoring, "Extract. {conversation}", "x", [])


def test_a_placeholder_inside_a_prompt_points_at_the_conversation_at_the_end() -> None:
    assert job_text("评分规则。\n\n对话：\n\n{conversation}\n") == "评分规则。"
    assert job_text("Rate {conversation} carefully.") == "Rate the conversation at the end of this message carefully."


def test_the_score_is_computed_from_the_dimensions_and_references_are_resolved() -> None:
    raw = orjson.dumps(
        {
            "score": 1.0,
            "dimensions": DIMS,
            "reason": "facts",
            "items": [
                {
                    "title": "Works at Globex",
                    "content": "The user works at Globex.",
                    "category": "organizational",
                    "updates": "m1",
                },
                {
                    "title": "Prefers tabs",
                    "content": "The user prefers tabs.",
                    "category": "user_preference",
                    "same_as": "M2",
                },
                {"title": "Go", "content": "The user writes Go.", "category": "technical", "updates": "m9"},
                {"title": "Rust", "content": "The user writes Rust.", "category": "technical", "same_as": "mem-other"},
                {"title": "Zig", "content": "The user tries Zig.", "category": "technical", "updates": "mem-acme"},
            ],
        }
    ).decode()
    score, items = parse_combined("Sure:\n```json\n" + raw + "\n```", max_items=5, known=KNOWN)
    assert score.score == weighted_score(DIMS) and score.reason == "facts"
    assert [(i.same_as, i.updates) for i in items] == [
        (None, "mem-acme"),
        ("mem-tabs", None),
        (None, None),  # m9 was never sent
        (None, None),  # nor was that id
        (None, "mem-acme"),  # a sent id is accepted as it is
    ]


def test_no_items_is_nothing_to_keep() -> None:
    score, items = parse_combined(orjson.dumps({"dimensions": DIMS}).decode(), max_items=5, known=[])
    assert items == [] and score.score > 0


@pytest.mark.parametrize(
    "raw",
    [
        "no json",
        '[{"title": "t", "content": "c", "category": "technical"}]',  # items but no score
        '{"reason": "no dimensions", "items": []}',
        orjson.dumps({"dimensions": DIMS, "items": "The user prefers tabs."}).decode(),
    ],
)
def test_malformed_combined_answers_raise(raw: str) -> None:
    with pytest.raises(MalformedOutput):
        parse_combined(raw, max_items=5, known=KNOWN)
