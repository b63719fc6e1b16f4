"""Vector index benchmark: search latency, recall@10 vs brute force, build time and RSS.

Two shapes of N stored vectors (dim 512, the local USE embedder's size):
  * many users: N/100 users x 100 memories (exact numpy partitions)
  * one user:   1 user x N memories (hnswlib partition)
and two kinds of data: uniform random unit vectors (a worst case for HNSW, nothing like
real sentence embeddings) and clustered vectors (points around topic centres, closer to
real embeddings). Queries are fresh points from the same distribution, not stored ones.

    .venv/bin/python bench/index.py --n 1000000
    .venv/bin/python bench/index.py --n 200000      # what fits a few minutes on 2 cores
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.memory.vector_index import PartitionedIndex

DIM = 512


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def unit(x: np.ndarray) -> np.ndarray:
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def make(n: int, kind: str, rng: np.random.Generator, centres: np.ndarray | None) -> np.ndarray:
    out = np.empty((n, DIM), dtype=np.float32)
    for s in range(0, n, 50_000):
        m = min(50_000, n - s)
        noise = rng.standard_normal((m, DIM), dtype=np.float32)
        if kind == "random":
            out[s : s + m] = unit(noise)
        else:
            assert centres is not None
            pick = rng.integers(0, len(centres), m)
            out[s : s + m] = unit(centres[pick] + 0.045 * noise)
    return out


def pct(values: list[float]) -> tuple[float, float]:
    arr = np.asarray(values) * 1000
    return float(np.percentile(arr, 50)), float(np.percentile(arr, 99))


def bench_many_users(n: int, kind: str, rng: np.random.Generator, queries: int) -> dict[str, float]:
    per_user = 100
    users = n // per_user
    centres = unit(rng.standard_normal((max(16, n // 100), DIM), dtype=np.float32))
    data = make(users * per_user, kind, rng, centres)
    before = rss_mb()
    t0 = time.perf_counter()
    index = PartitionedIndex(DIM)
    index.build(
        {
            ("bench", f"u{u}"): (
                [f"m{u}_{i}" for i in range(per_user)],
                data[u * per_user : (u + 1) * per_user],
            )
            for u in range(users)
        }
    )
    build = time.perf_counter() - t0
    qs = make(queries, kind, rng, centres)
    lat: list[float] = []
    recall: list[float] = []
    for i in range(queries):
        u = int(rng.integers(0, users))
        t = time.perf_counter()
        hits = index.search(("bench", f"u{u}"), qs[i], 10)
        lat.append(time.perf_counter() - t)
        exact = np.argsort(-(data[u * per_user : (u + 1) * per_user] @ qs[i]))[:10]
        truth = {f"m{u}_{j}" for j in exact}
        recall.append(len(truth & {h for h, _ in hits}) / 10)
    p50, p99 = pct(lat)
    return {
        "p50_ms": p50,
        "p99_ms": p99,
        "recall@10": float(np.mean(recall)),
        "build_s": build,
        "rss_mb": rss_mb(),
        "index_rss_mb": rss_mb() - before,
    }


def bench_one_user(
    n: int, kind: str, rng: np.random.Generator, queries: int, ef: int, ef_construction: int
) -> dict[str, float]:
    centres = unit(rng.standard_normal((1000, DIM), dtype=np.float32))
    data = make(n, kind, rng, centres)
    before = rss_mb()
    t0 = time.perf_counter()
    index = PartitionedIndex(DIM, ef=ef, hnsw_threshold=10_000, ef_construction=ef_construction)
    index.build({("bench", "one"): ([str(i) for i in range(n)], data)})
    build = time.perf_counter() - t0
    qs = make(queries, kind, rng, centres)
    lat: list[float] = []
    recall: list[float] = []
    for i in range(queries):
        t = time.perf_counter()
        hits = index.search(("bench", "one"), qs[i], 10)
        lat.append(time.perf_counter() - t)
        if i < 200:
            truth = {str(j) for j in np.argpartition(-(data @ qs[i]), 10)[:10]}
            recall.append(len(truth & {h for h, _ in hits}) / 10)
    p50, p99 = pct(lat)
    return {
        "p50_ms": p50,
        "p99_ms": p99,
        "recall@10": float(np.mean(recall)),
        "build_s": build,
        "rss_mb": rss_mb(),
        "index_rss_mb": rss_mb() - before,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000, help="stored vectors per shape")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--ef", type=int, default=128)
    ap.add_argument("--ef-construction", type=int, default=200)
    ap.add_argument("--kinds", default="clustered,random")
    ap.add_argument("--shapes", default="many,one")
    args = ap.parse_args()
    rng = np.random.default_rng(7)
    print(f"n={args.n} dim={DIM} ef={args.ef} ef_construction={args.ef_construction}")
    print(
        "| shape | data | p50 ms | p99 ms | recall@10 | build s | index RSS MB | process RSS MB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for shape in args.shapes.split(","):
        for kind in args.kinds.split(","):
            if shape == "many":
                r = bench_many_users(args.n, kind, rng, args.queries)
                label = f"{args.n // 100} users x 100"
            else:
                r = bench_one_user(args.n, kind, rng, args.queries, args.ef, args.ef_construction)
                label = f"1 user x {args.n}"
            print(
                f"| {label} | {kind} | {r['p50_ms']:.3f} | {r['p99_ms']:.3f} | "
                f"{r['recall@10']:.3f} | {r['build_s']:.1f} | {r['index_rss_mb']:.0f} | "
                f"{r['rss_mb']:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
