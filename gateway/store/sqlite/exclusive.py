"""``hold_database``: what ``memorelay serve`` checks and takes before it starts on a SQLite file.

One gateway process serves one SQLite database: its vector index, working set and learning
workers assume no other gateway writes the file. ``serve`` takes an exclusive ``flock`` on
``<database>.lock`` for the life of the process (the kernel lets go when the process dies,
also after ``kill -9``), so a second ``serve`` on the same file refuses at once. Being alone,
it also takes back the learning jobs the previous, dead run left ``running``, instead of
waiting out their lease.

CLI commands do not take the lock: reads (``memories list``, ``export``, ``backup``,
``migrate``) run beside a serving gateway, and SQLite's own locking keeps any write
consistent (the README says to stop the gateway for writes: its in-memory index would not
see them until it restarts).

It also makes the failures that would otherwise surface deep in start-up (a folder or file
the process cannot write) one clear line before anything slow is loaded.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import IO


class DatabaseUnavailable(RuntimeError):
    """The database cannot be served by this process; the message says why, in one line."""


@dataclass
class DatabaseLock:
    """The open lock file; the lock lasts as long as it stays open."""

    path: Path
    file: IO[str]

    def release(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()


# the locks this process holds: kept referenced, so their files stay open (and locked)
_held: list[DatabaseLock] = []


def hold_database(database: str) -> DatabaseLock | None:
    """Check that ``database`` (a SQLite path) can be served by this process, take its lock
    and free the dead run's jobs. None for in-memory and ``file:`` URI databases (not
    checked). Raises ``DatabaseUnavailable``."""
    if database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database)
    _check_writable(path)
    lock = _lock(path)
    try:
        _free_dead_runs_jobs(path)
    except sqlite3.Error as exc:
        lock.release()
        raise DatabaseUnavailable(f"cannot open the memory database {path}: {exc}") from exc
    _held.append(lock)
    return lock


def _check_writable(path: Path) -> None:
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnavailable(f"cannot create the folder of the memory database {path}: {exc}") from exc
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnavailable(f"cannot open the memory database {path}: the file is read-only for this user")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseUnavailable(
            f"cannot open the memory database {path}: its folder {folder} is read-only for this user "
            f"(SQLite keeps {path.name}-wal, -shm and the lock file beside the database)"
        )


def _lock(path: Path) -> DatabaseLock:
    lock_path = path.with_name(path.name + ".lock")
    try:
        file = open(lock_path, "a+")  # held open for the life of the process
    except OSError as exc:
        raise DatabaseUnavailable(f"cannot open the memory database {path}: {lock_path}: {exc}") from exc
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.seek(0)
        holder = file.read().strip()[:20] or "unknown"
        file.close()
        raise DatabaseUnavailable(
            f"another memorelay process (pid {holder}) is serving the memory database {path}: "
            "stop it first, or give this one another memory.database"
        ) from None
    file.seek(0)
    file.truncate()
    file.write(f"{os.getpid()}\n")
    file.flush()
    return DatabaseLock(lock_path, file)


def _free_dead_runs_jobs(path: Path) -> None:
    """Jobs left ``running`` belong to a run that died (no other process can hold the file):
    claimable at once."""
    if not path.exists():
        return
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as db:
        found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'learning_jobs'").fetchone()
        if found is None:
            return
        with db:
            db.execute("UPDATE learning_jobs SET lease_until = 0 WHERE status = 'running'")
