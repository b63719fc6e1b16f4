"""The user and admin memory APIs through real HTTP: shapes, validation, isolation, export."""

from __future__ import annotations

import csv
import io
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gateway.auth import pass_through_tenant
from tests.conftest import GatewayFactory
from tests.waits import HTTP_TIMEOUT_S

ADMIN = "admin-secret"


def user_client(url: str, user: str, key: str = "sk-app") -> httpx.Client:
    return httpx.Client(
        base_url=url, headers={"authorization": f"Bearer {key}", "x-memorelay-user": user}, timeout=HTTP_TIMEOUT_S
    )


def admin_client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"authorization": f"Bearer {ADMIN}"}, timeout=HTTP_TIMEOUT_S)


def add(c: httpx.Client, title: str, content: str, category: str = "user_preference", **extra: object) -> dict:  # type: ignore[type-arg]
    r = c.post("/api/memories", json={"title": title, "content": content, "category": category, **extra})
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


@pytest.fixture
def url(gateway: GatewayFactory) -> Iterator[str]:
    with gateway(auth={"admin_key": ADMIN}) as base:
        yield base


def test_create_get_patch_delete(url: str) -> None:
    c = user_client(url, "alice")
    m = add(c, "Prefers tabs", "The user prefers tabs over spaces.", tags=["style"])
    assert m["scope"] == "personal" and m["user_id"] == "alice" and m["source"] == "manual"
    assert m["tags"] == ["style"] and m["enabled"] is True and m["created_at"].endswith("Z")
    for key in (
        "id",
        "tenant",
        "category",
        "subcategory",
        "slot",
        "title",
        "content",
        "source_conversation_id",
        "score",
        "disabled_reason",
        "updated_at",
        "access_count",
        "last_access_at",
    ):
        assert key in m
    assert c.get(f"/api/memories/{m['id']}").json()["title"] == "Prefers tabs"
    patched = c.patch(f"/api/memories/{m['id']}", json={"content": "The user prefers 4-space tabs."})
    assert patched.status_code == 200 and patched.json()["content"] == "The user prefers 4-space tabs."
    assert c.delete(f"/api/memories/{m['id']}").status_code == 204
    missing = c.get(f"/api/memories/{m['id']}")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        {"title": "t", "content": "c", "category": "nonsense"},
        {"title": "t", "category": "technical"},
        {"title": "t", "content": "c", "category": "technical", "tags": "notalist"},
        {"title": "t", "content": "c", "category": "technical", "scope": "shared"},
        {"title": "x" * 500, "content": "c", "category": "technical"},
        {"title": "t", "content": "nul \u0000 inside", "category": "technical"},  # PostgreSQL text cannot hold it
        {"title": "t", "content": "c", "category": "technical", "kind": "gossip"},
    ],
)
def test_validation_errors_are_400_in_openai_shape(url: str, body: dict[str, object]) -> None:
    r = user_client(url, "alice").post("/api/memories", json=body)
    assert r.status_code == 400
    assert set(r.json()["error"]) >= {"message", "type", "code"}


def test_bad_json_missing_user_and_bad_params(url: str) -> None:
    c = user_client(url, "alice")
    assert c.post("/api/memories", content=b"{oops", headers={"content-type": "application/json"}).status_code == 400
    no_user = httpx.get(url + "/api/memories", headers={"authorization": "Bearer sk-app"})
    assert no_user.status_code == 400 and "X-Memorelay-User" in no_user.json()["error"]["message"]
    assert c.get("/api/memories?limit=abc").status_code == 400
    assert c.get("/api/memories?category=weird").status_code == 400
    assert c.delete("/api/memories").status_code == 400  # needs confirm=true


def test_users_and_tenants_are_isolated_on_every_endpoint(url: str) -> None:
    alice, bob = user_client(url, "alice"), user_client(url, "bob")
    other_tenant_alice = user_client(url, "alice", key="sk-other-app")
    m = add(alice, "Coffee", "The user drinks espresso every morning.")
    for intruder in (bob, other_tenant_alice):
        assert intruder.get(f"/api/memories/{m['id']}").status_code == 404
        assert intruder.patch(f"/api/memories/{m['id']}", json={"title": "x"}).status_code == 404
        assert intruder.delete(f"/api/memories/{m['id']}").status_code == 404
        assert intruder.get("/api/memories").json() == {"data": [], "total": 0}
        assert intruder.get("/api/memories", params={"q": "espresso"}).json()["data"] == []
        assert intruder.delete("/api/memories?confirm=true").status_code == 204
    assert alice.get(f"/api/memories/{m['id']}").json()["title"] == "Coffee"


