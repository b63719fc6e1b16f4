"""Plain words for the console pages: dates people read ("2 hours ago", "1 Dec 2026"), why a
memory is off as a sentence with the other memory named, audit changes field by field, and a
readable form of any key the pages do not know yet (``humanise``)."""

from __future__ import annotations

import calendar
import re
import time
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from gateway.memory import CONSOLIDATED_REASON, MERGED_REASON

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_ID = r"(mem_[A-Za-z0-9_-]+)"


def parse_iso(iso: str | None) -> float | None:
    """A stored "2026-11-29T22:10:00Z" (or "2026-11-29") as epoch seconds; None when unreadable."""
    for form in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d"):
        try:
            return float(calendar.timegm(time.strptime((iso or "")[:20], form)))
        except ValueError:
            continue
    return None


def date(iso: str | None, lang: str, now: float | None = None) -> str:
    """ "1 Dec 2026" / "2026年12月1日"; the year left out when it is this year (on "… on 1 Dec")."""
    moment = parse_iso(iso)
    if moment is None:
        return iso or ""
    t = time.gmtime(moment)
    this_year = time.gmtime(time.time() if now is None else now).tm_year == t.tm_year
    if lang == "zh":
        return (f"{t.tm_mon}月{t.tm_mday}日") if this_year else f"{t.tm_year}年{t.tm_mon}月{t.tm_mday}日"
    return f"{t.tm_mday} {_MONTHS[t.tm_mon - 1]}" + ("" if this_year else f" {t.tm_year}")


def when(iso: str | None, lang: str, now: float | None = None) -> str:
    """How long ago, for the last day ("just now", "5 minutes ago", "2 hours ago"), else the date
    with its year ("1 Dec 2026")."""
    moment = parse_iso(iso)
    if moment is None:
        return iso or ""
    seconds = max(0.0, (time.time() if now is None else now) - moment)
    zh = lang == "zh"
    if seconds < 60:
        return "刚刚" if zh else "just now"
    if seconds < 3600:
        n = int(seconds // 60)
        return f"{n} 分钟前" if zh else f"{n} minute{'s' if n != 1 else ''} ago"
    if seconds < 86400:
        n = int(seconds // 3600)
        return f"{n} 小时前" if zh else f"{n} hour{'s' if n != 1 else ''} ago"
    t = time.gmtime(moment)
    return f"{t.tm_year}年{t.tm_mon}月{t.tm_mday}日" if zh else f"{t.tm_mday} {_MONTHS[t.tm_mon - 1]} {t.tm_year}"


def when_phrase(iso: str | None, lang: str, now: float | None = None) -> str:
    """For a sentence: "2 hours ago" within a day, else "on 1 Dec" ("12月1日")."""
    moment = parse_iso(iso)
    current = time.time() if now is None else now
    if moment is not None and current - moment < 86400:
        return when(iso, lang, current)
    day = date(iso, lang, current)
    return day if lang == "zh" else f"on {day}"


def humanise(key: str) -> str:
    """``pii-only`` -> "Pii only": a key no table knows yet, in words rather than as code."""
    words = re.sub(r"[-_.]+", " ", key).strip()
    return words[:1].upper() + words[1:] if words else key


def linked(sentence: str, title: str, href: str | None) -> Markup:
    """``sentence`` (already translated, holding one "{title}") with the title as a link."""
    before, _, after = sentence.partition("{title}")
    name = Markup("‘%s’") % title
    if href:
        name = Markup('<a href="%s">‘%s’</a>') % (href, title)
    return escape(before) + name + escape(after)


@dataclass(frozen=True, slots=True)
class Why:
    """Why a memory is off: ``code`` names a sentence ("why_" + code in the translations);
    ``other`` is the memory that replaced it, took it in, or waits to replace it."""

    code: str
    other: str | None = None


_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^superseded by " + _ID), "replaced"),
    (re.compile(r"^pending review of " + _ID), "pending"),
    (re.compile("^" + re.escape(MERGED_REASON) + _ID), "merged"),
    (re.compile("^" + re.escape(CONSOLIDATED_REASON) + _ID), "consolidated"),
    (re.compile(r"^rejected"), "rejected"),
    (re.compile(r"no longer|forget|forgot", re.I), "no_longer"),
)


def why_off(reason: str | None) -> Why:
    """The stored ``disabled_reason`` as a ``Why``; anything else is "turned off" (a person did)."""
    for pattern, code in _REASONS:
        found = pattern.search(reason or "")
        if found:
            return Why(code, found.group(1) if found.groups() else None)
    return Why("turned_off")


# the audit log's fields, in the order a diff lists them
_FIELDS = ("title", "content", "category", "subcategory", "tags", "enabled", "pinned", "disabled_reason", "scope")


@dataclass(frozen=True, slots=True)
class Change:
    field: str
    before: Any
    after: Any


def diff(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[Change]:
    """An audit row's before/after as one change per field that differs."""
    b, a = before or {}, after or {}
    keys = [k for k in _FIELDS if k in b or k in a] + sorted(k for k in {*b, *a} if k not in _FIELDS)
    return [Change(k, b.get(k), a.get(k)) for k in keys if b.get(k) != a.get(k)]


_CHANGE_REASONS: tuple[tuple[str, str], ...] = (
    ("new value for ", "rr_new_value"),
    ("the learner judged it an update", "rr_update"),
    ("negation differs", "rr_negation"),
    ("preference direction differs", "rr_direction"),
    ("order of a comparison differs", "rr_order"),
    ("numbers or dates differ", "rr_number"),
    ("content differs", "rr_differs"),
    ("restored", "rr_restored"),
)


def change_reason(reason: str | None) -> str:
    """Why the learner took one memory to replace another, as a translation key ("rr_…");
    the learner's internal detail (slot names, the words compared) stays out of the page."""
    text = (reason or "").lower()
    for needle, key in _CHANGE_REASONS:
        if needle in text:
            return key
    return "rr_other"


def actor_key(actor: str | None) -> str:
    """``user:alice`` / ``admin:console`` / ``learning`` -> "actor_user" / "actor_admin" / …"""
    head = (actor or "").partition(":")[0]
    return "actor_" + {"user": "user", "admin": "admin", "learning": "learning"}.get(head, "system")
