"""Relative dates resolved against the conversation's time."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from gateway.learning.offline.dates import find_chinese, find_english

# a Tuesday
NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day", "precision"),
    [
        ("Yesterday I took the dog to the vet", date(2026, 11, 30), "day"),
        ("we had friends over last night", date(2026, 11, 30), "day"),
        ("I adopted a cat this morning", date(2026, 12, 1), "day"),
        ("Last Friday I ran a half marathon", date(2026, 11, 27), "day"),
        ("on Monday my sister visited", date(2026, 11, 30), "day"),
        ("I sold my car on Tuesday", date(2026, 11, 24), "day"),  # said on a Tuesday: a week ago
        ("two weeks ago we went camping", date(2026, 11, 16), "week"),
        ("3 days ago I got a promotion", date(2026, 11, 28), "day"),
        ("a month ago I finished the course", date(2026, 11, 1), "month"),
        ("my laptop died last week", date(2026, 11, 23), "week"),
        ("last weekend I painted the fence", date(2026, 11, 28), "day"),
        ("last month we bought a house", date(2026, 11, 1), "month"),
    ],
)
def test_english_phrases(text: str, day: date, precision: str) -> None:
    found = find_english(text, NOW)
    assert found is not None and (found.day, found.precision) == (day, precision)
    assert text[found.start : found.end].strip()


def test_last_month_in_january_is_december_of_the_year_before() -> None:
    found = find_english("last month I moved", datetime(2027, 1, 15, tzinfo=UTC))
    assert found is not None and found.english() == "In December 2026"


@pytest.mark.parametrize(
    "text", ["I recently started running", "a while ago I lived in Rome", "every Friday we deploy"]
)
def test_vague_or_no_dates_give_nothing(text: str) -> None:
    assert find_english(text, NOW) is None


@pytest.mark.parametrize(
    ("text", "day", "precision"),
    [
        ("昨天我带狗去看了兽医", date(2026, 11, 30), "day"),
        ("前天我们去爬山了", date(2026, 11, 29), "day"),
        ("上周三我们搬家了", date(2026, 11, 25), "day"),
        ("上星期五我考完了驾照", date(2026, 11, 27), "day"),
        ("三天前我换了工作", date(2026, 11, 28), "day"),
        ("两周前我们去了杭州", date(2026, 11, 16), "week"),
        ("上个月我报了吉他班", date(2026, 11, 1), "month"),
    ],
)
def test_chinese_phrases(text: str, day: date, precision: str) -> None:
    found = find_chinese(text, NOW)
    assert found is not None and (found.day, found.precision) == (day, precision)


def test_leads_read_as_dates() -> None:
    day = find_english("yesterday", NOW)
    week = find_english("last week", NOW)
    month = find_english("last month", NOW)
    assert day is not None and day.english() == "On 2026-11-30" and day.chinese() == "2026年11月30日"
    assert week is not None and week.english() == "In the week of 2026-11-23"
    assert month is not None and month.english() == "In November 2026" and month.chinese() == "2026年11月"
