"""Memory rows: writing them and reading them by id or owner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from ..records import (
    AuditEntry,
    Memory,
    Visibility,
)


class MemoryRows(Protocol):
    """Memories as rows: insert, read by id or by owner, change fields, delete."""

    async def insert(self, memories: Sequence[Memory], embeddings: np.ndarray | None) -> None: ...
    async def fetch(self, ids: Sequence[str]) -> dict[str, Memory]: ...
    async def fetch_one(self, memory_id: str) -> Memory | None: ...
    async def write_fields(self, memory_id: str, fields: dict[str, Any]) -> None: ...
    async def supersede(
        self,
        new: Memory,
        embedding: np.ndarray | None,
        olds: Sequence[Memory],
        reason: str,
        stamp: str,
        audit: Mapping[str, AuditEntry],
    ) -> list[str]:
        """Insert ``new`` and disable (``reason``, at ``stamp``) each of ``olds`` still active
        and unchanged since it was read, in one transaction; write the ``audit`` entry of each
        memory written (by id). Answers the ids of the old memories disabled."""
        ...

    async def delete(self, ids: Sequence[str]) -> None:
        """Delete the rows and scrub their text from earlier audit entries."""
        ...

    async def add_access(self, counts: Sequence[tuple[str, int, str]]) -> None:
        """(id, injections to add, last_access_at) for each memory."""
        ...

    async def list_visible(self, where: Visibility, *, limit: int, offset: int) -> tuple[list[Memory], int]:
        """Newest first, and the total matching."""
        ...

    async def personal(self, tenant: str, user_id: str) -> list[Memory]: ...
    async def in_slot(self, tenant: str, user_id: str, slot: str) -> list[Memory]:
        """Enabled personal memories holding ``slot``, newest first."""
        ...

    async def pinned(self, tenant: str, user_id: str | None) -> list[Memory]:
        """The enabled pinned memories the caller sees (own personal + tenant shared/system),
        oldest first."""
        ...
