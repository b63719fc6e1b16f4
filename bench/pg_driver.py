"""psycopg 3 (AsyncConnectionPool) vs asyncpg (pool) on one PostgreSQL: round-trip latency of
a primary-key select, an insert + commit, and a pgvector KNN (HNSW, cosine) over 10k rows.

    python bench/pg_driver.py [--url postgresql://…] [--n 2000] [--rows 10000] [--dim 512]

Without ``--url`` it starts an embedded PostgreSQL (tests/pg.py). Each driver runs the same
statements, sequentially (one at a time: latency) and then 16 at once (throughput). Vectors
travel in pgvector's binary format with both drivers.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import struct
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def setup_sql(dim: int) -> list[str]:
    return [
        "CREATE EXTENSION IF NOT EXISTS vector",
        "DROP TABLE IF EXISTS bench_items",
        f"CREATE TABLE bench_items (id text PRIMARY KEY, tenant text NOT NULL, body text NOT NULL, emb vector({dim}))",
        "DROP TABLE IF EXISTS bench_log",
        "CREATE TABLE bench_log (id bigserial PRIMARY KEY, tenant text NOT NULL, body text NOT NULL)",
    ]


def vector_bytes(v: np.ndarray) -> bytes:
    return struct.pack(">HH", v.shape[0], 0) + np.asarray(v, dtype=">f4").tobytes()


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(n: int, op: Callable[[int], Awaitable[Any]]) -> dict[str, float]:
    for i in range(50):  # warm up: prepared statements, caches
        await op(i)
    samples = []
    for i in range(n):
        t0 = time.perf_counter()
        await op(i)
        samples.append((time.perf_counter() - t0) * 1000)
    return {"p50": statistics.median(samples), "p99": pct(samples, 0.99)}


async def throughput(n: int, op: Callable[[int], Awaitable[Any]], concurrency: int = 16) -> float:
    counter = iter(range(n))

    async def worker() -> None:
        for i in counter:
            await op(i)

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return n / (time.perf_counter() - t0)


async def seed(url: str, rows: int, dim: int) -> np.ndarray:
    import psycopg

    rng = np.random.default_rng(7)
    # clustered vectors (sentence embeddings are not uniform); unit length like USE's
    centres = rng.normal(size=(50, dim)).astype(np.float32)
    mat = centres[rng.integers(0, 50, rows)] + 0.3 * rng.normal(size=(rows, dim)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        for sql in setup_sql(dim):
            await conn.execute(sql)
        async with conn.cursor() as cur:
            async with cur.copy("COPY bench_items (id, tenant, body, emb) FROM STDIN") as copy:
                for i in range(rows):
                    literal = "[" + ",".join(f"{x:.6f}" for x in mat[i]) + "]"
                    await copy.write_row((f"m{i}", f"t{i % 10}", f"memory number {i}", literal))
        await conn.execute("CREATE INDEX ON bench_items USING hnsw (emb vector_cosine_ops)")
        await conn.execute("ANALYZE bench_items")
    return mat


async def bench_psycopg(url: str, n: int, queries: np.ndarray) -> dict[str, Any]:
    import psycopg
    from psycopg.adapt import Dumper
    from psycopg.pq import Format
    from psycopg_pool import AsyncConnectionPool

    class VectorDumper(Dumper):
        format = Format.BINARY

        def dump(self, obj: Any) -> bytes:
            return vector_bytes(obj)

    async def configure(conn: psycopg.AsyncConnection[Any]) -> None:
        info = await psycopg.types.TypeInfo.fetch(conn, "vector")
        assert info is not None
        VectorDumper.oid = info.oid
        conn.adapters.register_dumper(np.ndarray, VectorDumper)
        await conn.set_autocommit(True)

    pool = AsyncConnectionPool(url, min_size=16, max_size=16, configure=configure, open=False)
    await pool.open(wait=True)
    try:

        async def select(i: int) -> Any:
            async with pool.connection() as conn:
                cur = await conn.execute("SELECT id, tenant, body FROM bench_items WHERE id = %s", (f"m{i % 10000}",))
                return await cur.fetchone()

        async def insert(i: int) -> None:
            async with pool.connection() as conn:
                async with conn.transaction():
                    await conn.execute("INSERT INTO bench_log (tenant, body) VALUES (%s, %s)", ("t1", f"x{i}"))

        async def knn(i: int) -> Any:
            async with pool.connection() as conn:
                cur = await conn.execute(
                    "SELECT id FROM bench_items ORDER BY emb <=> %s LIMIT 50",
                    (queries[i % len(queries)],),
                )
                return await cur.fetchall()

        return await run_all(n, select, insert, knn)
    finally:
        await pool.close()


async def bench_asyncpg(url: str, n: int, queries: np.ndarray) -> dict[str, Any]:
    import asyncpg  # type: ignore[import-untyped]

    async def init(conn: Any) -> None:
        await conn.set_type_codec(
            "vector",
            schema="public",
            encoder=vector_bytes,
            decoder=lambda b: np.frombuffer(b[4:], dtype=">f4"),
            format="binary",
        )

    pool = await asyncpg.create_pool(url, min_size=16, max_size=16, init=init)
    try:

        async def select(i: int) -> Any:
            async with pool.acquire() as conn:
                return await conn.fetchrow("SELECT id, tenant, body FROM bench_items WHERE id = $1", f"m{i % 10000}")

        async def insert(i: int) -> None:
            async with pool.acquire() as conn:
                async with conn.transaction():
                    await conn.execute("INSERT INTO bench_log (tenant, body) VALUES ($1, $2)", "t1", f"x{i}")

        async def knn(i: int) -> Any:
            async with pool.acquire() as conn:
                q = queries[i % len(queries)]
                return await conn.fetch(
                    "SELECT id FROM bench_items ORDER BY emb <=> $1 LIMIT 50",
                    q,
                )

        return await run_all(n, select, insert, knn)
    finally:
        await pool.close()


async def run_all(n: int, *ops: Callable[[int], Awaitable[Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, op in zip(("pk_select", "insert_commit", "knn_10k"), ops, strict=True):
        latency = await measure(n if name != "knn_10k" else n // 4, op)
        rate = await throughput(n if name != "knn_10k" else n // 4, op)
        out[name] = {**latency, "per_s_c16": rate}
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--dim", type=int, default=512)
    args = parser.parse_args()
    if args.url is None:
        from tests.pg import fresh_database_url

        args.url = fresh_database_url()
    mat = await seed(args.url, args.rows, args.dim)
    rng = np.random.default_rng(11)
    queries = mat[rng.integers(0, len(mat), 200)] + 0.05 * rng.normal(size=(200, args.dim)).astype(np.float32)
    queries = (queries / np.linalg.norm(queries, axis=1, keepdims=True)).astype(np.float32)
    results: dict[str, list[dict[str, Any]]] = {}
    # alternate the order so neither driver always runs on a warmer server
    for name in ("psycopg", "asyncpg", "psycopg", "asyncpg"):
        fn = bench_psycopg if name == "psycopg" else bench_asyncpg
        results.setdefault(name, []).append(await fn(args.url, args.n, queries))
    print(f"{'driver':8} {'operation':14} {'p50 ms':>8} {'p99 ms':>8} {'ops/s c=16':>11}")
    for name, runs in results.items():
        for op in runs[0]:
            best = min(runs, key=lambda r: r[op]["p50"])[op]
            print(f"{name:8} {op:14} {best['p50']:8.3f} {best['p99']:8.3f} {best['per_s_c16']:11.0f}")


if __name__ == "__main__":
    asyncio.run(main())
