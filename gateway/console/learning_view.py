"""The learning log as the console shows it: each entry's outcomes as translatable codes, the
memories it created, replaced or skipped, and its reason as a sentence key with values."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gateway.console.queries import OUTCOMES, outcome_counts, skipped_code

_SIGNALS = re.compile(r"^(\d+) signal\(s\): (.*)$")
_CODE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SENTENCES: tuple[tuple[str, str], ...] = (
    ("no durable signal", "reason_no_signal"),
    ("pre-check: nothing about the user", "reason_precheck"),
    ("learning disabled by the user", "reason_disabled"),
    ("nothing left once pii was removed", "reason_pii_left"),
)


@dataclass(slots=True)
class Said:
    """A sentence: translation ``key`` with ``values``; or, for a learner's own words (an LLM's
    free-text reason), ``text`` shown as it is."""

    key: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    text: str = ""


def said(reason: str | None) -> Said | None:
    """A learner's or the pipeline's reason, in words the console translates."""
    text = (reason or "").strip()
    if not text:
        return None
    signals = _SIGNALS.match(text)
    if signals:
        kinds = [k.strip() for k in signals.group(2).split(",") if k.strip()]
        return Said("reason_signals", {"n": int(signals.group(1)), "kinds": ["signal_" + k for k in kinds]})
    for needle, key in _SENTENCES:
        if text.lower().startswith(needle):
            return Said(key)
    if _CODE.match(text):
        return Said("outcome_" + text)
    return Said(text=text)


@dataclass(slots=True)
class LogRow:
    entry: dict[str, Any]
    outcomes: list[tuple[str, int]]  # (code, how many), in OUTCOMES order
    reason: Said | None
    error: Said | None
    created: list[str]
    replaced: list[tuple[str, str]]  # (old, new)
    duplicates: list[str]
    skipped: list[tuple[str, str]]  # (title, code)


def log_row(entry: dict[str, Any]) -> LogRow:
    counts = outcome_counts([entry])
    if entry.get("queued"):
        counts["queued"] = len(entry["queued"])
    error = str(entry.get("error") or "")
    return LogRow(
        entry=entry,
        outcomes=[(k, v) for k, v in counts.items() if v],
        reason=said(entry.get("reason")),
        error=None if not error else Said("reason_gave_up" if error.startswith("gave up") else "reason_failed"),
        created=list(entry.get("added") or []),
        replaced=[(str(s.get("old", "")), str(s.get("new", ""))) for s in entry.get("superseded") or []]
        + [(str(s.get("old", "")), str(s.get("new", ""))) for s in entry.get("queued") or []],
        duplicates=list(entry.get("duplicates") or []),
        skipped=[
            (str(r.get("title", "")), skipped_code(str(r.get("reason", "")))) for r in entry.get("rejected") or []
        ],
    )


def memory_ids(rows: list[LogRow]) -> list[str]:
    """Every memory the rows name, for one read of their titles."""
    return [i for r in rows for i in (*r.created, *r.duplicates, *(x for pair in r.replaced for x in pair)) if i]


def has_outcome(row: LogRow, outcome: str) -> bool:
    return outcome in dict(row.outcomes)


KNOWN_OUTCOMES = (*OUTCOMES, "queued")
