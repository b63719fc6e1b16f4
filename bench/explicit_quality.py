"""Explicit "remember" with identifiers, and the poisoning check, scored through a running gateway.

Two kinds of labelled file (either or both on the command line):

* remember set, ``{"items": [{"text", "lang", "identifier", "keywords", "keeps_fact"}]}``: each
  item is sent as one chat turn by a fresh user (offline learner); after learning, an item that
  ``keeps_fact`` must leave an active memory matching all ``keywords`` (the learning-dev matching
  rules) and no item may leave its ``identifier`` in any memory; an item that does not keep a fact
  must leave no memory at all. The ``X-Memorelay-Learning`` header of each turn is counted.
* injection set, ``{"attacks": [{"text", "lang", "technique"}], "benign": [{"text", "lang"}]}``:
  each text is added through ``POST /api/memories`` (the manual write path, which runs the
  poisoning check) and sent as ``Remember: <text>`` in a chat (the learned path). An attack is
  caught on the API when it is refused, and on the learned path when no memory holds it; a benign
  text must be accepted by the API.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/explicit_quality.py FILE [FILE ...] [-v]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import fake_upstream, gateway
from bench.learning_quality import ADMIN, KEY, MODEL, drain, fact_matches, forbid_matches, memories, memory_all_text


async def chat(client: aiohttp.ClientSession, via: str, user: str, text: str) -> str:
    body = {"model": MODEL, "messages": [{"role": "user", "content": text}]}
    headers = {"authorization": KEY, "x-memorelay-user": user}
    async with client.post(via + "/chat/completions", json=body, headers=headers) as r:
        r.raise_for_status()
        await r.read()
        return r.headers.get("x-memorelay-learning", "")


async def remember_set(client: aiohttp.ClientSession, via: str, items: list[dict[str, Any]], verbose: bool) -> None:
    root = via.removesuffix("/v1")
    kept = leaked = empty_ok = 0
    headers: Counter[str] = Counter()
    notes: list[str] = []
    for item in items:
        user = "rem-" + uuid.uuid4().hex[:8]
        headers[await chat(client, via, user, item["text"])] += 1
        await drain(client, root)
        mems = await memories(client, root, user)
        active = [m for m in mems if m["enabled"]]
        leak = any(forbid_matches(item["identifier"], memory_all_text(m)) for m in mems)
        leaked += leak
        if item.get("keeps_fact", True):
            ok = any(fact_matches({"keywords": item["keywords"]}, f"{m['title']}\n{m['content']}") for m in active)
            kept += ok
        else:
            ok = not mems
            empty_ok += ok
        if not ok or leak:
            notes.append(f"{item['text']!r} -> {[m['content'] for m in mems]}{' LEAK' if leak else ''}")
    keeping = [i for i in items if i.get("keeps_fact", True)]
    print(f"remember with one identifier: fact kept {kept}/{len(keeping)}, identifiers stored {leaked}/{len(items)}")
    print(f"  identifier-only items leaving nothing: {empty_ok}/{len(items) - len(keeping)}")
    print("  X-Memorelay-Learning answers:", dict(headers))
    if verbose:
        for n in notes:
            print("  -", n)


async def injection_set(client: aiohttp.ClientSession, via: str, data: dict[str, Any], verbose: bool) -> None:
    root = via.removesuffix("/v1")
    caught_api: dict[str, list[bool]] = defaultdict(list)
    caught_learned: dict[str, list[bool]] = defaultdict(list)
    benign_ok: list[bool] = []
    notes: list[str] = []

    async def api_refuses(user: str, text: str) -> bool:
        headers = {"authorization": KEY, "x-memorelay-user": user}
        body = {"title": text[:80], "content": text, "category": "user_preference"}
        async with client.post(root + "/api/memories", json=body, headers=headers) as r:
            return r.status == 400

    for attack in data.get("attacks") or []:
        user = "inj-" + uuid.uuid4().hex[:8]
        refused = await api_refuses(user, attack["text"])
        await chat(client, via, user + "-chat", "Remember: " + attack["text"])
        await drain(client, root)
        stored = await memories(client, root, user + "-chat")
        for key in ("all", attack.get("technique") or "?", f"lang:{attack.get('lang')}"):
            caught_api[key].append(refused)
            caught_learned[key].append(not stored)
        if not refused or stored:
            notes.append(f"attack {attack['text']!r}: api refused {refused}, learned {[m['content'] for m in stored]}")
    for text in data.get("benign") or []:
        refused = await api_refuses("ben-" + uuid.uuid4().hex[:8], text["text"])
        benign_ok.append(not refused)
        if refused:
            notes.append(f"benign refused: {text['text']!r}")
    print("| attacks | n | refused by the API | not learned from chat |")
    print("|---|---:|---:|---:|")
    for key in sorted(caught_api, key=lambda k: (k != "all", k)):
        n = len(caught_api[key])
        print(f"| {key} | {n} | {sum(caught_api[key])}/{n} | {sum(caught_learned[key])}/{n} |")
    print(f"benign accepted by the API: {sum(benign_ok)}/{len(benign_ok)}")
    if verbose:
        for n in notes:
            print("  -", n)


async def run(paths: list[Path], verbose: bool) -> None:
    filters = [{"memory_injection": {}}, {"learning": {"model": "heuristic"}}]
    extra = {"memory": {"embedding": {"provider": "local"}}, "auth": {"admin_key": ADMIN}}
    with fake_upstream() as upstream, gateway(upstream, filters, extra) as via:
        async with aiohttp.ClientSession() as client:
            for path in paths:
                data = json.loads(path.read_text())
                print(f"## {path.name}\n")
                if "items" in data:
                    await remember_set(client, via, data["items"], verbose)
                if "attacks" in data:
                    await injection_set(client, via, data, verbose)
                print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args.files, args.verbose))


if __name__ == "__main__":
    main()
