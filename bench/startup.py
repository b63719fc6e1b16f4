"""Start-up time: ``memorelay serve`` to ``/readyz`` 200 and four CLI commands, this tree
against a base commit exported to /tmp, in the same run (interleaved, median of ``--runs``).

Each tree runs its own code (``PYTHONPATH`` = the tree) with its own ``config/memorelay.yaml``
(the default config: local embedder, Presidio, learning with the chat's own model) and its own
database, against a local echo upstream (``gateway.demo_upstream`` of this tree). CPU is user +
system time of the gateway and its children (the Presidio process) when ``/readyz`` first
answers 200, or of the whole command. A tree whose local encoder keeps a fast-loading copy
(``memory.embedding.cache_folder``, the user's cache folder by default) has it written by the
first command of the run, the ``memories add`` that gives ``list`` and ``search`` a memory.

    .venv/bin/python bench/startup.py [--base 79f32f5] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._harness import export_tree, free_port  # noqa: E402

Sample = tuple[float, float]  # wall s, CPU s


def _cpu_of_tree(pid: int) -> float:
    """User + system seconds of ``pid`` and its descendants, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def _env(tree: Path, upstream: str, db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORELAY_")}
    env.update(PYTHONPATH=str(tree), OPENAI_API_BASE=upstream, MEMORELAY_DATABASE=str(db))
    env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    return env


def serve_to_ready(tree: Path, upstream: str, db: Path) -> Sample:
    port = free_port()
    command = [sys.executable, "-m", "gateway", "serve", "--config", str(tree / "config" / "memorelay.yaml")]
    started = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "--port", str(port), "--log-level", "warning"],
        cwd=tree,
        env=_env(tree, upstream, db),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=10) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(f"gateway of {tree} exited with {proc.returncode}") from None
            time.sleep(0.02)
        return time.perf_counter() - started, _cpu_of_tree(proc.pid)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()


def cli(tree: Path, upstream: str, db: Path, *args: str) -> Sample:
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gateway", *args, "--config", str(tree / "config" / "memorelay.yaml")],
        cwd=tree,
        env=_env(tree, upstream, db),
        capture_output=True,
    )
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise RuntimeError(f"{args} in {tree}: {done.stderr.decode()[-500:]}")
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", default="79f32f5", help="the commit to compare with (default 79f32f5)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    trees = {"base " + args.base: export_tree(args.base), "this tree": ROOT}
    work = Path(tempfile.mkdtemp(prefix="memorelay-startup-"))
    up_port = free_port()
    upstream = subprocess.Popen(
        [sys.executable, "-m", "gateway.demo_upstream", "--port", str(up_port)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
    )
    upstream_url = f"http://127.0.0.1:{up_port}/v1"
    user = ("--tenant", "bench", "--user", "alice")
    cases: dict[str, Callable[[Path, Path], Sample]] = {
        "serve → /readyz 200": lambda tree, db: serve_to_ready(tree, upstream_url, db),
        "check-config": lambda tree, db: cli(tree, upstream_url, db, "check-config"),
        "memories list": lambda tree, db: cli(tree, upstream_url, db, "memories", "list", *user),
        "memories search": lambda tree, db: cli(tree, upstream_url, db, "memories", "search", "Go", *user),
        "memories add": lambda tree, db: cli(
            tree, upstream_url, db, "memories", "add", *user, "--title", "Tea", "--content", "The user drinks tea."
        ),
    }
    results: dict[tuple[str, str], list[Sample]] = {}
    try:
        for name, tree in trees.items():  # a memory to list and search, in each tree's own database
            db = work / name.replace(" ", "-") / "memorelay.db"
            db.parent.mkdir(parents=True)
            cli(tree, upstream_url, db, "memories", "add", *user, "--title", "Go", "--content", "The user writes Go.")
        for _ in range(args.runs):
            for case, run in cases.items():
                for name, tree in trees.items():  # interleaved: both trees see the same machine load
                    sample = run(tree, work / name.replace(" ", "-") / "memorelay.db")
                    results.setdefault((case, name), []).append(sample)
    finally:
        upstream.terminate()
        upstream.wait(10)
    print(f"median of {args.runs} runs; load average {os.getloadavg()[0]:.1f} at the end\n")
    print("| | " + " | ".join(f"{n}: wall / CPU s" for n in trees) + " |")
    print("|---|" + "---:|" * len(trees))
    for case in cases:
        cells = []
        for name in trees:
            samples = results[(case, name)]
            wall = statistics.median(s[0] for s in samples)
            cpu = statistics.median(s[1] for s in samples)
            cells.append(f"{wall:.2f} / {cpu:.2f}")
        print(f"| {case} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
