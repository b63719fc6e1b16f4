"""Injection latency: chat with the ``memory_injection`` filter vs the same request opted out.

A store of ``--users`` x ``--per-user`` memories (default 10 x 10,000 = 100k) is filled
in this process through ``MemoryService.add_many`` (local USE embedder, batched), then a real
gateway (``python -m gateway serve``) is started on that database and the fake upstream.
Requests for user ``u000`` (10k memories) alternate between the injection arm and the
``X-Memorelay-Opt-Out: injection`` arm, sequentially, in one run; every request has a fresh
query text, so the embedder's LRU cache never answers (embedding is included). Prints
p50/p99 of both arms, the added latency, the gateway's own X-Memorelay-Overhead-Ms, the
injected memory count and tokens, and an in-process profile of one retrieval
(embed, vector search, FTS, fetch, token budget, render).

Run: ``.venv/bin/python bench/injection.py [--users 10] [--per-user 10000] [-n 1000]``.
``--compare`` starts a second gateway on the same memories with ``memory.working_set_mb: 0``
(every list from the store; on SQLite it reads a copy, as one gateway process holds a file)
and interleaves its requests with the first one's, so both are measured under the same load
(this machine's two cores are shared).
``--compare-recall`` adds a gateway with every ``memory.recall`` path off (weights 0), interleaved
the same way: the first gateway ranks with the recall paths on (the defaults). Requests carry
``X-Memorelay-Conversation`` (10 turns per conversation), so fatigue has turns to look up.
``--db PATH`` keeps the filled database (and its index files) for the next run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import fake_upstream, gateway, pct, summary

KEY = "Bearer sk-bench-injection"
TARGET_USER = "u000"
MODEL = "gpt-4o-mini"

# ---------------------------------------------------------------------------------------
# realistic, varied memories and related queries

TEAMS = [
    "payments",
    "search",
    "billing",
    "mobile",
    "platform",
    "data",
    "growth",
    "identity",
    "checkout",
    "logistics",
    "support",
    "analytics",
    "infra",
    "pricing",
    "risk",
    "catalog",
]
SERVICES = [
    "order API",
    "invoice worker",
    "recommendation service",
    "auth gateway",
    "report builder",
    "notification hub",
    "inventory sync",
    "fraud scorer",
    "ledger",
    "export job",
    "image resizer",
    "session store",
    "feature-flag service",
    "ETL pipeline",
]
DATABASES = [
    "PostgreSQL 15",
    "PostgreSQL 16",
    "MySQL 8",
    "MongoDB 7",
    "Redis 7",
    "ClickHouse",
    "DynamoDB",
    "SQLite",
    "Cassandra 4",
    "Elasticsearch 8",
    "BigQuery",
    "Snowflake",
]
INFRA = [
    "Kubernetes on AWS EKS",
    "GKE Autopilot",
    "bare-metal servers in Frankfurt",
    "AWS Lambda",
    "Azure App Service",
    "a single Hetzner VM",
    "Nomad",
    "Docker Compose on-prem",
    "Cloud Run",
    "Fly.io",
    "OpenShift",
]
LANGS = ["Python", "Go", "TypeScript", "Rust", "Java", "Kotlin", "C#", "Ruby", "Elixir", "Scala"]
FRAMEWORKS = [
    "FastAPI",
    "Django",
    "gin",
    "NestJS",
    "Spring Boot",
    "Rails",
    "Phoenix",
    "axum",
    "Next.js",
    "Flask",
    "Ktor",
    "ASP.NET Core",
]
STYLES = [
    ("tabs", "spaces"),
    ("concise answers", "long explanations"),
    ("code first", "prose first"),
    ("type hints everywhere", "untyped code"),
    ("pytest", "unittest"),
    ("dark mode", "light mode"),
    ("functional style", "classes"),
    ("monorepos", "many small repos"),
    ("SQL", "ORMs"),
    ("metric units", "imperial units"),
    ("British spelling", "American spelling"),
    ("Vim", "VS Code"),
    ("squash merges", "merge commits"),
    ("YAML", "JSON for config"),
]
CONTEXTS = [
    "code reviews",
    "side projects",
    "production services",
    "documentation",
    "scripts",
    "data notebooks",
    "design docs",
    "the API layer",
    "tests",
    "infrastructure code",
]
CURRENCIES = ["EUR", "USD", "GBP", "CNY", "JPY"]
REGIONS = ["EU", "US", "UK", "APAC", "LATAM", "mainland China", "Japan", "Nordic"]
APPROVERS = ["finance", "legal", "a team lead", "the CFO", "compliance", "two reviewers"]
CN_TEAMS = ["支付", "搜索", "账单", "移动端", "平台", "数据", "增长", "风控", "物流", "客服"]
CN_LANGS = ["Python", "Go", "Java", "TypeScript", "Rust"]
CN_STYLES = ["简洁的回答", "先给代码再解释", "详细的中文注释", "函数式风格", "小而频繁的提交"]
CN_INFRA = ["阿里云 ACK", "腾讯云 TKE", "自建机房", "华为云", "AWS 北京区域"]


def memory_texts(rng: random.Random) -> tuple[str, str, str, str, list[str]]:
    """(title, content, category, subcategory, tags) of one plausible memory."""
    kind = rng.random()
    team, svc = rng.choice(TEAMS), rng.choice(SERVICES)
    if kind < 0.25:
        a, b = rng.choice(STYLES)
        ctx = rng.choice(CONTEXTS)
        return (
            f"Prefers {a} over {b}",
            f"The user prefers {a} over {b} for {ctx}.",
            "user_preference",
            "style",
            [a.split()[0], ctx.split()[-1]],
        )
    if kind < 0.45:
        db, infra = rng.choice(DATABASES), rng.choice(INFRA)
        return (
            f"{team} {svc} runs on {db}",
            f"The {team} team's {svc} stores its data in {db} and is deployed to {infra}.",
            "technical",
            "stack",
            [team, db.split()[0].lower()],
        )
    if kind < 0.60:
        lang, fw = rng.choice(LANGS), rng.choice(FRAMEWORKS)
        return (
            f"{team} writes {lang} with {fw}",
            f"The {team} team builds the {svc} in {lang} with {fw}; new code follows the "
            f"{rng.choice(['Google', 'internal', 'PEP 8', 'Airbnb', 'Uber'])} style guide.",
            "technical",
            "practice",
            [lang.lower(), fw.lower()],
        )
    if kind < 0.75:
        amount, cur = rng.choice([500, 1000, 2500, 5000, 10000, 50000]), rng.choice(CURRENCIES)
        region, who = rng.choice(REGIONS), rng.choice(APPROVERS)
        return (
            f"Orders over {amount} {cur} in {region} need approval",
            f"Business rule: orders over {amount} {cur} from {region} customers need approval "
            f"by {who} before the {svc} ships them.",
            "business",
            "rule",
            ["approval", region],
        )
    if kind < 0.85:
        role = rng.choice(["tech lead", "on-call engineer", "product owner", "data scientist", "SRE"])
        return (
            f"Works as {role} in {team}",
            f"The user is the {role} of the {team} team and owns the {svc}; releases go out "
            f"every {rng.choice(['Tuesday', 'Thursday', 'two weeks', 'sprint'])}.",
            "organizational",
            "role",
            [team, role.split()[0]],
        )
    if kind < 0.93:
        t, lang, style = rng.choice(CN_TEAMS), rng.choice(CN_LANGS), rng.choice(CN_STYLES)
        return (
            f"{t}团队使用 {lang}",
            f"用户在{t}团队，主要用 {lang} 开发，喜欢{style}。",
            "user_preference",
            "language",
            [t, lang.lower()],
        )
    t, infra, db = rng.choice(CN_TEAMS), rng.choice(CN_INFRA), rng.choice(DATABASES)
    return (
        f"{t}服务部署在{infra}",
        f"{t}团队的服务部署在{infra}上，数据库是 {db}，每周三发布。",
        "technical",
        "architecture",
        [t, db.split()[0].lower()],
    )


QUERY_TEMPLATES = [
    "Which database does the {team} team use for the {svc}, and how should I size the connection pool?",
    "Write a small health check for our {team} {svc}; keep it in the style we usually use.",
    "Where is the {team} {svc} deployed and how do I roll back a bad release?",
    "What approval does an order from {region} customers need in the {team} flow?",
    "Can you review this {lang} snippet for the {svc} following our conventions?",
    "How should I structure tests for the {team} team's {svc}?",
    "我们{cnteam}团队的服务用的是哪个数据库？怎么做备份？",
    "帮我给{cnteam}团队写一个 {lang} 的重试函数，按我习惯的风格。",
]


def queries(n: int, seed: int = 7) -> list[str]:
    """``n`` distinct query texts (distinct so the embedder cache never answers)."""
    rng = random.Random(seed)
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        q = rng.choice(QUERY_TEMPLATES).format(
            team=rng.choice(TEAMS),
            svc=rng.choice(SERVICES),
            region=rng.choice(REGIONS),
            lang=rng.choice(LANGS),
            cnteam=rng.choice(CN_TEAMS),
        )
        if q in seen:
            q = f"{q} (ticket {len(out)})"
        seen.add(q)
        out.append(q)
    return out


# ---------------------------------------------------------------------------------------
# prefill


async def prefill(db: str, users: int, per_user: int, batch: int = 1000) -> float:
    from gateway.auth import pass_through_tenant
    from gateway.memory import MemoryService, build_embedder
    from gateway.memory.types import NewMemory
    from gateway.store import MemoryStore
    from gateway.store.sqlite import SQLiteMemoryStore

    tenant = pass_through_tenant(KEY)
    store: MemoryStore
    if db.startswith("postgresql://"):
        from gateway.store.postgres import PostgresMemoryStore

        store = PostgresMemoryStore(db)
    else:
        store = SQLiteMemoryStore(db)
    await store.open()
    service = MemoryService(store, build_embedder({"provider": "local"}))
    await service.open()
    start = time.perf_counter()
    rng = random.Random(1)
    try:
        for u in range(users):
            user = f"u{u:03d}"
            for lo in range(0, per_user, batch):
                items = []
                for _ in range(min(batch, per_user - lo)):
                    title, content, cat, sub, tags = memory_texts(rng)
                    items.append(
                        NewMemory(
                            title=title,
                            content=content,
                            category=cat,
                            subcategory=sub,
                            tags=tags,
                            source="auto",
                            score=round(rng.uniform(0.6, 1.0), 2),
                        )
                    )
                await service.add_many(tenant, user, items, actor="bench")
            print(f"  prefilled {user}: {per_user} memories ({time.perf_counter() - start:.0f} s)", flush=True)
    finally:
        await service.close()  # saves the index files: the gateway loads them at start
        await store.close()
    return time.perf_counter() - start


# ---------------------------------------------------------------------------------------
# measurement


async def one(
    client: aiohttp.ClientSession, url: str, query: str, opt_out: bool, conversation: str | None = None
) -> tuple[float, Any]:
    body = {
        "model": MODEL,
        "messages": [{"role": "system", "content": "You are a helpful assistant."}, {"role": "user", "content": query}],
    }
    headers = {"authorization": KEY, "x-memorelay-user": TARGET_USER}
    if conversation:  # fatigue (memory.recall) looks the conversation's last turns up
        headers["x-memorelay-conversation"] = conversation
    if opt_out:
        headers["x-memorelay-opt-out"] = "injection"
    start = time.perf_counter()
    async with client.post(url, json=body, headers=headers) as r:
        r.raise_for_status()
        await r.read()
        return (time.perf_counter() - start) * 1000, r.headers.copy()  # case-insensitive


async def measure(urls: dict[str, str], n: int, warmup: int) -> dict[str, dict[str, list[float]]]:
    """Per gateway (``urls``: name -> chat URL): both arms, every request a fresh query; the
    requests of one round (each gateway's two arms) go in a shuffled order, so background
    load on the machine falls on every arm alike."""
    keys = ("inject", "optout", "inject_oh", "optout_oh", "memories", "tokens")
    out = {name: {k: [] for k in keys} for name in urls}
    texts = iter(queries(2 * len(urls) * (n + warmup)))
    rng = random.Random(3)
    async with aiohttp.ClientSession() as client:
        for i in range(warmup + n):
            if i == warmup:  # a user's first requests load their working set in the background
                await asyncio.sleep(3)
            round_ = [(name, opt_out) for name in urls for opt_out in (False, True)]
            rng.shuffle(round_)
            for name, opt_out in round_:
                # conversations of 10 turns each, so fatigue has last turns to look up
                ms, headers = await one(client, urls[name], next(texts), opt_out, f"conv-{i // 10}")
                if i < warmup:
                    continue
                res, arm = out[name], "optout" if opt_out else "inject"
                res[arm].append(ms)
                res[arm + "_oh"].append(float(headers.get("X-Memorelay-Overhead-Ms", "nan")))
                if not opt_out:
                    res["memories"].append(float(headers.get("X-Memorelay-Memories", "0")))
                    res["tokens"].append(float(headers.get("X-Memorelay-Memory-Tokens", "0")))
    return out


def report(name: str, res: dict[str, list[float]]) -> None:
    print(f"  [{name}]")
    print(f"    injection  {summary(res['inject'])}")
    print(f"    opted out  {summary(res['optout'])}")
    a50 = pct(res["inject"], 50) - pct(res["optout"], 50)
    a99 = pct(res["inject"], 99) - pct(res["optout"], 99)
    met = "met" if a50 <= 3 and a99 <= 8 else "MISSED"
    print(f"    added      p50 {a50:.3f} ms  p99 {a99:.3f} ms   (target p50 <= 3 ms, p99 <= 8 ms: {met})")
    print(
        f"    X-Memorelay-Overhead-Ms: injection p50 {pct(res['inject_oh'], 50):.2f} p99 "
        f"{pct(res['inject_oh'], 99):.2f}; opted out p50 {pct(res['optout_oh'], 50):.2f} p99 "
        f"{pct(res['optout_oh'], 99):.2f}"
    )
    print(
        f"    injected memories: mean {statistics.fmean(res['memories']):.2f} (min "
        f"{min(res['memories']):.0f}, max {max(res['memories']):.0f}); tokens p50 "
        f"{pct(res['tokens'], 50):.0f} p99 {pct(res['tokens'], 99):.0f}"
    )


async def profile(db: str, samples: int = 60, working_set_mb: float = 256) -> dict[str, list[float]]:
    """Time the pieces of one injection retrieval in-process (gateway stopped): query
    embedding, vector search (own + shared partitions), each keyword list (FTS5 trigram,
    FTS5 stemmed words, CJK bigram ``instr`` scan), fetch, whole ``search``, token budget,
    render. English and Chinese queries are reported separately for the keyword lists."""
    from gateway.auth import pass_through_tenant
    from gateway.memory import MemoryService, build_embedder, fit_to_budget, render_block
    from gateway.memory.retrieval import partition_key
    from gateway.store.fts5 import cjk_match, words_match
    from gateway.store.keyword_index import parse_query, visible_partitions
    from gateway.store.sqlite import SQLiteMemoryStore
    from gateway.store.sqlite.keywords import filter_sql, fts_sql, scoped_match

    tenant = pass_through_tenant(KEY)
    store = SQLiteMemoryStore(db)
    await store.open()
    service = MemoryService(store, build_embedder({"provider": "local"}), working_set_mb=working_set_mb)
    await service.open()
    index, embedder = store.vectors, service.embedder
    assert index is not None and embedder is not None
    key = partition_key(tenant, "personal", TARGET_USER)
    where, wargs = filter_sql(tenant, TARGET_USER, category=None, scope=None, include_disabled=False)
    t: dict[str, list[float]] = {}

    def note(name: str, start: float) -> float:
        ms = (time.perf_counter() - start) * 1000
        t.setdefault(name, []).append(ms)
        return ms

    try:
        for i, q in enumerate(queries(samples, seed=99)):
            q = f"{q} #{i}"  # never cached
            lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in q) else "en"
            s = time.perf_counter()
            qvec = embedder._encode([q])[0]  # type: ignore[attr-defined]
            note("embed (USE, 1 query)", s)
            s = time.perf_counter()
            index.search(key, qvec, 50)
            index.search(partition_key(tenant, "shared", ""), qvec, 50)
            note("vector search", s)
            kq = parse_query(q)
            parts = visible_partitions(tenant, TARGET_USER, None)
            for name, expr in (("words", words_match(kq)), ("cjk", cjk_match(kq))):
                if expr:
                    s = time.perf_counter()
                    rows = await store._rows(fts_sql(where, 50), [scoped_match(parts, expr), *wargs])
                    note(f"fts partitioned {name} [{lang}]", s)
                    t.setdefault(f"  rows matched, own partitions, {name} [{lang}]", []).append(
                        float(
                            await store._scalar(
                                "SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ?",
                                [scoped_match(parts, expr)],
                            )
                        )
                    )
                    t.setdefault(f"  rows matched, all users, {name} [{lang}]", []).append(
                        float(
                            await store._scalar("SELECT COUNT(*) FROM memories_fts WHERE memories_fts MATCH ?", [expr])
                        )
                    )
                    del rows
            s = time.perf_counter()
            found = await service.search(tenant, TARGET_USER, q + " again", limit=5)
            search_ms = note("MemoryService.search total", s)
            s = time.perf_counter()
            kept, _ = fit_to_budget(found, 2000, MODEL)
            budget_ms = note("fit_to_budget (tiktoken)", s)
            s = time.perf_counter()
            render_block([k.memory for k in kept])
            render_ms = note("render_block", s)
            t.setdefault("search + budget + render", []).append(search_ms + budget_ms + render_ms)
            await profile_working_set(service, tenant, q, note)
    finally:
        await service.close()
        await store.close()
    return t


async def profile_working_set(service: Any, tenant: str, q: str, note: Any) -> None:
    """The same retrieval from the working set, piece by piece (what injection runs)."""
    from gateway.memory.retrieval import score_fusion
    from gateway.store import KeywordOptions, Visibility
    from gateway.store.keyword_index import parse_query

    ws, embedder = service.working_set, service.embedder
    if ws is None:
        return
    s = time.perf_counter()
    view = await ws.view(tenant, TARGET_USER)
    note("ws: view (held partitions)", s)
    if view is None:
        return
    where = Visibility(tenant, TARGET_USER)
    q = f"{q} ws"  # never cached
    s = time.perf_counter()
    qvec = (await embedder.embed([q], urgent=True))[0]
    note("ws: embed (USE, through the CPU thread)", s)
    s = time.perf_counter()
    lists = view.keyword_candidates(where, parse_query(q), 50, KeywordOptions())
    note("ws: keyword lists (in-memory FTS5, pruning included)", s)
    s = time.perf_counter()
    vec = view.vector_candidates(where, qvec, 50)
    note("ws: vector list (exact cosine)", s)
    s = time.perf_counter()
    fused = score_fusion([vec, *[h for h, _ in lists]], [1.0] + [0.8] * len(lists))
    view.memories([m for m, _ in fused[:5]])
    note("ws: fusion + rows", s)
    s = time.perf_counter()
    await service.search(tenant, TARGET_USER, q + " again", limit=5, cached_rows=True)
    note("ws: MemoryService.search(cached_rows) total", s)


def copy_database(src: str, dst: str) -> str:
    """A consistent copy of a SQLite memory database and its index files (the arms only read)."""
    import shutil
    import sqlite3

    with contextlib.closing(sqlite3.connect(src)) as a, contextlib.closing(sqlite3.connect(dst)) as b:
        a.backup(b)
    if Path(src + ".index").is_dir():
        shutil.copytree(src + ".index", dst + ".index")
    return dst


async def run(args: argparse.Namespace) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"{tmp}/injection.db"
        if args.backend == "postgres" and not args.db:
            from tests.pg import fresh_database_url

            db = fresh_database_url()
        if db.startswith("postgresql://") and args.db:
            print(f"reusing {db.split('@')[-1]}")
        elif Path(db).exists():
            print(f"reusing {db}")
        else:
            print(f"prefilling {args.users} users x {args.per_user} memories into {db}")
            took = await prefill(db, args.users, args.per_user)
            total = args.users * args.per_user
            print(f"prefill: {total} memories in {took:.1f} s ({total / took:.0f}/s)")
        if args.profile_only:
            prof = await profile(db, working_set_mb=args.working_set_mb)
            for name, values in prof.items():
                print(f"  {name:44s} n={len(values):3d} {summary(values)}")
            return
        filters: list[Any] = [{"memory_injection": {}}]
        memory: dict[str, Any] = {"embedding": {"provider": "local"}, "working_set_mb": args.working_set_mb}
        arms = {"working set": memory}
        if args.compare:  # the same run through a second gateway that searches the store
            arms["store (working_set_mb 0)"] = {**memory, "working_set_mb": 0}
        if args.compare_recall:  # ... and one with every recall path off (memory.recall weights 0)
            off = dict.fromkeys(("recency_weight", "popularity_weight", "cooccurrence_weight", "fatigue_weight"), 0)
            arms["working set, recall off"] = {**memory, "recall": off}
        start = time.perf_counter()
        with contextlib.ExitStack() as stack:
            upstream = stack.enter_context(fake_upstream())
            urls = {}
            for i, (name, options) in enumerate(arms.items()):
                extra = {"memory": options}
                # one SQLite file is held by one gateway process: the other arms read copies
                arm_db = db if i == 0 or db.startswith("postgresql://") else copy_database(db, f"{tmp}/arm{i}.db")
                url = stack.enter_context(gateway(upstream, filters, extra, database=arm_db))
                urls[name] = url + "/chat/completions"
            print(f"{len(urls)} gateway(s) ready in {time.perf_counter() - start:.1f} s")
            results = await measure(urls, args.n, args.warmup)
        print(
            f"\nsequential, interleaved, n={args.n} per arm, user {TARGET_USER} "
            f"({args.per_user} memories of {args.users * args.per_user})"
        )
        for name, res in results.items():
            report(name, res)
        if not args.no_profile and args.backend == "sqlite":
            prof = await profile(db, working_set_mb=args.working_set_mb)
            print("\nin-process profile of one retrieval (ms; 'rows matched' are counts):")
            for name, values in prof.items():
                print(f"  {name:44s} n={len(values):3d} {summary(values)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--per-user", type=int, default=10_000)
    parser.add_argument("-n", type=int, default=1000, help="requests per arm")
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--db", default=None, help="database path to fill once and reuse")
    parser.add_argument("--no-profile", action="store_true")
    parser.add_argument(
        "--compare", action="store_true", help="also measure a gateway without the working set, interleaved"
    )
    parser.add_argument(
        "--compare-recall",
        action="store_true",
        help="also measure a gateway with every memory.recall path off (weights 0), interleaved",
    )
    parser.add_argument(
        "--working-set-mb", type=float, default=256, help="memory.working_set_mb (0: every list from the store)"
    )
    parser.add_argument("--profile-only", action="store_true", help="only the in-process profile")
    parser.add_argument(
        "--backend",
        choices=["sqlite", "postgres"],
        default="sqlite",
        help="postgres: a fresh database on the embedded PostgreSQL of tests/pg.py (or --db postgresql://…)",
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
