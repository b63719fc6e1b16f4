"""The learning queue and its dead letters (``roles.learning.LearningQueue``, ``DeadLetters``),
written once over the dialect's clock.

A job is ``pending`` until a worker leases it (``running`` with ``lease_until`` and a fresh
lease token, ``lease_holder``); a lease that runs out (the worker's process died or hung)
makes it claimable again, and nothing else does (no re-queue at start: another replica's jobs
may be running); after ``max_attempts`` it is ``dead``. A job may name the replica holding its
caller key in memory (``key_holder``); other replicas get it only ``holder_wait_s`` after it
was created (see ``gateway.learning.runtime.workers``). ``renew``, ``finish`` and ``retry``
change a job only while the caller's token is still the job's: a worker that outlived its
lease writes nothing (``finish`` writes the learning-log entry in the same transaction). The
conversation payload is wiped when the job is done (data minimisation); a dead job keeps it
for an operator's retry until retention or the user's "clear all". API keys are never written.

Times are unix seconds of ``Dialect.clock``: the database's on PostgreSQL, so replicas'
clocks need not agree.
"""

from __future__ import annotations

import secrets
from typing import Any

import orjson

from ..records import Job
from .base import SqlBase, Writer, iso

LOG_INSERT = "INSERT INTO learning_log (job_id, tenant, user_id, time, entry) VALUES (?, ?, ?, ?, ?)"
_JOB = "id, tenant, user_id, conversation_id, model, payload, attempts, key_holder"
_HELD = "WHERE id = ? AND status = 'running' AND lease_holder = ?"


class SqlQueue(SqlBase):
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
        now = self.dialect.clock
        async with self._writer() as w:
            rows = await w.fetch(
                "INSERT INTO learning_jobs (tenant, user_id, conversation_id, model, payload, status, key_holder,"
                f" next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, {now}, {now}, {now})"
                " RETURNING id",
                (tenant, user_id, conversation_id, model, orjson.dumps(payload), key_holder),
            )
        return int(rows[0][0])

    async def claim(self, lease_s: float, *, replica: str, holder_wait_s: float) -> Job | None:
        """Lease the oldest due job: pending and due, or running with an expired lease; one
        whose caller key another replica holds only once ``holder_wait_s`` passed since it was
        enqueued. Concurrent workers never take the same job (``Dialect.skip_locked``). The job
        carries a fresh lease token: only its holder's ``renew``/``finish``/``retry`` count."""
        d, now = self.dialect, self.dialect.clock
        lease = f"{replica}:{secrets.token_hex(8)}"
        async with self._writer() as w:
            rows = await w.fetch(
                f"UPDATE learning_jobs SET status = 'running', attempts = attempts + 1, lease_until = {now} + ?,"
                f" lease_holder = ?, updated_at = {now} WHERE id = ("
                " SELECT id FROM learning_jobs WHERE status IN ('pending', 'running')"
                f" AND ((status = 'pending' AND next_attempt_at <= {now})"
                f" OR (status = 'running' AND lease_until < {now}))"
                f" AND (key_holder IS NULL OR key_holder = ? OR created_at <= {now} - ?)"
                f" ORDER BY id LIMIT 1{d.skip_locked}) RETURNING {_JOB}",
                (lease_s, lease, replica, holder_wait_s),
            )
        if not rows:
            return None
        r = rows[0]
        return Job(int(r[0]), r[1], r[2], r[3], r[4], orjson.loads(r[5] or b"{}"), int(r[6]), r[7], lease)

    async def renew(self, job: Job, lease_s: float) -> bool:
        """Extend ``job``'s lease to ``lease_s`` from now; False when its lease was lost."""
        now = self.dialect.clock
        async with self._writer() as w:
            changed = await w.execute(
                f"UPDATE learning_jobs SET lease_until = {now} + ?, updated_at = {now} {_HELD}",
                (lease_s, job.id, job.lease),
            )
        return changed == 1

    async def finish(
        self, job: Job, status: str = "done", error: str | None = None, *, log_entry: dict[str, Any] | None = None
    ) -> bool:
        """End ``job`` and write its learning-log entry, in one transaction, if its lease
        still holds (a dead job keeps its payload until an operator retries or discards it)."""

        async def statements(w: Writer) -> bool:
            held = 1 == await w.execute(
                "UPDATE learning_jobs SET status = ?, payload = CASE WHEN ? = 'dead' THEN payload END,"
                f" lease_until = NULL, lease_holder = NULL, updated_at = {self.dialect.clock}, last_error = ? {_HELD}",
                (status, status, error, job.id, job.lease),
            )
            if held and log_entry is not None:
                await w.execute(LOG_INSERT, (job.id, job.tenant, job.user_id, iso(), orjson.dumps(log_entry).decode()))
            return held

        return await self._atomic(statements)

    async def retry(self, job: Job, delay_s: float, error: str, *, count_attempt: bool = True) -> bool:
        """Due again in ``delay_s`` (the caller jitters it) if ``job``'s lease still holds;
        ``count_attempt=False`` gives back the attempt the claim took (a transient store fault
        is not the job's)."""
        d, now = self.dialect, self.dialect.clock
        async with self._writer() as w:
            changed = await w.execute(
                "UPDATE learning_jobs SET status = 'pending', lease_until = NULL, lease_holder = NULL,"
                f" next_attempt_at = {now} + ?, updated_at = {now}, last_error = ?,"
                f" attempts = {d.greatest}(0, attempts - ?) {_HELD}",
                (delay_s, error, 0 if count_attempt else 1, job.id, job.lease),
            )
        return changed == 1

    # -- dead letters -----------------------------------------------------------------------
    async def wipe_dead_payloads(
        self, *, older_than_s: float | None = None, tenant: str | None = None, user_id: str | None = None
    ) -> int:
        """Drop the kept conversation of dead jobs: those older than ``older_than_s`` (retention)
        or one user's (their "clear all"). The job rows stay, no longer retryable."""
        where = ["status = 'dead'", "payload IS NOT NULL"]
        args: list[float | str] = []
        if older_than_s is not None:
            where.append(f"updated_at < {self.dialect.clock} - ?")
            args.append(older_than_s)
        if tenant is not None and user_id is not None:
            where += ["tenant = ?", "user_id = ?"]
            args += [tenant, user_id]
        async with self._writer() as w:
            return await w.execute(f"UPDATE learning_jobs SET payload = NULL WHERE {' AND '.join(where)}", args)

    async def retry_dead(self, job_id: int) -> bool:
        """A dead job that still has its conversation is due again, with fresh attempts."""
        now = self.dialect.clock
        async with self._writer() as w:
            changed = await w.execute(
                "UPDATE learning_jobs SET status = 'pending', attempts = 0, lease_until = NULL, lease_holder = NULL,"
                f" next_attempt_at = {now}, updated_at = {now}"
                " WHERE id = ? AND status = 'dead' AND payload IS NOT NULL",
                (job_id,),
            )
        return changed == 1

    async def discard_dead(self, job_id: int) -> bool:
        """Drop a dead job's conversation for good; the job stays as ``discarded``."""
        async with self._writer() as w:
            changed = await w.execute(
                f"UPDATE learning_jobs SET status = 'discarded', payload = NULL, updated_at = {self.dialect.clock}"
                " WHERE id = ? AND status = 'dead'",
                (job_id,),
            )
        return changed == 1
