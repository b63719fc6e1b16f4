"""Scheduled backups (config ``backup``): the gateway writes a ``memorelay backup`` file into
``backup.folder`` every ``interval_h`` hours and deletes the oldest beyond ``keep``.

With several replicas on one PostgreSQL database only one writes each backup: a replica
runs the job only while it holds the database's ``backup`` advisory lock, and skips a round
when another replica recorded a backup less than half an interval ago (meta
``last_scheduled_backup``). On one host a lock file in the folder keeps processes apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import time
from collections.abc import Iterator
from pathlib import Path

from gateway.config import BackupConfig
from gateway.memory.backup import backup_name, write_backup
from gateway.store import Backend

log = logging.getLogger("memorelay")
PATTERN = "memorelay-*.jsonl.gz"
LAST = "last_scheduled_backup"


async def backup_every(backend: Backend, config: BackupConfig) -> None:
    """Run until cancelled: one scheduled backup per interval (the first one interval after start)."""
    interval = config.interval_h * 3600
    while True:
        await asyncio.sleep(interval)
        try:
            await scheduled_backup(backend, config)
        except Exception:  # boundary: a failed backup is logged and tried again next round
            log.exception("scheduled backup into %s failed", config.folder)


async def scheduled_backup(backend: Backend, config: BackupConfig) -> Path | None:
    """Write one backup and prune; None when another process holds the job or did it recently."""
    folder = Path(config.folder)
    folder.mkdir(parents=True, exist_ok=True)
    with _folder_lock(folder) as mine:
        if not mine:
            return None
        async with backend.memories.exclusive("backup") as held:
            if not held:
                return None
            last = await backend.memories.get_meta(LAST)
            if last is not None and time.time() - float(last) < config.interval_h * 3600 / 2:
                return None  # another replica did this round
            out = folder / backup_name()
            started = time.monotonic()
            counts = await write_backup(backend, out)
            await backend.memories.set_meta(LAST, f"{time.time():.3f}")
            log.info("scheduled backup %s: %s in %.1f s", out, counts.line(), time.monotonic() - started)
            prune(folder, config.keep)
            return out


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete the oldest backups beyond ``keep`` (names sort by time); answers those deleted."""
    backups = sorted(folder.glob(PATTERN))
    gone = backups[: max(0, len(backups) - keep)]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[bool]:
    with open(folder / ".lock", "a+b") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
