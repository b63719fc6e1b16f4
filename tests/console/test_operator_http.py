"""The operator console and the user page over real HTTP, for what the browser tests do not
walk through: a prompt edited in the console is what the learner then receives, shared
memories are edited there, and long lists paginate."""

from __future__ import annotations

import csv
import io

import httpx

from tests.conftest import GatewayFactory
from tests.console.helpers import ADMIN, add, browser_session, csrf_of, mint
from tests.e2e.test_learning import HIGH, learner, learning, log_entries, say, wait_for
from tests.fake_upstream import FakeUpstream


def operator(url: str) -> tuple[httpx.Client, str]:
    c = httpx.Client(base_url=url, headers={"origin": url})
    assert c.post("/console/login", data={"key": "wrong"}).status_code == 401
    signed_in = c.post("/console/login", data={"key": ADMIN})
    assert signed_in.status_code == 303 and ADMIN not in signed_in.text
    page = c.get("/console/prompts")
    assert page.status_code == 200 and ADMIN not in page.text
    return c, csrf_of(page.text)


def test_an_edited_prompt_is_what_the_learner_receives(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    items = [{"title": "Prefers dark mode", "content": "The user prefers dark mode.", "category": "user_preference"}]
    with gateway(filters=learning(), auth={"admin_key": ADMIN}) as url:
        fake.responder = learner(HIGH, items)
        c, csrf = operator(url)
        prompt = "You rate one conversation turn. MARKER-9: answer JSON.\n{conversation}"
        assert c.post("/console/prompts/scoring", data={"csrf": csrf, "prompt": prompt}).status_code == 303
        assert "override" in c.get("/console/prompts").text
        say(url, "fay", "I prefer dark mode in every editor.")
        wait_for(lambda: log_entries(url))
        sent = [str(r.body) for r in fake.chats() if "rate one conversation turn" in str(r.body)]
        assert sent and all("MARKER-9" in s for s in sent)
        # without the placeholder the console refuses; reset goes back to the file
        bad = c.post("/console/prompts/scoring", data={"csrf": csrf, "prompt": "no placeholder"})
        assert bad.status_code == 400 and "placeholder" in bad.text
        assert c.post("/console/prompts/scoring", data={"csrf": csrf, "action": "reset"}).status_code == 303
        assert "MARKER-9" not in c.get("/console/prompts").text


def test_shared_memories_are_created_and_edited_in_the_console(gateway: GatewayFactory) -> None:
    with gateway(auth={"admin_key": ADMIN}) as url:
        tenant = add(url, "gus", "Likes tea", "Gus likes tea.")["tenant"]
        c, csrf = operator(url)
        form = {"csrf": csrf, "tenant": tenant, "scope": "system", "title": "Office hours", "category": "business"}
        created = c.post("/console/shared", data={**form, "content": "The office opens at 9."})
        assert created.status_code == 303 and "created_ok" in created.headers["location"]
        listing = c.get("/console/shared", params={"tenant": tenant}).text
        assert "Office hours" in listing
        memory_id = listing.split('data-id="')[1].split('"')[0]
        edit = {**form, "title": "Office hours (summer)", "content": "The office opens at 8.", "enabled": "on"}
        assert c.post(f"/console/memories/{memory_id}", data=edit).status_code == 303
        assert c.post(f"/console/memories/{memory_id}", data={**edit, "csrf": ""}).status_code == 403
        seen = httpx.get(
            url + "/api/memories", headers={"authorization": "Bearer sk-app", "x-memorelay-user": "gus"}
        ).json()["data"]
        assert any(m["title"] == "Office hours (summer)" and m["scope"] == "system" for m in seen)
        # support: the operator opens gus's page as gus sees it
        opened = c.post("/console/user/open", data={"csrf": csrf, "tenant": tenant, "user": "gus"})
        assert opened.status_code == 303 and opened.headers["location"].startswith("/me/open?token=")
        assert c.get(opened.headers["location"]).status_code == 200
        assert "Signed in as gus" in c.get("/me/").text
        assert c.post("/console/user/open", data={"tenant": tenant, "user": "gus"}).status_code == 403
        assert c.post("/console/logout", data={"csrf": csrf}).status_code == 303
        assert c.get("/console/shared").status_code == 303  # back to the sign-in form


def test_the_user_page_paginates(gateway: GatewayFactory) -> None:
    with gateway() as url:
        for i in range(45):
            add(url, "hal", f"Fact number {i:02d}", f"Hal's fact number {i}.")
        c, _ = browser_session(url, mint(url, "hal"))
        pages = [c.get("/me/", params={"page": n}).text for n in (1, 2, 3)]
        counts = [p.count('class="memory"') for p in pages]
        assert counts == [20, 20, 5]
        assert "Page 1 of 3" in pages[0] and 'rel="next"' in pages[0] and 'rel="next"' not in pages[2]
        assert "Fact number 44" in pages[0] and "Fact number 00" in pages[2]  # newest first


def test_the_user_exports_json_markdown_and_csv(gateway: GatewayFactory) -> None:
    with gateway() as url:
        add(url, "ivy", "Drinks green tea", "Ivy drinks green tea every morning.")
        c, _ = browser_session(url, mint(url, "ivy"))
        as_json = c.get("/me/export.json")
        assert as_json.status_code == 200 and 'filename="memories.json"' in as_json.headers["content-disposition"]
        assert [m["title"] for m in as_json.json()["memories"]] == ["Drinks green tea"]
        as_md = c.get("/me/export.md")
        assert as_md.headers["content-type"].startswith("text/markdown")
        assert "## Drinks green tea" in as_md.text and "Ivy drinks green tea" in as_md.text
        as_csv = c.get("/me/export.csv")
        assert (
            as_csv.headers["content-type"].startswith("text/csv")
            and 'filename="memories.csv"' in (as_csv.headers["content-disposition"])
        )
        rows = list(csv.DictReader(io.StringIO(as_csv.text)))
        assert [(r["title"], r["user_id"]) for r in rows] == [("Drinks green tea", "ivy")]
        assert 'href="/me/export.csv"' in c.get("/me/").text
        assert httpx.get(url + "/me/export.json").status_code == 403  # no session, no export


def test_a_dead_job_is_discarded_for_good(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="error-500", max_attempts=1), auth={"admin_key": ADMIN}) as url:
        say(url, "jay", "I prefer tabs over spaces.")
        wait_for(lambda: log_entries(url))
        c, csrf = operator(url)
        page = c.get("/console/jobs").text
        job = page.split('data-job="')[1].split('"')[0]
        assert c.post(f"/console/jobs/{job}/discard", data={}).status_code == 403  # no CSRF token
        assert c.post(f"/console/jobs/{job}/discard", data={"csrf": csrf}).status_code == 303
        assert "data-job=" not in c.get("/console/jobs").text
        # gone for good: it can be neither retried nor discarded again
        assert c.post(f"/console/jobs/{job}/retry", data={"csrf": csrf}).status_code == 404
        assert c.post(f"/console/jobs/{job}/discard", data={"csrf": csrf}).status_code == 404
