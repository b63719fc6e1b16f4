"""Keeping the derived vector index in step with SQLite: load, rebuild, re-embed."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from ._offload import run_cpu
from .bounds import bound_text
from .embedders import Embedder
from .retrieval import partition_key
from .sqlite_store import SQLiteMemoryStore
from .vector_index import PartitionedIndex, PartitionKey

log = logging.getLogger("memorelay.memory")
EMBED_BATCH = 256


def embed_text(title: str, content: str) -> str:
    """The text a memory is embedded from: title, then content unless it repeats the title,
    at most ``bounds.EMBED_MAX_CHARS`` characters (the head of a long content)."""
    if content.startswith(title):
        return bound_text(content)
    return bound_text(f"{title}\n{content}")


async def expected_meta(store: SQLiteMemoryStore, embedder: Embedder) -> dict[str, object]:
    generation = int(await store.get_meta("index_generation") or 0)
    return {"generation": generation, "model": embedder.name}


async def rebuild(store: SQLiteMemoryStore, index: PartitionedIndex) -> int:
    """Replace the index with every enabled memory's stored embedding."""
    ids: dict[PartitionKey, list[str]] = {}
    vecs: dict[PartitionKey, list[bytes]] = {}
    async for batch in store.iter_embeddings():
        for mid, tenant, user_id, scope, blob in batch:
            if len(blob) != index.dim * 4:
                continue
            key = partition_key(tenant, scope, user_id)
            ids.setdefault(key, []).append(mid)
            vecs.setdefault(key, []).append(blob)
    groups = {
        key: (ids[key], np.frombuffer(b"".join(vecs[key]), dtype=np.float32).reshape(-1, index.dim)) for key in ids
    }
    await run_cpu(index.build, groups)
    return sum(len(v) for v in ids.values())


async def load_or_rebuild(
    store: SQLiteMemoryStore, index: PartitionedIndex, embedder: Embedder, folder: Path | None
) -> str:
    """Load saved index files when they match SQLite exactly; otherwise rebuild."""
    expect = await expected_meta(store, embedder)
    if folder is not None and folder.exists():
        if await run_cpu(index.load, folder, expect):
            if index.count() == await store.count_indexable():
                return "loaded"
            log.warning("memory index count differs from the database; rebuilding")
        else:
            log.warning("memory index files at %s are stale or corrupt; rebuilding", folder)
    await rebuild(store, index)
    return "rebuilt"


async def embed_missing(store: SQLiteMemoryStore, embedder: Embedder, *, everything: bool) -> int:
    """Embed memories lacking a vector (or all of them) and store the vectors."""
    where = "" if everything else "WHERE embedding IS NULL"
    rows = await store.rows(f"SELECT id, title, content FROM memories {where} ORDER BY rowid", ())
    done = 0
    for start in range(0, len(rows), EMBED_BATCH):
        chunk = rows[start : start + EMBED_BATCH]
        texts = [embed_text(r[1], r[2]) for r in chunk]
        vectors = await embedder.embed(texts)
        async with store.transaction():
            await store.db.executemany(
                "UPDATE memories SET embedding = ? WHERE id = ?",
                [(vectors[i].astype(np.float32).tobytes(), r[0]) for i, r in enumerate(chunk)],
            )
            await store.bump_generation()
        done += len(chunk)
    return done
