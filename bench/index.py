"""Vector index benchmark: search latency, recall@10 vs brute force, build time and RSS.

Two shapes of N stored vectors (dim 512, the local USE embedder's size):
  * many users: N/100 users x 100 memories (exact numpy partitions)
  * one user:   1 user x N memories (hnswlib partition)

Kinds of data (``--kinds``):
  * real:      sentence embeddings from the product's local embedder (``build_embedder(
               {"provider": "local"})``, multilingual USE) of templated English/Chinese
               memory-like sentences. A base of ``--base`` real vectors is embedded once and
               cached under /tmp; for N > base the extra vectors are *derived*: a real vector
               plus Gaussian noise, renormalised (``--sigma``, see README). Queries are
               held-out real sentences (never stored).
  * clustered: points around random topic centres (synthetic; too easy).
  * random:    uniform random unit vectors (a worst case for HNSW, nothing like real data).

    .venv/bin/python bench/index.py --n 1000000 --kinds real
    .venv/bin/python bench/index.py --study --n 50000      # M / ef_construction / ef grid
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.store.vector_index import PartitionedIndex

DIM = 512
CACHE = Path("/tmp/memorelay_bench")


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def unit(x: np.ndarray) -> np.ndarray:
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


# -- realistic sentences ----------------------------------------------------------------------
_NAMES = (
    "Alice Bob Carol David Emma Frank Grace Henry Irene Jack Karen Liam Maria Noah Olivia "
    "Peter Quinn Rachel Sam Tina Umar Vera Wei Xavier Yuki Zoe Priya Ahmed Sofia Lukas "
    "Chen Mei Hiroshi Fatima Diego Ingrid Kofi Anya Mateo Leila".split()
)
_ZH_NAMES = (
    "张伟 王芳 李娜 刘洋 陈静 杨磊 赵敏 黄勇 周杰 吴婷 徐明 孙丽 马超 朱琳 胡斌 郭涛 何欣 林峰 高洁 罗军"
).split()
_CITIES = (
    "Berlin Paris Tokyo Shanghai Beijing Shenzhen London Toronto Sydney Madrid Seoul "
    "Singapore Boston Austin Lisbon Oslo Prague Vienna Dublin Nairobi Lagos Mumbai Delhi "
    "Chicago Denver Seattle Hangzhou Chengdu Osaka Zurich".split()
)
_ZH_CITIES = "北京 上海 深圳 广州 杭州 成都 南京 武汉 西安 重庆 苏州 天津 厦门 青岛 长沙".split()
_LANGS = (
    "Python Rust Go TypeScript Java Kotlin Swift C++ Haskell Elixir Scala Ruby PHP Julia "
    "Zig OCaml Clojure Dart Lua R".split()
)
_TOOLS = (
    "PostgreSQL MySQL SQLite Redis Kafka RabbitMQ Elasticsearch MongoDB Cassandra "
    "ClickHouse DuckDB Kubernetes Docker Terraform Ansible Nginx Envoy GraphQL gRPC FastAPI "
    "Django Flask React Vue Svelte Angular Spark Airflow dbt Prometheus Grafana Jenkins "
    "GitHub Actions GitLab CI Vite webpack pytest mypy ruff Celery".split()
)
_FOODS = (
    "sushi ramen tacos pizza dumplings curry pho falafel paella kimchi oatmeal salad "
    "steak tofu noodles croissants bagels hummus risotto dim sum hotpot burritos".split()
)
_ZH_FOODS = "火锅 饺子 小笼包 烤鸭 麻婆豆腐 牛肉面 煎饼 米粉 寿司 披萨 拉面 包子".split()
_HOBBIES = (
    "hiking chess cycling painting running swimming climbing photography gardening "
    "knitting surfing yoga baking birdwatching skiing pottery fishing tennis".split()
)
_COLOURS = (
    "dark mode|light mode|high contrast|large fonts|compact layout|vim keybindings|"
    "emacs keybindings|tabs|two-space indentation|four-space indentation".split("|")
)
_PRODUCTS = (
    "the Pro plan|the Basic plan|the Enterprise tier|the mobile app|the API|"
    "the analytics dashboard|the billing portal|the EU region|the self-hosted edition|"
    "the free trial|the reseller program|the support desk".split("|")
)
_TEAMS = (
    "platform|payments|search|growth|data|security|mobile|infra|billing|support|marketing|legal|finance|sales".split(
        "|"
    )
)
_MONTHS = "January February March April May June July August September October November December".split()
_WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_ZH_TOPICS = (
    "代码风格 数据库 部署流程 报销政策 请假制度 客户合同 发票 会议纪要 接口文档 测试用例 "
    "监控告警 权限管理 定价策略 退款规则 物流配送".split()
)


def _sentence(rng: np.random.Generator) -> str:
    def c(xs: list[str]) -> str:
        return xs[int(rng.integers(len(xs)))]

    def n(lo: int, hi: int) -> int:
        return int(rng.integers(lo, hi))

    name, city, lang, tool, tool2 = c(_NAMES), c(_CITIES), c(_LANGS), c(_TOOLS), c(_TOOLS)
    date = f"{c(_MONTHS)} {n(1, 29)}, {n(2015, 2027)}"
    zn, zc = c(_ZH_NAMES), c(_ZH_CITIES)
    templates = [
        f"{name} prefers {c(_COLOURS)} in every editor and asked to keep it for {lang} files.",
        f"The user likes {c(_FOODS)} and dislikes {c(_FOODS)}; avoid suggesting restaurants in {city}.",
        f"{name} moved to {city} in {date} and works on the {c(_TEAMS)} team.",
        f"Our {c(_TEAMS)} service is written in {lang} and stores its data in {tool}.",
        f"Use {tool} version {n(1, 17)}.{n(0, 20)} for the {c(_TEAMS)} pipeline, not {tool2}.",
        f"Customers on {c(_PRODUCTS)} get a {n(5, 60)}% discount when paying yearly before {date}.",
        f"Refunds for {c(_PRODUCTS)} are allowed within {n(3, 90)} days if usage is below {n(1, 50)} GB.",
        f"{name}'s birthday is on {c(_MONTHS)} {n(1, 29)}; they enjoy {c(_HOBBIES)} and {c(_FOODS)}.",
        f"Meeting with {name} from {city} every {c(_WEEKDAYS)} at {n(7, 19)}:{n(0, 6)}0 about {c(_PRODUCTS)}.",
        f"The deploy of the {c(_TEAMS)} stack failed on {date} because {tool} ran out of disk.",
        f"Invoice #{n(1000, 99999)} for {n(100, 50000)} EUR is due on {date}; contact {name}.",
        f"{name} is allergic to {c(_FOODS)} and is training for a {c(_HOBBIES)} event in {city}.",
        f"Always run {tool} checks before merging {lang} code into the {c(_TEAMS)} repository.",
        f"The {c(_TEAMS)} team's on-call rotation changes on {c(_WEEKDAYS)}s; {name} is the lead.",
        f"Latency budget for {c(_PRODUCTS)} is {n(20, 900)} ms at p99 with {n(2, 64)} replicas of {tool}.",
        f"{name} has {n(1, 5)} kids and a dog named {c(_NAMES)}; they live near {city}.",
        f"Do not email customers in {city} after {n(17, 23)}:00 local time; rule set by {name}.",
        f"Migrate from {tool2} to {tool} by {date}, estimated {n(2, 40)} engineer-weeks.",
        f"{name} learned {lang} in {n(2005, 2025)} and now teaches it on {c(_WEEKDAYS)} evenings.",
        f"Shipping to {city} costs {n(3, 80)} dollars and takes {n(1, 15)} business days.",
        f"Password rotation for {tool} is every {n(30, 180)} days; keys are stored in the {c(_TEAMS)} vault.",
        f"{name} booked a flight from {city} to {c(_CITIES)} on {date}, seat {n(1, 40)}{c(list('ABCDEF'))}.",
        f"The maximum order size for {c(_PRODUCTS)} is {n(10, 10000)} units per account.",
        f"User prefers answers in short bullet points, with {lang} examples and no emojis.",
        f"{zn}喜欢吃{c(_ZH_FOODS)}，住在{zc}，每周{n(1, 7)}去健身房。",
        f"{zn}负责{c(_ZH_TOPICS)}，有问题请在{n(1, 12)}月{n(1, 29)}日之前联系。",
        f"公司规定：{c(_ZH_TOPICS)}相关的审批需要{n(2, 10)}个工作日，金额超过{n(1, 100)}万元需总监签字。",
        f"我们的{c(_ZH_TOPICS)}服务使用{lang}和{tool}，部署在{zc}机房。",
        f"用户偏好{c(['简洁', '详细', '正式', '轻松'])}的回答风格，代码示例用{lang}。",
        f"{zn}的生日是{n(1, 13)}月{n(1, 29)}日，对{c(_ZH_FOODS)}过敏。",
        f"{zc}的客户在{n(2018, 2027)}年{n(1, 13)}月之前享受{n(5, 50)}%的折扣。",
        f"{zn}和{c(_ZH_NAMES)}下周{c(['一', '二', '三', '四', '五'])}在{zc}开会讨论{c(_ZH_TOPICS)}。",
        f"订单号{n(100000, 999999)}的退款已于{n(1, 13)}月{n(1, 29)}日处理，金额{n(10, 9999)}元。",
    ]
    return templates[int(rng.integers(len(templates)))]


def sentences(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        s = _sentence(rng)
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def real_vectors(base: int, queries: int) -> tuple[np.ndarray, np.ndarray]:
    """(base, queries) unit vectors from the local embedder, cached under /tmp."""
    path = CACHE / f"use_real_{base}_{queries}.npy"
    if path.exists():
        allv = np.load(path)
    else:
        from gateway.memory import build_embedder

        texts = sentences(base + queries, seed=11)
        emb = build_embedder({"provider": "local", "cache_size": 0})
        assert emb is not None

        async def run() -> np.ndarray:
            parts = []
            t0 = time.perf_counter()
            for s in range(0, len(texts), 1024):
                parts.append(np.asarray(await emb.embed(texts[s : s + 1024]), np.float32))
                if s % 20480 == 0:
                    print(
                        f"  embedded {s + len(parts[-1])} in {time.perf_counter() - t0:.0f}s",
                        file=sys.stderr,
                        flush=True,
                    )
            return np.concatenate(parts)

        allv = unit(asyncio.run(run()))
        CACHE.mkdir(parents=True, exist_ok=True)
        np.save(path, allv)
    return allv[:base], allv[base:]


def derive(real: np.ndarray, n: int, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """n vectors: the real ones first, then real[i % base] + sigma * N(0, I), renormalised."""
    out = np.empty((n, DIM), dtype=np.float32)
    k = min(n, len(real))
    out[:k] = real[:k]
    for s in range(k, n, 50_000):
        m = min(50_000, n - s)
        src = real[np.arange(s, s + m) % len(real)]
        out[s : s + m] = unit(src + sigma * rng.standard_normal((m, DIM), dtype=np.float32))
    return out


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


def dataset(
    n: int, queries: int, kind: str, rng: np.random.Generator, args: argparse.Namespace
) -> tuple[np.ndarray, np.ndarray]:
    if kind == "real":
        base, qs = real_vectors(args.base, max(queries, 1000))
        return derive(base, n, args.sigma, rng), qs[:queries]
    centres = unit(rng.standard_normal((1000, DIM), dtype=np.float32))
    return make(n, kind, rng, centres), make(queries, kind, rng, centres)


def pct(values: list[float]) -> tuple[float, float]:
    arr = np.asarray(values) * 1000
    return float(np.percentile(arr, 50)), float(np.percentile(arr, 99))


def exact_top(data: np.ndarray, qs: np.ndarray, k: int = 10) -> np.ndarray:
    """Brute-force top-k row numbers for every query (chunked over the data)."""
    best_s = np.full((len(qs), k), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(qs), k), dtype=np.int64)
    for s in range(0, len(data), 200_000):
        sc = qs @ data[s : s + 200_000].T
        top = np.argpartition(-sc, k - 1, axis=1)[:, :k]
        cand_s = np.concatenate([best_s, np.take_along_axis(sc, top, 1)], axis=1)
        cand_i = np.concatenate([best_i, top + s], axis=1)
        keep = np.argpartition(-cand_s, k - 1, axis=1)[:, :k]
        best_s = np.take_along_axis(cand_s, keep, 1)
        best_i = np.take_along_axis(cand_i, keep, 1)
    return best_i


def bench_many_users(
    n: int, kind: str, rng: np.random.Generator, queries: int, args: argparse.Namespace
) -> dict[str, float]:
    per_user = 100
    users = n // per_user
    data, qs = dataset(users * per_user, queries, kind, rng, args)
    # shuffle so a user's 100 memories are not 100 perturbations of the same few real ones
    data = data[rng.permutation(len(data))]
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


def run_one(
    data: np.ndarray, qs: np.ndarray, truth: np.ndarray, *, m: int, efc: int, efs: list[int]
) -> tuple[float, float, list[dict[str, float]]]:
    """Build one hnswlib partition, then search it at each ef. Returns build s, RSS growth, rows."""
    ids = [str(i) for i in range(len(data))]
    before = rss_mb()
    t0 = time.perf_counter()
    index = PartitionedIndex(DIM, ef=efs[0], hnsw_threshold=10_000, m=m, ef_construction=efc)
    index.build({("bench", "one"): (ids, data)})
    build = time.perf_counter() - t0
    grown = rss_mb() - before
    part = index._parts[("bench", "one")]
    rows = []
    for ef in efs:
        part.ef = ef  # type: ignore[union-attr]
        for q in qs[:50]:  # warm-up
            index.search(("bench", "one"), q, 10)
        lat: list[float] = []
        rec: list[float] = []
        for i, q in enumerate(qs):
            t = time.perf_counter()
            hits = index.search(("bench", "one"), q, 10)
            lat.append(time.perf_counter() - t)
            want = {str(j) for j in truth[i]}
            rec.append(len(want & {h for h, _ in hits}) / 10)
        p50, p99 = pct(lat)
        rows.append({"ef": ef, "p50_ms": p50, "p99_ms": p99, "recall@10": float(np.mean(rec))})
    return build, grown, rows


def study(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(7)
    for kind in args.kinds.split(","):
        data, qs = dataset(args.n, args.queries, kind, rng, args)
        truth = exact_top(data, qs)
        print(f"\n{kind}: 1 user x {args.n}, {args.queries} held-out queries, k=10")
        print("| M | ef_construction | build s | ef | p50 ms | p99 ms | recall@10 |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for m in (16, 32):
            for efc in (100, 200):
                build, _, rows = run_one(data, qs, truth, m=m, efc=efc, efs=[64, 128, 256])
                for r in rows:
                    print(
                        f"| {m} | {efc} | {build:.1f} | {r['ef']} | {r['p50_ms']:.3f} | "
                        f"{r['p99_ms']:.3f} | {r['recall@10']:.3f} |",
                        flush=True,
                    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000, help="stored vectors per shape")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--ef", default="128", help="query ef, comma-separated to try several")
    ap.add_argument("--m", type=int, default=16)
    ap.add_argument("--ef-construction", type=int, default=200)
    ap.add_argument("--kinds", default="real", help="real, clustered, random (comma-separated)")
    ap.add_argument("--shapes", default="many,one")
    ap.add_argument("--base", type=int, default=100_000, help="real embeddings to compute")
    ap.add_argument(
        "--sigma", type=float, default=0.02, help="per-dimension noise of derived vectors (before renormalising)"
    )
    ap.add_argument("--study", action="store_true", help="M x ef_construction x ef grid, 1 user")
    args = ap.parse_args()
    if args.study:
        study(args)
        return
    rng = np.random.default_rng(7)
    efs = [int(x) for x in args.ef.split(",")]
    print(f"n={args.n} dim={DIM} M={args.m} ef_construction={args.ef_construction} base={args.base} sigma={args.sigma}")
    print("| shape | data | ef | p50 ms | p99 ms | recall@10 | build s | index RSS MB | process RSS MB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for shape in args.shapes.split(","):
        for kind in args.kinds.split(","):
            if shape == "many":
                r = bench_many_users(args.n, kind, rng, args.queries, args)
                print(
                    f"| {args.n // 100} users x 100 | {kind} | exact | {r['p50_ms']:.3f} | "
                    f"{r['p99_ms']:.3f} | {r['recall@10']:.3f} | {r['build_s']:.1f} | "
                    f"{r['index_rss_mb']:.0f} | {r['rss_mb']:.0f} |",
                    flush=True,
                )
                continue
            data, qs = dataset(args.n, args.queries, kind, rng, args)
            t0 = time.perf_counter()
            truth = exact_top(data, qs)
            print(f"  (brute-force truth {time.perf_counter() - t0:.0f}s)", file=sys.stderr)
            build, grown, rows = run_one(data, qs, truth, m=args.m, efc=args.ef_construction, efs=efs)
            for r in rows:
                print(
                    f"| 1 user x {args.n} | {kind} | {r['ef']} | {r['p50_ms']:.3f} | "
                    f"{r['p99_ms']:.3f} | {r['recall@10']:.3f} | {build:.1f} | {grown:.0f} | "
                    f"{rss_mb():.0f} |",
                    flush=True,
                )
            del data


if __name__ == "__main__":
    main()
