"""pgvector: the embedder's record, its HNSW index, and vector candidates.

``memories.embedding`` is an untyped ``vector`` column; the embedder's dimension arrives at
``prepare``, which creates a partial expression index for that dimension only::

    CREATE INDEX memories_hnsw_512 ON memories
        USING hnsw ((embedding::vector(512)) vector_cosine_ops)
        WHERE enabled AND vector_dims(embedding) = 512

(HNSW needs a typed column or expression; the partial predicate keeps rows of any other
dimension, and disabled rows, out of it). A new embedder of another dimension gets its own
index and the old one is dropped; no ALTER TABLE rewrites the table.

A search over a small partition (at most ``EXACT_MAX`` rows, the usual user) ranks every
visible row exactly: the query spells the distance on the untyped column, which the
expression index does not serve, so PostgreSQL reads the user's rows by the owner index.
A larger one uses HNSW with pgvector's iterative scan, so the tenant/user filter does not
starve the result list.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from ..records import Visibility
from .connection import Conn
from .keywords import visibility

log = logging.getLogger("memorelay.postgres")

VECTOR_LOCK = 0x6D656D76  # "memv": replicas preparing vectors at once take turns
EXACT_MAX = 2000
HNSW_MAX_DIM = 2000  # pgvector's HNSW limit for the vector type


def index_name(dim: int) -> str:
    return f"memories_hnsw_{int(dim)}"


async def _meta(conn: Conn, key: str) -> str | None:
    cur = await conn.execute("SELECT value FROM meta WHERE key = %s", (key,))
    row = await cur.fetchone()
    return None if row is None else str(row[0])


async def _set_meta(conn: Conn, key: str, value: str) -> None:
    await conn.execute(
        "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


async def prepare(conn: Conn, model: str, dim: int, *, reembedded: bool) -> str:
    """Inside a transaction: "reindex" (changing nothing) when the stored vectors came from
    another model and ``reembedded`` is not set; else record the embedder, make sure its
    index exists (dropping other dimensions' ones) and answer "rebuilt" when the index was
    created now (or after re-embedding), "loaded" when it was there."""
    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (VECTOR_LOCK,))
    old_model, old_dim = await _meta(conn, "embedding_model"), await _meta(conn, "embedding_dim")
    if not reembedded and old_model is not None and (old_model != model or old_dim != str(dim)):
        log.warning("embedding model changed (%s -> %s); reindexing", old_model, model)
        return "reindex"
    await _set_meta(conn, "embedding_model", model)
    await _set_meta(conn, "embedding_dim", str(int(dim)))
    cur = await conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'memories' "
        "AND indexname LIKE 'memories\\_hnsw\\_%'"
    )
    existing = {str(r[0]) for r in await cur.fetchall()}
    for name in existing - {index_name(dim)}:
        await conn.execute(f'DROP INDEX IF EXISTS "{name}"')
    state = "rebuilt" if reembedded else "loaded"
    if index_name(dim) not in existing and 0 < dim <= HNSW_MAX_DIM:
        d = int(dim)
        await conn.execute(
            f"CREATE INDEX {index_name(d)} ON memories USING hnsw ((embedding::vector({d})) vector_cosine_ops) "
            f"WHERE enabled AND vector_dims(embedding) = {d}"
        )
        state = "rebuilt"
    return state


async def candidates(conn: Conn, where: Visibility, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    """Visible rows by cosine similarity (1 - cosine distance), best first."""
    dim = int(query.shape[0])
    clause, args = visibility(where)
    clause += f" AND embedding IS NOT NULL AND vector_dims(embedding) = {dim}"
    cur = await conn.execute(
        f"SELECT COUNT(*) FROM (SELECT 1 FROM memories WHERE {clause} LIMIT {EXACT_MAX + 1}) s", args
    )
    row = await cur.fetchone()
    size = int(row[0]) if row else 0
    if size == 0:
        return []
    params: list[Any] = [query, *args, query, int(k)]
    if size <= EXACT_MAX or where.include_disabled or dim > HNSW_MAX_DIM:
        sql = f"SELECT id, 1 - (embedding <=> %s) FROM memories WHERE {clause} ORDER BY embedding <=> %s, seq LIMIT %s"
        cur = await conn.execute(sql, params)
        return [(str(r[0]), float(r[1])) for r in await cur.fetchall()]
    typed = f"embedding::vector({dim})"
    sql = (
        f"SELECT id, 1 - d FROM (SELECT id, {typed} <=> %s AS d FROM memories WHERE {clause} "
        f"ORDER BY {typed} <=> %s LIMIT %s) s ORDER BY d"
    )
    cur = await conn.execute(sql, params)
    return [(str(r[0]), float(r[1])) for r in await cur.fetchall()]
