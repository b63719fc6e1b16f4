"""Learning quality: replay labelled conversations through a running gateway and score what it learned.

A real gateway process (``[memory_injection, learning {model: heuristic}]``, local embedder) in
front of the fake upstream. Each user's conversations are replayed in file order, one chat
request per user turn (the app's system prompt, earlier turns as history), with
``X-Memorelay-User``; after every request the learning queue is drained, so jobs run in the
order a user would produce them. After each conversation the user's memories (active and
disabled) are read from ``/api/memories`` and scored with the dataset's ``matching`` rules:

* recall: expected facts of the conversation matched by an active memory right after it;
* precision: memories created during the conversation that match an expected or optional fact
  of the same user (optional-only matches are left out), over all created ones; the others are
  junk (listed with ``-v``);
* forbidden: forbidden strings of a user found in any of that user's memories at the end;
* nothing to learn: conversations labelled ``nothing_to_learn`` during which anything was stored;
* supersede: after the ``to`` conversation the new fact is active and the old one is matched by
  a disabled memory and by no active one; forget: the forgotten fact, active after the ``from``
  conversation, is active in no memory (and a ``new`` fact stated in the same turn, if given,
  is active). A fact never learned can be neither superseded nor forgotten: that counts as a miss.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/learning_quality.py [--data PATH ...] [-v] [--json OUT]``
(default dataset: ``../shared/bench/learning-dev.json`` next to the checkout). A conversation may
carry ``"time"`` (ISO 8601), sent as ``X-Memorelay-Time``. Besides recall and precision it prints
precision per memory kind, memories per user turn and the rejected candidates by reason code.
``--locomo PATH`` replays LoCoMo conversations as casual chat instead (``bench/learning_locomo.py``).
With ``--model NAME`` (not ``heuristic``) the gateway runs its LLM learner against a stand-in
model (``bench/stand_in_learner.py``: the built-in learner's answers written as JSON) and the
upstream learning calls and tokens per 100 chat requests are printed too.
``--dump FILE`` appends one JSON line per created memory (its label: good, junk, optional; a
memory holding a forbidden string is junk) and per expected fact (the active memories that
matched it), and the gate's rejected candidates with their titles (``bench/junk_filter_cv.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._harness import fake_upstream, gateway
from bench.learning_locomo import replay_locomo

KEY = "Bearer sk-bench-quality"
ADMIN = "bench-admin-key"
MODEL = "gpt-4o-mini"
DEFAULT_DATASET = next(
    (p / "shared" / "bench" / "learning-dev.json" for p in Path(__file__).resolve().parents if (p / "shared").is_dir()),
    Path("../shared/bench/learning-dev.json"),
)
KINDS = ("fact", "preference", "relation", "episode", "rule", "correction")
_CJK = re.compile(r"[\u3400-\u9fff]")
_DIGIT_SEPARATORS = r"[\s\-./\\()\[\]]*"


# ---------------------------------------------------------------------------------------
# matching rules (the dataset's ``matching`` field)


def alternative_matches(alt: str, text: str) -> bool:
    alt = alt.strip()
    if not alt:
        return False
    if _CJK.search(alt):
        return alt.lower() in text.lower()
    flags = 0 if (len(alt) <= 3 and any(c.isupper() for c in alt)) else re.IGNORECASE
    pattern = r"(?<![A-Za-z0-9])" + re.escape(alt) + r"(?![A-Za-z0-9])"
    return re.search(pattern, text, flags) is not None


def fact_matches(fact: dict[str, Any], text: str) -> bool:
    keywords = fact.get("keywords") or []
    return bool(keywords) and all(any(alternative_matches(a, text) for a in k.split("|")) for k in keywords)


def forbid_matches(forbidden: str, text: str) -> bool:
    if forbidden.lower() in text.lower():
        return True
    digits = re.sub(r"\D", "", forbidden)
    if len(digits) >= 6:
        pattern = _DIGIT_SEPARATORS.join(digits)
        return re.search(r"(?<!\d)" + pattern + r"(?!\d)", text) is not None
    return False


def memory_text(m: dict[str, Any]) -> str:
    return f"{m['title']}\n{m['content']}"


def memory_all_text(m: dict[str, Any]) -> str:
    return f"{m['title']}\n{m['content']}\n{' '.join(m.get('tags') or [])}"


# ---------------------------------------------------------------------------------------
# replay


@dataclass
class Tally:
    expected: int = 0
    recalled: int = 0
    created: int = 0
    good: int = 0
    junk: int = 0
    optional_only: int = 0
    ntl: int = 0
    ntl_stored: int = 0

    def add(self, other: Tally) -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


@dataclass
class Report:
    by_group: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    missed: list[str] = field(default_factory=list)
    junk: list[str] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    forbid_total: int = 0
    sequences: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    sequence_notes: list[str] = field(default_factory=list)
    ntl_notes: list[str] = field(default_factory=list)
    requests: int = 0
    # kind -> [good, junk] over created memories (``kind`` of the memory, else its first tag)
    kinds: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    rejected: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    learning_calls: dict[str, int] | None = None  # from the stand-in model (``--model``)
    # every created memory with its label (``--dump``): good, junk or optional
    dump: list[dict[str, Any]] = field(default_factory=list)


async def drain(client: aiohttp.ClientSession, root: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    headers = {"authorization": f"Bearer {ADMIN}"}
    while time.monotonic() < deadline:
        async with client.get(root + "/api/admin/stats", headers=headers) as r:
            jobs = (await r.json()).get("learning", {}).get("jobs", {})
        if not jobs.get("pending") and not jobs.get("running"):
            return
        await asyncio.sleep(0.02)
    raise RuntimeError("learning queue not drained")


async def memories(client: aiohttp.ClientSession, root: str, user: str) -> list[dict[str, Any]]:
    headers = {"authorization": KEY, "x-memorelay-user": user}
    out: list[dict[str, Any]] = []
    offset = 0
    while True:
        params = {"include_disabled": "true", "limit": "200", "offset": str(offset)}
        async with client.get(root + "/api/memories", headers=headers, params=params) as r:
            r.raise_for_status()
            page = await r.json()
        out.extend(page["data"])
        offset += len(page["data"])
        if not page["data"] or offset >= page["total"]:
            return out


def system_prompt(data: dict[str, Any], conv: dict[str, Any]) -> str:
    return str(conv.get("system") or data["apps"][conv["app"]][conv["lang"]])


async def replay(client: aiohttp.ClientSession, via: str, data: dict[str, Any], report: Report) -> None:
    root = via.removesuffix("/v1")
    convs = data["conversations"]
    facts_of_user: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in convs:
        facts_of_user[c["user"]].extend(c.get("expect") or [])
        facts_of_user[c["user"]].extend(c.get("optional") or [])
    for s in data.get("sequences") or []:
        for key in ("old", "new"):
            if s.get(key):
                facts_of_user[s["user"]].append(s[key])
    snapshots: dict[str, list[dict[str, Any]]] = {}
    seen: dict[str, set[str]] = defaultdict(set)
    for conv in convs:
        user = conv["user"]
        history: list[dict[str, str]] = [{"role": "system", "content": system_prompt(data, conv)}]
        for turn in conv["turns"]:
            history.append({"role": turn["role"], "content": turn["content"]})
            if turn["role"] != "user":
                continue
            body = {"model": MODEL, "messages": history}
            headers = {"authorization": KEY, "x-memorelay-user": user}
            if conv.get("time"):
                headers["x-memorelay-time"] = str(conv["time"])
            async with client.post(via + "/chat/completions", json=body, headers=headers) as r:
                r.raise_for_status()
                await r.read()
            report.requests += 1
            await drain(client, root)
        mems = await memories(client, root, user)
        snapshots[conv["id"]] = mems
        created = [m for m in mems if m["id"] not in seen[user]]
        seen[user].update(m["id"] for m in mems)
        score_conversation(conv, mems, created, facts_of_user[user], report)
    final: dict[str, list[dict[str, Any]]] = {}
    for conv in convs:
        if conv["user"] not in final:
            final[conv["user"]] = await memories(client, root, conv["user"])
        for f in conv.get("forbid") or []:
            report.forbid_total += 1
            hits = [m for m in final[conv["user"]] if forbid_matches(f["text"], memory_all_text(m))]
            for row in report.dump:
                if (
                    row["type"] == "memory"
                    and row["user"] == conv["user"]
                    and forbid_matches(f["text"], f"{row['title']}\n{row['content']}")
                ):
                    row["forbidden"], row["label"] = True, "junk"
            if hits:
                report.forbidden.append(f"{conv['id']}: {f['text']!r} ({f.get('why', '')}) in {hits[0]['content']!r}")
    for s in data.get("sequences") or []:
        score_sequence(s, snapshots[s["from"]], snapshots[s["to"]], report)
    await count_rejected(client, root, report)


async def count_rejected(client: aiohttp.ClientSession, root: str, report: Report) -> None:
    """Rejected candidates by reason code, from the learning log."""
    headers = {"authorization": f"Bearer {ADMIN}"}
    offset = 0
    while True:
        params = {"limit": "200", "offset": str(offset)}
        async with client.get(root + "/api/admin/learning-log", headers=headers, params=params) as r:
            r.raise_for_status()
            page = await r.json()
        for entry in page["data"]:
            for rejected in entry.get("rejected") or []:
                report.rejected[str(rejected.get("code") or rejected.get("reason") or "?")[:40]] += 1
                if rejected.get("code") and rejected.get("title"):  # a gate's reason code, with the title
                    report.dump.append({"type": "rejected", "code": rejected["code"], "title": rejected["title"]})
        offset += len(page["data"])
        if not page["data"] or offset >= page["total"]:
            return


def kind_of(m: dict[str, Any]) -> str:
    if m.get("kind"):
        return str(m["kind"])
    tags = m.get("tags") or []
    return str(tags[0]) if tags and tags[0] in KINDS else "?"


def score_conversation(
    conv: dict[str, Any],
    mems: list[dict[str, Any]],
    created: list[dict[str, Any]],
    user_facts: list[dict[str, Any]],
    report: Report,
) -> None:
    tally = Tally()
    active = [m for m in mems if m["enabled"]]
    for fact in conv.get("expect") or []:
        tally.expected += 1
        if any(fact_matches(fact, memory_text(m)) for m in active):
            tally.recalled += 1
        else:
            report.missed.append(f"{conv['id']}: {fact['fact']}")
    optional = conv.get("optional") or []
    required = [f for f in user_facts if f not in optional]
    for m in created:
        tally.created += 1
        text = memory_text(m)
        if any(fact_matches(f, text) for f in required):
            tally.good += 1
            report.kinds[kind_of(m)][0] += 1
            label = "good"
        elif any(fact_matches(f, text) for f in optional + user_facts):
            tally.optional_only += 1
            label = "optional"
        else:
            tally.junk += 1
            report.kinds[kind_of(m)][1] += 1
            report.junk.append(f"{conv['id']}: {m['content']!r}")
            label = "junk"
        report.dump.append(
            {
                "type": "memory",
                "conversation": conv["id"],
                "user": conv["user"],
                "lang": conv["lang"],
                "id": m["id"],
                "kind": kind_of(m),
                "enabled": m["enabled"],
                "title": m["title"],
                "content": m["content"],
                "label": label,
                "forbidden": False,
            }
        )
    for fact in conv.get("expect") or []:
        # the active memories that recall it: recall without some memories is recomputed from these
        by = [m["id"] for m in active if fact_matches(fact, memory_text(m))]
        report.dump.append({"type": "fact", "conversation": conv["id"], "fact": fact["fact"], "by": by})
    if conv.get("nothing_to_learn"):
        tally.ntl += 1
        if created:
            tally.ntl_stored += 1
            report.ntl_notes.append(f"{conv['id']}: {[m['content'] for m in created]}")
    for group in ("all", f"lang:{conv['lang']}", f"app:{conv['app']}", f"kind:{conv.get('kind', '?')}"):
        report.by_group[group].add(tally)


def score_sequence(
    seq: dict[str, Any], before: list[dict[str, Any]], mems: list[dict[str, Any]], report: Report
) -> None:
    active = [m for m in mems if m["enabled"]]
    disabled = [m for m in mems if not m["enabled"]]
    old, new = seq.get("old"), seq.get("new")
    old_active = bool(old) and any(fact_matches(old, memory_text(m)) for m in active)
    new_ok = not new or any(fact_matches(new, memory_text(m)) for m in active)
    if seq["kind"] == "supersede":
        old_disabled = bool(old) and any(fact_matches(old, memory_text(m)) for m in disabled)
        ok = new_ok and not old_active and old_disabled
        why = f"new active {new_ok}, old active {old_active}, old disabled {old_disabled}"
    else:
        learned = bool(old) and any(m["enabled"] and fact_matches(old, memory_text(m)) for m in before)
        # a forget of a value that was changed first must leave the current value (``keep``) active
        keep = seq.get("keep")
        keep_ok = not keep or any(fact_matches(keep, memory_text(m)) for m in active)
        ok = learned and new_ok and not old_active and keep_ok
        why = f"old learned before {learned}, old still active {old_active}, new active {new_ok}, kept {keep_ok}"
    report.sequences[seq["kind"]].append(ok)
    report.sequences[f"{seq['kind']}:{seq['lang']}"].append(ok)
    if not ok:
        report.sequence_notes.append(f"{seq['id']} ({seq['kind']}): {why}")


# ---------------------------------------------------------------------------------------
# output


def ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "  -  "


def table(report: Report) -> str:
    lines = [
        "| group | expected | recall | created | precision | junk | nothing-to-learn storing |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    order = sorted(report.by_group, key=lambda g: (g != "all", g))
    for g in order:
        t = report.by_group[g]
        lines.append(
            f"| {g} | {t.expected} | {ratio(t.recalled, t.expected)} | {t.created} | "
            f"{ratio(t.good, t.good + t.junk)} | {t.junk} | {t.ntl_stored}/{t.ntl} |"
        )
    seq = ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(report.sequences.items()))
    lines.append("")
    lines.append(f"forbidden stored: {len(report.forbidden)}/{report.forbid_total}; sequences: {seq}")
    t = report.by_group["all"]
    lines.append(f"memories per user turn: {ratio(t.created, report.requests)}")
    per_kind = ", ".join(f"{k} {ratio(g, g + j)} ({g + j})" for k, (g, j) in sorted(report.kinds.items()))
    lines.append(f"precision per kind: {per_kind or '-'}")
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(report.rejected.items(), key=lambda kv: -kv[1]))
    lines.append(f"rejected candidates: {reasons or '-'}")
    return "\n".join(lines)


def summary_json(report: Report) -> dict[str, Any]:
    t = report.by_group["all"]
    return {
        "recall": t.recalled / t.expected if t.expected else None,
        "precision": t.good / (t.good + t.junk) if t.good + t.junk else None,
        "junk": t.junk,
        "forbidden": len(report.forbidden),
        "nothing_to_learn_storing": f"{t.ntl_stored}/{t.ntl}",
        "sequences": {k: f"{sum(v)}/{len(v)}" for k, v in report.sequences.items()},
        "memories_per_user_turn": t.created / report.requests if report.requests else None,
        "precision_per_kind": {k: g / (g + j) for k, (g, j) in report.kinds.items() if g + j},
        "rejected": dict(report.rejected),
        "groups": {g: vars(v) for g, v in report.by_group.items()},
        "missed": report.missed,
        "junk_memories": report.junk,
        "forbidden_stored": report.forbidden,
        "sequence_failures": report.sequence_notes,
    }


async def run_dataset(path: Path, model: str, workers: int) -> Report:
    data = json.loads(path.read_text())
    filters = [{"memory_injection": {}}, {"learning": {"model": model, "workers": workers}}]
    extra = {"memory": {"embedding": {"provider": "local"}}, "auth": {"admin_key": ADMIN}}
    report = Report()
    factory = "tests.fake_upstream:bench_app" if model == "heuristic" else "bench.stand_in_learner:app"
    with fake_upstream(factory) as upstream, gateway(upstream, filters, extra) as via:
        async with aiohttp.ClientSession() as client:
            await replay(client, via, data, report)
            if model != "heuristic":
                async with client.get(upstream.removesuffix("/v1") + "/stand-in/calls") as r:
                    report.learning_calls = await r.json()
    return report


async def run_locomo(path: Path, model: str, workers: int) -> dict[str, Any]:
    data = json.loads(path.read_text())
    filters = [{"memory_injection": {}}, {"learning": {"model": model, "workers": workers}}]
    extra = {"memory": {"embedding": {"provider": "local"}}, "auth": {"admin_key": ADMIN}}
    factory = "tests.fake_upstream:bench_app" if model == "heuristic" else "bench.stand_in_learner:app"
    with fake_upstream(factory) as upstream, gateway(upstream, filters, extra) as via:
        async with aiohttp.ClientSession() as client:
            result = await replay_locomo(client, via, data, key=KEY, model=MODEL, drain=drain, memories=memories)
            report = Report()
            await count_rejected(client, via.removesuffix("/v1"), report)
            result["rejected"] = dict(report.rejected)
            return result


def print_locomo(path: Path, result: dict[str, Any]) -> None:
    print(f"## {path.name} (LoCoMo, first speaker as the user)\n")
    print(
        f"user turns {result['user_turns']}; memories {result['memories']} ({result['active']} active); "
        f"per user turn {result['per_user_turn']}"
    )
    print(f"observation facts covered by a memory: {result['observations_covered']}/{result['observations']}")
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(result["rejected"].items(), key=lambda kv: -kv[1]))
    print(f"rejected candidates: {reasons or '-'}")
    print(f"\n{len(result['sample'])} random memories (read them by hand):")
    for line in result["sample"]:
        print(f"  - {line}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", type=Path, default=[])
    parser.add_argument("--data", type=Path, action="append", help="a labelled set (default: the dev set)")
    parser.add_argument("--locomo", type=Path, help="replay this LoCoMo file as casual chat instead")
    parser.add_argument("--model", default="heuristic", help="learning.model of the gateway")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true", help="list misses, junk and failures")
    parser.add_argument("--json", type=Path, help="write the numbers as JSON here")
    parser.add_argument(
        "--dump", type=Path, help="append every created memory with its label (good/junk/optional) as JSONL here"
    )
    args = parser.parse_args()
    results: dict[str, Any] = {}
    if args.locomo:
        results[args.locomo.name] = locomo = asyncio.run(run_locomo(args.locomo, args.model, args.workers))
        print_locomo(args.locomo, locomo)
    datasets = [*args.datasets, *(args.data or [])] or ([] if args.locomo else [DEFAULT_DATASET])
    for path in datasets:
        started = time.perf_counter()
        report = asyncio.run(run_dataset(path, args.model, args.workers))
        took = time.perf_counter() - started
        print(f"## {path.name} ({report.requests} chat requests, {took:.0f} s)\n")
        print(table(report))
        if report.learning_calls is not None:
            per = 100 / max(1, report.requests)
            c = report.learning_calls
            print(
                f"upstream learning calls per 100 chat requests: {c['learning_calls'] * per:.0f}; "
                f"learning tokens: {(c['prompt_tokens'] + c['completion_tokens']) * per:,.0f}\n"
            )
        if args.verbose:
            for title, rows in (
                ("missed", report.missed),
                ("junk", report.junk),
                ("forbidden stored", report.forbidden),
                ("nothing-to-learn storing", report.ntl_notes),
                ("sequence failures", report.sequence_notes),
            ):
                if rows:
                    print(f"\n{title}:")
                    for row in rows:
                        print(f"  - {row}")
        print()
        results[path.name] = summary_json(report)
        if args.dump:
            with args.dump.open("a", encoding="utf-8") as out:
                for row in report.dump:
                    out.write(json.dumps({"set": path.name, **row}, ensure_ascii=False) + "\n")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
