"""Embeddings stored with each memory and the vector index derived from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np


class EmbeddingStore(Protocol):
    """A memory's stored embedding and the vector index the backend derives from them."""

    async def prepare_vectors(self, model: str, dim: int, *, reembedded: bool = False) -> str:
        """Load or rebuild the vector index for ``model``/``dim``; answers the index state:
        "loaded" | "rebuilt", or "reindex" when the stored vectors came from another model
        (meta ``embedding_model`` / ``embedding_dim``) and everything must be re-embedded. The
        caller then stores new vectors for ``texts_to_embed(everything=True)`` and calls again
        with ``reembedded=True``, which records the model and rebuilds."""
        ...

    async def texts_to_embed(self, *, everything: bool) -> list[tuple[str, str, str]]:
        """(id, title, content) of memories lacking a vector (or all of them)."""
        ...

    async def set_embeddings(self, vectors: Sequence[tuple[str, np.ndarray]]) -> None: ...
    async def save_vectors(self) -> None:
        """Persist derived vector files, if the backend keeps any (SQLite: hnswlib files)."""
        ...

    async def embedding(self, memory_id: str) -> np.ndarray | None: ...
    async def set_embedding(self, memory_id: str, vector: np.ndarray | None) -> None: ...
