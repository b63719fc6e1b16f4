"""Crash safety with a real gateway process: kill -9, then restart."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import openai
import yaml

from tests.e2e.test_learning import HIGH, learner, memories, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.fake_upstream import FakeUpstream
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def gateway_process(config: dict[str, Any], tmp: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    path = tmp / "gateway.yaml"
    path.write_text(yaml.safe_dump({**config, "server": {"port": port}}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "serve", "--config", str(path), "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: _ready(url, proc), timeout=90)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(30)


def _ready(url: str, proc: subprocess.Popen[bytes]) -> bool:
    if proc.poll() is not None:
        raise AssertionError(f"gateway exited: {proc.stderr.read().decode() if proc.stderr else ''}")
    try:
        return httpx.get(url + "/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def kill9(proc: subprocess.Popen[bytes]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)


QUERIES = ["which database do we run", "我喜欢什么饮料", "how do we deploy", "pets at home"]


def search_ids(url: str) -> list[list[str]]:
    c = user_client(url, "kim")
    return [[m["id"] for m in c.get("/api/memories", params={"q": q, "limit": 3}).json()["data"]] for q in QUERIES]


def test_kill9_then_restart_without_index_files_gives_same_results(tmp_path: Path, upstream_url: str) -> None:
    db = tmp_path / "data" / "memorelay.db"
    config = {
        "upstreams": {"default": {"api_base": upstream_url}},
        "memory": {"database": str(db), "embedding": {"provider": "local"}},
        "filters": [],
    }
    facts = [
        ("Database", "The team runs PostgreSQL 15 in production.", "technical"),
        ("饮料", "用户喜欢喝绿茶，不喝咖啡。", "user_preference"),
        ("Deploys", "Deploys go through ArgoCD on Kubernetes.", "technical"),
        ("Cat", "The user has a cat named Miso.", "user_preference"),
        ("Editor", "The user writes code in Neovim.", "user_preference"),
        ("Standup", "The team's standup is at 9:30.", "organizational"),
    ]
    with gateway_process(config, tmp_path) as (url, proc):
        c = user_client(url, "kim")
        ids = [add(c, t, body, cat)["id"] for t, body, cat in facts]
        c.delete(f"/api/memories/{ids[4]}")
        before = search_ids(url)
        kill9(proc)
    assert before[0][0] == ids[0] and before[1][0] == ids[1]
    shutil.rmtree(str(db) + ".index", ignore_errors=True)
    with gateway_process(config, tmp_path) as (url, _):
        assert search_ids(url) == before
        listed = [m["id"] for m in user_client(url, "kim").get("/api/memories").json()["data"]]
        assert ids[4] not in listed and len(listed) == 5


def test_learning_job_survives_kill9(tmp_path: Path, upstream_url: str, fake: FakeUpstream) -> None:
    items = [
        {
            "title": "Build tool",
            "content": "The user's team builds with Bazel.",
            "category": "technical",
        }
    ]
    fake.responder = learner(HIGH, items)
    config = {
        "auth": {"keys": [{"key": "gw-key", "tenant": "acme"}], "admin_key": "adm"},
        "upstreams": {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}},
        "memory": {"database": str(tmp_path / "memorelay.db"), "embedding": {"provider": "none"}},
        # a job left running by the killed process is claimed again when its lease runs out
        "filters": [{"learning": {"model": "gated-learner", "workers": 1, "lease_s": 2}}],
    }
    with gateway_process(config, tmp_path) as (url, proc):
        c = openai.OpenAI(
            base_url=url + "/v1",
            api_key="gw-key",
            max_retries=0,
            default_headers={"X-Memorelay-User": "lee"},
        )
        c.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "We build with Bazel."}])
        wait_for(lambda: fake.gated_calls >= 1)  # the job is in flight, held by its learner call
        kill9(proc)
    fake.release.set()
    with gateway_process(config, tmp_path) as (url, _):
        headers = {"authorization": "Bearer gw-key", "x-memorelay-user": "lee"}
        found = wait_for(lambda: httpx.get(url + "/api/memories", headers=headers).json()["data"], timeout=30)
        assert found[0]["content"] == "The user's team builds with Bazel."
        admin = {"authorization": "Bearer adm"}
        logged = wait_for(lambda: httpx.get(url + "/api/admin/learning-log", headers=admin).json()["data"])
        assert len(logged) == 1  # the job ran to its end once, after the restart
        assert len(httpx.get(url + "/api/memories", headers=headers).json()["data"]) == 1


def test_shutdown_drains_an_in_flight_stream(tmp_path: Path, upstream_url: str, fake: FakeUpstream) -> None:
    config = {
        "upstreams": {"default": {"api_base": upstream_url}},
        "memory": {"database": str(tmp_path / "memorelay.db"), "embedding": {"provider": "none"}},
        "filters": [],
    }
    body = {"model": "gated-stream", "messages": [{"role": "user", "content": "a b c"}], "stream": True}
    with gateway_process(config, tmp_path) as (url, proc):
        with httpx.stream(
            "POST", url + "/v1/chat/completions", json=body, headers={"authorization": "Bearer k"}, timeout=20
        ) as r:
            lines = r.iter_lines()
            assert next(line for line in lines if line.startswith("data:"))
            proc.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            assert proc.poll() is None  # still serving the open stream
            fake.release.set()
            rest = [line for line in lines if line.startswith("data:")]
        assert rest[-1] == "data: [DONE]"
        assert proc.wait(20) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal after a clean drain


def test_a_learning_job_is_durable_before_the_client_has_the_answer(
    tmp_path: Path, upstream_url: str, fake: FakeUpstream
) -> None:
    """SIGKILL right after the client has a plain or streamed answer: after a restart it is learned."""
    config = {
        "auth": {"admin_key": "adm"},
        "upstreams": {"default": {"api_base": upstream_url}},
        "memory": {"database": str(tmp_path / "memorelay.db"), "embedding": {"provider": "none"}},
        # the job is written before the answer when the store answers within store_timeout_ms
        # (a slower write goes on in the background): a generous bound keeps this machine's
        # load from deciding the test
        "filters": [{"learning": {"model": "heuristic", "workers": 1, "lease_s": 2, "store_timeout_ms": 10_000}}],
    }
    said = {
        False: "Remember: our staging cluster is called orca-staging.",
        True: "Remember: the release day is Tuesday.",
    }
    for stream in (False, True):
        with gateway_process(config, tmp_path) as (url, proc):
            c = openai.OpenAI(
                base_url=url + "/v1", api_key="sk-app", max_retries=0, default_headers={"X-Memorelay-User": "pat"}
            )
            msgs: Any = [{"role": "user", "content": said[stream]}]
            if stream:
                with c.chat.completions.with_streaming_response.create(
                    model="gpt-4o-mini", messages=msgs, stream=True
                ) as r:
                    lines = list(r.iter_lines())
                    kill9(proc)
                assert "data: [DONE]" in lines
            else:
                r2 = c.chat.completions.with_raw_response.create(model="gpt-4o-mini", messages=msgs)
                kill9(proc)
                r = r2  # type: ignore[assignment]
            assert r.headers["x-memorelay-learning"] == "queued"
    with gateway_process(config, tmp_path) as (url, _):
        found = wait_for(lambda: len(memories(url, "pat")) == 2 and memories(url, "pat"), timeout=30)
        text = " ".join(m["content"] for m in found)
        assert "orca-staging" in text and "Tuesday" in text
