"""Relay overhead: the fake upstream called directly vs through the gateway, in one run.

Direct and gateway requests are interleaved (sequential) or alternated in rounds
(32 concurrent), streaming and not, on each route: chat completions, the Responses API
and Anthropic Messages (``--routes``; throughput only for ``--throughput-routes``).
Prints added p50/p99 latency, added time to first chunk (first event) and the
throughput ratio. Run: ``make bench`` or ``python bench/relay.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import PIDS, cpu_seconds, fake_upstream, gateway, pct, summary

TEXT = "say something useful please"
# route -> (path under /v1, request body)
ROUTES: dict[str, tuple[str, dict[str, Any]]] = {
    "chat": ("/chat/completions", {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": TEXT}]}),
    "responses": ("/responses", {"model": "gpt-4o-mini", "input": TEXT}),
    "messages": (
        "/messages",
        {"model": "claude-sonnet-4-5", "max_tokens": 256, "messages": [{"role": "user", "content": TEXT}]},
    ),
}
HEADERS = {"authorization": "Bearer sk-bench"}


async def one(client: aiohttp.ClientSession, url: str, stream: bool, body: dict[str, Any]) -> tuple[float, float]:
    """(total ms, first-chunk ms)"""
    start = time.perf_counter()
    first = 0.0
    async with client.post(url, json={**body, "stream": True} if stream else body, headers=HEADERS) as r:
        r.raise_for_status()
        async for _ in r.content.iter_any():
            if not first:
                first = (time.perf_counter() - start) * 1000
    return (time.perf_counter() - start) * 1000, first


async def sequential(direct: str, via: str, n: int, stream: bool, body: dict[str, Any]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {
        "direct": [],
        "gateway": [],
        "direct_ttfc": [],
        "gateway_ttfc": [],
    }
    async with aiohttp.ClientSession() as client:
        for _ in range(50):  # warm-up
            await one(client, direct, stream, body)
            await one(client, via, stream, body)
        for i in range(n):
            order = [("direct", direct), ("gateway", via)] if i % 2 else [("gateway", via), ("direct", direct)]
            for name, url in order:
                total, first = await one(client, url, stream, body)
                out[name].append(total)
                out[name + "_ttfc"].append(first)
    return out


async def throughput(
    url: str, concurrency: int, seconds: float, stream: bool, body: dict[str, Any]
) -> tuple[float, int]:
    """(requests per second, requests done)"""
    done = 0
    deadline = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as client:

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                await one(client, url, stream, body)
                done += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done / (time.perf_counter() - start), done


async def run(n: int, seconds: float, rounds: int, routes: list[str], throughput_routes: list[str]) -> None:
    with fake_upstream() as upstream:
        extra = {
            "memory": {"embedding": {"provider": "none"}},
            "upstreams": {"anthropic": {"api_base": upstream.removesuffix("/v1")}},
        }
        with gateway(upstream, filters=[], extra=extra) as via:
            for route in routes:
                path, body = ROUTES[route]
                await measure(route, upstream + path, via + path, body, n, seconds, rounds, route in throughput_routes)


async def measure(
    route: str,
    direct_url: str,
    via_url: str,
    body: dict[str, Any],
    n: int,
    seconds: float,
    rounds: int,
    with_throughput: bool,
) -> None:
    for stream in (False, True):
        kind = f"{route} {'stream' if stream else 'plain'}"
        res = await sequential(direct_url, via_url, n, stream, body)
        added50 = pct(res["gateway"], 50) - pct(res["direct"], 50)
        added99 = pct(res["gateway"], 99) - pct(res["direct"], 99)
        print(f"[{kind}] sequential n={n}")
        print(f"  direct  {summary(res['direct'])}")
        print(f"  gateway {summary(res['gateway'])}")
        print(f"  added   p50 {added50:.3f} ms  p99 {added99:.3f} ms")
        if stream:
            ttfc = pct(res["gateway_ttfc"], 50) - pct(res["direct_ttfc"], 50)
            print(
                f"  first chunk: direct p50 {pct(res['direct_ttfc'], 50):.3f} ms, gateway p50 "
                f"{pct(res['gateway_ttfc'], 50):.3f} ms, added {ttfc:.3f} ms"
            )
        if not with_throughput:
            continue
        d_rates, g_rates = [], []
        gw_cpu = up_cpu = 0.0
        gw_done = 0
        for _ in range(rounds):
            d_rates.append((await throughput(direct_url, 32, seconds, stream, body))[0])
            before = cpu_seconds(PIDS["gateway"]), cpu_seconds(PIDS["upstream"])
            rate, done = await throughput(via_url, 32, seconds, stream, body)
            gw_cpu += cpu_seconds(PIDS["gateway"]) - before[0]
            up_cpu += cpu_seconds(PIDS["upstream"]) - before[1]
            gw_done += done
            g_rates.append(rate)
        d, g = sum(d_rates) / rounds, sum(g_rates) / rounds
        print(f"[{kind}] 32 concurrent: direct {d:.0f} req/s, gateway {g:.0f} req/s, ratio {g / d:.2f}x")
        # why the ratio is bounded on a small machine: CPU each process spends per relayed request
        print(
            f"  CPU per request through the gateway: gateway {gw_cpu / gw_done * 1e6:.0f} us, "
            f"fake upstream {up_cpu / gw_done * 1e6:.0f} us"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--routes", default="chat,responses,messages", help="comma-separated: " + ",".join(ROUTES))
    parser.add_argument("--throughput-routes", default="chat", help="routes that also get the 32-concurrent test")
    args = parser.parse_args()
    routes = [r for r in args.routes.split(",") if r]
    unknown = [r for r in routes if r not in ROUTES]
    if unknown:
        parser.error(f"unknown route(s): {', '.join(unknown)}")
    asyncio.run(run(args.n, args.seconds, args.rounds, routes, args.throughput_routes.split(",")))


if __name__ == "__main__":
    main()
