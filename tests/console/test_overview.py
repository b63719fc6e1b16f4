"""The operator overview's numbers: learning outcomes by reason and the 30-day chart."""

from __future__ import annotations

from typing import Any

from gateway.console.queries import last_days, outcome_counts, stacked_chart
from gateway.memory import CATEGORIES


def test_outcomes_are_counted_by_reason() -> None:
    entries: list[dict[str, Any]] = [
        {"score": 0.9, "items_extracted": 3, "added": ["a", "b"], "duplicates": ["c"], "rejected": []},
        {
            "score": 0.8,
            "items_extracted": 2,
            "added": ["d"],
            "superseded": [{"old": "x", "new": "d"}],
            "rejected": [{"reason": "steers the assistant"}, {"reason": "invalid: title"}],
        },
        {"score": 0.3, "items_extracted": 0},
        {"error": "PiiError: scrubbing failed"},
        {"error": "gave up after 5 attempts: learner upstream answered 500"},
        {"score": None, "reason": "learning disabled by the user"},
        {"score": None, "command": "remember", "items_extracted": 1, "added": ["e"]},
    ]
    assert outcome_counts(entries) == {
        "stored": 4,
        "below_threshold": 1,
        "pii": 1,
        "poisoning": 1,
        "duplicate": 1,
        "superseded": 1,
        "disabled": 1,
        "error": 1,
    }


def test_the_chart_stacks_categories_per_day_and_labels_today() -> None:
    days = last_days(30, now=86400 * 365)
    assert len(days) == 30 and days[-1] == "1971-01-01"
    counts = {d: dict.fromkeys(CATEGORIES, 0) for d in days}
    counts[days[-1]].update(technical=3, business=1)
    counts[days[0]]["domain"] = 2
    chart = stacked_chart(counts)
    assert chart.max_value == 4 and chart.total == 6 and len(chart.bars) == 3
    today = [b for b in chart.bars if b.label.startswith(days[-1])]
    assert sum(b.height for b in today) == chart.height - 40  # the tallest day fills the plot
    assert chart.ticks[-1][1] == "1971-01-01"
    # a real y-axis: round steps from 0 to the top of the plot, the highest day under the top
    assert [v for _, v in chart.y_ticks] == [0, 1, 2, 3, 4]
    assert chart.y_ticks[0][0] == chart.plot_bottom and chart.y_ticks[-1][0] == 10
    assert all(0 <= b.x and b.x + b.width <= chart.width for b in chart.bars)


def test_candidates_the_gate_turned_down_are_counted_by_their_reason_code() -> None:
    entries: list[dict[str, Any]] = [
        {
            "score": 0.4,
            "items_extracted": 0,
            "rejected": [
                {"title": "", "reason": "question", "code": "question"},
                {"title": "", "reason": "momentary", "code": "momentary"},
            ],
        },
        {
            "score": 0.9,
            "items_extracted": 2,
            "added": ["a"],
            "rejected": [{"title": "Tired", "reason": "momentary", "code": "momentary"}],
        },
    ]
    counts = outcome_counts(entries)
    assert counts["momentary"] == 2 and counts["question"] == 1
    assert counts["poisoning"] == 0 and counts["stored"] == 1
