"""Offline-learner throughput with CPU accounting: N heuristic jobs queued and drained.

A gateway with ``[memory_injection, learning {model: heuristic, workers: 2}]`` and the local
embedder; 10 warm-up jobs, then ``--jobs`` chats from distinct users (``bench/learning.py``'s
``PREFERENCES`` texts) are queued and drained. Prints jobs/s and the CPU time per job of the
gateway process and of its children (the PII scrubber process), read from ``/proc``.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/learning_throughput.py [--jobs 150]``
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import PIDS, cpu_seconds, fake_upstream, gateway
from bench.learning import config, drain, enqueue


def children_cpu(pid: int) -> float:
    total = 0.0
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            fields = (p / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += cpu_seconds(int(p.name))
        except (OSError, ValueError, IndexError):
            continue
    return total


async def run(jobs: int) -> None:
    filters, extra = config("heuristic")
    with fake_upstream() as upstream, gateway(upstream, filters, extra) as via:
        url, root = via + "/chat/completions", via.removesuffix("/v1")
        async with aiohttp.ClientSession() as client:
            await enqueue(client, url, 10, "warm")
            await drain(client, root, 300)
            pid = PIDS["gateway"]
            g0, c0 = cpu_seconds(pid), children_cpu(pid)
            started = time.perf_counter()
            await enqueue(client, url, jobs, "tput")
            await drain(client, root, 600)
            took = time.perf_counter() - started
            g1, c1 = cpu_seconds(pid), children_cpu(pid)
    print(
        f"{jobs} jobs in {took:.1f} s ({jobs / took:.1f}/s); gateway CPU {1000 * (g1 - g0) / jobs:.1f} ms/job; "
        f"scrubber process CPU {1000 * (c1 - c0) / jobs:.1f} ms/job"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=150)
    asyncio.run(run(parser.parse_args().jobs))


if __name__ == "__main__":
    main()
