"""The durable learning queue and what is kept beside it."""

from __future__ import annotations

from typing import Any, Protocol

from ..prompts import PromptName
from ..records import Job


class LearningQueue(Protocol):
    """The durable learning queue (leases, retries). Jobs are claimed by any worker of any
    replica; a job whose lease ran out (its worker died) is claimable again; nothing re-queues
    at start."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def writable(self) -> bool:
        """False while the database cannot take writes (full disk, I/O errors)."""
        ...

    async def compact(self) -> None:
        """Leave no copy of wiped payloads behind (SQLite: WAL truncate)."""
        ...

    async def enqueue(
        self,
        tenant: str,
        user_id: str,
        conversation_id: str | None,
        model: str,
        payload: dict[str, Any],
        *,
        key_holder: str | None = None,
    ) -> int: ...
    async def claim(self, lease_s: float, *, replica: str, holder_wait_s: float) -> Job | None:
        """Lease the oldest due job: pending and due, or running with an expired lease. A job
        whose ``key_holder`` is another replica is given only ``holder_wait_s`` after it was
        created (its holder had the time to learn it with the caller's key). The job carries
        a fresh lease token (``Job.lease``) that ``renew``, ``finish`` and ``retry`` check."""
        ...

    async def renew(self, job: Job, lease_s: float) -> bool:
        """Extend the lease of ``job`` (as claimed) to ``lease_s`` from now; False, changing
        nothing, when the job is no longer this claim's (its lease ran out and it was claimed
        again, or it ended)."""
        ...

    async def finish(
        self, job: Job, status: str = "done", error: str | None = None, *, log_entry: dict[str, Any] | None = None
    ) -> bool:
        """End ``job`` (done / dead) and write ``log_entry`` to the learning log, in one
        transaction, only while this claim holds the lease; False, changing nothing, if not."""
        ...

    async def retry(self, job: Job, delay_s: float, error: str, *, count_attempt: bool = True) -> bool:
        """Make ``job`` due again in ``delay_s``, only while this claim holds the lease."""
        ...

    async def pending_count(self) -> int: ...
    async def job_counts(self) -> dict[str, int]: ...


class LearningLog(Protocol):
    """The learning log and learning token usage."""

    async def log(self, job_id: int | None, tenant: str, user_id: str, entry: dict[str, Any]) -> None: ...
    async def log_entries(
        self, *, tenant: str | None = None, user_id: str | None = None, limit: int = 50, offset: int = 0
    ) -> tuple[list[dict[str, Any]], int]: ...
    async def log_since(self, since: str, tenant: str | None, limit: int) -> list[dict[str, Any]]:
        """The stored entries (as logged) of log rows since ``since`` (ISO time), newest first."""
        ...

    async def add_usage(self, tenant: str, user_id: str, prompt_tokens: int, completion_tokens: int) -> None: ...
    async def stats(self, tenant: str | None) -> dict[str, Any]: ...


class PromptOverrides(Protocol):
    """Prompt overrides stored by operators."""

    async def get_prompt(self, name: PromptName) -> tuple[str, str]:
        """(text, "override" | "default"): a stored override wins over the prompt file."""
        ...

    async def put_prompt(self, name: PromptName, text: str, *, actor: str) -> None: ...
    async def reset_prompt(self, name: PromptName) -> None: ...


class DeadLetters(Protocol):
    """Jobs that failed for good: listed, retried, discarded, their payloads wiped."""

    async def dead_jobs(self, *, limit: int = 50, offset: int = 0) -> tuple[list[dict[str, Any]], int]: ...
    async def wipe_dead_payloads(
        self, *, older_than_s: float | None = None, tenant: str | None = None, user_id: str | None = None
    ) -> int: ...
    async def retry_dead(self, job_id: int) -> bool: ...
    async def discard_dead(self, job_id: int) -> bool: ...
