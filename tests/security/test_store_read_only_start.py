"""A database folder the gateway cannot write: start-up ends within 5 s with one
``memorelay cannot start: …`` line naming the database, and no traceback."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.servers import free_port
from tests.test_cli import ROOT
from tests.waits import scaled


@pytest.fixture
def read_only_folder() -> Iterator[tuple[Path, list[str]]]:
    """A folder the gateway's user may read but not write, and the command prefix that runs
    the gateway as that user (as root: ``nobody`` through setpriv)."""
    folder = Path(tempfile.mkdtemp(prefix="memorelay-ro-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        probe = [setpriv or "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "true"]
        if setpriv is None or subprocess.run(probe, capture_output=True).returncode != 0:
            pytest.skip("SKIPPED LOUDLY: running as root without a working setpriv, so no read-only folder")
        prefix = probe[:-1]
    try:
        yield folder, prefix
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("existing", [False, True])
def test_a_read_only_database_folder_stops_start_up_in_one_line(
    read_only_folder: tuple[Path, list[str]], existing: bool
) -> None:
    folder, prefix = read_only_folder
    database = folder / "memorelay.db"
    if existing:  # a database file the user may write, in a folder where -wal/-shm cannot be made
        with sqlite3.connect(database) as db:
            db.execute("CREATE TABLE t (a)")
        database.chmod(0o666)
    config = folder / "gateway.yaml"
    raw = {
        "server": {"port": free_port()},
        "memory": {"database": str(database), "embedding": {"provider": "none"}},
        "filters": [{"learning": {"model": "heuristic"}}],
    }
    config.write_text(yaml.safe_dump(raw))
    config.chmod(0o644)
    folder.chmod(0o555)
    started = time.monotonic()
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "gateway", "serve", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    took = time.monotonic() - started
    stderr = done.stderr.decode()
    assert done.returncode != 0
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if "memorelay cannot start" in line]
    assert len(lines) == 1 and str(database) in lines[0], stderr
    assert took < scaled(5), f"exited after {took:.1f} s"
