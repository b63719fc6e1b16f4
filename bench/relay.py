"""Relay overhead: the fake upstream called directly vs through the gateway, in one run.

Direct and gateway requests are interleaved (sequential) or alternated in rounds
(32 concurrent), streaming and not, on each route: chat completions, the Responses API
and Anthropic Messages (``--routes``; throughput only for ``--throughput-routes``).
Prints added p50/p99 latency, added time to first chunk (first event) and the
throughput ratio. With ``--base COMMIT`` that commit's gateway (``git archive`` to /tmp) runs
beside this tree's, its requests interleaved with the other two in the same sequential rounds,
and each gateway's CPU per relayed request is printed: a same-run comparison that a busy
machine shifts for both alike. Run: ``make bench`` or ``python bench/relay.py [--base 79f32f5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import PIDS, cpu_seconds, export_tree, fake_upstream, gateway, pct, summary

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


async def sequential(arms: dict[str, str], n: int, stream: bool, body: dict[str, Any]) -> dict[str, list[float]]:
    """Each arm (name -> URL) called ``n`` times, the arms' order rotating every round."""
    out: dict[str, list[float]] = {}
    for name in arms:
        out[name], out[name + "_ttfc"] = [], []
    named = list(arms.items())
    async with aiohttp.ClientSession() as client:
        for _ in range(50):  # warm-up
            for _name, url in named:
                await one(client, url, stream, body)
        for i in range(n):
            shift = i % len(named)
            for name, url in named[shift:] + named[:shift]:
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


async def run(
    n: int, seconds: float, rounds: int, routes: list[str], throughput_routes: list[str], base: str | None
) -> None:
    with fake_upstream() as upstream, ExitStack() as stack:
        extra = {
            "memory": {"embedding": {"provider": "none"}},
            "upstreams": {"anthropic": {"api_base": upstream.removesuffix("/v1")}},
        }
        via = stack.enter_context(gateway(upstream, filters=[], extra=extra))
        base_via = None
        if base:
            tree = export_tree(base)
            base_via = stack.enter_context(gateway(upstream, filters=[], extra=extra, tree=tree, role="base"))
        for route in routes:
            path, body = ROUTES[route]
            base_url = base_via + path if base_via else None
            if base_url:
                await compare(route, upstream + path, via + path, base_url, base or "", body, n)
            await measure(route, upstream + path, via + path, body, n, seconds, rounds, route in throughput_routes)


async def compare(
    route: str, direct_url: str, via_url: str, base_url: str, base: str, body: dict[str, Any], n: int
) -> None:
    """This tree's gateway against the base commit's, interleaved with the direct calls."""
    for stream in (False, True):
        kind = f"{route} {'stream' if stream else 'plain'}"
        before = {role: cpu_seconds(PIDS[role]) for role in ("gateway", "base")}
        res = await sequential({"direct": direct_url, "gateway": via_url, "base": base_url}, n, stream, body)
        cpu = {role: (cpu_seconds(PIDS[role]) - before[role]) / (n + 50) * 1e6 for role in before}
        direct50 = pct(res["direct"], 50)
        print(f"[{kind}] this tree vs {base}, interleaved n={n}")
        for role, label in (("gateway", "this tree"), ("base", base)):
            added = pct(res[role], 50) - direct50
            ttfc = pct(res[role + "_ttfc"], 50) - pct(res["direct_ttfc"], 50)
            first = f", first chunk added {ttfc:.3f} ms" if stream else ""
            print(f"  {label:>9}: added p50 {added:.3f} ms{first}, CPU {cpu[role]:.0f} us per request")


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
        res = await sequential({"direct": direct_url, "gateway": via_url}, n, stream, body)
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
    parser.add_argument("--base", help="also run this commit's gateway, interleaved, and compare")
    args = parser.parse_args()
    routes = [r for r in args.routes.split(",") if r]
    unknown = [r for r in routes if r not in ROUTES]
    if unknown:
        parser.error(f"unknown route(s): {', '.join(unknown)}")
    asyncio.run(run(args.n, args.seconds, args.rounds, routes, args.throughput_routes.split(","), args.base))


if __name__ == "__main__":
    main()
