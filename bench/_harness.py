"""Shared benchmark plumbing: start the fake upstream and a gateway as real processes."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]


def export_tree(commit: str) -> Path:
    """The files of ``commit`` under /tmp (``git archive``: the repository is left as it is),
    to run an earlier version's gateway beside this one in the same run."""
    target = Path(tempfile.gettempdir()) / f"memorelay-base-{commit}"
    if not (target / "gateway").is_dir():
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} not ready")


# pid of the latest process started under each role ("upstream", "gateway"), for CPU accounting
PIDS: dict[str, int] = {}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def process(
    args: list[str],
    ready_url: str,
    env: dict[str, str] | None = None,
    role: str = "",
    log_path: Path | None = None,
    cwd: Path = ROOT,
) -> Iterator[subprocess.Popen[bytes]]:
    # a file, not a pipe: a chatty process must never block on it
    log = open(log_path, "w+b") if log_path is not None else tempfile.TemporaryFile()
    proc = subprocess.Popen(
        args,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    if role:
        PIDS[role] = proc.pid
    try:
        try:
            wait_ready(ready_url)
        except RuntimeError:
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace")[-4000:])
            raise
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextmanager
def fake_upstream(factory: str = "tests.fake_upstream:bench_app") -> Iterator[str]:
    port = free_port()
    args = [
        sys.executable,
        "-m",
        "uvicorn",
        factory,
        "--factory",
        "--port",
        str(port),
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    with process(args, f"http://127.0.0.1:{port}/v1/models", role="upstream"):
        yield f"http://127.0.0.1:{port}/v1"


@contextmanager
def gateway(
    upstream: str,
    filters: list[Any],
    extra: dict[str, Any] | None = None,
    database: str | None = None,
    log_path: Path | None = None,
    tree: Path = ROOT,
    role: str = "gateway",
) -> Iterator[str]:
    """A gateway process on a free port, running the code of ``tree`` (an ``export_tree`` of an
    earlier commit, or this checkout); its stderr goes to ``log_path`` when given."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        config = {
            "server": {"port": port, "access_log": False},
            "upstreams": {"default": {"api_base": upstream}},
            "memory": {"database": database or f"{tmp}/memorelay.db"},
            "filters": filters,
        }
        for key, value in (extra or {}).items():
            if isinstance(value, dict):
                config.setdefault(key, {}).update(value)
            else:
                config[key] = value
        path = Path(tmp) / "bench.yaml"
        path.write_text(yaml.safe_dump(config))
        args = [
            sys.executable,
            "-m",
            "gateway",
            "serve",
            "--config",
            str(path),
            "--log-level",
            "warning",
        ]
        env = {"PYTHONPATH": str(tree)} if tree != ROOT else None
        with process(args, f"http://127.0.0.1:{port}/readyz", env=env, role=role, log_path=log_path, cwd=tree):
            yield f"http://127.0.0.1:{port}/v1"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(values: list[float]) -> str:
    return f"p50 {pct(values, 50):7.3f} ms  p99 {pct(values, 99):7.3f} ms  mean {statistics.fmean(values):7.3f} ms"
