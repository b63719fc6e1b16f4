"""A learning job as a worker sees it (backend-neutral: both stores hand these out)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class Job:
    id: int
    tenant: str
    user_id: str
    conversation_id: str | None
    model: str
    payload: dict[str, Any]
    attempts: int
    # the replica that holds this job's caller key in memory (pass-through mode), or None
    key_holder: str | None = None
    # this claim's lease token: the store renews, finishes or retries the job only with it
    lease: str = ""
