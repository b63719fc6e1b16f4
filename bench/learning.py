"""Learning: chat latency while 1,000 learning jobs are queued vs idle, learner throughput,
and PII-scrub cost per KB.

(a) A gateway with ``[memory_injection, learning {model: heuristic, workers: 2}]``. 1,000
    chats from 1,000 distinct users with preference-like content are sent as fast as
    possible (32 concurrent), which queues 1,000 jobs. Then probe chats are timed while the
    workers are busy (until ``memorelay_learning_pending`` falls below ``--busy-floor``), and
    again after the queue has drained. Probes never add jobs: two kinds alternate, a chat
    with no user (``X-Memorelay-Learning: skipped; reason=no-user``; injection still searches
    the tenant's shared memories) and a chat for a user with ``X-Memorelay-Opt-Out: learning``
    (injection searches that user's personal memories too). Every probe has a fresh text,
    so the query embedding is never a cache hit.
(b) Jobs per second: a fresh batch of jobs is queued and the drain is timed with no probes,
    for the heuristic learner and for the LLM learner (``learning.model: bench-learner``)
    against a scripted fake upstream defined here (``scripted_app``): scoring prompts ("rate
    one conversation turn") get a JSON score, extraction prompts ("Extract durable") a JSON
    array of one item, anything else an echo.
(c) ``PiiScrubber.scrub`` on ~1 KB and ~4 KB of mixed English/Chinese text with planted PII.

Run: ``.venv/bin/python bench/learning.py [--jobs 1000] [--probes 300] [--throughput-jobs 500]``.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import fake_upstream, free_port, gateway, pct, process, summary

KEY = "Bearer sk-bench-learning"
ADMIN = "bench-admin-key"
MODEL = "gpt-4o-mini"

PREFERENCES = [
    "I prefer tabs over spaces. We use PostgreSQL 15.",
    "I always want answers in British English. Our backend is written in Go 1.22.",
    "Please keep answers short; I prefer code first. We deploy to Kubernetes on AWS.",
    "We use Redis 7 for sessions and I prefer pytest over unittest.",
    "Our team follows trunk-based development and I prefer squash merges.",
    "我更喜欢简洁的回答。我们的服务用 Java 17 和 Spring Boot 写的。",
    "I work on the billing team; invoices over 10,000 EUR need finance approval.",
    "We store analytics in ClickHouse and I like dark mode in every tool.",
]
PROBES = [
    "How do I paginate a SQL query efficiently for request {i}?",
    "Explain the difference between a mutex and a semaphore, case {i}.",
    "Write a regex that matches ISO dates, variant {i}.",
    "帮我解释一下什么是幂等性，第 {i} 个例子。",
]


# ---------------------------------------------------------------------------------------
# a scripted learner upstream (served by uvicorn in a subprocess: ``--factory``)

SCORE_REPLY = (
    '{"score": 0.8, "dimensions": {"density": 0.8, "clarity": 0.9, "depth": 0.6, '
    '"relevance": 0.8, "novelty": 0.7}, "reason": "states durable preferences"}'
)
EXTRACT_REPLY = (
    '[{"title": "Prefers tabs over spaces", "content": "The user prefers tabs over spaces.", '
    '"category": "user_preference", "subcategory": "style", "tags": ["formatting"]}]'
)


def scripted_app() -> Any:
    import orjson
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def chat(request: Request) -> Response:
        body = orjson.loads(await request.body())
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        text = users[-1].get("content", "") if users else ""
        if "rate one conversation turn" in text:
            reply = SCORE_REPLY
        elif "Extract durable" in text:
            reply = EXTRACT_REPLY
        else:
            reply = f"echo: {text}"
        out = {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70},
        }
        return Response(orjson.dumps(out), media_type="application/json")

    async def models(request: Request) -> Response:
        return Response(b'{"object": "list", "data": []}', media_type="application/json")

    return Starlette(
        routes=[Route("/v1/chat/completions", chat, methods=["POST"]), Route("/v1/models", models, methods=["GET"])]
    )


def scripted_upstream() -> Any:
    port = free_port()
    args = [
        sys.executable,
        "-m",
        "uvicorn",
        "bench.learning:scripted_app",
        "--factory",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    from contextlib import contextmanager

    @contextmanager
    def run() -> Any:
        with process(args, f"http://127.0.0.1:{port}/v1/models"):
            yield f"http://127.0.0.1:{port}/v1"

    return run()


# ---------------------------------------------------------------------------------------
# HTTP helpers


async def metrics(client: aiohttp.ClientSession, root: str) -> dict[str, float]:
    async with client.get(root + "/metrics") as r:
        text = await r.text()
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(
            r"^(memorelay_learning_pending|memorelay_learning_jobs_total|memorelay_memory_failures_total)"
            r"(\{[^}]*\})?\s+(\S+)$",
            line,
        )
        if m:
            out[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return out


def pending(m: dict[str, float]) -> int:
    return int(m.get("memorelay_learning_pending", 0))


def jobs_by_status(m: dict[str, float]) -> dict[str, int]:
    out = {}
    for k, v in m.items():
        s = re.match(r'memorelay_learning_jobs_total\{outcome="(\w+)"\}', k)
        if s:
            out[s.group(1)] = int(v)
    return out


async def enqueue(
    client: aiohttp.ClientSession, url: str, jobs: int, prefix: str, concurrency: int = 32
) -> tuple[float, dict[str, int]]:
    """Send ``jobs`` learnable chats from distinct users; (seconds, learning header counts)."""
    headers_seen: dict[str, int] = {}
    it = iter(range(jobs))

    async def worker() -> None:
        for i in it:
            body = {
                "model": MODEL,
                "messages": [{"role": "user", "content": f"{PREFERENCES[i % len(PREFERENCES)]} (note {i})"}],
            }
            headers = {"authorization": KEY, "x-memorelay-user": f"{prefix}{i:05d}"}
            async with client.post(url, json=body, headers=headers) as r:
                r.raise_for_status()
                await r.read()
                h = r.headers.get("x-memorelay-learning", "?")
                headers_seen[h] = headers_seen.get(h, 0) + 1

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - start, headers_seen


async def probe(client: aiohttp.ClientSession, url: str, i: int, kind: str) -> float:
    body = {"model": MODEL, "messages": [{"role": "user", "content": PROBES[i % len(PROBES)].format(i=i)}]}
    headers = {"authorization": KEY}
    if kind == "opt-out":
        headers["x-memorelay-user"] = f"job{i % 1000:05d}"  # a user who has a learned memory
        headers["x-memorelay-opt-out"] = "learning"
    start = time.perf_counter()
    async with client.post(url, json=body, headers=headers) as r:
        r.raise_for_status()
        await r.read()
        assert r.headers.get("x-memorelay-learning", "").startswith("skipped"), r.headers
    return (time.perf_counter() - start) * 1000


async def probes(
    client: aiohttp.ClientSession, url: str, root: str, start_i: int, n: int, stop_below: int | None
) -> tuple[dict[str, list[float]], int]:
    """Alternate no-user / opt-out probes; stop after ``n`` or once pending < stop_below."""
    out: dict[str, list[float]] = {"no-user": [], "opt-out": []}
    i = start_i
    while len(out["no-user"]) < n:
        if stop_below is not None and (i - start_i) % 20 == 0:
            if pending(await metrics(client, root)) < stop_below:
                break
        for kind in ("no-user", "opt-out") if i % 2 else ("opt-out", "no-user"):
            out[kind].append(await probe(client, url, i, kind))
        i += 1
    return out, i


async def drain(client: aiohttp.ClientSession, root: str, timeout: float) -> float:
    """Seconds until the queue is empty: the pending gauge is 0 and the admin stats (SQLite)
    show no pending or running job."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if pending(await metrics(client, root)) == 0:
            jobs = (await stats(client, root)).get("learning", {}).get("jobs", {})
            if not jobs.get("pending") and not jobs.get("running"):
                return time.perf_counter() - start
        await asyncio.sleep(0.05)
    raise RuntimeError(f"queue not drained in {timeout} s")


