"""The learning worker pool: leases durable jobs, runs the pipeline, retries, dead-letters.

Caller keys (pass-through mode) are held here in memory only, by job id; a job
whose key was lost in a restart is learned by the heuristic learner (pipeline).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from gateway.learning.learners import RetryableError
from gateway.learning.pipeline import Pipeline
from gateway.learning.store import Job
from gateway.services import Services

log = logging.getLogger("memorelay.learning")

_IDLE_POLL_S = 1.0
_MAX_BACKOFF_S = 300.0


class WorkerPool:
    def __init__(
        self,
        services: Services,
        pipeline: Pipeline,
        *,
        workers: int,
        max_attempts: int,
        lease_s: float,
        retention_days: int,
        retention_interval_s: float,
    ) -> None:
        self.services = services
        self.pipeline = pipeline
        self.workers = workers
        self.max_attempts = max_attempts
        self.lease_s = lease_s
        self.retention_days = retention_days
        self.retention_interval_s = retention_interval_s
        self.keys: dict[int, str] = {}
        self.pending = 0
        self._wake = asyncio.Event()
        self._stop_event = asyncio.Event()
        self._stopping = False
        self._tasks: list[asyncio.Task[None]] = []
        self._busy = 0

    async def start(self) -> None:
        requeued = await self.services.learning.requeue_running()
        if requeued:
            log.info("requeued %d learning jobs left running by the previous process", requeued)
        self.pending = await self.services.learning.pending_count()
        self.services.metrics.learning_pending.set(self.pending)
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

    def submitted(self, job_id: int, authorization: str | None) -> None:
        if authorization is not None:
            self.keys[job_id] = authorization
        self.pending += 1
        self.services.metrics.learning_pending.set(self.pending)
        self._wake.set()

    @property
    def idle(self) -> bool:
        return self.pending == 0 and self._busy == 0

    async def _work(self) -> None:
        store = self.services.learning
        while not self._stopping:
            try:
                job = await store.claim(self.lease_s)
            except Exception:  # boundary: the worker loop survives a database hiccup
                log.exception("could not claim a learning job")
                await asyncio.sleep(_IDLE_POLL_S)
                continue
            if job is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), _IDLE_POLL_S)
                continue
            self._busy += 1
            try:
                await self._run(job)
            finally:
                self._busy -= 1

    async def _run(self, job: Job) -> None:
        store, metrics = self.services.learning, self.services.metrics
        try:
            outcome = await self.pipeline.run(job, self.keys.get(job.id))
        except RetryableError as exc:
            if job.attempts < self.max_attempts:
                delay = min(_MAX_BACKOFF_S, 2.0**job.attempts)
                log.warning("learning job %s: %s; retry in %.0f s", job.id, exc, delay)
                await store.retry(job.id, delay, str(exc))
                metrics.learning_jobs.labels("retried").inc()
                return
            await self._end(job, "dead", {"error": f"gave up after {job.attempts} attempts: {exc}"})
            return
        except Exception as exc:  # boundary: one bad job must not kill a worker
            log.exception("learning job %s failed", job.id)
            await self._end(job, "dead", {"error": f"{type(exc).__name__}: {exc}"})
            return
        await self._end(job, "done", outcome.entry())

    async def _end(self, job: Job, status: str, entry: dict[str, object]) -> None:
        store = self.services.learning
        try:
            await store.log(job.id, job.tenant, job.user_id, entry)
            await store.finish(job.id, status, entry.get("error") if isinstance(entry.get("error"), str) else None)  # type: ignore[arg-type]
        finally:
            self.keys.pop(job.id, None)
            self.pending = max(0, self.pending - 1)
            self.services.metrics.learning_pending.set(self.pending)
            self.services.metrics.learning_jobs.labels(status).inc()

    async def _housekeeping(self) -> None:
        while not self._stopping:
            try:
                removed = await self.services.memory.expire(self.retention_days, actor="retention")
                if removed:
                    log.info("retention removed %d never-accessed memories", removed)
            except Exception:  # boundary: housekeeping retries on its next round
                log.exception("retention cleanup failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop_event.wait(), self.retention_interval_s)
