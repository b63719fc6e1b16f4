"""Use counts in memory lists: every listed memory carries
``uses``, the responses it went into — the caller's own in the user API (also for a shared
memory other users see too), every user's in the admin API — in plain lists and in search."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.console.helpers import browser_session, mint
from tests.console.test_operator_http import operator
from tests.e2e.test_injection import chat, injection
from tests.e2e.test_learning import wait_for
from tests.e2e.test_memory_api import ADMIN, add, admin_client, user_client
from tests.e2e.test_pinned import database
from tests.fake_upstream import FakeUpstream

TEA = [{"role": "user", "content": "Which oolong tea should I buy?"}]


def _uses(c: httpx.Client, path: str = "/api/memories", **params: Any) -> dict[str, int]:
    r = c.get(path, params={"limit": 100, **params})
    assert r.status_code == 200, r.text
    return {m["title"]: m["uses"] for m in r.json()["data"]}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_lists_and_search_carry_use_counts(gateway: GatewayFactory, fake: FakeUpstream, kind: str) -> None:
    with gateway(filters=injection(), auth={"admin_key": ADMIN}, memory=database(kind)) as url:
        frank, gina, admin = user_client(url, "frank"), user_client(url, "gina"), admin_client(url)
        tea = add(frank, "Tea", "The user drinks oolong tea.")
        add(frank, "Editor", "The user edits code in Neovim.", category="technical")
        style = {"title": "House style", "content": "Use metric units.", "category": "domain"}
        r = admin.post("/api/admin/memories", json={"tenant": tea["tenant"], **style})
        assert r.status_code == 201, r.text
        shared_id = r.json()["id"]
        assert admin.patch(f"/api/admin/memories/{shared_id}", json={"pinned": True}).status_code == 200
        assert _uses(frank) == {"Tea": 0, "Editor": 0, "House style": 0}

        for _ in range(2):
            chat(url, "frank", TEA)  # Tea and the pinned house style go in
        chat(url, "gina", TEA)  # only the house style: Tea is frank's
        # the list answers what was injected (the buffered log is written first)
        assert _uses(frank) == {"Tea": 2, "Editor": 0, "House style": 2}
        assert _uses(gina) == {"House style": 1}  # her own uses of the shared memory, not frank's
        found = frank.get("/api/memories", params={"q": "oolong tea"}).json()["data"]
        assert found[0]["title"] == "Tea" and found[0]["uses"] == 2 and "relevance" in found[0]
        assert _uses(frank, scope="personal") == {"Tea": 2, "Editor": 0}
        # the counts agree with the citation log of each memory
        assert frank.get(f"/api/memories/{tea['id']}/uses").json()["total"] == 2
        # operators: every user's uses of a user's memories
        users = "/api/admin/users/frank/memories"
        assert _uses(admin, users, tenant=tea["tenant"]) == {"Tea": 2, "Editor": 0}
        assert _uses(admin, users, tenant=tea["tenant"], q="oolong")["Tea"] == 2
        # the pages: /me/ shows the user's own count, the console every user's
        if kind == "sqlite":
            _pages_show_the_counts(url, tea, shared_id)
        # a deleted memory's uses go with it; the others stay
        assert frank.delete(f"/api/memories/{tea['id']}").status_code == 204
        assert wait_for(lambda: _uses(frank) == {"Editor": 0, "House style": 2})


def _row_uses(html: str, memory_id: str) -> str:
    row = html.split(f'data-id="{memory_id}"', 1)[1].split("</tr>", 1)[0]
    return row.split('<td class="uses num">', 1)[1].split("<", 1)[0]


def _pages_show_the_counts(url: str, tea: dict[str, Any], shared_id: str) -> None:
    me, _ = browser_session(url, mint(url, "gina"))
    item = me.get("/me/", params={"q": "metric units"}).text.split(f'data-id="{shared_id}"', 1)[1]
    assert "used 1×" in item.split("</li>", 1)[0]  # gina's one use, not all three
    op, _ = operator(url)
    shared = op.get("/console/shared", params={"tenant": tea["tenant"]}).text
    assert _row_uses(shared, shared_id) == "3"  # every user's
    user = op.get("/console/user", params={"tenant": tea["tenant"], "user": "frank"}).text
    assert "used 2×" in user.split(f'data-id="{tea["id"]}"', 1)[1].split("</li>", 1)[0]  # every user's
