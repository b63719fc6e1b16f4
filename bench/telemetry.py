"""What tracing costs: the gateway's CPU per chat request with ``telemetry`` off and on.

Two gateway processes in turn (the same config, ``telemetry.enabled`` false then true) relay
chats to the fake upstream, plain and streamed, 16 at a time, with the memory injection filter
on; the traced one exports to a small OTLP/HTTP receiver in this process that counts spans and
drops them. Prints CPU per request for each and the difference.
Run: ``python bench/telemetry.py [-n 2000]``.
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

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bench._harness import PIDS, cpu_seconds, fake_upstream, gateway
from tests.servers import serve_in_thread

BODY = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "say something useful please"}]}
HEADERS = {"authorization": "Bearer sk-bench", "x-memorelay-user": "bench-user"}
received = {"exports": 0, "bytes": 0}


async def _traces(request: Request) -> Response:
    received["exports"] += 1
    received["bytes"] += len(await request.body())
    return Response(b"", media_type="application/x-protobuf")


async def load(url: str, n: int, stream: bool) -> float:
    """Seconds of gateway CPU per request over ``n`` requests, 16 concurrent."""
    body = {**BODY, "stream": True} if stream else BODY
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=16)) as client:

        async def one() -> None:
            async with client.post(url + "/chat/completions", json=body, headers=HEADERS) as r:
                r.raise_for_status()
                await r.read()

        for _ in range(100):  # warm-up
            await one()
        before = cpu_seconds(PIDS["gateway"])
        queue = iter(range(n))

        async def worker() -> None:
            for _ in queue:
                await one()

        await asyncio.gather(*(worker() for _ in range(16)))
        return (cpu_seconds(PIDS["gateway"]) - before) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000)
    args = parser.parse_args()
    results: dict[tuple[bool, bool], float] = {}
    collector = Starlette(routes=[Route("/v1/traces", _traces, methods=["POST"])])
    with serve_in_thread(collector) as collector_url, fake_upstream() as upstream:
        for traced in (False, True):
            extra: dict[str, Any] = {
                "memory": {"embedding": {"provider": "none"}},
                "telemetry": {"enabled": traced, "endpoint": collector_url, "export_interval_ms": 500},
            }
            with gateway(upstream, filters=[{"memory_injection": {}}], extra=extra) as via:
                for stream in (False, True):
                    results[(traced, stream)] = asyncio.run(load(via, args.n, stream))
                time.sleep(1.0)  # the last batch
    for stream in (False, True):
        off, on = results[(False, stream)], results[(True, stream)]
        kind = "stream" if stream else "plain"
        print(
            f"[chat {kind}] gateway CPU per request: telemetry off {off * 1e6:.0f} us, on {on * 1e6:.0f} us, "
            f"added {(on - off) * 1e6:.0f} us"
        )
    print(f"  receiver: {received['exports']} exports, {received['bytes'] / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
