"""Every console page in a real browser, in English and Chinese, on a phone (390 px) and a
desktop (1280 px): nothing overflows sideways, nothing loaded answers 404, a Chinese page
shows no English outcome key or raw reason; and the /me/ actions a user relies on: restore a
replaced memory, add, pin, turn off and on, delete and undo, search with no match.

Screenshots go to ``artifacts/console-screenshots/`` (``<page>-<lang>-<width>.png``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from gateway.console.i18n import MESSAGES
from gateway.console.queries import OUTCOMES
from tests.conftest import GatewayFactory
from tests.console.conftest import SCREENSHOTS
from tests.console.helpers import ADMIN, add, app_client, mint
from tests.e2e.test_learning import learning, say
from tests.fake_upstream import FakeUpstream
from tests.waits import wait_for

WIDTHS = (390, 1280)
LOCALES = {"en": "en-US", "zh": "zh-CN"}
ADMIN_HEADERS = {"authorization": f"Bearer {ADMIN}"}
# English words that must never reach a Chinese page: the translated tables' English side
_TABLES = ("outcome_", "reason_", "h_", "v_", "action_", "field_", "why_", "rr_", "signal_")
ENGLISH = sorted(
    {en.split("{")[0].strip() for k, (en, zh) in MESSAGES.items() if k.startswith(_TABLES) and en != zh} - {""},
    key=len,
    reverse=True,
)
RAW = [
    re.compile(r"\b[a-z]{3,}_[a-z_]{3,}\b"),  # a key: below_threshold, user_preference
    re.compile(r"signal\(s\)|superseded by|pending review|merged into|consolidated into|content differs"),
    re.compile(r"\bmem_[0-9a-f]{6,}"),  # a memory id
    re.compile(r"\d{4}-\d\d-\d\dT\d\d"),  # an ISO timestamp
    re.compile(r"\b(True|False)\b|auto · |Score \d"),
    re.compile(r"\b(" + "|".join(o for o in OUTCOMES) + r")\b"),  # outcome keys as they are stored
]


class Visitor:
    """One browser context in one language; ``visit`` checks a page at both widths."""

    def __init__(self, browser: Any, lang: str) -> None:
        self.lang = lang
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=LOCALES[lang])
        self.page = self.context.new_page()
        self.missing: list[str] = []
        self.page.on("response", lambda r: self.missing.append(r.url) if r.status == 404 else None)

    def check(self, name: str) -> None:
        """The page as it stands now, at both widths: fits, nothing 404, words translated."""
        page = self.page
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            fits = page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
            assert fits, f"{name} overflows at {width} px ({self.lang})"
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{self.lang}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        assert not self.missing, f"{name}: 404 for {self.missing}"
        if self.lang == "zh":
            untranslated(page.inner_text("body"), name)

    def visit(self, url: str, name: str) -> None:
        self.missing.clear()
        r = self.page.goto(url)
        assert r is not None and r.status == 200, (url, r and r.status)
        self.check(name)


def untranslated(text: str, name: str) -> None:
    """Fails on an English outcome, reason, health value or raw key on a Chinese page."""
    for word in ENGLISH:
        assert word not in text, f"{name}: English {word!r} on a Chinese page"
    for pattern in RAW:
        found = pattern.search(text)
        assert found is None, f"{name}: raw {found.group(0)!r} on a Chinese page"


@pytest.fixture
def visitors(browser: Any) -> Iterator[Callable[[str], Visitor]]:
    made: list[Visitor] = []

    def make(lang: str) -> Visitor:
        made.append(Visitor(browser, lang))
        return made[-1]

    yield make
    for v in made:
        v.context.close()


def replaced_pair(url: str, user: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An older memory the learner replaced with a newer one (as its supersede step records it)."""
    old = add(url, user, "Deploys on Kubernetes", "The team deploys with Kubernetes.", "technical")
    new = add(url, user, "Deploys on Nomad", "The team deploys with Nomad now.", "technical")
    reason = f"superseded by {new['id']} (content differs: kubernetes, nomad)"
    r = httpx.patch(
        f"{url}/api/admin/memories/{old['id']}",
        json={"enabled": False, "disabled_reason": reason},
        headers=ADMIN_HEADERS,
    )
    assert r.status_code == 200, r.text
    return old, new


