"""Soak: N concurrent streaming clients for a bounded time against a gateway with learning on.

A gateway process (``[memory_injection, learning {model: heuristic}]``, the local USE
embedder) in front of the fake upstream (``tests/fake_upstream.py``). Each of ``--users``
users (over two tenants) starts with three memories; ``--streams`` clients then stream chats
round-robin over the users for ``--duration`` seconds, each turn stating a preference (so
the heuristic learner has something to learn) and asking a question (so memories are
injected). After the load stops the learning queue is drained and the gateway stopped.

Printed: a line every ``--every`` seconds (requests, errors, p50/p99 latency of the
interval, the gateway's RSS and open file descriptors from /proc, the PII scrubber's RSS,
learning jobs pending / done / dead from /metrics), then a summary: errors by kind, latency
and time to first chunk, RSS drift after warm-up, jobs queued (``X-Memorelay-Learning:
queued``) vs written (rows in ``learning_jobs``) vs learned (``done``) vs dead-lettered,
injections reported (sum of ``X-Memorelay-Memories``) vs the ``access_count`` sum in the
database (the difference is dropped access-count updates), and the gateway's warnings.

Targets for ``--streams 32 --duration 180``: 0 errors, 0 jobs lost or dead, RSS
flat after warm-up (± 5 %), 0 dropped access-count updates. ``--check`` exits 1 on a miss.

Run: ``.venv/bin/python bench/soak.py [--streams 32] [--duration 180] [--check]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import PIDS, fake_upstream, gateway, pct

ADMIN = "bench-soak-admin"
KEYS = ("Bearer sk-soak-tenant-a", "Bearer sk-soak-tenant-b")
MODEL = "gpt-4o-mini"
SEEDS = [
    ("Editor", "The user edits code in Neovim with the LazyVim distribution.", "technical"),
    ("Stack", "The team's backend is written in Go with PostgreSQL 15.", "technical"),
    ("Style", "The user prefers short answers with code first.", "user_preference"),
]
TURNS = [
    "I prefer tabs over spaces in every repo. Which editor plugins suit me for Go?",
    "We use PostgreSQL {n} for the billing service. How should I index the invoices table?",
    "From now on, always answer in British English. What is a good way to write Go tests?",
    "Our team has {n} engineers and we deploy to Kubernetes. How do we speed up code review?",
    "我更喜欢简洁的回答。我们的后端用 Go 写的，数据库怎么做分区比较好？",
    "I prefer pytest over unittest and we run CI on GitHub. How do I cache dependencies?",
]


@dataclass
class Tally:
    """What the clients saw."""

    latency_ms: list[tuple[float, float]] = field(default_factory=list)  # (finished at, ms)
    ttfc_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    learning: Counter[str] = field(default_factory=Counter)
    injected: int = 0


# ---------------------------------------------------------------------------------------
# the gateway process, from /proc


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def children_rss_mb(pid: int) -> float:
    """RSS of the process's descendants (the PII scrubber process)."""
    total = 0.0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return 0.0
    for task in tasks:
        try:
            kids = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
        for kid in map(int, kids):
            try:
                total += rss_mb(kid) + children_rss_mb(kid)
            except OSError:
                pass
    return total


