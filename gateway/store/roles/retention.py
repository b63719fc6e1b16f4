"""What caps, eviction and retention count and choose."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..records import (
    Decay,
    Memory,
    PersonalStats,
)


class Retention(Protocol):
    """Counts of a user's memories and the memories eviction and retention take first."""

    async def count_personal(
        self, tenant: str, user_id: str, *, source: str | None = None, kind: str | None = None
    ) -> int: ...
    async def count_by_kind(self, tenant: str, user_id: str) -> dict[str, int]:
        """The user's personal memories per kind (kinds they have none of are absent)."""
        ...

    async def count_pinned(self, tenant: str, user_id: str) -> int:
        """The user's pinned personal memories, disabled ones included (the cap counts them)."""
        ...

    async def personal_stats(self, tenant: str, user_id: str) -> PersonalStats: ...

    async def lowest_value(
        self, tenant: str, user_id: str, n: int, protect: Sequence[str], decay: Decay, *, kind: str | None = None
    ) -> list[Memory]:
        """The ``n`` unpinned auto memories (of ``kind``, when given) to evict first: disabled,
        then the weakest (``Decay`` strength), then fewest accesses, oldest."""
        ...

    async def expired(self, cutoff: str, decay: Decay) -> list[Memory]:
        """Unpinned auto memories either never accessed and not updated since ``cutoff`` (ISO
        time) or weaker than ``decay.floor``."""
        ...

    async def count_weak(self, tenant: str, user_id: str, decay: Decay) -> int:
        """The user's unpinned auto memories weaker than ``decay.floor``."""
        ...
