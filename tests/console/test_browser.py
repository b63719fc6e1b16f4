"""The console in a real browser (headless Chromium): what an end user and an operator do.

Screenshots of each page are kept in ``artifacts/console-screenshots/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway.auth import pass_through_tenant
from gateway.console.links import LinkSigner
from tests.conftest import GatewayFactory
from tests.console.conftest import SCREENSHOTS
from tests.console.helpers import ADMIN, APP_KEY, add, app_client, follow, mint
from tests.e2e.test_learning import learning, say
from tests.fake_upstream import FakeUpstream
from tests.waits import ceiling, wait_for

SECRET = "browser-test-secret"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US")
    context.set_default_timeout(ceiling(30) * 1000)  # navigation waits on a busy machine
    p = context.new_page()
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    yield p
    context.close()
    assert not errors, errors  # nothing on the pages breaks the CSP


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_user_page(gateway: GatewayFactory, fake: FakeUpstream, page: Any) -> None:
    filters = learning(model="heuristic")
    with gateway(filters=filters, console={"secret": SECRET}, auth={"admin_key": ADMIN}) as url:
        tea = add(url, "alice", "Drinks green tea", "Alice drinks green tea every morning.")
        add(url, "alice", "Uses PostgreSQL 16", "Alice's team runs PostgreSQL 16 in production.", "technical")
        add(url, "alice", "Works at Acme", "Alice works at Acme in the platform team.", "organizational")
        bobs = add(url, "bob", "Bob's bank", "Bob banks with Example Bank.")
        say(url, "alice", "What tea do I drink?", headers={"X-Memorelay-Opt-Out": "learning"})  # uses "tea"

        link = mint(url, "alice")
        page.goto(link)
        page.wait_for_url(url + "/me/")
        assert "Signed in as alice" in page.inner_text("header")
        assert page.locator("#memories li.memory").count() == 3 and "Bob's bank" not in page.content()
        assert page.inner_text("#stat-total") == "3"
        tea_item = page.locator(f'li.memory[data-id="{tea["id"]}"]')
        assert "used 1×" in tea_item.inner_text()  # injected once: the count shows
        shot(page, "me-home")

        # search: the same ranking as ?q=
        page.fill("#q", "PostgreSQL production")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"q=PostgreSQL"))
        first = page.locator("ol.memories li.memory").first
        assert "Uses PostgreSQL 16" in first.inner_text()
        api = app_client(url, "alice").get("/api/memories", params={"q": "PostgreSQL production"}).json()
        ids = [li.get_attribute("data-id") for li in page.locator("ol.memories li.memory").all()]
        assert ids == [m["id"] for m in api["data"]]
        shot(page, "me-search")

        # detail and edit
        first.locator("a.title").click()
        page.wait_for_url(re.compile(r"/me/memories/mem_"))
        page.fill("#f-title", "Uses PostgreSQL 17")
        page.click("#save")
        page.wait_for_url(re.compile(r"done=saved"))
        assert page.inner_text("h1") == "Uses PostgreSQL 17"
        shot(page, "me-detail")

        # delete one: asked first, then gone from the list
        page.click("details.confirm summary")
        page.click("button.confirm-delete")
        page.wait_for_url(re.compile(r"done=deleted_undo"))
        assert "Uses PostgreSQL 17" not in page.inner_text("#memories") and page.inner_text("#stat-total") == "2"

        # learning off: the next chat is not learned
        page.click("#toggle-learning")
        page.wait_for_url(re.compile(r"done=learning_now_off"))
        assert page.get_attribute("[data-learning]", "data-learning") == "off"
        assert say(url, "alice", "I prefer tabs.")["x-memorelay-learning"] == "skipped; reason=disabled"
        shot(page, "me-learning-off")

        # A cannot read or change B's memory by editing URLs or ids
        csrf = page.get_attribute('meta[name="csrf-token"]', "content") or ""
        assert csrf
        r = page.goto(f"{url}/me/memories/{bobs['id']}")
        assert r.status == 404 and "Bob's bank" not in page.content()
        shot(page, "me-404-other-user")
        r = page.request.post(f"{url}/me/memories/{bobs['id']}/delete", form={"csrf": csrf})
        assert r.status == 404
        assert app_client(url, "bob").get(f"/api/memories/{bobs['id']}").status_code == 200

        # a change without the CSRF token is refused
        page.goto(url + "/me/")
        r = page.request.post(f"{url}/me/settings", form={"learning": "on"})
        assert r.status == 403
        assert page.request.post(f"{url}/me/settings", form={"learning": "on", "csrf": "forged"}).status == 403
        page.reload()
        assert page.get_attribute("[data-learning]", "data-learning") == "off"

        # clear all: cancel, then confirm
        page.click("#clear-all")
        page.wait_for_url(url + "/me/clear")
        shot(page, "me-clear-confirm")
        page.click("#cancel-clear")
        page.wait_for_url(url + "/me/")
        assert page.locator("#memories li.memory").count() == 2
        page.click("#clear-all")
        page.click("#confirm-clear")
        page.wait_for_url(re.compile(r"done=cleared"))
        assert page.locator("li.memory").count() == 0 and page.inner_text("#stat-total") == "0"

        # 375 px wide, keyboard: the sign-out button is reachable by Tab
        page.set_viewport_size({"width": 375, "height": 740})
        page.reload()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        shot(page, "me-375px")
        # by keyboard alone: Tab to the learning switch, Enter turns learning back on
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip"
        for _ in range(30):
            if page.evaluate("document.activeElement.id") == "toggle-learning":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"done=learning_now_on"))
        assert page.get_attribute("[data-learning]", "data-learning") == "on"

        # logout, then the same link is refused
        page.click("header button")
        page.wait_for_selector("text=You are signed out")  # the logout page, once it has loaded
        r = page.goto(link)
        assert r.status == 403 and "This link does not work" in page.content()
        shot(page, "me-403-replayed")
        forged = link[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB")
        assert page.goto(forged).status == 403
        expired, _ = LinkSigner(SECRET, 900).mint(pass_through_tenant(f"Bearer {APP_KEY}"), "alice", now=0)
        assert page.goto(f"{url}/me/open?token={expired}").status == 403
        assert page.goto(url + "/me/").status == 403


def test_chinese_page(gateway: GatewayFactory, browser: Any) -> None:
    with gateway() as url:
        add(url, "li", "喜欢喝绿茶", "用户每天早上喝绿茶。")
        context = browser.new_context(viewport={"width": 375, "height": 740}, locale="zh-CN")
        try:
            context.set_default_timeout(ceiling(30) * 1000)
            page = context.new_page()
            # the app's page (another site) links to the user page: the SameSite=Strict cookie
            # set by that cross-site navigation is sent on the same-site step that follows
            page.set_content(f'<a id="go" href="{mint(url, "li")}">my memories</a>')
            page.click("#go")
            page.wait_for_url(url + "/me/")
            assert "AI 记住的关于你的信息" in page.content() and "喜欢喝绿茶" in page.content()
            shot(page, "me-zh-375px")
        finally:
            context.close()


def test_operator_console(gateway: GatewayFactory, fake: FakeUpstream, page: Any) -> None:
    # the learner upstream fails: the job dies after one attempt; retried, it has lost the
    # caller's key and is learned by the heuristic learner
    filters = learning(model="error-500", max_attempts=1)
    with gateway(filters=filters, auth={"admin_key": ADMIN}) as url:
        assert (
            say(url, "carol", "I prefer tabs over spaces. We use PostgreSQL 15 for everything.")["x-memorelay-learning"]
            == "queued"
        )
        deploy = add(url, "dave", "Deploys on Fridays", "The team deploys with Kubernetes every Friday.", "business")
        admin = {"authorization": f"Bearer {ADMIN}"}

        def dead() -> bool:
            log = httpx.get(url + "/api/admin/learning-log", headers=admin).json()["data"]
            return bool(log) and "gave up" in str(log[0].get("error"))

        wait_for(dead)

        page.goto(url + "/console/")
        page.wait_for_url(url + "/console/login")
        page.fill("#key", "wrong")
        page.keyboard.press("Enter")
        assert "not valid" in page.inner_text(".error")
        page.fill("#key", ADMIN)
        shot(page, "console-login")
        page.keyboard.press("Enter")
        page.wait_for_url(url + "/console/")
        assert ADMIN not in page.content()

        # dead-letter job: retry
        follow(page, "nav.menu >> text=Dead-letter jobs")
        assert page.locator("tr[data-job]").count() == 1
        shot(page, "console-jobs")
        page.click("button.retry")
        page.wait_for_url(re.compile(r"done=retried"))
        wait_for(lambda: len(app_client(url, "carol").get("/api/memories").json()["data"]) >= 2)
        page.reload()
        assert page.locator("tr[data-job]").count() == 0

        # overview: the chart shows what was learned today
        follow(page, "nav.menu >> text=Overview")
        assert page.locator("svg#trend rect.bar").count() >= 1
        assert int(page.inner_text("#total")) == 3
        shot(page, "console-overview")

        # users -> dave -> promote; erin's chat then gets it injected
        follow(page, "nav.menu >> text=Users")
        shot(page, "console-users")
        follow(page, "text=dave")
        shot(page, "console-user")
        page.click(f'li[data-id="{deploy["id"]}"] button.promote')
        page.wait_for_url(re.compile(r"done=promoted"))
        say(url, "erin", "When does the team deploy with Kubernetes?")
        assert "Deploys on Fridays" in str(fake.last_chat().body)
        follow(page, "nav.menu >> text=Shared & system")
        assert "Deploys on Fridays" in page.content()
        page.fill("#c-title", "Office closes at 6pm")
        page.fill("#c-content", "The office closes at 6pm on weekdays.")
        page.click("form.edit >> text=Create")
        page.wait_for_url(re.compile(r"done=created_ok"))
        shot(page, "console-shared")

        # prompts: edit, refused without the placeholder, reset
        follow(page, "nav.menu >> text=Prompts")
        page.fill("#p-scoring", "no placeholder here")
        page.click("#prompt-scoring >> button[value=save]")
        assert "placeholder" in page.inner_text("#prompt-scoring .error")
        page.fill("#p-scoring", "Rate this turn, MARKER-7.\n{conversation}")
        page.click("#prompt-scoring >> button[value=save]")
        page.wait_for_url(re.compile(r"done=saved"))
        prompt = httpx.get(url + "/api/admin/prompts/scoring", headers=admin).json()
        assert prompt["source"] == "override" and "MARKER-7" in prompt["prompt"]
        shot(page, "console-prompts")
        page.click("#prompt-scoring >> button[value=reset]")
        page.wait_for_url(re.compile(r"done=prompt_reset"))
        assert "Reset to the default prompt" in page.content()
        assert httpx.get(url + "/api/admin/prompts/scoring", headers=admin).json()["source"] == "default"

        for name, label in (("learning-log", "Learning log"), ("audit-log", "Audit log"), ("health", "Health")):
            follow(page, f"nav.menu >> text={label}")
            assert page.url == url + f"/console/{name}"
            assert page.locator("main").count() == 1
            shot(page, f"console-{name}")
        page.goto(url + "/console/audit-log")
        assert "Promoted to shared" in page.inner_text("table")
        page.click("header button")
        page.wait_for_url(url + "/console/login")
        page.goto(url + "/console/")
        page.wait_for_url(url + "/console/login")