async def metrics(client: httpx.AsyncClient, root: str) -> dict[str, float]:
    text = (await client.get(root + "/metrics")).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(r"^(memorelay_\w+?)(?:_total)?(\{[^}]*\})?\s+(\S+)$", line)
        if m:
            out[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return out


def labelled(m: dict[str, float], name: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, value in m.items():
        hit = re.match(rf'{name}\{{\w+="([^"]*)"\}}', key)
        if hit:
            out[hit.group(1)] = int(value)
    return out


# ---------------------------------------------------------------------------------------
# load


async def seed(client: httpx.AsyncClient, root: str, users: list[tuple[str, str]]) -> None:
    for key, user in users:
        for title, content, category in SEEDS:
            r = await client.post(
                root + "/api/memories",
                json={"title": title, "content": content, "category": category},
                headers={"authorization": key, "x-memorelay-user": user},
            )
            r.raise_for_status()


async def one_chat(client: httpx.AsyncClient, url: str, key: str, user: str, text: str, tally: Tally) -> None:
    body = {"model": MODEL, "stream": True, "messages": [{"role": "user", "content": text}]}
    headers = {"authorization": key, "x-memorelay-user": user}
    started = time.perf_counter()
    first = 0.0
    done = False
    try:
        async with client.stream("POST", url, json=body, headers=headers) as r:
            if r.status_code != 200:
                await r.aread()
                tally.errors[f"status {r.status_code}"] += 1
                return
            tally.injected += int(r.headers.get("x-memorelay-memories", "0"))
            tally.learning[r.headers.get("x-memorelay-learning", "none").split(";")[0]] += 1
            async for line in r.aiter_lines():
                if line.startswith("data: ") and not first:
                    first = time.perf_counter()
                if line == "data: [DONE]":
                    done = True
    except httpx.HTTPError as exc:
        tally.errors[type(exc).__name__] += 1
        return
    if not done:
        tally.errors["stream ended without [DONE]"] += 1
        return
    now = time.perf_counter()
    tally.latency_ms.append((now, (now - started) * 1000))
    tally.ttfc_ms.append((first - started) * 1000)


async def stream_client(
    n: int, streams: int, client: httpx.AsyncClient, url: str, users: list[tuple[str, str]], until: float, tally: Tally
) -> None:
    turn = n
    while time.perf_counter() < until:
        key, user = users[turn % len(users)]
        text = TURNS[turn % len(TURNS)].format(n=turn % 50 + 2)
        await one_chat(client, url, key, user, f"{text} (turn {turn})", tally)
        turn += streams


# ---------------------------------------------------------------------------------------
# sampling and the end state


@dataclass
class Sample:
    t: float
    rss: float
    child_rss: float
    fds: int
    pending: int
    jobs: dict[str, int]


async def sample(client: httpx.AsyncClient, root: str, pid: int, t: float) -> Sample:
    m = await metrics(client, root)
    jobs = labelled(m, "memorelay_learning_jobs")
    pending = int(m.get("memorelay_learning_pending", 0))
    return Sample(t, rss_mb(pid), children_rss_mb(pid), open_fds(pid), pending, jobs)


def print_sample(s: Sample, window: list[float], tally: Tally) -> None:
    p50 = f"{pct(window, 50):8.1f}" if window else "       -"
    p99 = f"{pct(window, 99):8.1f}" if window else "       -"
    jobs = s.jobs
    print(
        f"{s.t:6.0f}s {len(window):6d} {sum(tally.errors.values()):7d} {p50} {p99}"
        f" {s.rss:11.1f} {s.child_rss:12.1f} {s.fds:4d}  {s.pending}/{jobs.get('done', 0)}"
        f"/{jobs.get('dead', 0)}/{jobs.get('retried', 0)}",
        flush=True,
    )


async def sampler(
    client: httpx.AsyncClient, root: str, pid: int, tally: Tally, every: float, out: list[Sample]
) -> None:
    start = last = time.perf_counter()
    print(
        "     t   reqs  errors   p50 ms   p99 ms   gw RSS MB  scrubber MB  fds  jobs pending/done/dead/retried",
        flush=True,
    )
    while True:
        await asyncio.sleep(every)
        now = time.perf_counter()
        window = [ms for at, ms in tally.latency_ms if last < at <= now]
        last = now
        out.append(await sample(client, root, pid, now - start))
        print_sample(out[-1], window, tally)


async def drain(client: httpx.AsyncClient, root: str, timeout: float) -> float | None:
    """Seconds until no learning job is pending or running, or None past ``timeout``."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        m = await metrics(client, root)
        if not m.get("memorelay_learning_pending"):
            r = await client.get(root + "/api/admin/stats", headers={"authorization": f"Bearer {ADMIN}"})
            jobs = r.json().get("learning", {}).get("jobs", {}) if r.status_code == 200 else {}
            if not jobs.get("pending") and not jobs.get("running"):
                return time.perf_counter() - start
        await asyncio.sleep(0.25)
    return None


def database_state(path: str) -> dict[str, Any]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        jobs = dict(db.execute("SELECT status, COUNT(*) FROM learning_jobs GROUP BY status").fetchall())
        return {
            "jobs": jobs,
            "written": sum(jobs.values()),
            "access": db.execute("SELECT COALESCE(SUM(access_count), 0) FROM memories").fetchone()[0],
            "memories": db.execute("SELECT COUNT(*) FROM memories").fetchone()[0],
            "learned": db.execute("SELECT COUNT(*) FROM memories WHERE source = 'auto'").fetchone()[0],
            "deleted": db.execute("SELECT COUNT(*) FROM audit_log WHERE action = 'delete'").fetchone()[0],
        }
    finally:
        db.close()


def log_digest(path: Path, top: int = 8) -> tuple[int, list[tuple[str, int]]]:
    """(warning-or-worse lines and exception lines of tracebacks, the most frequent ones with
    numbers masked)."""
    counts: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        if not re.search(r"WARNING|ERROR|CRITICAL|^\w[\w.]*(Error|Exception)\b", line):
            continue
        total += 1
        counts[re.sub(r"\d+(\.\d+)?", "N", line)[:160]] += 1
    return total, counts.most_common(top)


# ---------------------------------------------------------------------------------------


async def soak(args: argparse.Namespace, upstream: str, database: str, log_path: Path) -> dict[str, Any]:
    filters = [{"memory_injection": {}}, {"learning": {"model": "heuristic", "workers": args.workers}}]
    extra = {"memory": {"embedding": {"provider": "local"}}, "auth": {"admin_key": ADMIN}}
    tally = Tally()
    samples: list[Sample] = []
    with gateway(upstream, filters, extra, database=database, log_path=log_path) as via:
        root, url = via.removesuffix("/v1"), via + "/chat/completions"
        pid = PIDS["gateway"]
        users = [(KEYS[i % len(KEYS)], f"soak-user-{i:03d}") for i in range(args.users)]
        limits = httpx.Limits(max_connections=args.streams + 4, max_keepalive_connections=args.streams + 4)
        async with httpx.AsyncClient(limits=limits, timeout=120) as client:
            await seed(client, root, users)
            before = await metrics(client, root)
            print(
                f"soak: {args.streams} streams for {args.duration:.0f} s, {args.users} users over {len(KEYS)} tenants,"
                f" learning heuristic x{args.workers}, gateway pid {pid};"
                f" start RSS {rss_mb(pid):.1f} MB, fds {open_fds(pid)}",
                flush=True,
            )
            started = time.perf_counter()
            watch = asyncio.ensure_future(sampler(client, root, pid, tally, args.every, samples))
            until = time.perf_counter() + args.duration
            await asyncio.gather(
                *(stream_client(n, args.streams, client, url, users, until, tally) for n in range(args.streams))
            )
            watch.cancel()
            print(f"load stopped; draining the learning queue (at most {args.drain_timeout:.0f} s)", flush=True)
            drained = await drain(client, root, args.drain_timeout)
            after = await metrics(client, root)
            samples.append(await sample(client, root, pid, time.perf_counter() - started))
            print_sample(samples[-1], [], tally)
            end_rss, end_fds = rss_mb(pid), open_fds(pid)
    state = database_state(database)
    return {
        "tally": tally,
        "samples": samples,
        "drained": drained,
        "failures": labelled(after, "memorelay_memory_failures"),
        "jobs_metric": labelled(after, "memorelay_learning_jobs"),
        "skipped": labelled(after, "memorelay_learning_skipped"),
        "injected_metric": int(
            after.get("memorelay_memories_injected", 0) - before.get("memorelay_memories_injected", 0)
        ),
        "end_rss": end_rss,
        "end_fds": end_fds,
        "db": state,
    }


def report(args: argparse.Namespace, r: dict[str, Any], log_path: Path) -> bool:
    tally: Tally = r["tally"]
    samples: list[Sample] = r["samples"]
    lat = [ms for _, ms in tally.latency_ms]
    n = len(lat) + sum(tally.errors.values())
    errors = sum(tally.errors.values())
    print(
        f"\nrequests: {n} in {args.duration:.0f} s ({n / args.duration:.1f}/s);"
        f" errors: {errors} {dict(tally.errors) or ''}"
    )
    if lat:
        print(
            f"latency ms: p50 {pct(lat, 50):.1f}  p99 {pct(lat, 99):.1f}  max {max(lat):.1f};"
            f" first chunk p50 {pct(tally.ttfc_ms, 50):.1f}  p99 {pct(tally.ttfc_ms, 99):.1f}"
        )
    print(f"injection failed open (memory_failures): {r['failures'] or 'none'}")
    warm = [s for s in samples if s.t >= args.warmup] or samples
    base, last = warm[0], samples[-1]
    drift = (last.rss - base.rss) / base.rss * 100
    spread = (max(s.rss for s in warm) - min(s.rss for s in warm)) / base.rss * 100
    print(
        f"gateway RSS after warm-up ({base.t:.0f} s): {base.rss:.1f} MB -> {last.rss:.1f} MB at the end"
        f" ({drift:+.1f} %, spread {spread:.1f} %); scrubber {base.child_rss:.1f} -> {last.child_rss:.1f} MB;"
        f" open fds {samples[0].fds} -> {last.fds} (max {max(s.fds for s in samples)})"
    )
    db = r["db"]
    queued = tally.learning.get("queued", 0)
    lost = queued - db["written"]
    dead = db["jobs"].get("dead", 0)
    unfinished = db["jobs"].get("pending", 0) + db["jobs"].get("running", 0)
    drained = "not drained" if r["drained"] is None else f"drained {r['drained']:.1f} s after the load"
    print(
        f"learning: {queued} chats answered 'queued' (others: {dict(tally.learning)}); {db['written']} jobs written"
        f" {db['jobs']}; {lost} lost; {dead} dead-lettered; {unfinished} still queued at shutdown ({drained});"
        f" metric outcomes {r['jobs_metric']}; {db['learned']} learned memories, {db['memories']} in all"
    )
    dropped = tally.injected - db["access"]
    note = f" ({db['deleted']} memories were deleted during the run: their counts are gone)" if db["deleted"] else ""
    print(
        f"access counts: {tally.injected} injections reported in X-Memorelay-Memories"
        f" (metric {r['injected_metric']}), access_count sum {db['access']} -> {dropped} dropped{note}"
    )
    total, top = log_digest(log_path)
    print(f"gateway log: {total} warning/error lines" + (":" if top else ""))
    for line, count in top:
        print(f"  {count:6d}x {line}")
    checks = {
        "0 errors": errors == 0,
        "0 jobs lost": lost == 0,
        "0 jobs dead-lettered": dead == 0,
        "RSS flat after warm-up (±5 %)": abs(drift) <= 5,
        "0 dropped access-count updates": dropped == 0,
    }
    print("targets: " + "; ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks.items()))
    return all(checks.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=32, help="concurrent streaming clients")
    parser.add_argument("--duration", type=float, default=180, help="seconds of load")
    parser.add_argument("--users", type=int, default=64, help="distinct users (over two tenants)")
    parser.add_argument("--workers", type=int, default=2, help="learning workers")
    parser.add_argument("--every", type=float, default=0, help="seconds between samples (default duration/12, 2-15)")
    parser.add_argument("--warmup", type=float, default=0, help="seconds before RSS counts (default duration/4)")
    parser.add_argument(
        "--drain-timeout", type=float, default=60, help="seconds to wait for the learning queue after the load"
    )
    parser.add_argument("--log", type=Path, help="keep the gateway's log here")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    args.every = args.every or min(15.0, max(2.0, args.duration / 12))
    args.warmup = args.warmup or args.duration / 4
    with tempfile.TemporaryDirectory(prefix="memorelay-soak-") as tmp:
        log_path = args.log or Path(tmp) / "gateway.log"
        with fake_upstream() as upstream:
            result = asyncio.run(soak(args, upstream, f"{tmp}/memorelay.db", log_path))
        ok = report(args, result, log_path)
    if args.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
