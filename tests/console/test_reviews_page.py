"""The user's page lists supersedes waiting for review (``learning.review: queue``) and decides them."""

from __future__ import annotations

from typing import Any

from tests.conftest import GatewayFactory
from tests.console.helpers import browser_session, mint
from tests.e2e.test_learning import HIGH, learner, learning, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import user_client
from tests.fake_upstream import FakeUpstream

ADMIN = "admin-secret"


def _team(content: str) -> list[dict[str, Any]]:
    return [{"title": "Team size", "content": content, "category": "organizational"}]


def test_the_page_shows_a_waiting_change_and_the_user_decides_it(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    local = {"embedding": {"provider": "local"}}
    with gateway(filters=learning(review="queue"), auth={"admin_key": ADMIN}, memory=local) as url:
        fake.responder = learner(HIGH, _team("The user's team has 8 engineers."))
        say(url, "dan", "My team has 8 engineers.")
        (old,) = wait_for(lambda: memories(url, "dan"))
        fake.responder = learner(HIGH, _team("The user's team has 12 engineers."))
        say(url, "dan", "Update: my team has 12 engineers now.")
        wait_for(lambda: len(log_entries(url)) == 2)
        (review,) = user_client(url, "dan").get("/api/memories/reviews").json()["data"]

        c, csrf = browser_session(url, mint(url, "dan", key="sk-app"))
        page = c.get("/me/").text
        assert f'data-review="{review["id"]}"' in page and "8 engineers" in page and "12 engineers" in page
        other, other_csrf = browser_session(url, mint(url, "eve", key="sk-app"))
        assert 'id="reviews"' not in other.get("/me/").text
        r = other.post(f"/me/reviews/{review['id']}/accept", data={"csrf": other_csrf})
        assert r.status_code == 404
        assert c.post(f"/me/reviews/{review['id']}/accept", data={"csrf": "forged"}).status_code == 403
        r = c.post(f"/me/reviews/{review['id']}/accept", data={"csrf": csrf})
        assert r.status_code == 303
        page = c.get(r.headers["location"]).text
        assert "replaced the old one" in page and 'id="reviews"' not in page
        (active,) = memories(url, "dan")
        assert active["id"] == review["new_memory_id"] and active["id"] != old["id"]
