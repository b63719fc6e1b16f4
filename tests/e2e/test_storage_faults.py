"""Storage faults and limits through real HTTP on a real SQLite file:
a full database answers 507 and stops promising learning, a locked database delays learning
but loses nothing, and manual memories have a per-user cap."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import string
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, HIGH, learner, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream


def _noise(n: int) -> str:
    return "".join(random.choices(string.ascii_letters + " ", k=n))


def test_manual_memories_have_a_per_user_cap(gateway: GatewayFactory) -> None:
    with gateway(memory={"max_manual_memories_per_user": 3}) as url:
        c = user_client(url, "ann")
        made = [add(c, f"Fact {i}", f"The user likes thing number {i}.") for i in range(3)]
        r = c.post("/api/memories", json={"title": "One more", "content": "too many", "category": "domain"})
        assert r.status_code == 429
        error = r.json()["error"]
        assert error["code"] == "too_many_memories" and error["type"] == "rate_limit_error"
        assert "max_manual_memories_per_user" in error["message"] and "3" in error["message"]
        add(user_client(url, "bob"), "Bob's own", "Other users have their own cap.")
        assert c.delete(f"/api/memories/{made[0]['id']}").status_code == 204
        add(c, "Room again", "After a delete there is room for one more.")


def test_full_database_answers_507_and_learning_is_skipped_not_queued(gateway: GatewayFactory, tmp_path: Path) -> None:
    # memory.max_database_mb caps the file (PRAGMA max_page_count): past it SQLite says SQLITE_FULL,
    # exactly as on a full disk
    filters = [{"learning": {"model": "heuristic", "workers": 1}}]
    with gateway(memory={"max_database_mb": 0.3}, filters=filters, auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "cy")
        headers = say(url, "cy", "I prefer tabs over spaces in every project.")
        assert headers["x-memorelay-learning"] == "queued"
        for _ in range(200):
            r = c.post("/api/memories", json={"title": "Filler", "content": _noise(7000), "category": "domain"})
            if r.status_code != 201:
                break
        assert r.status_code == 507, r.text
        error = r.json()["error"]
        assert error["code"] == "insufficient_storage" and error["type"] == "server_error"
        assert "full" in error["message"]
        headers = say(url, "cy", "We deploy with ArgoCD on Kubernetes every Friday.")
        assert headers["x-memorelay-learning"] == "skipped; reason=store-unavailable"
        metrics = httpx.get(url + "/metrics").text
        assert 'reason="store-unavailable"' in metrics


def test_locked_database_delays_a_learning_job_but_never_dead_letters_it(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    items = [{"title": "Build tool", "content": "The user's team builds with Bazel.", "category": "technical"}]
    fake.responder = learner(HIGH, items)
    database = tmp_path / "db" / "memorelay.db"
    filters = [{"learning": {"model": "gated-learner", "workers": 1}}]
    with gateway(memory={"busy_timeout_ms": 50}, filters=filters, auth={"admin_key": ADMIN}) as url:
        say(url, "dee", "We build everything with Bazel.")
        wait_for(lambda: fake.gated_calls >= 1)  # the job is running, held in its learner call
        other = sqlite3.connect(database, check_same_thread=False)
        try:
            other.execute("BEGIN IMMEDIATE")  # another writer holds the lock well past busy_timeout
            release = threading.Timer(2.0, other.commit)
            release.start()
            fake.release.set()
            release.join()
        finally:
            other.close()
        found = wait_for(lambda: memories(url, "dee"), timeout=30)
        assert found[0]["content"] == "The user's team builds with Bazel."
        entries = wait_for(lambda: log_entries(url))
        assert [e.get("error") for e in entries] == [None]
        stats = httpx.get(url + "/api/admin/stats", headers={"authorization": f"Bearer {ADMIN}"}).json()
        assert stats["learning"]["jobs"] == {"done": 1}


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MiB tmpfs (root and a permitted mount only), so the disk itself fills up."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("SKIPPED LOUDLY: a real full-disk test needs root to mount a tmpfs")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"SKIPPED LOUDLY: mounting a tmpfs is not permitted here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def test_real_full_disk_answers_507_and_learning_is_skipped(gateway: GatewayFactory, tiny_disk: Path) -> None:
    filters = [{"learning": {"model": "heuristic", "workers": 1}}]
    memory = {"database": str(tiny_disk / "memorelay.db")}
    with gateway(memory=memory, filters=filters) as url:
        c = user_client(url, "fay")
        for _ in range(300):
            r = c.post("/api/memories", json={"title": "Filler", "content": _noise(7000), "category": "domain"})
            if r.status_code != 201:
                break
        assert r.status_code == 507, r.text
        assert r.json()["error"]["code"] == "insufficient_storage"
        headers = say(url, "fay", "We deploy with ArgoCD on Kubernetes every Friday.")
        assert headers["x-memorelay-learning"] == "skipped; reason=store-unavailable"
