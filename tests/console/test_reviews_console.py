"""The operator console's Reviews page (``learning.review: queue``): supersedes waiting for a
decision, with both texts, the user, the tenant and the age; accept and reject through
CSRF-protected forms; the decided ones with who decided. Over HTTP, then in a real browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.console.helpers import ADMIN, csrf_of, follow
from tests.console.test_browser import shot
from tests.console.test_operator_http import operator
from tests.e2e.test_learning import HIGH, learner, learning, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import user_client
from tests.fake_upstream import FakeUpstream

LOCAL = {"embedding": {"provider": "local"}}


def _team(size: int) -> list[dict[str, Any]]:
    return [{"title": "Team size", "content": f"The user's team has {size} engineers.", "category": "organizational"}]


def _review_for(url: str, fake: FakeUpstream, user: str, before: int, after: int) -> dict[str, Any]:
    """A supersede of ``user``'s team size waiting for review; answers it (user API)."""
    for size in (before, after):
        logged = len(log_entries(url))
        fake.responder = learner(HIGH, _team(size))
        say(url, user, f"My team has {size} engineers now.")
        wait_for(lambda: len(log_entries(url)) == logged + 1)  # noqa: B023 (waited for at once)
    (review,) = user_client(url, user).get("/api/memories/reviews").json()["data"]
    return review  # type: ignore[no-any-return]


def _row(html: str, review_id: str) -> str:
    return html.split(f'data-review="{review_id}"', 1)[1].split("</tr>", 1)[0]


def _active(url: str, user: str) -> list[str]:
    return [m["content"] for m in memories(url, user)]


def test_an_operator_sees_and_decides_waiting_reviews(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(review="queue"), auth={"admin_key": ADMIN}, memory=LOCAL) as url:
        dan = _review_for(url, fake, "dan", 8, 12)
        erin = _review_for(url, fake, "erin", 4, 5)
        c, csrf = operator(url)

        overview = c.get("/console/").text
        assert re.search(r'id="nav-reviews">2<', overview) and re.search(r'id="reviews-waiting"><a [^>]*>2<', overview)
        page = c.get("/console/reviews").text
        row = _row(page, dan["id"])
        assert "8 engineers" in row.split('class="wrap new"')[0] and "12 engineers" in row.split('class="wrap new"')[1]
        assert ">dan<" in row and dan["tenant"] in row and re.search(r">\d+ min<", row)
        assert f'action="/console/reviews/{dan["id"]}/accept"' in row and 'name="csrf"' in row
        assert _row(page, erin["id"])  # both wait

        # a change without the session's token, or from another origin, changes nothing
        accept = f"/console/reviews/{dan['id']}/accept"
        assert c.post(accept, data={}).status_code == 403
        assert c.post(accept, data={"csrf": "forged"}).status_code == 403
        assert c.post(accept, data={"csrf": csrf}, headers={"origin": "https://evil.example"}).status_code == 403
        assert httpx.post(url + accept, data={"csrf": csrf}).status_code == 403  # no session at all
        assert _active(url, "dan") == ["The user's team has 8 engineers."]

        r = c.post(accept, data={"csrf": csrf, "next": "/console/reviews?state=pending"})
        assert (
            r.status_code == 303 and r.headers["location"] == "/console/reviews?state=pending&done=review_accepted_op"
        )
        assert _active(url, "dan") == ["The user's team has 12 engineers."]
        r = c.post(f"/console/reviews/{erin['id']}/reject", data={"csrf": csrf})
        assert r.status_code == 303 and r.headers["location"].endswith("done=review_rejected_op")
        assert _active(url, "erin") == ["The user's team has 4 engineers."]
        again = c.post(accept, data={"csrf": csrf})  # decided already: said so, nothing changes
        assert again.headers["location"].endswith("done=review_was_decided")
        assert "already decided" in c.get(again.headers["location"]).text
        assert c.post("/console/reviews/rev_nope/accept", data={"csrf": csrf}).status_code == 404
        assert c.post(f"/console/reviews/{dan['id']}/maybe", data={"csrf": csrf}).status_code == 404

        page = c.get("/console/reviews").text
        assert 'id="nav-reviews"' not in page and dan["id"] not in page and "Nothing here." in page
        decided = _row(c.get("/console/reviews", params={"state": "accepted"}).text, dan["id"])
        assert "Accepted · An operator" in decided and "admin:console" not in decided and "<form" not in decided
        decided = _row(c.get("/console/reviews", params={"state": "rejected"}).text, erin["id"])
        assert "Rejected · An operator" in decided
        # the same decision through the admin API: who decided is recorded
        admin = httpx.get(
            url + "/api/admin/reviews",
            params={"tenant": dan["tenant"], "state": "accepted"},
            headers={"authorization": f"Bearer {ADMIN}"},
        ).json()["data"]
        assert [(r["id"], r["decided_by"]) for r in admin] == [(dan["id"], "admin:console")]
        # filtered by tenant; in Chinese
        assert "Nothing here." in c.get("/console/reviews", params={"tenant": "other", "state": "accepted"}).text
        zh = c.get("/console/reviews", params={"state": "accepted"}, headers={"accept-language": "zh-CN"}).text
        assert "待审核的更改" in zh and "已接受 · 管理员" in zh
        assert csrf_of(zh) == csrf


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 800}, locale="en-US")
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    yield p
    context.close()
    assert not errors, errors


def test_the_reviews_page_in_a_browser(gateway: GatewayFactory, fake: FakeUpstream, page: Any) -> None:
    with gateway(filters=learning(review="queue"), auth={"admin_key": ADMIN}, memory=LOCAL) as url:
        dan = _review_for(url, fake, "dan", 8, 12)
        erin = _review_for(url, fake, "erin", 4, 5)
        page.goto(url + "/console/login")
        page.fill("#key", ADMIN)
        page.keyboard.press("Enter")
        page.wait_for_url(url + "/console/")
        assert page.inner_text("#nav-reviews") == "2" and page.inner_text("#reviews-waiting") == "2"
        page.click("#reviews-waiting a")
        page.wait_for_url(re.compile(r"/console/reviews"))
        assert page.locator("tr[data-review]").count() == 2
        row = page.locator(f'tr[data-review="{dan["id"]}"]')
        assert "8 engineers" in row.locator("td.old").inner_text()
        assert "12 engineers" in row.locator("td.new").inner_text()
        shot(page, "console-reviews")

        row.locator("button.accept").click()
        page.wait_for_url(re.compile(r"done=review_accepted_op"))
        assert "replaced the old one" in page.inner_text(".notice")
        assert page.locator("tr[data-review]").count() == 1 and page.inner_text("#nav-reviews") == "1"
        assert [m["content"] for m in memories(url, "dan")] == ["The user's team has 12 engineers."]
        page.locator(f'tr[data-review="{erin["id"]}"] button.reject').click()
        page.wait_for_url(re.compile(r"done=review_rejected_op"))
        assert page.locator("#nav-reviews").count() == 0
        assert [m["content"] for m in memories(url, "erin")] == ["The user's team has 4 engineers."]

        follow(page, "nav.chips >> text=Accepted")
        decided = page.locator(f'tr[data-review="{dan["id"]}"] td.decided').inner_text()
        assert "Accepted" in decided and "An operator" in decided
        shot(page, "console-reviews-accepted")
