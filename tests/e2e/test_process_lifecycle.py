"""The gateway process and its helpers: the PII scrubber child dies with the gateway, a
clean shutdown leaks nothing, a start-up failure exits promptly."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.e2e.test_durability import ROOT, gateway_process, kill9
from tests.e2e.test_learning import wait_for
from tests.servers import free_port
from tests.waits import ceiling


def children(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (from /proc, Linux)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def scrubber_child(gateway_pid: int) -> int:
    """The scrubber process: the child of the gateway running the pool's worker."""

    def find() -> int | None:
        for pid in children(gateway_pid):
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"resource_tracker" not in cmdline:
                return pid
        return None

    pid = wait_for(find, timeout=30)
    assert isinstance(pid, int)
    return pid


def learning_config(tmp: Path, upstream_url: str) -> dict[str, Any]:
    return {
        "upstreams": {"default": {"api_base": upstream_url}},
        "memory": {"database": str(tmp / "memorelay.db"), "embedding": {"provider": "none"}},
        "filters": [{"learning": {"model": "heuristic", "workers": 1}}],
    }


def test_kill9_of_the_gateway_takes_the_scrubber_with_it(tmp_path: Path, upstream_url: str) -> None:
    with gateway_process(learning_config(tmp_path, upstream_url), tmp_path) as (_, proc):
        child = scrubber_child(proc.pid)
        assert alive(child)
        kill9(proc)
    try:  # the kernel's parent-death signal is at once; a loaded machine may be slow to reap
        wait_for(lambda: not alive(child))
    except AssertionError:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the PII scrubber outlived the gateway's kill -9") from None


def test_sigterm_shutdown_leaks_no_semaphores(tmp_path: Path, upstream_url: str) -> None:
    with gateway_process(learning_config(tmp_path, upstream_url), tmp_path) as (_, proc):
        child = scrubber_child(proc.pid)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) in (0, -signal.SIGTERM)
        assert proc.stderr is not None
        stderr = proc.stderr.read().decode()
    assert "leaked semaphore" not in stderr, stderr
    assert "resource_tracker" not in stderr, stderr
    assert not alive(child)


def start_and_wait(config: dict[str, Any], folder: Path, prefix: list[str] | None = None) -> tuple[int, str]:
    """Run ``serve`` with ``config`` until it exits (it must, within a minute)."""
    path = folder / "gateway.yaml"
    path.write_text(yaml.safe_dump({**config, "server": {"port": free_port()}}))
    path.chmod(0o644)
    command = [*(prefix or []), sys.executable, "-m", "gateway", "serve", "--config", str(path)]
    try:
        done = subprocess.run(command, cwd=ROOT, env={**os.environ}, capture_output=True, timeout=ceiling(60))
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"start-up failed but the process did not exit: {exc.stderr!r}") from exc
    return done.returncode, done.stderr.decode()


def test_startup_exits_when_the_database_folder_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    database = tmp_path / "a-file" / "data" / "memorelay.db"
    config = {"memory": {"database": str(database), "embedding": {"provider": "none"}}, "filters": []}
    code, stderr = start_and_wait(config, tmp_path)
    assert code != 0
    assert f"cannot create the folder of the memory database {database}" in stderr


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder an unprivileged user can read (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="memorelay-ro-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_startup_exits_on_a_read_only_database(shared_folder: Path) -> None:
    database = shared_folder / "memorelay.db"
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE t (a)")
    database.chmod(0o444)
    prefix: list[str] = []
    if os.geteuid() == 0:  # permissions do not stop root: run the gateway as nobody
        setpriv = shutil.which("setpriv")
        probe = [setpriv or "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "true"]
        if setpriv is None or subprocess.run(probe, capture_output=True).returncode != 0:
            pytest.skip("SKIPPED LOUDLY: running as root without a working setpriv, so no read-only database")
        prefix = probe[:-1]
    else:
        shared_folder.chmod(0o555)
    config = {"memory": {"database": str(database), "embedding": {"provider": "none"}}, "filters": []}
    try:
        code, stderr = start_and_wait(config, shared_folder, prefix)
    finally:
        shared_folder.chmod(0o755)
    assert code != 0
    assert f"cannot open the memory database {database}" in stderr, stderr