async def stats(client: aiohttp.ClientSession, root: str) -> Any:
    async with client.get(root + "/api/admin/stats", headers={"authorization": f"Bearer {ADMIN}"}) as r:
        return await r.json() if r.status == 200 else {"status": r.status}


# ---------------------------------------------------------------------------------------
# (a) + (b) heuristic, (b) LLM


def config(model: str) -> tuple[list[Any], dict[str, Any]]:
    filters = [{"memory_injection": {}}, {"learning": {"model": model, "workers": 2}}]
    extra = {"memory": {"embedding": {"provider": "local"}}, "auth": {"admin_key": ADMIN}}
    return filters, extra


async def heuristic_run(args: argparse.Namespace) -> None:
    filters, extra = config("heuristic")
    with fake_upstream() as upstream, gateway(upstream, filters, extra) as via:
        url, root = via + "/chat/completions", via.removesuffix("/v1")
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64)) as client:
            warm, _ = await probes(client, url, root, 0, 30, None)  # warm-up, discarded
            enq_s, seen = await enqueue(client, url, args.jobs, "job")
            m = await metrics(client, root)
            print(
                f"(a) queued {args.jobs} chats in {enq_s:.1f} s ({args.jobs / enq_s:.0f}/s); "
                f"X-Memorelay-Learning: {seen}; pending now {pending(m)}"
            )
            t0 = time.perf_counter()
            busy, nxt = await probes(client, url, root, 1000, args.probes, args.busy_floor)
            busy_s = time.perf_counter() - t0
            m = await metrics(client, root)
            print(f"    busy phase: {len(busy['no-user'])} probe pairs in {busy_s:.1f} s, pending at end {pending(m)}")
            left = await drain(client, root, 600)
            total_s = time.perf_counter() - t0 + enq_s
            print(f"    drained {left:.1f} s later; jobs {jobs_by_status(await metrics(client, root))}")
            idle, _ = await probes(client, url, root, nxt, len(busy["no-user"]), None)
            print("\n    chat latency (ms), probes alternate no-user / opt-out-of-learning:")
            for kind in ("no-user", "opt-out"):
                b, i = busy[kind], idle[kind]
                print(f"    {kind:8s} busy  {summary(b)}")
                print(f"    {kind:8s} idle  {summary(i)}")
                d50 = pct(b, 50) - pct(i, 50)
                print(
                    f"    {kind:8s} diff  p50 {d50:.3f} ms  p99 {pct(b, 99) - pct(i, 99):.3f} ms  "
                    f"(target p50 <= 1 ms: {'met' if d50 <= 1 else 'MISSED'})"
                )
            print(f"    all {args.jobs} jobs (with probes running) took {total_s:.1f} s incl. enqueue")

            # (b) heuristic throughput, no probes
            enq_s, _ = await enqueue(client, url, args.throughput_jobs, "tput")
            t0 = time.perf_counter()
            left = await drain(client, root, 600)
            rate = args.throughput_jobs / (enq_s + left)
            print(
                f"\n(b) heuristic: {args.throughput_jobs} jobs queued in {enq_s:.1f} s, drained "
                f"{left:.1f} s later -> {rate:.1f} jobs/s (enqueue start to drain); "
                f"jobs {jobs_by_status(await metrics(client, root))}"
            )
            print(f"    admin stats: {await stats(client, root)}")


