"""The partial file a killed backup leaves behind is removed by the next backup; one that a
running backup is still writing is left alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import yaml

from tests.test_cli import memorelay


def test_the_next_backup_removes_a_killed_backups_partial_file_but_not_a_live_one(tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    config = tmp_path / "memorelay.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "memory": {"database": str(tmp_path / "memorelay.db"), "embedding": {"provider": "none"}},
                "backup": {"folder": str(folder)},
            }
        )
    )
    # what a backup killed a minute ago leaves: compressed memories under a hidden name
    leftover = folder / ".memorelay-20260101-000000-000.jsonl.gz.partial"
    leftover.write_bytes(os.urandom(4096))
    live = folder / ".memorelay-20260101-000001-000.jsonl.gz.partial"
    live.write_bytes(b"")
    minute_ago = time.time() - 60
    for path in (leftover, live):
        os.utime(path, (minute_ago, minute_ago))
    # another backup process still writing its file holds it locked
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time\n"
            "f = open(sys.argv[1], 'ab')\n"
            "fcntl.flock(f.fileno(), fcntl.LOCK_EX)\n"
            "print('locked', flush=True)\n"
            "time.sleep(120)\n",
            str(live),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        r = memorelay("backup", "--config", str(config), cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert not leftover.exists()
        assert live.exists()
        assert len(list(folder.glob("memorelay-*.jsonl.gz"))) == 1
        r = memorelay("backup", "--out", str(tmp_path / "elsewhere" / "b.jsonl.gz"), "--config", str(config))
        assert r.returncode == 0, r.stderr
    finally:
        holder.kill()
        holder.wait()
    r = memorelay("backup", "--config", str(config), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not list(folder.glob(".*.partial"))  # its writer is gone: the next backup takes it away
