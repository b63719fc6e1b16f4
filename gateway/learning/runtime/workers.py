"""The learning worker pool: leases durable jobs, runs the pipeline, retries, dead-letters.

Jobs live in the shared ``LearningStore``: any worker of any replica may claim one, and a
job left running by a dead process is claimable again only when its lease (``lease_s``)
runs out; nothing is re-queued at start (another replica's jobs may be running).

Leases are fenced. Each claim hands out a lease token (``Job.lease``); the store renews,
finishes or retries a job only with the token of its current claim, so a worker that
outlived its lease (its loop stalled, its database connection was cut) while another
replica re-claimed the job changes nothing: its ``finish`` (which writes the learning-log
entry in the same transaction) and ``retry`` are refused. Before the pipeline's first write
of a job (memories added, disabled, evicted) it confirms the lease (``_Lease.hold``: free
when the lease was renewed within the last ``lease_s / 3``, else one renewal), which leaves
the writes at least two thirds of a lease of exclusive time. A worker that finds its lease
lost logs it, counts it in ``memorelay_learning_leases_lost_total`` and writes nothing more;
the job is the re-claimer's. (What stays possible: a process paused for longer than that
between the confirmation and a memory write; the learner's duplicate check then usually
meets the other worker's memory. Learning token usage is recorded either way: the tokens
were spent.)

Decided: a running job's lease is renewed every ``lease_s / 3`` (a heartbeat beside the
job). A slow but alive worker (a learner call near the upstream timeout, a long scrub) keeps
its job instead of losing it to another replica and having the turn learned twice or
thrown away; a dead replica stops renewing, so its jobs are still recovered one lease after
its last heartbeat. ``lease_s`` is therefore a bound on failure detection, not on a job's
duration (the learner's own calls are bounded by ``server.upstream_timeout_s``).

Caller keys (pass-through mode) are never written to the database: the replica that queued
a job holds its caller's key in memory, by job id (``keys``), and every process has a random
replica id (``LearningParts.replica``). A job that will be learned with the caller's key records
``key_holder = <replica id>``; other replicas claim it only ``holder_wait_s`` (default:
``lease_s``) after it was created, which gives its holder the time to learn it with the key.
A worker that has no key for a job that needs one (the holder died or restarted, or was too
slow) learns it with the heuristic learner and counts it in
``memorelay_learning_key_fallbacks_total``.

A job that fails because the database is locked or cannot be written is retried later
without spending one of its ``max_attempts``: it is never dead-lettered
for a fault of the store. When no job is due and no worker is busy (and every
``_CHECKPOINT_EVERY_S``) the WAL is checkpointed and truncated, so wiped payloads leave no
copy in the -wal file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time

from gateway.learning.errors import LeaseLost
from gateway.learning.llm.learners import RetryableError
from gateway.learning.parts import LearningParts
from gateway.learning.runtime.pending import SharedPending
from gateway.learning.steps.pipeline import Pipeline
from gateway.learning.steps.pipeline_records import Outcome
from gateway.store import Job, LearningStore
from gateway.store.errors import store_fault

log = logging.getLogger("memorelay.learning")

_IDLE_POLL_S = 1.0
_MAX_BACKOFF_S = 300.0
_STORE_BACKOFF_S = (0.5, 30.0)  # first and largest delay after a store fault
_CHECKPOINT_EVERY_S = 60.0
_KEY_WAIT_S = 1.0  # a job claimed by its own holder before the enqueuing coroutine stored its key
_BEATS_PER_LEASE = 3


def _store_fault(exc: BaseException) -> bool:
    """A fault of the database, not of the job: locked, busy, full, failing."""
    return store_fault(exc)


# a dead job keeps its conversation this long for an operator to retry it, then it is dropped
DEAD_PAYLOAD_KEEP_S = 7 * 86400


class _Lease:
    """One claim of a job: renewed by a heartbeat while the job runs, confirmed before writes."""

    def __init__(self, store: LearningStore, job: Job, lease_s: float, claimed_at: float) -> None:
        self.store = store
        self.job = job
        self.lease_s = lease_s
        self.renewed_at = claimed_at  # monotonic time the last granted lease started (at the latest)
        self.lost = False
        self._done = asyncio.Event()

    async def renew(self) -> None:
        asked = time.monotonic()
        if not self.lost and await self.store.renew(self.job, self.lease_s):
            self.renewed_at = asked
        else:
            self.lost = True

    async def hold(self) -> None:
        """Raise ``LeaseLost`` unless this claim still holds the job for two thirds of a lease."""
        if not self.lost and time.monotonic() - self.renewed_at > self.lease_s / _BEATS_PER_LEASE:
            await self.renew()
        if self.lost:
            raise LeaseLost(f"learning job {self.job.id} was claimed by another worker")

    async def heartbeat(self) -> None:
        while not self.lost:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._done.wait(), self.lease_s / _BEATS_PER_LEASE)
            if self._done.is_set():
                return
            try:
                await self.renew()
            except Exception:  # boundary: the next beat tries again; the lease runs out if none lands
                log.warning("learning job %s: could not renew its lease", self.job.id, exc_info=True)

    def end(self) -> None:
        self._done.set()


class WorkerPool:
    def __init__(
        self,
        services: LearningParts,
        pipeline: Pipeline,
        pending: SharedPending,
        *,
        workers: int,
        max_attempts: int,
        lease_s: float,
        retention_days: int,
        retention_interval_s: float,
        holder_wait_s: float | None = None,
    ) -> None:
        self.services = services
        self.pipeline = pipeline
        self.pending = pending
        self.workers = workers
        self.max_attempts = max_attempts
        self.lease_s = lease_s
        self.holder_wait_s = lease_s if holder_wait_s is None else holder_wait_s
        self.retention_days = retention_days
        self.retention_interval_s = retention_interval_s
        self.keys: dict[int, str] = {}
        self._wake = asyncio.Event()
        self._stop_event = asyncio.Event()
        self._stopping = False
        self._tasks: list[asyncio.Task[None]] = []
        self._busy = 0
        self._store_faults: dict[int, int] = {}  # job id -> consecutive store faults
        self._dirty = False  # payloads wiped since the last WAL checkpoint
        self._checkpointed_at = time.monotonic()

    async def start(self) -> None:
        self._tasks = [asyncio.ensure_future(self._work()) for _ in range(self.workers)]
        self._tasks.append(asyncio.ensure_future(self._housekeeping()))

    async def stop(self, grace_s: float = 10.0) -> None:
        self._stopping = True
        self._stop_event.set()
        self._wake.set()
        done, running = await asyncio.wait(self._tasks, timeout=grace_s) if self._tasks else (set(), set())
        for task in running:  # their jobs stay leased and are picked up after the restart
            task.cancel()
        for task in running:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._dirty:  # leave no wiped payload behind in the -wal file
            with contextlib.suppress(Exception):
                await self.services.learning.compact()

    def key_holder(self, model: str, dialect: str, authorization: str | None) -> str | None:
        """This replica's id when a job of this chat will be learned with the caller's key
        (held here in memory), else None."""
        if authorization is None or not self.pipeline.uses_caller_key(model, dialect):
            return None
        return self.services.replica

    def submitted(self, job_id: int, authorization: str | None) -> None:
        if authorization is not None:
            self.keys[job_id] = authorization
        self.pending.add(1)
        self._wake.set()

    async def _work(self) -> None:
        store = self.services.learning
        while not self._stopping:
            claimed_at = time.monotonic()
            try:
                job = await store.claim(self.lease_s, replica=self.services.replica, holder_wait_s=self.holder_wait_s)
            except Exception:  # boundary: the worker loop survives a database hiccup
                log.exception("could not claim a learning job")
                await asyncio.sleep(_IDLE_POLL_S)
                continue
            if job is None:
                await self._checkpoint_if(idle=self._busy == 0)
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), _IDLE_POLL_S)
                continue
            self._busy += 1
            try:
                await self._run(job, _Lease(store, job, self.lease_s, claimed_at))
            except Exception:  # boundary: the job keeps its lease and is claimed again when it runs out
                log.exception("learning job %s could not be recorded; it will run again", job.id)
            finally:
                self._busy -= 1
            await self._checkpoint_if(idle=False)

    async def _checkpoint_if(self, *, idle: bool) -> None:
        overdue = time.monotonic() - self._checkpointed_at >= _CHECKPOINT_EVERY_S
        if not (self._dirty and (idle or overdue)):
            return
        self._dirty = False
        self._checkpointed_at = time.monotonic()
        try:
            await self.services.learning.compact()
        except Exception:  # boundary: retried after the next finished job
            log.warning("WAL checkpoint failed", exc_info=True)
            self._dirty = True

    async def _key(self, job: Job) -> str | None:
        """The caller key of ``job`` if this replica holds it."""
        if job.key_holder == self.services.replica:
            waited = 0.0
            while job.id not in self.keys and waited < _KEY_WAIT_S:
                await asyncio.sleep(0.01)
                waited += 0.01
        return self.keys.get(job.id)

    async def _learn(self, job: Job, lease: _Lease) -> Outcome:
        """The pipeline's run, with the lease renewed beside it until it returns."""
        beat = asyncio.ensure_future(lease.heartbeat())
        try:
            with self.services.telemetry.learning_job(job.payload) as span:
                outcome = await self.pipeline.run(job, await self._key(job), lease.hold)
                span.learned(outcome)
                return outcome
        finally:
            lease.end()
            await beat

    async def _run(self, job: Job, lease: _Lease) -> None:
        try:
            outcome = await self._learn(job, lease)
        except LeaseLost:
            self._lease_lost(job, "before writing")
            return
        except RetryableError as exc:
            await self._retry(job, exc)
            return
        except Exception as exc:  # boundary: one bad job must not kill a worker
            if _store_fault(exc):
                await self._store_retry(job, exc)
                return
            log.exception("learning job %s failed", job.id)
            await self._end(job, "dead", {"error": f"{type(exc).__name__}: {exc}"})
            return
        self._store_faults.pop(job.id, None)
        await self._end(job, "done", outcome.entry())

    def _lease_lost(self, job: Job, when: str) -> None:
        """The job's lease ran out and another worker claimed it: that worker learns it."""
        log.warning("learning job %s: lease lost %s (another worker claimed it); nothing written", job.id, when)
        self.services.metrics.learning_leases_lost.inc()
        self._store_faults.pop(job.id, None)
        # the re-claimer read the key when it started (if it is this replica's), or has none
        self.keys.pop(job.id, None)

    async def _retry(self, job: Job, exc: RetryableError) -> None:
        if job.attempts >= self.max_attempts:
            await self._end(job, "dead", {"error": f"gave up after {job.attempts} attempts: {exc}"})
            return
        delay = min(_MAX_BACKOFF_S, 2.0**job.attempts)
        log.warning("learning job %s: %s; retry in %.0f s", job.id, exc, delay)
        if not await self.services.learning.retry(job, delay, str(exc)):
            self._lease_lost(job, "at its retry")
            return
        self.services.metrics.learning_jobs.labels("retried").inc()

    async def _store_retry(self, job: Job, exc: Exception) -> None:
        """Locked / full / failing database: due again after a jittered backoff, attempt given back."""
        faults = self._store_faults[job.id] = self._store_faults.get(job.id, 0) + 1
        first, largest = _STORE_BACKOFF_S
        delay = min(largest, first * 2 ** (faults - 1)) * random.uniform(0.75, 1.25)
        log.warning("learning job %s hit a database fault (%s); retry in %.1f s", job.id, exc, delay)
        if not await self.services.learning.retry(job, delay, f"database: {exc}", count_attempt=False):
            self._lease_lost(job, "at its retry")
            return
        self.services.metrics.learning_jobs.labels("retried").inc()
        self._wake.set()

    async def _end(self, job: Job, status: str, entry: dict[str, object]) -> None:
        error = entry.get("error")
        try:
            held = await self.services.learning.finish(
                job, status, error if isinstance(error, str) else None, log_entry=entry
            )
        finally:
            self._store_faults.pop(job.id, None)
        if not held:
            self._lease_lost(job, "at its end")
            return
        self._dirty = True
        self.keys.pop(job.id, None)
        self.pending.add(-1)
        self.services.metrics.learning_jobs.labels(status).inc()

    async def _housekeeping(self) -> None:
        while not self._stopping:
            try:
                removed = await self.services.memory.expire(self.retention_days, actor="retention")
                if removed:
                    log.info("retention removed %d never-accessed memories", removed)
                pruned = await self.services.memory.prune_uses(self.retention_days)
                if pruned:
                    log.info("retention pruned %d citation-log rows", pruned)
                reports = await self.services.memory.prune_reflections(self.retention_days)
                if reports:
                    log.info("retention pruned %d reflection reports", reports)
                wiped = await self.services.learning.wipe_dead_payloads(older_than_s=DEAD_PAYLOAD_KEEP_S)
                if wiped:
                    log.info("retention dropped the conversations of %d dead learning jobs", wiped)
            except Exception:  # boundary: housekeeping retries on its next round
                log.exception("retention cleanup failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_event.wait(), self.retention_interval_s)