async def llm_run(args: argparse.Namespace) -> None:
    filters, extra = config("bench-learner")
    with scripted_upstream() as upstream, gateway(upstream, filters, extra) as via:
        url, root = via + "/chat/completions", via.removesuffix("/v1")
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64)) as client:
            await probes(client, url, root, 0, 10, None)
            enq_s, seen = await enqueue(client, url, args.throughput_jobs, "llm")
            left = await drain(client, root, 600)
            rate = args.throughput_jobs / (enq_s + left)
            print(
                f"(b) LLM learner (scripted fake upstream): {args.throughput_jobs} jobs queued in "
                f"{enq_s:.1f} s, drained {left:.1f} s later -> {rate:.1f} jobs/s; "
                f"jobs {jobs_by_status(await metrics(client, root))}"
            )
            print(f"    admin stats: {await stats(client, root)}")


# ---------------------------------------------------------------------------------------
# (c) PII scrub


PII_PARAGRAPHS = [
    "Hi, I'm John Smith from the payments team. Mail me at john.smith@example.com or call "
    "+1 415-555-0132 if the deploy fails again. ",
    "我们的客服电话是 13812345678，报销请发到 finance@example.cn，身份证号 11010519491231002X 只用于登记。",
    "The staging box is at 10.12.4.27 and the card used for the test order was 4111 1111 1111 1111. ",
    "Our supplier's IBAN is DE89 3704 0044 0532 0130 00; ask Maria Garcia before paying. ",
    "我们用 PostgreSQL 15 存订单数据，服务部署在阿里云上，每周三发布，代码评审至少需要两个人。",
    "We prefer tabs over spaces and keep answers short; the release train leaves every Tuesday. ",
]


