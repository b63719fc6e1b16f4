"""Consolidation: how long one 500-memory user's round takes, and chat latency through the gateway
while a round runs vs not (same run, as ``bench/learning.py`` compares busy and idle).

(a) A store (SQLite, or ``--backend postgres``) with one user of 500 auto memories (local USE
    embedder): ``--topics`` topics of 5 small related facts, ``--pairs`` near-duplicate pairs and
    singletons for the rest. One round (``consolidate_round``, offline rules) on a copy of it,
    timed in this process.
(b) A gateway on another copy with ``[memory_injection, learning {model: heuristic,
    consolidate_interval_h: <--delay-s>}]``: its first round starts ``--delay-s`` after start.
    Probe chats for that user (``X-Memorelay-Opt-Out: learning``: injection searches their 500
    memories, no job is queued; every text fresh, so the query embedding is never a cache hit)
    run the whole time, ``--concurrency`` at once. A watcher polls the user's stats and
    reflection report every 50 ms: the round runs from the first drop in enabled memories
    until the report appears. Probes that started inside that window are "during", the others
    "idle".

Run: ``.venv/bin/python bench/consolidation.py [--backend sqlite|postgres] [--topics 60] [--pairs 50]
[--delay-s 12]`` (postgres: an embedded server, as the tests start one).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import fake_upstream, gateway, summary
from gateway.auth import pass_through_tenant

KEY = "Bearer sk-bench-consolidation"
USER = "heavy"
MODEL = "gpt-4o-mini"

TOPICS = [
    "sourdough bread",
    "chess",
    "trail running",
    "the cello",
    "bouldering",
    "watercolour painting",
    "sailing",
    "beekeeping",
    "salsa dancing",
    "astronomy",
    "woodworking",
    "birdwatching",
    "pottery",
    "fly fishing",
    "calligraphy",
    "cycling",
    "scuba diving",
    "knitting",
    "origami",
    "photography",
    "gardening",
    "rowing",
    "fencing",
    "archery",
    "kayaking",
    "yoga",
    "judo",
    "skiing",
    "surfing",
    "tennis",
    "golf",
    "baseball cards",
    "jazz piano",
    "bonsai",
    "cheese making",
    "home brewing",
    "model trains",
    "stamp collecting",
    "podcasting",
    "stand-up comedy",
    "poetry",
    "origami cranes",
    "vintage cameras",
    "mechanical keyboards",
    "3D printing",
    "drone flying",
    "ham radio",
    "lock picking",
    "mushroom foraging",
    "ice hockey",
    "badminton",
    "table tennis",
    "rock climbing",
    "board games",
    "crossword puzzles",
    "sudoku",
    "marathons",
    "triathlons",
    "ballet",
    "opera",
]
FACTS = [
    "The user took up {x} {n} years ago.",
    "The user practises {x} every weekend.",
    "The user wants to get better at {x}.",
    "The user belongs to a {x} club.",
    "The user reads books about {x}.",
]
LIKES = ["The user likes {x}.", "The user really likes {x}."]
SINGLE = "The user's locker number at the gym is {i}."
PROBES = [
    "Any tips for {x} this weekend, case {i}?",
    "What should I read next about {x}, question {i}?",
    "Plan a week of {x} practice for me, variant {i}.",
]


def new_memories(topics: int, pairs: int, total: int) -> list[Any]:
    from gateway.memory import NewMemory

    def item(title: str, content: str, category: str) -> NewMemory:
        return NewMemory(title=title, content=content, category=category, source="auto", score=0.8)

    out = []
    for t in range(topics):
        x = TOPICS[t % len(TOPICS)] + ("" if t < len(TOPICS) else f" {t}")
        out += [item(x.capitalize(), f.format(x=x, n=2 + t % 7), "user_preference") for f in FACTS]
    for p in range(pairs):
        x = TOPICS[p % len(TOPICS)] + " documentaries"
        out += [item(f"Likes {x}", f.format(x=x), "domain") for f in LIKES]
    i = 0
    while len(out) < total:
        out.append(item("Locker", SINGLE.format(i=1000 + i * 7919), "organizational"))
        i += 1
    return out[:total]


async def build_store(path: str, args: argparse.Namespace) -> None:
    from gateway.config import config_from_dict
    from gateway.memory import MemoryService, build_embedder
    from gateway.store.backend import open_backend

    config = config_from_dict({"memory": {"database": path, "embedding": {"provider": "local"}}})
    backend = open_backend(config)
    await backend.open()
    service = MemoryService(backend.memories, build_embedder({"provider": "local"}))
    try:
        await service.open()
        items = new_memories(args.topics, args.pairs, args.memories)
        tenant = pass_through_tenant(KEY)
        for start in range(0, len(items), 100):
            await service.add_many(tenant, USER, items[start : start + 100], actor="bench")
    finally:
        await service.close()
        await backend.close()


async def round_in_process(path: str) -> None:
    from gateway.config import config_from_dict
    from gateway.learning.upkeep.consolidate_job import RoundSettings, consolidate_round
    from gateway.learning.upkeep.summaries import RuleSummary
    from gateway.memory import MemoryService, build_embedder
    from gateway.store.backend import open_backend

    config = config_from_dict({"memory": {"database": path, "embedding": {"provider": "local"}}})
    backend = open_backend(config)
    await backend.open()
    service = MemoryService(backend.memories, build_embedder({"provider": "local"}))
    try:
        await service.open()
        before = (await service.stats(pass_through_tenant(KEY), USER))["enabled"]
        started = time.perf_counter()
        done = await consolidate_round(service, RoundSettings(), RuleSummary())
        took = time.perf_counter() - started
        after = (await service.stats(pass_through_tenant(KEY), USER))["enabled"]
        (user,) = done.users
        merged = sum(len(m["ids"]) for m in user.merges)
        squeezed = sum(len(s["from"]) for s in user.summaries)
        print(
            f"(a) one round, {before} memories -> {after} enabled: {took:.2f} s "
            f"({len(user.merges)} merges of {merged}, {len(user.summaries)} summaries of {squeezed}; "
            f"{len(done.reports)} reports)"
        )
    finally:
        await service.close()
        await backend.close()


async def probe(client: aiohttp.ClientSession, url: str, i: int) -> tuple[float, float]:
    text = PROBES[i % len(PROBES)].format(x=TOPICS[i % len(TOPICS)], i=i)
    body = {"model": MODEL, "messages": [{"role": "user", "content": text}]}
    headers = {"authorization": KEY, "x-memorelay-user": USER, "x-memorelay-opt-out": "learning"}
    start = time.perf_counter()
    async with client.post(url, json=body, headers=headers) as r:
        r.raise_for_status()
        await r.read()
    return start, (time.perf_counter() - start) * 1000


async def watch(client: aiohttp.ClientSession, root: str, window: dict[str, float], stop: asyncio.Event) -> None:
    headers = {"authorization": KEY, "x-memorelay-user": USER}
    first: int | None = None
    while not stop.is_set():
        async with client.get(root + "/api/memories/stats", headers=headers) as r:
            enabled = int((await r.json())["enabled"])
        first = enabled if first is None else first
        if enabled < first and "write" not in window:
            window["write"] = time.perf_counter()
        if "write" in window and "end" not in window:
            async with client.get(root + "/api/memories/reflection", headers=headers) as r:
                if r.status == 200:
                    window["end"] = time.perf_counter()
                    window["after"] = enabled
        await asyncio.sleep(0.05)


async def live(url: str, args: argparse.Namespace) -> None:
    root = url.removesuffix("/v1")
    chat = url + "/chat/completions"
    # the round's timer starts before the gateway answers /readyz: it starts at most delay_s
    # from now (the planning, summaries and embeddings before its one commit included)
    window: dict[str, float] = {"start": time.perf_counter() + args.delay_s - 0.5}
    stop = asyncio.Event()
    samples: list[tuple[float, float]] = []
    async with aiohttp.ClientSession() as client:
        watcher = asyncio.ensure_future(watch(client, root, window, stop))
        counter = iter(range(10**9))
        started = time.perf_counter()

        async def worker() -> None:
            for i in counter:
                samples.append(await probe(client, chat, i))
                done = "end" in window and time.perf_counter() - window["end"] > args.after_s
                if done or time.perf_counter() - started > args.delay_s + 120:
                    return

        await asyncio.gather(*(worker() for _ in range(args.concurrency)))
        stop.set()
        await watcher
    if "end" not in window:
        print("(b) the round was not seen (no drop in enabled memories and report)")
        return
    during = [ms for t, ms in samples if window["start"] <= t <= window["end"]]
    idle = [ms for t, ms in samples[20:] if not window["start"] - 0.2 <= t <= window["end"] + 0.2]
    print(
        f"(b) round in the gateway: <= {window['end'] - window['start']:.2f} s from its timer to its report "
        f"({window['end'] - window['write']:.2f} s from its commit); {int(window['after'])} enabled after"
    )
    print(f"    chats while idle   ({len(idle):4d}): {summary(idle)}")
    print(f"    chats during round ({len(during):4d}): {summary(during)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=500)
    parser.add_argument("--topics", type=int, default=60)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--delay-s", type=float, default=12.0, help="the gateway's first round, after its start")
    parser.add_argument("--after-s", type=float, default=6.0, help="idle probes after the round")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        if args.backend == "postgres":  # an embedded server (tests/pg.py): one database per run, each built
            from tests.pg import fresh_database_url

            stores = [fresh_database_url(), fresh_database_url()]
            for url in stores:
                asyncio.run(build_store(url, args))
        else:  # one SQLite file built, then copied
            seed = Path(tmp) / "seed.db"
            asyncio.run(build_store(str(seed), args))
            stores = [str(Path(tmp) / name) for name in ("a.db", "b.db")]
            for copy in stores:
                shutil.copy(seed, copy)
        print(
            f"store ({args.backend}): {args.memories} auto memories of one user, "
            f"built in {time.perf_counter() - started:.1f} s"
        )
        asyncio.run(round_in_process(stores[0]))
        filters = [
            {"memory_injection": {}},
            {"learning": {"model": "heuristic", "consolidate_interval_h": args.delay_s / 3600}},
        ]
        extra = {"memory": {"embedding": {"provider": "local"}}}
        with fake_upstream() as upstream, gateway(upstream, filters, extra, database=stores[1]) as url:
            asyncio.run(live(url, args))


if __name__ == "__main__":
    main()
