"""The LLM learner's cost on the labelled sets: its local pre-check, its upstream calls and tokens.

For every user turn that is not a memory command: does the pre-check (``heuristic.worth_learning``)
let it through to the LLM learner? Reported: the share of turns it rules out, its recall
(expected facts whose keywords occur in a user turn that passes, over expected facts whose
keywords occur in any user turn), and upstream learning calls and tokens per 100 turns for:

* ``no pre-check, two calls``: score then extract, every turn (the learner before the pre-check);
* ``pre-check, two calls``: score for a turn that passes, extract when it scores >= 0.6 (main
  before the combined call);
* ``pre-check, one call``: one combined call for a turn that passes (``gateway.learning.llm.combined``),
  showing the user's latest memories (up to 8 titles) for the judge.

The model is a stand-in: its answers are the built-in learner's score dimensions and items
written as the model would (JSON), so the token counts are those of the real prompts (the
default prompts, the job's transcript: the last 6 messages and the answer) and of answers of a
realistic size, counted with tiktoken for gpt-4o-mini. PII scrubbing is not applied (it changes
a few tokens). The memories shown to the judge are the titles of the items learned from the
user's earlier turns, newest first, standing in for the nearest ones.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/learning_precheck.py [DATASET ...]``
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.learning_quality import DEFAULT_DATASET, fact_matches, system_prompt
from gateway.learning.llm.combined import MAX_KNOWN, combined_prompt, known_memories
from gateway.learning.llm.prompts import render
from gateway.learning.offline.heuristic import extract_items, score_turn, worth_learning
from gateway.learning.steps.commands import parse_command
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.scoring import ScoreResult
from gateway.memory.budget import count_tokens
from gateway.store.prompts import default_prompt

MODEL = "gpt-4o-mini"
THRESHOLD = 0.6
CONTEXT_MESSAGES = 6


@dataclass
class Cost:
    calls: int = 0
    tokens: int = 0

    def ask(self, prompt: str, answer: str) -> None:
        self.calls += 1
        self.tokens += count_tokens(prompt, MODEL) + count_tokens(answer, MODEL)


def score_answer(score: ScoreResult) -> str:
    return json.dumps({"score": score.score, "dimensions": score.dimensions, "reason": score.reason or "stand-in"})


def item_json(item: KnowledgeItem) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "title": item.title,
        "content": item.content,
        "category": item.category,
        "subcategory": item.subcategory,
        "tags": item.tags,
    }
    if item.slot:
        entry["slot"] = item.slot
    return entry


def transcript(history: list[dict[str, str]], answer: str) -> str:
    lines = [f"{m['role'].capitalize()}: {m['content']}" for m in history[-CONTEXT_MESSAGES:]]
    lines.append(f"Assistant: {answer}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", type=Path, default=[DEFAULT_DATASET])
    args = parser.parse_args()
    scoring, extraction = default_prompt("scoring"), default_prompt("extraction")
    rows = []
    for path in args.datasets:
        data = json.loads(path.read_text())
        turns = ruled_out = facts = passed = 0
        none, two, one = Cost(), Cost(), Cost()
        learned: dict[str, list[str]] = defaultdict(list)  # titles per user, oldest first
        for conv in data["conversations"]:
            history: list[dict[str, str]] = [{"role": "system", "content": system_prompt(data, conv)}]
            users: list[str] = []
            verdicts: list[bool] = []
            for k, turn in enumerate(conv["turns"]):
                history.append({"role": turn["role"], "content": turn["content"]})
                if turn["role"] != "user" or parse_command(turn["content"]) is not None:
                    continue
                nxt = conv["turns"][k + 1] if k + 1 < len(conv["turns"]) else None
                answer = nxt["content"] if nxt and nxt["role"] == "assistant" else turn["content"]
                text = transcript(history, answer)
                score = score_turn(turn["content"], answer)
                items = extract_items(turn["content"], answer) if score.score >= THRESHOLD else []
                items_answer = json.dumps([item_json(i) for i in items], ensure_ascii=False)
                none.ask(render(scoring, text), score_answer(score))
                none.ask(render(extraction, text), items_answer)
                ok = worth_learning(turn["content"])
                users.append(turn["content"])
                verdicts.append(ok)
                if not ok:
                    continue
                two.ask(render(scoring, text), score_answer(score))
                if score.score >= THRESHOLD:
                    two.ask(render(extraction, text), items_answer)
                known = known_memories([(t, t) for t in reversed(learned[conv["user"]][-MAX_KNOWN:])])
                combined = json.loads(score_answer(score)) | {"items": [item_json(i) for i in items]}
                one.ask(combined_prompt(scoring, extraction, text, known), json.dumps(combined, ensure_ascii=False))
                learned[conv["user"]].extend(i.title for i in items)
            turns += len(users)
            ruled_out += verdicts.count(False)
            for fact in conv.get("expect") or []:
                holders = [ok for u, ok in zip(users, verdicts, strict=True) if fact_matches(fact, u)]
                if holders:
                    facts += 1
                    passed += any(holders)
        rows.append((path.name, turns, ruled_out, facts, passed, none, two, one))
    print("| set | turns | ruled out | recall on expected facts |")
    print("|---|---:|---:|---:|")
    for name, turns, ruled_out, facts, passed, *_ in rows:
        print(
            f"| {name} | {turns} | {ruled_out} ({ruled_out / turns:.0%}) | "
            f"{passed} / {facts} = {passed / max(1, facts):.3f} |"
        )
    print()
    print("| set | per 100 turns | no pre-check, two calls | pre-check, two calls | pre-check, one call |")
    print("|---|---|---:|---:|---:|")
    for name, turns, _, _, _, none, two, one in rows:
        print(
            f"| {name} | upstream calls | {100 * none.calls / turns:.0f} | {100 * two.calls / turns:.0f} | "
            f"{100 * one.calls / turns:.0f} |"
        )
        print(
            f"| {name} | learning tokens | {100 * none.tokens / turns:,.0f} | {100 * two.tokens / turns:,.0f} | "
            f"{100 * one.tokens / turns:,.0f} |"
        )


if __name__ == "__main__":
    main()
