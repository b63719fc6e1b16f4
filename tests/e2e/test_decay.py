"""Decay through the HTTP surface: an auto memory's strength fades with time since its last use,
so the per-user cap and retention drop the one unused the longest first; pinned and manual ones stay."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import GatewayFactory
from tests.console.helpers import mint
from tests.e2e.test_learning import ADMIN, HIGH, learner, learning, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream

LONG_AGO = "2025-01-01T00:00:00Z"  # far past 4 half-lives of 90 days: below the 0.05 floor


def items(*titles: str) -> list[dict[str, Any]]:
    return [{"title": t, "content": f"The user {t.lower()}.", "category": "user_preference"} for t in titles]


def age(db: Path, ids: list[str], score: float = 0.9) -> None:
    """Created and last used (once) long ago: the gateway offers no way to do that. Used
    once, such a memory outranks a fresh never-used one by access count; only decay says
    otherwise."""
    marks = ", ".join("?" * len(ids))
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(
            "UPDATE memories SET created_at = ?, updated_at = ?, last_access_at = ?, access_count = 1 "
            f"WHERE id IN ({marks})",
            [LONG_AGO, LONG_AGO, LONG_AGO, *ids],
        )
        conn.execute("UPDATE memories SET score = ? WHERE source = 'auto'", [score])


def test_the_cap_evicts_the_decayed_auto_memory_and_spares_pinned_and_manual(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    options = learning(max_memories_per_user=4)
    with gateway(filters=options, auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "erin")
        fake.responder = learner(HIGH, items("Likes tea", "Rides a bike", "Reads sci-fi"))
        say(url, "erin", "I like tea, I ride a bike to work and I read sci-fi.")
        learned = {m["title"]: m for m in wait_for(lambda: len(memories(url, "erin")) == 3 and memories(url, "erin"))}
        assert c.patch(f"/api/memories/{learned['Reads sci-fi']['id']}", json={"pinned": True}).status_code == 200
        manual = add(c, "Timezone", "The user is in Berlin time.")
        old, fresh, pinned = (learned[t]["id"] for t in ("Likes tea", "Rides a bike", "Reads sci-fi"))
        # same score for every auto memory: only the time since last use tells them apart
        age(tmp_path / "db" / "memorelay.db", [old, pinned, manual["id"]])
        stats = c.get("/api/memories/stats").json()
        assert stats["total"] == 4 and stats["weak"] == 1  # the old unpinned auto one only
        page = httpx.Client(base_url=url)
        assert page.get(mint(url, "erin")).status_code == 200
        assert '<dd id="stat-fading">1</dd>' in page.get("/me/").text  # the user's own page shows it

        fake.responder = learner(HIGH, items("Owns a cat"))
        say(url, "erin", "I own a cat.")
        # the job's log entry is written once it is done, eviction included
        wait_for(lambda: len([e for e in log_entries(url) if e["user_id"] == "erin"]) == 2)
        left = {m["title"] for m in memories(url, "erin")}
        assert left == {"Rides a bike", "Reads sci-fi", "Timezone", "Owns a cat"}
        assert c.get(f"/api/memories/{old}").status_code == 404
        assert {fresh, pinned, manual["id"]} <= {m["id"] for m in memories(url, "erin")}
        assert c.get("/api/memories/stats").json()["weak"] == 0


def test_retention_drops_decayed_auto_memories_only(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    with gateway(filters=learning(retention_interval_s=0.2), auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "finn")
        fake.responder = learner(HIGH, items("Likes tea", "Rides a bike"))
        say(url, "finn", "I like tea and I ride a bike to work.")
        learned = {
            m["title"]: m["id"] for m in wait_for(lambda: len(memories(url, "finn")) == 2 and memories(url, "finn"))
        }
        assert c.patch(f"/api/memories/{learned['Rides a bike']}", json={"pinned": True}).status_code == 200
        manual = add(c, "Timezone", "The user is in Berlin time.")
        # used once, long ago: retention_days alone (never-accessed memories) would keep it
        age(tmp_path / "db" / "memorelay.db", [*learned.values(), manual["id"]])
        wait_for(lambda: c.get(f"/api/memories/{learned['Likes tea']}").status_code == 404)
        assert {m["title"] for m in memories(url, "finn")} == {"Rides a bike", "Timezone"}


def test_a_kind_over_its_cap_loses_its_weakest_auto_memory_and_episodes_fade_faster(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    options = learning(max_per_kind={"fact": 2}, episode_half_life_days=30)
    db = tmp_path / "db" / "memorelay.db"
    with gateway(filters=options, auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "gus")
        fake.responder = learner(HIGH, items("Likes tea", "Rides a bike"))
        say(url, "gus", "I like tea and I ride a bike to work.")
        learned = {
            m["title"]: m["id"] for m in wait_for(lambda: len(memories(url, "gus")) == 2 and memories(url, "gus"))
        }
        age(db, [learned["Likes tea"]])
        add(c, "Daughter", "Mia is the user's daughter.", kind="relation")  # another kind: not in the fact cap
        fake.responder = learner(HIGH, items("Owns a cat"))
        say(url, "gus", "I own a cat.")
        # the job's log entry is written once it is done, eviction included
        wait_for(lambda: len([e for e in log_entries(url) if e["user_id"] == "gus"]) == 2)
        left = {m["title"] for m in memories(url, "gus")}
        assert left == {"Rides a bike", "Owns a cat", "Daughter"}  # the decayed fact went
        assert c.get("/api/memories/stats").json()["by_kind"] == {"fact": 2, "relation": 1}
        # unused for 200 days: a fact (90-day half-life) keeps 0.21 of its strength, an episode
        # (30 days here) 0.01, below the 0.05 floor
        assert c.patch(f"/api/memories/{learned['Rides a bike']}", json={"kind": "episode"}).status_code == 200
        unused = (datetime.now(UTC) - timedelta(days=200)).strftime("%Y-%m-%dT%H:%M:%SZ")
        with contextlib.closing(sqlite3.connect(db)) as conn, conn:
            conn.execute(
                "UPDATE memories SET updated_at = ?, last_access_at = NULL, score = 1.0 WHERE source = 'auto'",
                [unused],
            )
        assert c.get("/api/memories/stats").json()["weak"] == 1
