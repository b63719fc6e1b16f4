"""``memorelay memories migrate --to postgresql://…`` end to end: a SQLite store filled through a
real gateway, copied by the command, then served by a gateway on PostgreSQL with the same
answers (lists, search order, stats, settings, audit log, injected memories); later writes are
picked up by running it again, and a run over an unchanged source copies nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import yaml

from gateway.store.backend import sqlite_backend
from gateway.store.postgres import postgres_backend
from tests.conftest import GatewayFactory
from tests.e2e.test_injection import block_of, chat, injection
from tests.e2e.test_memory_api import ADMIN, add, admin_client, user_client
from tests.fake_upstream import FakeUpstream
from tests.test_cli import memorelay

LOCAL = {"provider": "local"}
QUERIES = ("editor", "咖啡", "what does the user drink", "meetings", "team")
QUESTION = [{"role": "user", "content": "Which editor should I configure, and what coffee do I like?"}]
EDITOR_PROMPT = "Pick durable facts only.\n{conversation}"


def _config(tmp_path: Path, database: str) -> Path:
    path = tmp_path / "memorelay.yaml"
    path.write_text(yaml.safe_dump({"memory": {"database": database, "embedding": LOCAL}}))
    return path


def _migrate(config: Path, url: str) -> tuple[int, str, str]:
    r = memorelay("memories", "migrate", "--to", url, "--config", str(config), cwd=config.parent)
    return r.returncode, r.stdout, r.stderr


def _fill(url: str) -> dict[str, str]:
    """Memories (English, Chinese, a disabled one, shared ones, another user's), settings,
    a prompt override; answers some ids."""
    alice, bob, admin = user_client(url, "alice"), user_client(url, "bob"), admin_client(url)
    editor = add(alice, "Editor", "The user edits code in Neovim with the LazyVim distribution.", category="technical")
    add(alice, "咖啡", "用户喜欢喝手冲咖啡，不加糖。", tags=["饮料"])
    add(alice, "Tea", "The user drinks green tea in the afternoon.")
    old = add(alice, "Old job", "The user used to work at Initech.", category="business")
    assert alice.patch(f"/api/memories/{old['id']}", json={"enabled": False}).status_code == 200
    gone = add(alice, "Phone", "The user's phone number is 13812345678.")
    assert alice.delete(f"/api/memories/{gone['id']}").status_code == 204
    add(bob, "Editor", "The user prefers Emacs.", category="technical")
    for title, content in (("Standup", "The team meets at 9:30 every weekday."), ("VPN", "Use the corporate VPN.")):
        r = admin.post(
            "/api/admin/memories",
            json={"tenant": editor["tenant"], "title": title, "content": content, "category": "organizational"},
        )
        assert r.status_code == 201, r.text
    assert alice.put("/api/memories/settings", json={"learning_enabled": False}).status_code == 200
    assert admin.put("/api/admin/prompts/extraction", json={"prompt": EDITOR_PROMPT}).status_code == 200
    return {"editor": editor["id"], "old": old["id"]}


def _list(c: httpx.Client, **params: Any) -> dict[str, Any]:
    r = c.get("/api/memories", params={"limit": 100, **params})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _answers(url: str) -> dict[str, Any]:
    """What users and operators see, through the HTTP API."""
    alice, bob, admin = user_client(url, "alice"), user_client(url, "bob"), admin_client(url)
    tenant = _list(alice)["data"][0]["tenant"]
    audit = admin.get("/api/admin/audit-log", params={"limit": 200}).json()
    return {
        "alice": _list(alice, include_disabled="true"),
        "bob": _list(bob),
        "search": {q: [m["id"] for m in _list(alice, q=q)["data"]] for q in QUERIES},
        "stats": alice.get("/api/memories/stats").json(),
        "settings": [c.get("/api/memories/settings").json() for c in (alice, bob)],
        "admin_stats": admin.get("/api/admin/stats", params={"tenant": tenant}).json(),
        "users": admin.get("/api/admin/users").json(),
        # entries get new ids in the target: compare everything else, in order
        "audit": (audit["total"], [{k: v for k, v in e.items() if k != "id"} for e in audit["data"]]),
        "prompt": admin.get("/api/admin/prompts/extraction").json(),
    }


def _report(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.splitlines() if ": " in line)


def test_a_sqlite_store_moves_to_postgresql_and_answers_the_same(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path, pg_url: str
) -> None:
    sqlite_path = str(tmp_path / "db" / "memorelay.db")
    config = _config(tmp_path, sqlite_path)
    options: dict[str, Any] = {"filters": injection(), "auth": {"admin_key": ADMIN}, "memory": {"embedding": LOCAL}}
    with gateway(**options) as a:
        ids = _fill(a)
        # the first copy runs beside the live gateway, which keeps writing afterwards
        rc, out, err = _migrate(config, pg_url)
        assert rc == 0, err
        report = _report(out)
        assert report["memories"].startswith("7 copied, 0 updated, 0 already there"), out
        assert report["user settings"] == "1 copied" and report["prompt overrides"] == "1 copied", out
        assert report["vector index"].startswith("ready") and "13812345678" not in out
        alice = user_client(a, "alice")
        add(alice, "Meetings", "The user prefers meetings after lunch.", category="organizational")
        r = alice.patch(f"/api/memories/{ids['editor']}", json={"content": "The user edits code in Helix now."})
        assert r.status_code == 200
        assert alice.delete(f"/api/memories/{ids['old']}").status_code == 204
        assert alice.put("/api/memories/settings", json={"learning_enabled": True}).status_code == 200
        count = chat(a, "alice", QUESTION).headers["x-memorelay-memories"]
        injected = block_of(fake.last_chat().body["messages"])  # type: ignore[index]
        assert "Helix" in injected and "手冲咖啡" in injected

    rc, out, err = _migrate(config, pg_url)  # picks up what the gateway wrote since
    assert rc == 0, err
    assert _report(out)["memories"].startswith("1 copied, "), out
    assert _report(out)["memories"].endswith(" 1 deleted (deleted on the source)"), out
    assert _report(out)["user settings"] == "1 copied", out

    with gateway(**options) as a:  # the SQLite store as it stands
        before = _answers(a)
    assert before["search"]["editor"][0] == ids["editor"] and before["audit"][0] > 10

    pg_options = {**options, "memory": {"database": pg_url, "embedding": LOCAL}}
    with gateway(**pg_options) as b:
        assert _answers(b) == before
        raw = chat(b, "alice", QUESTION)
        assert block_of(fake.last_chat().body["messages"]) == injected  # type: ignore[index]
        assert raw.headers["x-memorelay-memories"] == count

        rc, out, err = _migrate(config, pg_url)  # again, with the target serving: nothing changes
        assert rc == 0, err
        assert _report(out)["memories"] == "0 copied, 0 updated, 7 already there, 0 deleted (deleted on the source)"
        assert "nothing new to copy" in out and _report(out)["audit log"] == "0 entries copied", out
        after = _answers(b)
    # access counts and uses (citation log) of the chat above are the only difference: the
    # target keeps them (uses are written within a second, so they may or may not show yet)
    assert after["stats"].pop("uses") >= before["stats"].pop("uses")
    for key in ("search", "stats", "settings", "admin_stats", "users", "audit", "prompt"):
        assert after[key] == before[key], key
    counted, counted_before = _access_counts(after), _access_counts(before)
    assert counted.keys() == counted_before.keys() and counted != counted_before
    assert all(counted[mid] >= n for mid, n in counted_before.items())


def _access_counts(answers: dict[str, Any]) -> dict[str, int]:
    return {m["id"]: m["access_count"] for m in answers["alice"]["data"]}


def test_a_target_embedded_with_another_model_is_refused(tmp_path: Path, pg_url: str) -> None:
    async def prepare() -> None:
        source = sqlite_backend(str(tmp_path / "memorelay.db"))
        target = postgres_backend(pg_url)
        for backend, model, dim in ((source, "model-a", 4), (target, "model-b", 8)):
            await backend.open()
            try:
                await backend.memories.prepare_vectors(model, dim)
            finally:
                await backend.close()

    asyncio.run(prepare())
    config = _config(tmp_path, str(tmp_path / "memorelay.db"))
    rc, out, err = _migrate(config, pg_url)
    assert rc == 1 and len(err.strip().splitlines()) == 1, err
    assert "nothing copied" in err and "model-b" in err and "model-a" in err and "Traceback" not in err
