"""``JobWriter``: the learning filter's store calls on the chat path, each bounded in time.

A chat must not wait on a database that has gone away (a PostgreSQL outage, a pool with no
free connection, a SQLite file another process holds locked). Every store call the learning
filter makes before the answer (the user's settings, whether the store takes writes, the
durable job itself) gets ``timeout_s`` (``learning.store_timeout_ms``, 200 ms). A call that
outlives it is not cancelled: it goes on in the background (that chat is answered at once), and
when such a call is still unanswered a second later, or a write failed because the store is
unreachable, the store is marked *stalled*: until it answers again, chats are answered at once
with ``X-Memorelay-Learning: skipped; reason=store-unavailable``. A store that is only busy
(a full pool under load) answers within that second, so load alone skips no chat.

A job whose write outlived the bound was already announced as ``queued``: it is kept in this
process and written as soon as the store takes writes again (retried with backoff), so it is
learned once the store is back; only a process that dies (or stops) before then loses it,
which is logged and counted as ``memorelay_learning_jobs{outcome="unwritten"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from gateway.errors import InsufficientStorage, StorageUnavailable
from gateway.metrics import Metrics
from gateway.store import LearningStore

log = logging.getLogger("memorelay.learning")

T = TypeVar("T")

_RETRY_MAX_S = 2.0
# a stalled store keeps at most this many jobs waiting to be written (older ones are dropped
# and counted): chats stop being queued once the stall is seen, so only a few ever wait
_MAX_WAITING = 1000
_DRAIN_S = 3.0
STALL_AFTER_S = 1.0
# what a store raises when it cannot take writes for now (unreachable, full, read-only)
_UNAVAILABLE = (StorageUnavailable, InsufficientStorage, ConnectionError, OSError)


@dataclass(frozen=True, slots=True)
class JobRequest:
    """One learning job to write, and the caller key its worker will need."""

    tenant: str
    user_id: str
    conversation_id: str | None
    model: str
    payload: dict[str, Any]
    key_holder: str | None
    authorization: str | None


class JobWriter:
    """See the module docstring. ``written`` is told each job id once it is in the store."""

    def __init__(
        self,
        store: LearningStore,
        metrics: Metrics,
        written: Callable[[int, str | None], None],
        *,
        timeout_s: float,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.written = written
        self.timeout_s = timeout_s
        self.stalled = False
        self._late: dict[asyncio.Task[Any], float] = {}  # calls past the bound, and when they began
        self._waiting: deque[JobRequest] = deque()
        self._recovery: asyncio.Task[None] | None = None

    async def bounded(self, call: Awaitable[T]) -> tuple[bool, T | None]:
        """``(True, result)`` when ``call`` answers within the bound, else ``(False, None)``
        (the call goes on in the background and the store counts as stalled)."""
        task = asyncio.ensure_future(call)
        if await self._within(task):
            return True, task.result()
        self._late[task] = asyncio.get_running_loop().time()
        task.add_done_callback(self._late_done)
        self._stall(at_once=False)
        return False, None

    async def _within(self, task: asyncio.Task[Any]) -> bool:
        loop = asyncio.get_running_loop()
        started = loop.time()
        done, _ = await asyncio.wait({task}, timeout=self.timeout_s)
        if not done and loop.time() - started > 2 * self.timeout_s:
            # the event loop itself was held up (not the store): give the call its time again
            done, _ = await asyncio.wait({task}, timeout=self.timeout_s)
        return bool(done)

    def _late_done(self, task: asyncio.Task[Any]) -> None:
        self._late.pop(task, None)
        if not task.cancelled():
            task.exception()  # retrieved: a late probe's failure is the stall already noted

    async def write(self, job: JobRequest) -> None:
        """Write ``job`` within the bound, or keep it and write it when the store is back
        (also when it answered in time that it cannot take writes now). Raises any other
        error the store answered with."""
        task = asyncio.ensure_future(self._enqueue(job))
        if await self._within(task):
            try:
                job_id = task.result()
            except _UNAVAILABLE as exc:
                log.warning("the learning job could not be written yet (%s); kept until the store is back", exc)
                self._keep(job)
                return
            self.written(job_id, job.authorization)
            return
        log.warning("the learning job's write outlived %.0f ms; it goes on in the background", self.timeout_s * 1000)
        self.metrics.learning_jobs.labels("delayed").inc()
        self._late[task] = asyncio.get_running_loop().time()
        task.add_done_callback(lambda t: self._late_write_done(t, job))
        self._stall(at_once=False)

    def _late_write_done(self, task: asyncio.Task[int], job: JobRequest) -> None:
        self._late.pop(task, None)
        if task.cancelled():
            self._lost(1, "the gateway stopped")
        elif isinstance(task.exception(), _UNAVAILABLE):
            self._keep(job)
        elif task.exception() is not None:
            self._lost(1, f"the store refused it ({task.exception()})")
        else:
            self.written(task.result(), job.authorization)

    async def _enqueue(self, job: JobRequest) -> int:
        return await self.store.enqueue(
            job.tenant, job.user_id, job.conversation_id, job.model, job.payload, key_holder=job.key_holder
        )

    def _keep(self, job: JobRequest) -> None:
        if len(self._waiting) >= _MAX_WAITING:
            self._waiting.popleft()
            self._lost(1, "too many jobs waiting for the store")
        self._waiting.append(job)
        self._stall()

    def _lost(self, count: int, why: str) -> None:
        log.error("%d learning job(s) announced as queued were not written: %s", count, why)
        self.metrics.learning_jobs.labels("unwritten").inc(count)

    def _stall(self, *, at_once: bool = True) -> None:
        """A store that failed a write is stalled at once; one merely slow (a busy pool) only
        when a call is still unanswered ``STALL_AFTER_S`` later, so load alone skips nothing."""
        if not at_once:
            asyncio.get_running_loop().call_later(STALL_AFTER_S, self._still_late)
            return
        if not self.stalled:
            log.error(
                "the memory store did not answer within %.0f ms: chats are not queued for learning until it does",
                self.timeout_s * 1000,
            )
        self.stalled = True
        if self._recovery is None or self._recovery.done():
            self._recovery = asyncio.ensure_future(self._recover())

    def _still_late(self) -> None:
        now = asyncio.get_running_loop().time()
        if any(now - began >= STALL_AFTER_S * 0.99 for task, began in self._late.items() if not task.done()):
            self._stall()

    async def _recover(self) -> None:
        """Until the store answers again: write the kept jobs, then probe; clears the stall."""
        delay = 0.05
        while self.stalled:
            await asyncio.sleep(delay)
            delay = min(_RETRY_MAX_S, delay * 2)
            if self._late:  # calls still waiting on the store: it has not answered yet
                continue
            try:
                while self._waiting:
                    job = self._waiting[0]
                    job_id = await self._enqueue(job)
                    self._waiting.popleft()
                    self.written(job_id, job.authorization)
                if await self.store.writable():
                    log.warning("the memory store answers again: chats are queued for learning")
                    self.stalled = False
            except Exception as exc:  # boundary: the store is still away; try again later
                log.debug("memory store still unavailable: %s", exc)

    async def stop(self) -> None:
        """Give kept and late writes a few seconds to land, then count what is left as lost."""
        give_up = time.monotonic() + _DRAIN_S
        while (self._late or self._waiting) and time.monotonic() < give_up and self._recovery is not None:
            await asyncio.sleep(0.05)
        if self._recovery is not None:
            self._recovery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._recovery
            self._recovery = None
        late = [t for t in self._late if not t.done()]
        for task in late:
            task.cancel()  # counted by its done callback (writes) or not at all (probes)
        await asyncio.gather(*late, return_exceptions=True)
        if self._waiting:
            self._lost(len(self._waiting), "the gateway stopped before the store came back")
            self._waiting.clear()
