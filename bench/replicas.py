"""One vs two gateway processes on one PostgreSQL (replicas sharing one database).

Same run, same fake upstream (a separate process), the client spreading requests round robin
over the gateways it is given:
- throughput at ``--concurrency`` (32) for: direct to the upstream; one gateway relay-only
  (``X-Memorelay-Opt-Out: all``); one gateway with memory on; two gateways relay-only; two
  gateways with memory on. Memory-on requests use distinct queries for users who have memories
  (``--users`` x ``--per-user``, written through the memory API before measuring);
- gateway CPU milliseconds per request (all gateway processes together, from /proc);
- injections that failed open (the 200 ms timeout), from the gateways' /metrics;
- the time for a memory written through one replica to be injected by the other (for a user
  with ``--per-user`` memories whose working set the other replica holds), how many of the
  other replica's chats for that user meanwhile failed open, and how many of its searches the
  database answered instead of its working set; ``--busy N`` keeps N other clients chatting
  with that replica meanwhile.

    .venv/bin/python bench/replicas.py                       # embedded PostgreSQL
    .venv/bin/python bench/replicas.py --database postgresql://…/memorelay_bench
    .venv/bin/python bench/replicas.py --visibility-only --busy 8
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import re
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import aiohttp
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import PIDS, cpu_seconds, fake_upstream, gateway, pct
from bench.injection import memory_texts, queries

KEY = "sk-bench"
ADMIN = "bench-admin"


def _extra(database: str) -> dict[str, Any]:
    return {
        "auth": {"keys": [{"key": KEY, "tenant": "bench"}], "admin_key": ADMIN},
        "memory": {"database": database},
    }


async def prefill(url: str, users: int, per_user: int) -> None:
    rng = random.Random(3)
    jobs = [(f"u{u:03d}", memory_texts(rng)) for u in range(users) for _ in range(per_user)]
    sem = asyncio.Semaphore(8)
    async with aiohttp.ClientSession() as client:

        async def add(user: str, text: tuple[str, str, str, str, list[str]]) -> None:
            title, content, category, subcategory, tags = text
            body = {"title": title, "content": content, "category": category, "subcategory": subcategory}
            headers = {"authorization": f"Bearer {KEY}", "x-memorelay-user": user}
            async with sem, client.post(url + "/api/memories", json={**body, "tags": tags}, headers=headers) as r:
                if r.status != 201:
                    raise RuntimeError(f"prefill: {r.status} {await r.text()}")

        await asyncio.gather(*(add(u, t) for u, t in jobs))


async def throughput(
    urls: list[str], concurrency: int, seconds: float, memory: bool, users: int, texts: list[str]
) -> tuple[float, int, list[float]]:
    """(requests per second, requests done, latencies in ms)"""
    done = 0
    lat: list[float] = []
    counter = itertools.count()
    deadline = time.perf_counter() + seconds
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency * 2)) as client:

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                n = next(counter)
                headers = {"authorization": f"Bearer {KEY}", "x-memorelay-user": f"u{n % users:03d}"}
                if not memory:
                    headers["x-memorelay-opt-out"] = "all"
                body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": texts[n % len(texts)]}]}
                start = time.perf_counter()
                async with client.post(urls[n % len(urls)] + "/chat/completions", json=body, headers=headers) as r:
                    await r.read()
                    if r.status != 200:
                        raise RuntimeError(f"{r.status}: {await r.text()}")
                lat.append((time.perf_counter() - start) * 1000)
                done += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done / (time.perf_counter() - start), done, lat


def failed_open(urls: list[str]) -> int:
    total = 0.0
    for url in urls:
        text = httpx.get(url.removesuffix("/v1") + "/metrics").text
        total += sum(float(v) for v in re.findall(r"^memorelay_memory_failures_total\{[^}]*\} (\S+)", text, re.M))
    return int(total)


def store_searches(url: str) -> int:
    text = httpx.get(url.removesuffix("/v1") + "/metrics").text
    found = re.search(r'^memorelay_memory_searches_total\{source="store"\} (\S+)', text, re.M)
    return int(float(found.group(1))) if found else 0


class Busy:
    """``clients`` chatting with ``url`` for the prefilled users until stopped (a busy replica)."""

    def __init__(self, url: str, clients: int, users: int, texts: list[str]) -> None:
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._chat, args=(url, n, users, texts), daemon=True) for n in range(clients)
        ]

    def _chat(self, url: str, n: int, users: int, texts: list[str]) -> None:
        with httpx.Client(timeout=60) as client:
            for i in itertools.count(n):
                if self.stop.is_set():
                    return
                headers = {"authorization": f"Bearer {KEY}", "x-memorelay-user": f"u{i % users:03d}"}
                body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": texts[i % len(texts)]}]}
                client.post(url + "/chat/completions", json=body, headers=headers)

    def __enter__(self) -> Busy:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join()


def visibility(a: str, b: str, rounds: int, users: int) -> tuple[list[float], int, int, int]:
    """Seconds from a 201 on replica a to the memory's first injection by replica b, for a
    prefilled user whose partitions b holds (the fake upstream's ``echo-prompt`` model answers
    the prompt it got, so the new memory is seen in the block b injected); and over all writes:
    b's chats for that user meanwhile, how many of them were relayed without memories (failed
    open: the user has memories), and b's searches the database answered (every user's)."""
    out = []
    chats = failed = from_store = 0
    for i in range(rounds):
        user = f"u{i % users:03d}"
        marker = f"oolong tea No. {i} above"
        headers = {"authorization": f"Bearer {KEY}", "x-memorelay-user": user, "x-memorelay-opt-out": "learning"}
        body = {"model": "echo-prompt", "messages": [{"role": "user", "content": "which oolong tea do I like"}]}

        def injected(
            body: dict[str, Any] = body, headers: dict[str, str] = headers, marker: str = marker
        ) -> tuple[int, bool]:
            r = httpx.post(b + "/chat/completions", json=body, headers=headers, timeout=60)
            seen = marker in r.json()["choices"][0]["message"]["content"]
            return int(r.headers.get("x-memorelay-memories", "0")), seen

        for _ in range(100):  # until b answers the user from its working set
            stored = store_searches(b)
            injected()
            if store_searches(b) == stored:
                break
        stored = store_searches(b)
        memory = {"title": "Tea", "content": f"Likes {marker} all.", "category": "user_preference"}
        r = httpx.post(a.removesuffix("/v1") + "/api/memories", json=memory, headers=headers)
        assert r.status_code == 201, r.text
        start = time.perf_counter()
        while True:
            count, seen = injected()
            chats += 1
            failed += count == 0
            if seen:
                break
            if time.perf_counter() - start > 10:
                raise RuntimeError("the other replica never injected the memory")
            time.sleep(0.01)
        out.append(time.perf_counter() - start)
        from_store += store_searches(b) - stored
    return out, chats, failed, from_store


def _cpu(names: list[str]) -> float:
    return sum(cpu_seconds(PIDS[n]) for n in names)


async def run(args: argparse.Namespace) -> None:
    database = args.database
    if not database:
        from tests.pg import fresh_database_url

        database = fresh_database_url()
    texts = queries(4000)
    with fake_upstream() as upstream, ExitStack() as stack:
        a = stack.enter_context(gateway(upstream, [{"memory_injection": {}}], extra=_extra(database)))
        PIDS["gateway-a"] = PIDS["gateway"]
        b = stack.enter_context(gateway(upstream, [{"memory_injection": {}}], extra=_extra(database)))
        PIDS["gateway-b"] = PIDS["gateway"]
        started = time.perf_counter()
        await prefill(a.removesuffix("/v1"), args.users, args.per_user)
        print(f"prefill: {args.users} users x {args.per_user} memories in {time.perf_counter() - started:.0f} s")
        await throughput([a, b], args.concurrency, 2, True, args.users, texts)  # warm both working sets
        if not args.visibility_only:
            await arms(args, upstream, a, b, texts)
        with Busy(b, args.busy, args.users, texts):
            seen, chats, failed, from_store = visibility(a, b, args.visibility_rounds, args.users)
        print(
            f"\nwrite on replica A -> injected by replica B ({args.busy} other clients on B): "
            f"p50 {pct(seen, 50) * 1000:.0f} ms, p99 {pct(seen, 99) * 1000:.0f} ms, max {max(seen) * 1000:.0f} ms "
            f"({len(seen)} writes; {chats} chats for the user on B meanwhile, {failed} of them failed open; "
            f"B's searches answered by the database: {from_store})"
        )


async def arms(args: argparse.Namespace, upstream: str, a: str, b: str, texts: list[str]) -> None:
    """Throughput of each arm, one after the other."""
    rows = []
    table = [
        ("direct", [upstream], False, []),
        ("1 gateway, relay only", [a], False, ["gateway-a"]),
        ("1 gateway, memory on", [a], True, ["gateway-a"]),
        ("2 gateways, relay only", [a, b], False, ["gateway-a", "gateway-b"]),
        ("2 gateways, memory on", [a, b], True, ["gateway-a", "gateway-b"]),
    ]
    direct_rate = 0.0
    for name, urls, memory, pids in table:
        failures = failed_open(urls) if pids else 0
        cpu = _cpu(pids) if pids else 0.0
        rate, done, lat = await throughput(urls, args.concurrency, args.seconds, memory, args.users, texts)
        cpu_ms = (_cpu(pids) - cpu) / done * 1000 if pids else 0.0
        failed = failed_open(urls) - failures if pids else 0
        direct_rate = rate if name == "direct" else direct_rate
        rows.append((name, rate, rate / direct_rate, pct(lat, 50), pct(lat, 99), cpu_ms, failed, done))
    print(f"\nthroughput at {args.concurrency} concurrent, {args.seconds:.0f} s per arm")
    print(f"{'arm':26} {'req/s':>7} {'x direct':>8} {'p50 ms':>7} {'p99 ms':>7} {'gw CPU ms/req':>13} failed-open")
    for name, rate, ratio, p50, p99, cpu_ms, failed, done in rows:
        print(f"{name:26} {rate:7.0f} {ratio:8.2f} {p50:7.1f} {p99:7.1f} {cpu_ms:13.2f} {failed:5d}/{done}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="", help="a postgresql:// URL; default: embedded PostgreSQL")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--per-user", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--visibility-rounds", type=int, default=20)
    parser.add_argument("--visibility-only", action="store_true", help="skip the throughput arms")
    parser.add_argument("--busy", type=int, default=0, help="other clients chatting with B during the visibility part")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
