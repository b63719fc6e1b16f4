"""Relative dates in a user's words, resolved against the conversation's time.

An episode ("yesterday I took the dog to the vet", "上周三我们搬家了") is stored with an absolute
date, so it still means something a month later: "On 2026-11-30 the user took …". The
conversation's time is the request's (or ``X-Memorelay-Time`` for an import or a replay).
A day-precise phrase gives a day ("yesterday", "last Friday", "three days ago", "上周三",
"昨天"); a week or a month gives that period ("last week" → "In the week of 2026-11-23",
"last month" → "In October 2026"). Vague phrases ("recently", "a while ago") give nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

__all__ = ["Resolved", "find_english", "find_chinese"]

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "couple of": 2,
}
_ZH_NUMBERS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A date phrase found in a text, where it is, and the absolute date it means."""

    start: int
    end: int
    day: date
    precision: str  # day | week | month

    def english(self) -> str:
        """The lead of an episode: "On 2026-11-30", "In the week of 2026-11-23", "In October 2026"."""
        if self.precision == "day":
            return f"On {self.day.isoformat()}"
        if self.precision == "week":
            return f"In the week of {self.day.isoformat()}"
        return f"In {_MONTHS[self.day.month - 1]} {self.day.year}"

    def chinese(self) -> str:
        if self.precision == "day":
            return f"{self.day.year}年{self.day.month}月{self.day.day}日"
        if self.precision == "week":
            return f"{self.day.isoformat()}那一周"
        return f"{self.day.year}年{self.day.month}月"


_EN = re.compile(
    r"\b(?:(?P<yesterday>yesterday|last night)"
    r"|(?P<today>today|this morning|this afternoon|earlier today|tonight)"
    # "on Wednesday" is a day; "on Wednesday evenings" a routine, no date
    r"|(?:last|this past|on|this) (?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"(?! (?:morning|afternoon|evening|night)s\b)"
    r"|(?P<n>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|couple of) "
    r"(?P<unit>days?|weeks?|months?) ago"
    r"|last (?P<period>week|weekend|month))\b",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"(?P<yesterday>昨天|昨晚|昨日)|(?P<before>前天)|(?P<today>今天早上|今早|今天)"
    r"|(?:上|上个)(?:周|星期|礼拜)(?P<weekday>[一二三四五六日天末])"
    r"|(?P<n>\d{1,2}|[一两二三四五六七八九十])(?:个)?(?P<unit>天|周|星期|礼拜|月)(?:前|以前|之前)"
    r"|(?P<period>上周|上星期|上个?礼拜|上个月)"
)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _months_back(day: date, n: int) -> date:
    month = day.month - n
    year = day.year + (month - 1) // 12
    return date(year, (month - 1) % 12 + 1, 1)


def _past_weekday(today: date, weekday: int) -> date:
    """The latest such weekday before today ("on Friday" said on a Tuesday: four days ago)."""
    back = (today.weekday() - weekday) % 7 or 7
    return today - timedelta(days=back)


def _back(today: date, n: int, unit: str) -> Resolved | None:
    if unit.startswith(("day", "天")):
        return Resolved(0, 0, today - timedelta(days=n), "day")
    if unit.startswith(("week", "周", "星期", "礼拜")):
        return Resolved(0, 0, _monday(today - timedelta(weeks=n)), "week")
    return Resolved(0, 0, _months_back(today, n), "month")


def find_english(text: str, now: datetime) -> Resolved | None:
    """The first date phrase of an English text, resolved against ``now``."""
    m = _EN.search(text)
    if m is None:
        return None
    today = now.date()
    found: Resolved | None
    if m.group("yesterday"):
        found = Resolved(0, 0, today - timedelta(days=1), "day")
    elif m.group("today"):
        found = Resolved(0, 0, today, "day")
    elif m.group("weekday"):
        found = Resolved(0, 0, _past_weekday(today, _WEEKDAYS.index(m.group("weekday").lower())), "day")
    elif m.group("unit"):
        raw = m.group("n").lower()
        found = _back(today, int(raw) if raw.isdigit() else _NUMBERS[raw], m.group("unit").lower())
    else:
        period = m.group("period").lower()
        if period == "weekend":
            found = Resolved(0, 0, _past_weekday(today, 5), "day")
        elif period == "week":
            found = Resolved(0, 0, _monday(today - timedelta(weeks=1)), "week")
        else:
            found = Resolved(0, 0, _months_back(today, 1), "month")
    return None if found is None else Resolved(m.start(), m.end(), found.day, found.precision)


def find_chinese(text: str, now: datetime) -> Resolved | None:
    """The first date phrase of a Chinese text (昨天、前天、上周三、三天前、上个月), resolved."""
    m = _ZH.search(text)
    if m is None:
        return None
    today = now.date()
    found: Resolved | None
    if m.group("yesterday"):
        found = Resolved(0, 0, today - timedelta(days=1), "day")
    elif m.group("before"):
        found = Resolved(0, 0, today - timedelta(days=2), "day")
    elif m.group("today"):
        found = Resolved(0, 0, today, "day")
    elif m.group("weekday"):
        # 上周三: the Wednesday of the previous calendar week
        found = Resolved(
            0, 0, _monday(today) - timedelta(weeks=1) + timedelta(days=_ZH_WEEKDAYS[m.group("weekday")]), "day"
        )
    elif m.group("unit"):
        raw = m.group("n")
        found = _back(today, int(raw) if raw.isdigit() else _ZH_NUMBERS[raw], m.group("unit"))
    else:
        period = m.group("period")
        if "月" in period:
            found = Resolved(0, 0, _months_back(today, 1), "month")
        else:
            found = Resolved(0, 0, _monday(today) - timedelta(weeks=1), "week")
    return None if found is None else Resolved(m.start(), m.end(), found.day, found.precision)
