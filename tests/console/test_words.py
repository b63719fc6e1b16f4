"""Plain words: dates, reasons, diffs, the translator's fallback and the learning log's codes."""

from __future__ import annotations

import calendar
import time

from gateway.console.i18n import MESSAGES, translator
from gateway.console.learning_view import log_row, said
from gateway.console.words import change_reason, date, diff, humanise, linked, when, when_phrase, why_off

NOW = float(calendar.timegm(time.strptime("2026-12-01T12:00:00Z", "%Y-%m-%dT%H:%M:%SZ")))


def test_dates_read_as_people_say_them_in_both_languages() -> None:
    assert when("2026-12-01T11:59:30Z", "en", NOW) == "just now"
    assert when("2026-12-01T11:59:00Z", "en", NOW) == "1 minute ago"
    assert when("2026-12-01T10:00:00Z", "en", NOW) == "2 hours ago"
    assert when("2026-12-01T10:00:00Z", "zh", NOW) == "2 小时前"
    assert when("2026-11-20T10:00:00Z", "en", NOW) == "20 Nov 2026"
    assert when("2026-11-20T10:00:00Z", "zh", NOW) == "2026年11月20日"
    assert date("2025-03-04", "en", NOW) == "4 Mar 2025" and date("2026-03-04", "en", NOW) == "4 Mar"
    assert when_phrase("2026-11-20T10:00:00Z", "en", NOW) == "on 20 Nov"
    assert when_phrase("2026-11-20T10:00:00Z", "zh", NOW) == "11月20日"
    assert when("not a date", "en", NOW) == "not a date"


def test_reasons_become_a_sentence_naming_the_other_memory() -> None:
    why = why_off("superseded by mem_8ff0a1 (new value for home.city: content differs: cologne, hamburg)")
    assert (why.code, why.other) == ("replaced", "mem_8ff0a1")
    assert why_off("pending review of mem_1a2b3c").code == "pending"
    assert why_off("merged into mem_99aa").other == "mem_99aa"
    assert why_off("consolidated into mem_77bb").code == "consolidated"
    assert why_off("rejected").code == "rejected"
    assert why_off("turned off").code == why_off(None).code == why_off("update").code == "turned_off"
    t = translator("en")
    text = t("why_replaced", title="{title}", when="on 1 Dec")
    html = str(linked(text, "Deploys on <Nomad>", "/me/memories/mem_1"))
    assert html == 'Replaced by <a href="/me/memories/mem_1">‘Deploys on &lt;Nomad&gt;’</a> on 1 Dec.'
    assert change_reason("new value for home.city: content differs: a, b") == "rr_new_value"
    assert change_reason("content differs: last, month") == "rr_differs"
    assert change_reason("something new") == "rr_other"


def test_an_unknown_key_reads_as_words_never_as_the_key() -> None:
    zh = translator("zh")
    assert zh("outcome_pii-only") == "仅含个人数据"
    assert zh("outcome_too-vague") == "Too vague"  # not yet translated: words, not the code
    assert humanise("third_party.name") == "Third party name"
    # every English entry has a Chinese one
    assert all(en and cn for en, cn in MESSAGES.values())


def test_audit_changes_field_by_field() -> None:
    changes = diff({"title": "A", "enabled": True, "tags": []}, {"title": "B", "enabled": False, "tags": []})
    assert [(c.field, c.before, c.after) for c in changes] == [("title", "A", "B"), ("enabled", True, False)]
    assert [c.field for c in diff(None, {"content": "x", "category": "business"})] == ["content", "category"]


def test_learning_log_rows_name_their_memories_and_outcomes() -> None:
    row = log_row(
        {
            "score": 0.8,
            "items_extracted": 3,
            "reason": "2 signal(s): fact, preference",
            "added": ["mem_a", "mem_b"],
            "superseded": [{"old": "mem_o", "new": "mem_b", "reason": "content differs: x"}],
            "rejected": [{"title": "Card", "reason": "pii-only"}, {"title": "Bad", "reason": "invalid: title"}],
        }
    )
    assert dict(row.outcomes) == {"stored": 2, "superseded": 1, "pii": 1}
    assert row.created == ["mem_a", "mem_b"] and row.replaced == [("mem_o", "mem_b")]
    assert row.skipped == [("Card", "pii-only"), ("Bad", "invalid")]
    reason = said("2 signal(s): fact, preference")
    assert reason is not None and reason.key == "reason_signals" and reason.values["n"] == 2
    assert said("pii-only") is not None and said("pii-only").key == "outcome_pii-only"  # type: ignore[union-attr]
    free = said("The user stated a durable preference.")
    assert free is not None and free.text.startswith("The user")