def state(url: str, user: str, memory_id: str) -> bool:
    return bool(app_client(url, user).get(f"/api/memories/{memory_id}").json()["enabled"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_user_restores_adds_pins_turns_off_and_undoes_a_delete(
    gateway: GatewayFactory, visitors: Callable[[str], Visitor], lang: str
) -> None:
    zh = lang == "zh"
    with gateway(console={"secret": "s"}, auth={"admin_key": ADMIN}) as url:
        old, new = replaced_pair(url, "ana")
        add(url, "ana", "Drinks green tea", "Ana drinks green tea every morning.")
        v = visitors(lang)
        page = v.page
        page.set_viewport_size({"width": 390, "height": 800})
        page.goto(mint(url, "ana"))
        page.wait_for_url(url + "/me/")
        v.check("me-home")
        # counts match what is listed: 2 in use, 1 replaced
        assert page.locator("#memories li.memory").count() == 2 == int(page.inner_text("#stat-total"))
        assert page.locator("#off li.memory").count() == 1 == int(page.inner_text("#stat-off"))
        why = page.locator(f'#off li[data-id="{old["id"]}"] .why')
        assert ("被‘Deploys on Nomad’替换" if zh else "Replaced by ‘Deploys on Nomad’ just now") in why.inner_text()
        assert why.locator("a").get_attribute("href") == f"/me/memories/{new['id']}"

        # restore: the old one is used again, the one that replaced it is turned off
        page.click(f'#off li[data-id="{old["id"]}"] button.restore')
        page.wait_for_url(re.compile(r"done=restored_replacing"))
        assert state(url, "ana", old["id"]) and not state(url, "ana", new["id"])
        back = page.locator(f'#off li[data-id="{new["id"]}"] .why')
        assert "Deploys on Kubernetes" in back.inner_text()
        v.check("me-restored")

        # add, by keyboard from the form
        page.click("details.add summary")
        page.fill("#a-title", "Allergic to walnuts")
        page.fill("#a-content", "Ana is allergic to walnuts.")
        page.focus("#a-content")
        page.keyboard.press("Tab")  # the category
        page.keyboard.press("Tab")  # the save button
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"done=added"))
        item = page.locator("#memories li.memory", has_text="Allergic to walnuts")
        assert item.count() == 1

        # pin (the cap is explained beside the list), unpin
        assert "10" in page.inner_text("#memories .muted.small")
        item.locator("button.pin").click()
        page.wait_for_url(re.compile(r"done=pinned_ok"))
        assert page.inner_text("#stat-pinned").startswith("1")
        assert page.locator("#memories li.memory", has_text="Allergic to walnuts").locator(".badge.pinned").count() == 1

        # turn off, then on again
        page.locator("#memories li.memory", has_text="Allergic to walnuts").locator("button.turn-off").click()
        page.wait_for_url(re.compile(r"done=turned_off_ok"))
        off = page.locator("#off li.memory", has_text="Allergic to walnuts")
        assert ("已关闭" if zh else "Turned off just now") in off.inner_text()
        off.locator("button.turn-on").click()
        page.wait_for_url(re.compile(r"done=turned_on_ok"))
        assert page.locator("#memories li.memory", has_text="Allergic to walnuts").count() == 1

        # delete asks first, then undo brings it back
        item = page.locator("#memories li.memory", has_text="Allergic to walnuts")
        item.locator("details.confirm summary").click()
        item.locator("button.confirm-delete").click()
        page.wait_for_url(re.compile(r"done=deleted_undo"))
        assert page.locator("#memories li.memory", has_text="Allergic to walnuts").count() == 0
        v.check("me-deleted-undo")
        page.click("#undo")
        page.wait_for_url(re.compile(r"done=undone"))
        assert page.locator("#memories li.memory", has_text="Allergic to walnuts").count() == 1

        # search: a match, and a query about nothing known
        page.fill("#q", "walnuts")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"q=walnuts"))
        assert page.locator("ol.memories li.memory").count() == 1
        page.fill("#q", "xyzzy plugh")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"q=xyzzy"))
        assert page.locator("ol.memories li.memory").count() == 0
        expected = "没有与“xyzzy plugh”相关的记忆" if zh else "Nothing matches “xyzzy plugh”"
        assert expected in page.inner_text("#result-count")
        v.check("me-no-match")

        page.goto(url + "/me/")
        page.click(f'#memories li[data-id="{old["id"]}"] a.title')
        page.wait_for_url(re.compile(r"/me/memories/"))
        v.check("me-detail")
        page.goto(f"{url}/me/memories/{new['id']}")
        v.check("me-detail-replaced")
        assert "Deploys on Kubernetes" in page.inner_text("#status")
        v.visit(url + "/me/clear", "me-clear")


