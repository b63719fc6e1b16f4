"""LoCoMo retrieval benchmark through MemoryService.search (protocol: ../shared/bench/README.md).

For each conversation a fresh store is filled with one memory per document (turns corpus:
one per turn; observations corpus: one per observation fact, both prefixed with the
session date), then each question of categories 1-4 is a query. Reports R@1/5/10 and
H@5/10 per category and overall.

    .venv/bin/python bench/retrieval.py [--data PATH] [--embedder local|none] [--rrf-k 60]
        [--backend sqlite|postgres]   (postgres: an embedded server, or MEMORELAY_TEST_DATABASE_URL's)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.memory import MemoryService, NewMemory, build_embedder
from gateway.memory.recall import RecallSettings
from gateway.memory.retrieval import RetrievalSettings
from gateway.memory.working_set import DEFAULT_BUDGET_MB
from gateway.store import MemoryStore
from gateway.store.sqlite import SQLiteMemoryStore

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo-dev.json"
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 5, 10)


def normalise_ids(raw: Any, known: set[str]) -> list[str]:
    out: list[str] = []
    items = raw if isinstance(raw, list) else [raw]
    for item in items:
        for part in re.split(r"[;,\s]+", str(item)):
            m = re.match(r"D:?(\d+):0*(\d+)$", part.strip())
            if m:
                did = f"D{int(m.group(1))}:{int(m.group(2))}"
                if did in known and did not in out:
                    out.append(did)
    return out


def documents(sample: dict[str, Any], corpus: str) -> list[tuple[str, str, list[str]]]:
    """(header, text, covered dia_ids) per memory."""
    conv = sample["conversation"]
    known = {t["dia_id"] for k, v in conv.items() if re.fullmatch(r"session_\d+", k) for t in v}
    docs: list[tuple[str, str, list[str]]] = []
    if corpus == "turns":
        for key, turns in conv.items():
            if not re.fullmatch(r"session_\d+", key):
                continue
            date = conv.get(f"{key}_date_time", "")
            for t in turns:
                text = f"[{date}] {t['speaker']}: {t['text']}"
                if t.get("blip_caption"):
                    text += f" [shares {t['blip_caption']}]"
                docs.append((f"[{date}] {t['speaker']}", text, [t["dia_id"]]))
    else:
        for key, by_speaker in sample["observation"].items():
            session = key.replace("_observation", "")
            date = conv.get(f"{session}_date_time", "")
            for facts in by_speaker.values():
                for fact, ids in facts:
                    covered = normalise_ids(ids, known)
                    docs.append((f"[{date}]", f"[{date}] {fact}", covered))
    return docs


def questions(sample: dict[str, Any]) -> list[tuple[str, int, list[str]]]:
    conv = sample["conversation"]
    known = {t["dia_id"] for k, v in conv.items() if re.fullmatch(r"session_\d+", k) for t in v}
    out = []
    for qa in sample["qa"]:
        if qa.get("category") not in CATEGORY_NAMES:
            continue
        evidence = normalise_ids(qa.get("evidence", []), known)
        if evidence:
            out.append((qa["question"], int(qa["category"]), evidence))
    return out


async def run_corpus(
    data: list[dict[str, Any]], corpus: str, args: argparse.Namespace, folder: Path
) -> dict[str, dict[str, float]]:
    settings = RetrievalSettings(
        rrf_k=args.rrf_k,
        depth=args.depth,
        vector_weight=args.vector_weight,
        keyword_weight=args.keyword_weight,
        substring_weight=args.substring_weight,
        vector_depth=args.vector_depth,
        fusion=args.fusion,
        keyword_indexes=tuple(args.keyword_indexes.split(",")),
    )
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    embedder = build_embedder({"provider": args.embedder})
    for n, sample in enumerate(data):
        store: MemoryStore
        if args.backend == "postgres":  # a fresh database per conversation (tests/pg.py)
            from gateway.store.postgres import PostgresMemoryStore
            from tests.pg import fresh_database_url

            store = PostgresMemoryStore(fresh_database_url())
        else:
            store = SQLiteMemoryStore(str(folder / f"{corpus}_{n}.db"))
        await store.open()
        recall = RecallSettings(
            recency_weight=args.recency_weight,
            popularity_weight=args.popularity_weight,
            cooccurrence_weight=args.cooccurrence_weight,
            fatigue_weight=args.fatigue_weight,
        )
        service = MemoryService(store, embedder, retrieval=settings, working_set_mb=args.working_set_mb, recall=recall)
        try:
            await service.open()
            docs = documents(sample, corpus)
            items = [
                NewMemory(title=h[:200], content=text[:8000], category="domain", source="auto") for h, text, _ in docs
            ]
            made = await service.add_many("bench", "locomo", items, actor="bench")
            covers = {m.id: set(d[2]) for m, d in zip(made, docs, strict=True)}
            if service.working_set is not None:  # every question from memory, none while it loads
                await service.working_set.view("bench", "locomo")
            # --conversation: the sample's questions asked one after another in one conversation
            conversation = f"locomo-{n}" if args.conversation else None
            for question, cat, evidence in questions(sample):
                hits = await service.search(
                    "bench", "locomo", question, limit=max(KS), recall=args.recall == "on", conversation=conversation
                )
                ranked = [h.memory.id for h in hits]
                if args.cite:  # as injection logs its top 5: the next questions see the citations
                    service.record_uses("bench", "locomo", ranked[:5], conversation, "bench")
                ev = set(evidence)
                for name in (CATEGORY_NAMES[cat], "overall"):
                    row = sums[name]
                    row["n"] += 1
                    for k in KS:
                        got: set[str] = set().union(*(covers[i] for i in ranked[:k]))
                        row[f"R@{k}"] += len(ev & got) / len(ev)
                        if k in (5, 10):
                            row[f"H@{k}"] += 1.0 if ev & got else 0.0
            if service.working_set is not None:
                sums["working set"]["hits"] += service.working_set.stats.hits / 2  # two partitions each
        finally:
            await service.close()
            await store.close()
    print(f"<!-- working-set hits (searches served from memory): {int(sums.pop('working set', {}).get('hits', 0))} -->")
    return {name: {k: (v / row["n"] if k != "n" else v) for k, v in row.items()} for name, row in sums.items()}


async def main_async(args: argparse.Namespace) -> None:
    data = json.loads(Path(args.data).read_text())
    print(
        f"data={args.data} backend={args.backend} embedder={args.embedder} rrf_k={args.rrf_k} depth={args.depth} "
        f"weights vector={args.vector_weight} keyword={args.keyword_weight} substring={args.substring_weight} "
        f"vector_depth={args.vector_depth} fusion={args.fusion} working_set_mb={args.working_set_mb}"
        f" recall={args.recall} cite={args.cite} conversation={args.conversation}"
    )
    print("| corpus | category | n | R@1 | R@5 | R@10 | H@5 | H@10 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for corpus in args.corpora.split(","):
            t0 = time.perf_counter()
            result = await run_corpus(data, corpus, args, Path(tmp))
            for name in [*CATEGORY_NAMES.values(), "overall"]:
                r = result.get(name)
                if r is None:
                    continue
                label = f"**{name}**" if name == "overall" else name
                print(
                    f"| {corpus} | {label} | {int(r['n'])} | {r['R@1']:.3f} | {r['R@5']:.3f} "
                    f"| {r['R@10']:.3f} | {r['H@5']:.3f} | {r['H@10']:.3f} |",
                    flush=True,
                )
            print(f"<!-- {corpus}: {time.perf_counter() - t0:.1f} s -->", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--embedder", default="local", choices=["local", "none"])
    ap.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres"])
    ap.add_argument("--corpora", default="turns,observations")
    defaults = RetrievalSettings()
    ap.add_argument("--rrf-k", type=float, default=defaults.rrf_k)
    ap.add_argument("--depth", type=int, default=defaults.depth)
    ap.add_argument("--vector-weight", type=float, default=defaults.vector_weight)
    ap.add_argument("--keyword-weight", type=float, default=defaults.keyword_weight)
    ap.add_argument("--substring-weight", type=float, default=defaults.substring_weight)
    ap.add_argument("--vector-depth", type=int, default=defaults.vector_depth)
    ap.add_argument(
        "--keyword-indexes",
        default=",".join(defaults.keyword_indexes),
        help="FTS5 tables: memories_fts (trigram), memories_words (porter)",
    )
    ap.add_argument("--fusion", default=defaults.fusion, choices=["rrf", "score"])
    ap.add_argument(
        "--working-set-mb", type=float, default=DEFAULT_BUDGET_MB, help="0: every list from the store (SQLite)"
    )
    ap.add_argument(
        "--recall",
        default="on",
        choices=["on", "off"],
        help="on: injection's ranking (memory.recall defaults: recency, popularity, co-occurrence, fatigue)",
    )
    ap.add_argument(
        "--cite",
        action="store_true",
        help="log each question's top 5 in the citation log, as injection does (popularity, co-occurrence)",
    )
    paths = RecallSettings()
    ap.add_argument("--recency-weight", type=float, default=paths.recency_weight)
    ap.add_argument("--popularity-weight", type=float, default=paths.popularity_weight)
    ap.add_argument("--cooccurrence-weight", type=float, default=paths.cooccurrence_weight)
    ap.add_argument("--fatigue-weight", type=float, default=paths.fatigue_weight)
    ap.add_argument(
        "--conversation", action="store_true", help="ask a sample's questions in one conversation (fatigue)"
    )
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
