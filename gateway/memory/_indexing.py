"""Embedding memories: the text a memory is embedded from, and filling in missing vectors."""

from __future__ import annotations

from gateway.store import MemoryStore

from .bounds import bound_text
from .embedders import Embedder

EMBED_BATCH = 256


def embed_text(title: str, content: str) -> str:
    """The text a memory is embedded from: title, then content unless it repeats the title,
    at most ``bounds.EMBED_MAX_CHARS`` characters (the head of a long content)."""
    if content.startswith(title):
        return bound_text(content)
    return bound_text(f"{title}\n{content}")


async def embed_missing(store: MemoryStore, embedder: Embedder, *, everything: bool) -> int:
    """Embed memories lacking a vector (or all of them) and store the vectors, a batch per
    transaction."""
    rows = await store.texts_to_embed(everything=everything)
    done = 0
    for start in range(0, len(rows), EMBED_BATCH):
        chunk = rows[start : start + EMBED_BATCH]
        vectors = await embedder.embed([embed_text(title, content) for _, title, content in chunk])
        await store.set_embeddings([(mid, vectors[i]) for i, (mid, _, _) in enumerate(chunk)])
        done += len(chunk)
    return done