def pii_text(target_bytes: int) -> str:
    out = ""
    i = 0
    while len(out.encode()) < target_bytes:
        out += PII_PARAGRAPHS[i % len(PII_PARAGRAPHS)]
        i += 1
    return out


def pii_bench(samples: int) -> None:
    from gateway.learning.privacy.pii import PiiScrubber

    scrubber = PiiScrubber()
    t = time.perf_counter()
    scrubber.start()
    print(f"(c) PiiScrubber.start: {time.perf_counter() - t:.2f} s")
    for size in (1024, 4096):
        text = pii_text(size)
        kb = len(text.encode()) / 1024
        scrubbed = scrubber.scrub(text)
        for _ in range(3):
            scrubber.scrub(text)
        times = []
        for _ in range(samples):
            s = time.perf_counter()
            scrubber.scrub(text)
            times.append((time.perf_counter() - s) * 1000)
        placeholders = len(re.findall(r"<[A-Z_]+>", scrubbed))
        leaked = [
            p
            for p in (
                "john.smith@example.com",
                "13812345678",
                "11010519491231002X",
                "4111 1111 1111 1111",
                "10.12.4.27",
                "DE89 3704",
            )
            if p in scrubbed
        ]
        print(
            f"    {len(text.encode())} bytes ({len(text)} chars): {summary(times)}; "
            f"p50 {pct(times, 50) / kb:.2f} ms/KB, p99 {pct(times, 99) / kb:.2f} ms/KB; "
            f"{placeholders} placeholders, leaked {leaked or 'none'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=1000, help="jobs queued for (a)")
    parser.add_argument("--probes", type=int, default=300, help="max probe pairs per phase")
    parser.add_argument(
        "--busy-floor", type=int, default=100, help="stop the busy phase once fewer jobs than this are pending"
    )
    parser.add_argument("--throughput-jobs", type=int, default=500, help="jobs per learner for (b)")
    parser.add_argument("--pii-samples", type=int, default=50)
    parser.add_argument("--skip", default="", help="comma list of a,b,llm,c to skip")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    if "a" not in skip:
        asyncio.run(heuristic_run(args))
    if "llm" not in skip:
        print()
        asyncio.run(llm_run(args))
    if "c" not in skip:
        print()
        pii_bench(args.pii_samples)


if __name__ == "__main__":
    main()