def sign_in(v: Visitor, url: str) -> None:
    v.page.goto(url + "/console/login")
    v.page.fill("#key", ADMIN)
    v.page.keyboard.press("Enter")
    v.page.wait_for_url(url + "/console/")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_console_page_fits_loads_and_speaks_the_language(
    gateway: GatewayFactory, fake: FakeUpstream, visitors: Callable[[str], Visitor], lang: str
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "carol", "I prefer tabs over spaces. We use PostgreSQL 15 for everything.")
        say(url, "carol", "What is the weather like?")
        wait_for(lambda: len(app_client(url, "carol").get("/api/memories").json()["data"]) >= 2)
        wait_for(lambda: len(httpx.get(url + "/api/admin/learning-log", headers=ADMIN_HEADERS).json()["data"]) >= 2)
        old, new = replaced_pair(url, "carol")
        tenant = new["tenant"]
        v = visitors(lang)
        sign_in(v, url)
        v.check("console-overview")
        # the overview's outcome count links to the log of that outcome only
        stored = v.page.locator('#outcomes [data-outcome="stored"] a')
        assert int(stored.inner_text()) >= 2
        stored.click()
        v.page.wait_for_url(re.compile(r"learning-log\?outcome=stored"))
        rows = v.page.locator("#log tbody tr")
        assert rows.count() >= 1
        for i in range(rows.count()):
            assert rows.nth(i).locator('[data-outcome="stored"]').count() == 1
        created = v.page.locator("#log .created a").first
        assert created.get_attribute("href", timeout=5000).startswith("/console/memories/mem_")
        v.check("console-learning-log-stored")

        user = f"{url}/console/user?tenant={tenant}&user=carol"
        pages = {
            "console-users": url + "/console/users",
            "console-user": user,
            "console-user-search": user + "&q=xyzzy+plugh",
            "console-memory": f"{url}/console/memories/{old['id']}",
            "console-shared": url + "/console/shared",
            "console-prompts": url + "/console/prompts",
            "console-learning-log": url + "/console/learning-log",
            "console-audit-log": url + "/console/audit-log",
            "console-reviews": url + "/console/reviews",
            "console-reflections": url + "/console/reflections",
            "console-jobs": url + "/console/jobs",
            "console-health": url + "/console/health",
        }
        for name, target in pages.items():
            v.visit(target, name)
        v.page.goto(user + "&q=xyzzy+plugh")
        assert ("没有与" if lang == "zh" else "Nothing matches") in v.page.inner_text("#result-count")

        # the operator's actions on a user's memories: restore turns the newer off; promote is
        # offered on active personal memories only
        v.page.goto(user)
        assert v.page.locator(f'#off li[data-id="{old["id"]}"] button.promote').count() == 0
        v.page.click(f'#off li[data-id="{old["id"]}"] button.restore')
        v.page.wait_for_url(re.compile(r"done=restored_replacing"))
        assert state(url, "carol", old["id"]) and not state(url, "carol", new["id"])
        assert v.page.locator(f'#memories li[data-id="{old["id"]}"] button.promote').count() == 1
        item = v.page.locator(f'#memories li[data-id="{old["id"]}"]')
        item.locator("details.confirm summary").click()
        item.locator("button.confirm-delete").click()
        v.page.wait_for_url(re.compile(r"done=deleted_undo"))
        v.check("console-user-deleted")
        v.page.click("#undo")
        v.page.wait_for_url(re.compile(r"done=undone"))
        titles = [m["title"] for m in app_client(url, "carol").get("/api/memories").json()["data"]]
        assert "Deploys on Kubernetes" in titles
        v.visit(url + "/console/audit-log", "console-audit-log-after")
        audit = v.page.inner_text("#audit")
        assert "{" not in audit and "mem_" not in audit  # field by field, no JSON, no ids
