"""A memory waiting for review is enabled only by deciding its review; the Markdown export
escapes raw HTML; a full learning queue logs one line per interval, not one per chat."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import (
    ADMIN,
    HIGH,
    LOW,
    injected,
    learner,
    learning,
    log_entries,
    memories,
    reviews,
    say,
    wait_for,
)
from tests.e2e.test_memory_api import add, admin_client, user_client
from tests.fake_upstream import FakeUpstream


def test_a_memory_waiting_for_review_cannot_be_enabled_by_hand(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    def item(content: str) -> list[dict[str, Any]]:
        return [{"title": "Team size", "content": content, "category": "organizational"}]

    local = {"embedding": {"provider": "local"}}
    with gateway(filters=learning(review="queue"), auth={"admin_key": ADMIN}, memory=local) as url:
        dan = user_client(url, "dan")
        fake.responder = learner(HIGH, item("The user's team has 8 engineers."))
        say(url, "dan", "My team has 8 engineers.")
        wait_for(lambda: memories(url, "dan"))
        fake.responder = learner(HIGH, item("The user's team has 12 engineers."))
        say(url, "dan", "Update: my team has 12 engineers now.")
        (review,) = wait_for(lambda: reviews(url, "dan"), timeout=60)
        new = review["new"]
        for client, path in (
            (dan, f"/api/memories/{new['id']}"),
            (admin_client(url), f"/api/admin/memories/{new['id']}"),
        ):
            r = client.patch(path, json={"enabled": True})
            assert r.status_code == 409, r.text
            error = r.json()["error"]
            assert error["code"] == "review_pending" and "review" in error["message"]
        assert dan.get(f"/api/memories/{new['id']}").json()["enabled"] is False
        fake.responder = learner(LOW, [])
        say(url, "dan", "How many engineers are on my team?")
        assert "8 engineers" in injected(fake) and "12 engineers" not in injected(fake)
        # other edits of it still work, and deciding the review enables it
        assert dan.patch(f"/api/memories/{new['id']}", json={"tags": ["team"]}).status_code == 200
        assert dan.post(f"/api/memories/reviews/{review['id']}/accept").status_code == 200
        assert dan.get(f"/api/memories/{new['id']}").json()["enabled"] is True
        wait_for(lambda: len(log_entries(url)) >= 2)


def test_markdown_export_escapes_raw_html(gateway: GatewayFactory) -> None:
    with gateway() as url:
        alice = user_client(url, "alice")
        add(alice, "<img src=x onerror=alert(1)>", "Likes <script>alert('x')</script> & **bold** text.", tags=["<b>"])
        text = alice.get("/api/memories/export", params={"format": "markdown"}).text
        assert "<script" not in text and "<img" not in text and "<b>" not in text
        assert "&lt;script>alert('x')&lt;/script> &amp; **bold** text." in text
        assert "## &lt;img src=x onerror=alert(1)>" in text


def test_a_full_queue_logs_once_per_interval_and_counts_every_chat(
    gateway: GatewayFactory, fake: FakeUpstream, caplog: pytest.LogCaptureFixture
) -> None:
    fake.responder = learner(LOW, [])
    with gateway(filters=learning(model="gated-learner", max_pending=1), auth={"admin_key": ADMIN}) as url:
        assert say(url, "kai", "I prefer Go.")["x-memorelay-learning"] == "queued"
        wait_for(lambda: fake.gated_calls >= 1)
        with caplog.at_level(logging.WARNING, logger="memorelay.learning"):
            for _ in range(5):
                assert say(url, "kai", "I prefer Rust.")["x-memorelay-learning"] == "skipped; reason=queue-full"
        lines = [r for r in caplog.records if "learning queue full" in r.getMessage()]
        assert len(lines) == 1, [r.getMessage() for r in lines]
        assert 'memorelay_learning_skipped_total{reason="queue-full"} 5.0' in httpx.get(url + "/metrics").text
        fake.release.set()
        wait_for(lambda: log_entries(url))