def test_shared_memories_reach_the_tenant_only_and_stay_read_only(url: str) -> None:
    alice, bob = user_client(url, "alice"), user_client(url, "bob")
    stranger = user_client(url, "carol", key="sk-other-app")
    tenant = alice.get("/api/memories/stats")  # any call; the tenant comes from the key
    assert tenant.status_code == 200
    add(alice, "Mine", "Alice's own note.")
    alice_list = alice.get("/api/memories").json()
    tenant_id = alice_list["data"][0]["tenant"]
    admin = admin_client(url)
    shared = admin.post(
        "/api/admin/memories",
        json={
            "tenant": tenant_id,
            "scope": "shared",
            "title": "Deploy window",
            "content": "Deploys happen on Tuesdays.",
            "category": "organizational",
        },
    )
    assert shared.status_code == 201
    sid = shared.json()["id"]
    assert bob.get(f"/api/memories/{sid}").status_code == 200
    assert [m["id"] for m in bob.get("/api/memories").json()["data"]] == [sid]
    assert stranger.get(f"/api/memories/{sid}").status_code == 404
    denied = bob.delete(f"/api/memories/{sid}")
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "permission_denied"
    assert bob.get("/api/memories?scope=personal").json()["total"] == 0


def test_pagination_newest_first_and_disabled_hidden(url: str) -> None:
    c = user_client(url, "pager")
    ids = [add(c, f"Note {i}", f"Fact number {i}.")["id"] for i in range(7)]
    page = c.get("/api/memories", params={"limit": 3, "offset": 3}).json()
    assert page["total"] == 7
    assert [m["id"] for m in page["data"]] == list(reversed(ids))[3:6]
    c.patch(f"/api/memories/{ids[0]}", json={"enabled": False})
    assert c.get("/api/memories").json()["total"] == 6
    assert c.get("/api/memories", params={"include_disabled": "true"}).json()["total"] == 7


def test_keyword_search_in_chinese_and_english(url: str) -> None:
    c = user_client(url, "zh")
    coffee = add(c, "饮品偏好", "用户喜欢喝咖啡，不喜欢喝茶。")
    pg = add(c, "Database", "The team runs PostgreSQL 15 in production.", category="technical")
    add(c, "Pets", "The user has a cat named Miso.")
    assert c.get("/api/memories", params={"q": "咖啡"}).json()["data"][0]["id"] == coffee["id"]
    assert c.get("/api/memories", params={"q": "postgresql"}).json()["data"][0]["id"] == pg["id"]


def test_stats_settings_and_export(url: str) -> None:
    c = user_client(url, "exp")
    add(c, "Tabs", "The user prefers tabs.")
    add(c, "Stack", "The team uses Go.", category="technical")
    stats = c.get("/api/memories/stats").json()
    assert stats["total"] == 2 and stats["by_category"] == {"user_preference": 1, "technical": 1}
    assert c.get("/api/memories/settings").json() == {"learning_enabled": True}
    assert c.put("/api/memories/settings", json={"learning_enabled": False}).json() == {"learning_enabled": False}
    assert c.put("/api/memories/settings", json={"learning_enabled": "no"}).status_code == 400
    exported = c.get("/api/memories/export").json()
    assert {m["title"] for m in exported["memories"]} == {"Tabs", "Stack"}
    md = c.get("/api/memories/export", params={"format": "markdown"})
    assert md.headers["content-type"].startswith("text/markdown")
    assert "## Tabs" in md.text and "The team uses Go." in md.text
    assert c.delete("/api/memories?confirm=true").status_code == 204
    assert c.get("/api/memories").json()["total"] == 0


