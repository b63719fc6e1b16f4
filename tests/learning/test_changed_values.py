"""Changes that name only the new value replace the memory holding another value of the same
kind on the same topic ("the standup moved, it's on Thursdays now", "瑜伽课改到周四晚上了"), and
the change statements people type are learned: a changed thing then "it's … now", a comma splice
of the user's clauses, "X改到/调成 Y", "X出掉了，现在改用 Y", a greeting before the point."""

from __future__ import annotations

import pytest

from gateway.learning.offline import replaced
from gateway.learning.offline.changed_value import is_change, replaces, values
from gateway.learning.offline.heuristic import extract_items


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("The user's standup is on Thursdays now.", "The user's standup is every Monday morning."),
        ("The user's exam is in October now, not in May.", "The user's exam is on May 20."),
        ("The user keeps 20 chickens now.", "The user keeps 12 chickens in the garden."),
        ("The user has 9 cacti now.", "The user has 4 cacti on the windowsill."),
        ("用户的瑜伽课改到周四晚上了。", "用户每周二晚上上瑜伽课。"),
        ("用户的遛狗时间改成七点半了。", "用户每天六点遛狗。"),
        ("用户今年的跑步目标下调到500公里。", "用户今年的跑步目标是800公里。"),
    ],
)
def test_another_value_of_the_same_kind_replaces(new: str, old: str) -> None:
    assert replaces(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # no change said: two facts of the same kind stand together
        ("The user waters the plants on Sundays.", "The user's book club meets on Thursdays."),
        # a change, but of another topic
        ("The user waters the plants on Sundays now.", "The user's book club meets on Thursdays."),
        # counts of different things
        ("The user has 2 cats now.", "The user has 3 kids."),
        # the same value again
        ("The user's standup is on Mondays now.", "The user's standup is every Monday morning."),
        ("用户现在养了两只猫。", "用户每周二晚上上瑜伽课。"),
    ],
)
def test_unrelated_or_unchanged_values_do_not_replace(new: str, old: str) -> None:
    assert not replaces(new, old)


def test_values_are_read_by_kind() -> None:
    assert values("The user's class is on Sundays at 6pm now.") == {"weekday": {"sunday"}, "clock": {"18:00"}}
    assert values("用户周日下午三点半上课，每月读4本书。") == {"weekday": {"日"}, "clock": {"3:30"}, "count:本": {"4"}}
    assert is_change("用户的课改到周日了。") and not is_change("用户周日上课。")


def test_a_latin_name_inside_chinese_is_held() -> None:
    words = replaced.named_old("用户不用Notion了，现在换成Obsidian。")
    assert words == ("Notion",)
    assert replaced.holds("用户用Notion记笔记。", words)
    assert replaced.current_part("用户不用Notion了，现在换成Obsidian。", words) == "用户现在换成Obsidian。"


@pytest.mark.parametrize(
    ("content", "old", "current"),
    [
        (
            "The user moved from Darktable to RawTherapee last month.",
            "Darktable",
            "The user moved to RawTherapee last month.",
        ),
        (
            "The user's team moved the API off Heroku onto Render.",
            "Heroku",
            "The user's team moved the API onto Render.",
        ),
        ("用户的佳能出掉了，现在改用富士X-T5。", "佳能", "用户现在改用富士X-T5。"),
        ("用户的旧电脑卖掉了。", "旧电脑", None),
    ],
)
def test_the_value_a_change_leaves(content: str, old: str, current: str | None) -> None:
    words = replaced.named_old(content)
    assert old in words
    assert replaced.current_part(content, words) == current


@pytest.mark.parametrize(
    ("user", "expected"),
    [
        # a changed thing, then what it is now
        ("the standup got moved, it's on Thursdays now.", ["The user's standup is on Thursdays now."]),
        # a comma splice: the user's own clause, then someone else's
        (
            "we're no longer on Trello, the team voted and we're using Linear now.",
            ["The user's team is no longer on Trello.", "The user's team is using Linear now."],
        ),
        (
            "I moved from Darktable to RawTherapee last month, the old one finally got too slow.",
            ["The user moved from Darktable to RawTherapee last month."],
        ),
        (
            "my coach left so I'm now training with Sam Ortiz.",
            ["The user's coach left.", "The user is now training with Sam Ortiz."],
        ),
        # Chinese: a thing of the user's moved to another day, time or amount
        ("跟你说下，瑜伽课也改到周四晚上了。", ["用户的瑜伽课也改到周四晚上了。"]),
        ("我换了工作，所以遛狗时间改成七点半了。", ["用户换了工作，遛狗时间改成七点半了。"]),
        ("佳能出掉了，现在改用富士X-T5。", ["用户的佳能出掉了，现在改用富士X-T5。"]),
        # a greeting before the point
        ("你好～我是做平面设计的，平时用Figma。", ["用户是做平面设计的。", "用户用Figma。"]),
    ],
)
def test_change_statements_are_learned(user: str, expected: list[str]) -> None:
    assert [i.content for i in extract_items(user)] == expected
