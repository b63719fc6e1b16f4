"""``PostgresLearningStore``: the learning queue shared by every replica, the learning log,
learning token usage and prompt overrides.

A job is ``pending`` until a worker of any replica claims it (``running``, with a lease
``lease_until``, in the database's clock). The claim is one ``UPDATE … WHERE id = (SELECT …
FOR UPDATE SKIP LOCKED)``: concurrent workers never wait on, nor take, the same job. A job
whose lease ran out (its replica died or hung) is claimable again: that is the only recovery,
nothing is re-queued at start. A job enqueued with a ``key_holder`` (the replica that holds
the caller's credential in memory) is claimable by other replicas only ``holder_wait_s`` after
it was created. Times are the database's (``clock_timestamp``), so replicas' clocks need not
agree. Each claim hands out a fresh lease token (``lease_holder``): ``renew``, ``finish`` and
``retry`` change the job only while the caller's token is still the job's, so a worker that
outlived its lease (a re-claimed job) writes nothing. The conversation payload is wiped when
the job is done; a dead job keeps it for an operator's retry until retention or the user's
"clear all".
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import orjson
import psycopg

from gateway.errors import GatewayError

from ..records import Job
from ..sql.base import POSTGRES, Row
from ..sql.base import iso as _iso
from ..sql.learning import SqlLearningShared, log_entry
from .connection import Database, Writer

_NOW = "extract(epoch from clock_timestamp())"
WRITABLE_TTL_S = 2.0


class PostgresLearningStore(SqlLearningShared):
    """See ``store.LearningStore``. ``database`` is a URL (own pool) or a shared ``Database``."""

    def __init__(self, database: Database | str) -> None:
        self.db = database if isinstance(database, Database) else Database(database)
        self._writable = (True, 0.0)  # (answer, monotonic time it expires)

    dialect = POSTGRES

    async def open(self) -> None:
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self.db.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchall()

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [*await self._read(POSTGRES.statement(sql), params)]

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[Writer]:
        async with self.db.transaction() as tx:
            yield Writer(tx)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> tuple[list[tuple[Any, ...]], int]:
        """One statement in its own transaction (or the caller's): rows returned, rows changed."""
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(sql, params)
            rows = await cur.fetchall() if cur.description is not None else []
            return rows, cur.rowcount

    async def writable(self) -> bool:
        """Whether the database takes writes (reachable, not a read-only standby); asked on
        every chat, so the answer is kept for ``WRITABLE_TTL_S``."""
        now = time.monotonic()
        if now < self._writable[1]:
            return self._writable[0]
        try:
            rows = await self._read("SELECT NOT pg_is_in_recovery()")
            ok = bool(rows and rows[0][0])
        except (psycopg.Error, GatewayError, OSError):
            ok = False
        self._writable = (ok, now + WRITABLE_TTL_S)
        return ok

    async def compact(self) -> None:
        """Nothing: autovacuum reclaims the row versions that held wiped payloads."""

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
        rows, _ = await self._write(
            "INSERT INTO learning_jobs (tenant, user_id, conversation_id, model, payload, status, key_holder,"
            f" next_attempt_at, created_at, updated_at) VALUES (%s, %s, %s, %s, %s, 'pending', %s, {_NOW}, {_NOW},"
            f" {_NOW}) RETURNING id",
            (tenant, user_id, conversation_id, model, orjson.dumps(payload), key_holder),
        )
        return int(rows[0][0])

    async def claim(self, lease_s: float, *, replica: str, holder_wait_s: float) -> Job | None:
        """Lease the oldest due job: pending and due, or running with an expired lease; a job
        another replica holds the key for only once ``holder_wait_s`` passed since enqueue.
        The job carries a fresh lease token: only its holder's ``renew``/``finish``/``retry``
        count."""
        lease = f"{replica}:{secrets.token_hex(8)}"
        rows, _ = await self._write(
            f"UPDATE learning_jobs SET status = 'running', attempts = attempts + 1, lease_until = {_NOW} + %s,"
            f" lease_holder = %s, updated_at = {_NOW} WHERE id = ("
            " SELECT id FROM learning_jobs WHERE status IN ('pending', 'running')"
            f" AND ((status = 'pending' AND next_attempt_at <= {_NOW})"
            f" OR (status = 'running' AND lease_until < {_NOW}))"
            f" AND (key_holder IS NULL OR key_holder = %s OR created_at <= {_NOW} - %s)"
            " ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)"
            " RETURNING id, tenant, user_id, conversation_id, model, payload, attempts, key_holder",
            (lease_s, lease, replica, holder_wait_s),
        )
        if not rows:
            return None
        r = rows[0]
        return Job(int(r[0]), r[1], r[2], r[3], r[4], orjson.loads(r[5] or b"{}"), int(r[6]), r[7], lease)

    async def renew(self, job: Job, lease_s: float) -> bool:
        """Extend ``job``'s lease to ``lease_s`` from now; False when its lease was lost."""
        _, count = await self._write(
            f"UPDATE learning_jobs SET lease_until = {_NOW} + %s, updated_at = {_NOW}"
            " WHERE id = %s AND status = 'running' AND lease_holder = %s",
            (lease_s, job.id, job.lease),
        )
        return count == 1

    async def finish(
        self, job: Job, status: str = "done", error: str | None = None, *, log_entry: dict[str, Any] | None = None
    ) -> bool:
        """End ``job`` and write its learning-log entry, in one transaction, if its lease
        still holds (a dead job keeps its payload until an operator retries or discards it)."""
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                "UPDATE learning_jobs SET status = %s, payload = CASE WHEN %s = 'dead' THEN payload END,"
                f" lease_until = NULL, lease_holder = NULL, updated_at = {_NOW}, last_error = %s"
                " WHERE id = %s AND status = 'running' AND lease_holder = %s",
                (status, status, error, job.id, job.lease),
            )
            held = cur.rowcount == 1
            if held and log_entry is not None:
                await tx.conn.execute(
                    "INSERT INTO learning_log (job_id, tenant, user_id, time, entry) VALUES (%s, %s, %s, %s, %s)",
                    (job.id, job.tenant, job.user_id, _iso(), orjson.dumps(log_entry).decode()),
                )
        return held

    async def retry(self, job: Job, delay_s: float, error: str, *, count_attempt: bool = True) -> bool:
        """Due again in ``delay_s`` (the caller jitters it) if ``job``'s lease still holds;
        ``count_attempt=False`` gives back the attempt the claim took (a transient store fault
        is not the job's)."""
        _, count = await self._write(
            "UPDATE learning_jobs SET status = 'pending', lease_until = NULL, lease_holder = NULL,"
            f" next_attempt_at = {_NOW} + %s, updated_at = {_NOW}, last_error = %s,"
            " attempts = GREATEST(0, attempts - %s) WHERE id = %s AND status = 'running' AND lease_holder = %s",
            (delay_s, error, 0 if count_attempt else 1, job.id, job.lease),
        )
        return count == 1

    # -- log and usage ----------------------------------------------------------------------
    async def log_since(self, since: str, tenant: str | None, limit: int) -> list[dict[str, Any]]:
        """Entries written at or after ``since`` (ISO time or day), newest first."""
        extra, args = ("AND tenant = %s", [tenant]) if tenant else ("", [])
        rows = await self._read(
            f"SELECT id, job_id, tenant, user_id, time, entry FROM learning_log WHERE time >= %s {extra}"
            " ORDER BY id DESC LIMIT %s",
            [since, *args, limit],
        )
        return [log_entry(r) for r in rows]

    # -- prompts ----------------------------------------------------------------------------
    # -- dead letter ------------------------------------------------------------------------
    async def wipe_dead_payloads(
        self, *, older_than_s: float | None = None, tenant: str | None = None, user_id: str | None = None
    ) -> int:
        where = ["status = 'dead'", "payload IS NOT NULL"]
        args: list[float | str] = []
        if older_than_s is not None:
            where.append(f"updated_at < {_NOW} - %s")
            args.append(older_than_s)
        if tenant is not None and user_id is not None:
            where += ["tenant = %s", "user_id = %s"]
            args += [tenant, user_id]
        _, count = await self._write(f"UPDATE learning_jobs SET payload = NULL WHERE {' AND '.join(where)}", args)
        return count

    async def retry_dead(self, job_id: int) -> bool:
        _, count = await self._write(
            "UPDATE learning_jobs SET status = 'pending', attempts = 0, lease_until = NULL, lease_holder = NULL,"
            f" next_attempt_at = {_NOW}, updated_at = {_NOW}"
            " WHERE id = %s AND status = 'dead' AND payload IS NOT NULL",
            (job_id,),
        )
        return count == 1

    async def discard_dead(self, job_id: int) -> bool:
        _, count = await self._write(
            f"UPDATE learning_jobs SET status = 'discarded', payload = NULL, updated_at = {_NOW}"
            " WHERE id = %s AND status = 'dead'",
            (job_id,),
        )
        return count == 1