def test_csv_export_parses_back_and_formulas_stay_text(url: str) -> None:
    c = user_client(url, "csv")
    add(c, "Tabs", 'The user prefers tabs, "always".\nEven in YAML.', tags=["style", "editor"])
    add(c, '=HYPERLINK("http://evil.example")', "@SUM(A1:A9) is a formula", tags=["-x"])
    r = c.get("/api/memories/export", params={"format": "csv"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    exported = {m["id"]: m for m in c.get("/api/memories/export").json()["memories"]}
    assert len(rows) == 2 and {row["id"] for row in rows} == set(exported)
    tabs = next(row for row in rows if row["title"] == "Tabs")
    assert tabs["content"] == 'The user prefers tabs, "always".\nEven in YAML.' and tabs["tags"] == "style;editor"
    assert tabs["enabled"] == "true" and tabs["score"] == str(exported[tabs["id"]]["score"])
    assert tabs["last_access_at"] == "" and tabs["user_id"] == "csv"
    evil = next(row for row in rows if row["id"] != tabs["id"])
    assert evil["title"] == '\'=HYPERLINK("http://evil.example")'
    assert evil["content"] == "'@SUM(A1:A9) is a formula" and evil["tags"] == "'-x"
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())
    assert c.get("/api/memories/export", params={"format": "xls"}).status_code == 400


def test_kinds_are_given_derived_changed_filtered_and_counted(url: str) -> None:
    c = user_client(url, "kinds")
    vet = add(c, "Vet visit", "On 2026-11-30 the user took Max to the vet.", category="domain", kind="episode")
    assert vet["kind"] == "episode"
    # no kind given: a standing instruction on the answers is a rule, another preference a
    # preference, anything else a fact
    rule = add(c, "Answer in Chinese", "Always answer in Chinese.", subcategory="language")
    assert rule["kind"] == "rule"
    assert add(c, "Tea", "The user likes green tea.")["kind"] == "preference"
    assert add(c, "Stack", "The team uses Go.", category="technical")["kind"] == "fact"
    daughter = add(c, "Daughter", "Mia is the user's daughter.", category="domain", kind="relation")
    episodes = c.get("/api/memories", params={"kind": "episode"}).json()
    assert [m["id"] for m in episodes["data"]] == [vet["id"]] and episodes["total"] == 1
    searched = c.get("/api/memories", params={"q": "daughter vet Mia Max", "kind": "relation"}).json()
    assert [m["id"] for m in searched["data"]] == [daughter["id"]]
    assert c.get("/api/memories", params={"kind": "gossip"}).status_code == 400
    patched = c.patch(f"/api/memories/{rule['id']}", json={"kind": "preference"})
    assert patched.status_code == 200 and patched.json()["kind"] == "preference"
    bad = c.patch(f"/api/memories/{rule['id']}", json={"kind": "gossip"})
    assert bad.status_code == 400 and "kind" in bad.json()["error"]["message"]
    assert c.patch(f"/api/memories/{rule['id']}", json={"kind": None}).status_code == 400
    by_kind = {"episode": 1, "preference": 2, "fact": 1, "relation": 1}
    assert c.get("/api/memories/stats").json()["by_kind"] == by_kind
    admin = admin_client(url)
    assert admin.get("/api/admin/stats").json()["by_kind"] == by_kind
    tenant = admin.get("/api/admin/users").json()["data"][0]["tenant"]
    listed = admin.get("/api/admin/users/kinds/memories", params={"tenant": tenant, "kind": "relation"}).json()
    assert [m["id"] for m in listed["data"]] == [daughter["id"]]
    shared = admin.post(
        "/api/admin/memories",
        json={
            "tenant": tenant,
            "title": "No bullets",
            "content": "Never use bullet points.",
            "category": "user_preference",
            "subcategory": "style",
        },
    )
    assert shared.status_code == 201 and shared.json()["kind"] == "rule"
    rows = list(csv.DictReader(io.StringIO(c.get("/api/memories/export", params={"format": "csv"}).text)))
    assert {r["title"]: r["kind"] for r in rows}["Vet visit"] == "episode"
    assert "kind: relation" in c.get("/api/memories/export", params={"format": "markdown"}).text


def test_admin_api_needs_the_admin_key(url: str) -> None:
    assert httpx.get(url + "/api/admin/users").status_code == 401
    assert httpx.get(url + "/api/admin/users", headers={"authorization": "Bearer nope"}).status_code == 401
    assert user_client(url, "u").get("/api/admin/stats").status_code == 401


def test_admin_users_promote_stats_and_audit(url: str) -> None:
    alice = user_client(url, "alice")
    m = add(alice, "Runbook", "Restart the queue with make restart-queue.", category="technical")
    admin = admin_client(url)
    users = admin.get("/api/admin/users").json()["data"]
    assert [(u["user_id"], u["memories"]) for u in users] == [("alice", 1)]
    tenant = users[0]["tenant"]
    listed = admin.get("/api/admin/users/alice/memories", params={"tenant": tenant}).json()
    assert listed["total"] == 1
    assert admin.get("/api/admin/users/alice/memories").status_code == 400  # tenant required
    promoted = admin.post(f"/api/admin/memories/{m['id']}/promote")
    assert promoted.status_code == 200 and promoted.json()["scope"] == "shared"
    assert user_client(url, "bob").get(f"/api/memories/{m['id']}").status_code == 200
    stats = admin.get("/api/admin/stats").json()
    assert stats["total"] == 1
    actions = [e["action"] for e in admin.get("/api/admin/audit-log").json()["data"]]
    assert "create" in actions and "promote" in actions
    assert admin.delete(f"/api/admin/memories/{m['id']}").status_code == 204
    assert admin.get(f"/api/admin/memories/{m['id']}").status_code == 404
    assert "delete" in [e["action"] for e in admin.get("/api/admin/audit-log").json()["data"]]


def test_partial_words_match_within_the_callers_memories_only(url: str) -> None:
    alice, bob = user_client(url, "alice"), user_client(url, "bob")
    mine = add(alice, "Hobby", "The user paints landscapes on weekends.")
    add(alice, "Pets", "The user has a cat named Miso.")
    add(bob, "Hobby", "The user collects landscape photographs.")
    found = alice.get("/api/memories", params={"q": "scape"}).json()["data"]
    assert [m["id"] for m in found] == [mine["id"]]


def test_clearing_all_memories_drops_the_users_dead_learning_jobs(gateway: GatewayFactory, tmp_path: Path) -> None:
    with gateway() as url:
        db = sqlite3.connect(tmp_path / "db" / "memorelay.db")
        now = time.time()
        for user in ("alice", "bob"):
            db.execute(
                "INSERT INTO learning_jobs (tenant, user_id, model, payload, status, next_attempt_at, created_at,"
                " updated_at) VALUES (?, ?, 'm', ?, 'dead', ?, ?, ?)",
                (pass_through_tenant("Bearer sk-app"), user, b'{"messages": "call me on 555"}', now, now, now),
            )
        db.commit()
        assert user_client(url, "alice").delete("/api/memories", params={"confirm": "true"}).status_code == 204
        kept = dict(db.execute("SELECT user_id, payload IS NOT NULL FROM learning_jobs").fetchall())
        db.close()
    assert kept == {"alice": 0, "bob": 1}


@pytest.mark.parametrize("embedding", ["none", "local"])
def test_search_has_a_relevance_floor(gateway: GatewayFactory, embedding: str) -> None:
    # keyword-only: a query matching no word finds nothing; with the local encoder a query
    # whose cosine stays under memory.search_min_relevance (0.15) finds nothing either
    with gateway(auth={"admin_key": ADMIN}, memory={"embedding": {"provider": embedding}}) as base:
        c = user_client(base, "floor")
        tea = add(c, "Drinks green tea", "Alice drinks green tea every morning.")
        add(c, "Uses PostgreSQL 16", "Alice's team runs PostgreSQL 16 in production.", category="technical")
        add(c, "Has a dog named Rex", "The user has a dog called Rex.")
        for nonsense in ("xyzzy plugh", "qwertyuiop asdf"):
            found = c.get("/api/memories", params={"q": nonsense}).json()
            assert found == {"data": [], "total": 0}, (nonsense, found)
            admin = (
                admin_client(base)
                .get(
                    "/api/admin/users/floor/memories",
                    params={"tenant": pass_through_tenant("Bearer sk-app"), "q": nonsense},
                )
                .json()
            )
            assert admin["data"] == [], admin
        relevant = c.get("/api/memories", params={"q": "green tea"}).json()["data"]
        assert relevant and relevant[0]["id"] == tea["id"]
        admin_found = admin_client(base).get(
            "/api/admin/users/floor/memories", params={"tenant": pass_through_tenant("Bearer sk-app"), "q": "green tea"}
        )
        assert admin_found.json()["data"][0]["id"] == tea["id"], admin_found.text
        if embedding == "local":  # no shared word, close in meaning
            near = c.get("/api/memories", params={"q": "what do I drink in the morning"}).json()["data"]
            assert near and near[0]["id"] == tea["id"], near
