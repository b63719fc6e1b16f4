"""One gateway process per SQLite file: a second ``serve`` on it refuses in one line (CLI
reads still run beside the first), and a restarted gateway takes back the dead run's
learning jobs at once instead of waiting out their lease."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import yaml

from tests.e2e.test_durability import ROOT, gateway_process, kill9
from tests.e2e.test_learning import HIGH, learner, wait_for
from tests.fake_upstream import FakeUpstream
from tests.servers import free_port
from tests.test_cli import memorelay
from tests.waits import scaled


def test_a_second_gateway_on_the_same_sqlite_file_refuses_in_one_line(tmp_path: Path, upstream_url: str) -> None:
    database = tmp_path / "memorelay.db"
    config: dict[str, Any] = {
        "upstreams": {"default": {"api_base": upstream_url}},
        "memory": {"database": str(database), "embedding": {"provider": "none"}},
        "filters": [],
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with gateway_process(config, tmp_path / "a") as (url, proc):
        second = tmp_path / "b" / "gateway.yaml"
        second.write_text(yaml.safe_dump({**config, "server": {"port": free_port()}}))
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "gateway", "serve", "--config", str(second)],
            cwd=ROOT,
            capture_output=True,
            timeout=60,
        )
        took = time.monotonic() - started
        stderr = done.stderr.decode()
        assert done.returncode != 0 and "Traceback" not in stderr, stderr
        (line,) = [x for x in stderr.splitlines() if "memorelay cannot start" in x]
        assert f"pid {proc.pid}" in line and str(database) in line, line
        assert took < scaled(5), took
        assert httpx.get(url + "/healthz").status_code == 200  # the first one serves on
        # a read command runs beside the serving gateway
        r = memorelay(
            "memories", "list", "--user", "ann", "--tenant", "t", "--config", str(tmp_path / "a" / "gateway.yaml")
        )
        assert r.returncode == 0, r.stderr
    # the lock ends with the process: the next one starts
    with gateway_process(config, tmp_path / "b") as (url, _):
        assert httpx.get(url + "/healthz").status_code == 200


def test_a_restarted_gateway_takes_back_the_dead_runs_job_at_once(
    tmp_path: Path, upstream_url: str, fake: FakeUpstream
) -> None:
    fake.responder = learner(
        HIGH, [{"title": "Build", "content": "The team builds with Bazel.", "category": "technical"}]
    )
    config = {
        "auth": {"keys": [{"key": "gw-key", "tenant": "acme"}], "admin_key": "adm"},
        "upstreams": {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}},
        "memory": {"database": str(tmp_path / "memorelay.db"), "embedding": {"provider": "none"}},
        # the default lease: a restart that waited it out would take two minutes
        "filters": [{"learning": {"model": "gated-learner", "workers": 1, "lease_s": 120}}],
    }
    with gateway_process(config, tmp_path) as (url, proc):
        c = openai.OpenAI(
            base_url=url + "/v1", api_key="gw-key", max_retries=0, default_headers={"X-Memorelay-User": "lee"}
        )
        c.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "We build with Bazel."}])
        wait_for(lambda: fake.gated_calls >= 1, timeout=60)  # the job is running, held by its learner call
        kill9(proc)
    fake.release.set()
    with gateway_process(config, tmp_path) as (url, _):
        restarted = time.monotonic()
        headers = {"authorization": "Bearer gw-key", "x-memorelay-user": "lee"}
        found = wait_for(lambda: httpx.get(url + "/api/memories", headers=headers).json()["data"], timeout=60)
        assert found[0]["content"] == "The team builds with Bazel."
        assert time.monotonic() - restarted < 60
