"""Store-side search: the candidates retrieval fuses and a replica's working-set rows."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

import numpy as np

from ..keyword_index import KeywordQuery
from ..records import (
    KeywordOptions,
    PartitionRows,
    Visibility,
)


class Candidates(Protocol):
    """Store-side search over the caller's visible memories, and the rows a working set holds."""

    async def vector_candidates(self, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Visible memories by cosine similarity, best first (disabled ones only when asked)."""
        ...

    async def keyword_candidates(
        self, where: Visibility, query: KeywordQuery, k: int, options: KeywordOptions | None = None
    ) -> list[tuple[list[tuple[str, float]], str]]:
        """Ranked (id, score) lists, higher is better, each with its kind for the fusion
        weights, in this order: "words", "cjk", "substring" (a list without terms is left out;
        ``options`` None: ``KeywordOptions()``)."""
        ...

    async def count_visible(self, tenant: str, user_id: str | None) -> int:
        """Rows (disabled included) the caller sees: own personal + tenant shared/system."""
        ...

    async def partition_rows(
        self, tenant: str, owner: str, *, limit: int | None = None, ids: Collection[str] | None = None
    ) -> PartitionRows:
        """The enabled memories of one partition (owner = user id or SHARED_OWNER), at most
        ``limit`` (the working set asks for its row cap + 1 to learn a partition is too big);
        with ``ids``, only those of them (the working set re-reading what a change touched)."""
        ...

    async def rebuild_keyword_index(self) -> None: ...
