"""``SQLiteLearningStore``: durable learning state in SQLite (``store.LearningStore``): the job
queue, the learning log, prompt overrides, usage. Tables: ``schema.MIGRATIONS`` 7 to 9.

Jobs survive a restart: a job is ``pending`` until a worker leases it (``running`` with
``lease_until`` and a fresh lease token, ``lease_holder``); a lease that runs out (the
process died) makes it claimable again, and nothing else does (no re-queue at start:
another replica's jobs may be running); after ``max_attempts`` it is ``dead``. A job may
name the replica holding its caller key in memory (``key_holder``); other replicas get it
only ``holder_wait_s`` after it was created (see ``gateway.learning.runtime.workers``). ``renew``,
``finish`` and ``retry`` change a job only while the caller's token is still the job's: a
worker that outlived its lease writes nothing (``finish`` writes the learning-log entry in
the same transaction). The conversation payload is wiped when the job is done (data
minimisation); a dead job keeps it for an operator's retry until retention
(``workers.DEAD_PAYLOAD_KEEP_S``) or the user's "clear all". API keys are never written here.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
import orjson

from gateway.errors import InsufficientStorage, StorageUnavailable

from ..errors import StoreBusy
from ..records import Job
from ..sql.base import SQLITE
from ..sql.base import iso as _iso
from ..sql.learning import SqlLearningShared
from .connection import SerialConnection
from .faults import StoreHealth


@dataclass(frozen=True, slots=True)
class _Result:
    rows: list[Any]
    lastrowid: int | None
    rowcount: int


class SQLiteLearningStore(SerialConnection, SqlLearningShared):
    """Its own connection to the memory database file (see ``connection.SerialConnection``):
    the workers, the learning filter and the admin API share it from concurrent coroutines."""

    name = "learning store"
    dialect = SQLITE

    def __init__(
        self,
        database_path: str,
        *,
        busy_timeout_ms: int = 10_000,
        max_page_count: int | None = None,
        health: StoreHealth | None = None,
    ) -> None:
        super().__init__(database_path, busy_timeout_ms=busy_timeout_ms, max_page_count=max_page_count, health=health)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        """One statement and its commit."""

        async def one(db: aiosqlite.Connection) -> _Result:
            async with db.execute(sql, params) as cursor:
                rows = list(await cursor.fetchall())
                return _Result(rows, cursor.lastrowid, cursor.rowcount)

        return await self._unit(one)

    async def writable(self) -> bool:
        """False while the last write failed for lack of space or an I/O error; re-probed
        with a real write at most every ``storage.PROBE_INTERVAL_S`` seconds."""
        if self.health.probe_due():
            # only a write that needs new pages tells: small updates still fit on a full disk
            try:
                await self._write("INSERT INTO learning_probe (filler) VALUES (zeroblob(8192))")
                await self._write("DELETE FROM learning_probe")
            except (sqlite3.Error, StoreBusy, StorageUnavailable, InsufficientStorage) as exc:
                self.health.failed(exc.__cause__ or exc)  # SQLite's own words; and wait another interval
            else:
                self.health.recovered()
        return self.health.writable

    async def compact(self) -> None:
        """Copy the WAL into the database and truncate it, so wiped job payloads leave no
        copy behind in the -wal file (issue 7 item 7; ``secure_delete`` zeroes the pages)."""
        async with self._lock:
            async with self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cursor:
                await cursor.fetchall()

    # -- queue ------------------------------------------------------------------------------
    async def enqueue(
        self,
        tenant: str,
        user_id: str,
        conversation_id: str | None,
        model: str,
        payload: dict[str, Any],
        *,
        key_holder: str | None = None,
    ) -> int:
        now = time.time()
        result = await self._write(
            "INSERT INTO learning_jobs (tenant, user_id, conversation_id, model, payload, status,"
            " next_attempt_at, created_at, updated_at, key_holder)"
            " VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?)",
            (tenant, user_id, conversation_id, model, orjson.dumps(payload), now, now, now, key_holder),
        )
        assert result.lastrowid is not None
        return result.lastrowid

    async def claim(self, lease_s: float, *, replica: str, holder_wait_s: float) -> Job | None:
        """Lease the oldest due job (pending, or running with an expired lease); one whose
        caller key another replica holds only ``holder_wait_s`` after it was created. The job
        carries a fresh lease token: only its holder's ``renew``/``finish``/``retry`` count."""
        now = time.time()
        lease = f"{replica}:{secrets.token_hex(8)}"
        result = await self._write(
            "UPDATE learning_jobs SET status = 'running', attempts = attempts + 1, lease_until = ?,"
            " lease_holder = ?, updated_at = ? WHERE id = (SELECT id FROM learning_jobs WHERE ((status = 'pending'"
            " AND next_attempt_at <= ?) OR (status = 'running' AND lease_until < ?))"
            " AND (key_holder IS NULL OR key_holder = ? OR created_at <= ?)"
            " ORDER BY id LIMIT 1)"
            " RETURNING id, tenant, user_id, conversation_id, model, payload, attempts, key_holder",
            (now + lease_s, lease, now, now, now, replica, now - holder_wait_s),
        )
        if not result.rows:
            return None
        row = result.rows[0]
        payload = orjson.loads(row[5] or b"{}")
        return Job(row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7], lease)

    async def renew(self, job: Job, lease_s: float) -> bool:
        """Extend ``job``'s lease to ``lease_s`` from now; False when its lease was lost."""
        now = time.time()
        result = await self._write(
            "UPDATE learning_jobs SET lease_until = ?, updated_at = ?"
            " WHERE id = ? AND status = 'running' AND lease_holder = ?",
            (now + lease_s, now, job.id, job.lease),
        )
        return result.rowcount == 1

    async def finish(
        self, job: Job, status: str = "done", error: str | None = None, *, log_entry: dict[str, Any] | None = None
    ) -> bool:
        """End ``job`` and write its learning-log entry, together, if its lease still holds."""
        now = time.time()

        async def statements(db: aiosqlite.Connection) -> bool:
            # a dead job keeps its payload until an operator retries or discards it
            async with db.execute(
                "UPDATE learning_jobs SET status = ?, payload = CASE WHEN ? = 'dead' THEN payload END,"
                " lease_until = NULL, lease_holder = NULL, updated_at = ?, last_error = ?"
                " WHERE id = ? AND status = 'running' AND lease_holder = ?",
                (status, status, now, error, job.id, job.lease),
            ) as cursor:
                held = cursor.rowcount == 1
            if held and log_entry is not None:
                await db.execute(
                    "INSERT INTO learning_log (job_id, tenant, user_id, time, entry) VALUES (?, ?, ?, ?, ?)",
                    (job.id, job.tenant, job.user_id, _iso(now), orjson.dumps(log_entry).decode()),
                )
            return held

        return await self._unit(statements)

    async def retry(self, job: Job, delay_s: float, error: str, *, count_attempt: bool = True) -> bool:
        """Due again in ``delay_s`` if ``job``'s lease still holds; ``count_attempt=False`` gives
        back the attempt the claim took (a transient database lock is not the job's fault)."""
        refund = 0 if count_attempt else 1
        now = time.time()
        result = await self._write(
            "UPDATE learning_jobs SET status = 'pending', lease_until = NULL, lease_holder = NULL,"
            " next_attempt_at = ?, updated_at = ?, last_error = ?, attempts = MAX(0, attempts - ?)"
            " WHERE id = ? AND status = 'running' AND lease_holder = ?",
            (now + delay_s, now, error, refund, job.id, job.lease),
        )
        return result.rowcount == 1

    # -- log and usage ----------------------------------------------------------------------
    async def log_since(self, since: str, tenant: str | None, limit: int) -> list[dict[str, Any]]:
        where, args = ("AND tenant = ?", [tenant]) if tenant else ("", [])
        rows = await self._read(
            f"SELECT entry FROM learning_log WHERE time >= ? {where} ORDER BY id DESC LIMIT ?",
            [since, *args, limit],
        )
        return [orjson.loads(r[0]) for r in rows]

    # -- prompts ----------------------------------------------------------------------------
    # -- dead-letter jobs (operator console) ------------------------------------------------
    async def wipe_dead_payloads(
        self, *, older_than_s: float | None = None, tenant: str | None = None, user_id: str | None = None
    ) -> int:
        """Drop the kept conversation of dead jobs: those older than ``older_than_s`` (retention)
        or one user's (their "clear all"). The job rows stay, no longer retryable."""
        where: list[str] = ["status = 'dead'", "payload IS NOT NULL"]
        args: list[float | str] = []
        if older_than_s is not None:
            where.append("updated_at < ?")
            args.append(time.time() - older_than_s)
        if tenant is not None and user_id is not None:
            where += ["tenant = ?", "user_id = ?"]
            args += [tenant, user_id]
        result = await self._write(f"UPDATE learning_jobs SET payload = NULL WHERE {' AND '.join(where)}", args)
        return result.rowcount

    async def retry_dead(self, job_id: int) -> bool:
        """A dead job that still has its conversation is due again, with fresh attempts."""
        now = time.time()
        result = await self._write(
            "UPDATE learning_jobs SET status = 'pending', attempts = 0, lease_until = NULL, lease_holder = NULL,"
            " next_attempt_at = ?,"
            " updated_at = ? WHERE id = ? AND status = 'dead' AND payload IS NOT NULL",
            (now, now, job_id),
        )
        return result.rowcount == 1

    async def discard_dead(self, job_id: int) -> bool:
        """Drop a dead job's conversation for good; the job stays as ``discarded``."""
        result = await self._write(
            "UPDATE learning_jobs SET status = 'discarded', payload = NULL, updated_at = ?"
            " WHERE id = ? AND status = 'dead'",
            (time.time(), job_id),
        )
        return result.rowcount == 1
