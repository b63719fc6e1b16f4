"""Relay overhead: the fake upstream called directly vs through the gateway, in one run.

Direct and gateway requests are interleaved (sequential) or alternated in rounds
(32 concurrent), streaming and not. Prints added p50/p99 latency, added time to
first chunk and the throughput ratio. Run: ``make bench`` or ``python bench/relay.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import PIDS, cpu_seconds, fake_upstream, gateway, pct, summary

BODY = {
    "model": "gpt-4o-mini",
    "messages": [{"role": "user", "content": "say something useful please"}],
}
STREAM = {**BODY, "stream": True}
HEADERS = {"authorization": "Bearer sk-bench"}


async def one(client: aiohttp.ClientSession, url: str, stream: bool) -> tuple[float, float]:
    """(total ms, first-chunk ms)"""
    start = time.perf_counter()
    first = 0.0
    async with client.post(url, json=STREAM if stream else BODY, headers=HEADERS) as r:
        r.raise_for_status()
        async for _ in r.content.iter_any():
            if not first:
                first = (time.perf_counter() - start) * 1000
    return (time.perf_counter() - start) * 1000, first


async def sequential(direct: str, via: str, n: int, stream: bool) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {
        "direct": [],
        "gateway": [],
        "direct_ttfc": [],
        "gateway_ttfc": [],
    }
    async with aiohttp.ClientSession() as client:
        for _ in range(50):  # warm-up
            await one(client, direct, stream)
            await one(client, via, stream)
        for i in range(n):
            order = [("direct", direct), ("gateway", via)] if i % 2 else [("gateway", via), ("direct", direct)]
            for name, url in order:
                total, first = await one(client, url, stream)
                out[name].append(total)
                out[name + "_ttfc"].append(first)
    return out


async def throughput(url: str, concurrency: int, seconds: float, stream: bool) -> tuple[float, int]:
    """(requests per second, requests done)"""
    done = 0
    deadline = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as client:

        async def worker() -> None:
            nonlocal done
            while time.perf_counter() < deadline:
                await one(client, url, stream)
                done += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return done / (time.perf_counter() - start), done


async def run(n: int, seconds: float, rounds: int) -> None:
    extra = {"memory": {"embedding": {"provider": "none"}}}
    with fake_upstream() as upstream, gateway(upstream, filters=[], extra=extra) as via:
        direct_chat, via_chat = upstream + "/chat/completions", via + "/chat/completions"
        for stream in (False, True):
            kind = "stream" if stream else "plain"
            res = await sequential(direct_chat, via_chat, n, stream)
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
            d_rates, g_rates = [], []
            gw_cpu = up_cpu = 0.0
            gw_done = 0
            for _ in range(rounds):
                d_rates.append((await throughput(direct_chat, 32, seconds, stream))[0])
                before = cpu_seconds(PIDS["gateway"]), cpu_seconds(PIDS["upstream"])
                rate, done = await throughput(via_chat, 32, seconds, stream)
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
    args = parser.parse_args()
    asyncio.run(run(args.n, args.seconds, args.rounds))


if __name__ == "__main__":
    main()
