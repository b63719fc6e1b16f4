"""The LLM learner's local pre-check (``heuristic.worth_learning``) on the labelled sets.

For every user turn that is not a memory command: does the pre-check let it through to the
LLM learner? Reported: the share of turns it rules out (each saves the scoring and the
extraction call), its recall (expected facts whose keywords occur in a user turn that passes,
over expected facts whose keywords occur in any user turn) and the upstream calls per 100
turns before (score + extract on every turn) and after (none for ruled-out turns).

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/learning_precheck.py [DATASET ...]``
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.learning_quality import DEFAULT_DATASET, fact_matches
from gateway.learning.commands import parse_command
from gateway.learning.heuristic import worth_learning


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", type=Path, default=[DEFAULT_DATASET])
    args = parser.parse_args()
    print("| set | turns | ruled out | facts in turns | facts passed | recall | calls/100 turns before | after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for path in args.datasets:
        data = json.loads(path.read_text())
        turns = ruled_out = facts = passed = 0
        for conv in data["conversations"]:
            users = [t["content"] for t in conv["turns"] if t["role"] == "user" and parse_command(t["content"]) is None]
            verdicts = [worth_learning(u) for u in users]
            turns += len(users)
            ruled_out += verdicts.count(False)
            for fact in conv.get("expect") or []:
                holders = [ok for u, ok in zip(users, verdicts, strict=True) if fact_matches(fact, u)]
                if holders:
                    facts += 1
                    passed += any(holders)
        after = 2 * (turns - ruled_out)
        print(
            f"| {path.name} | {turns} | {ruled_out} ({ruled_out / turns:.0%}) | {facts} | {passed} | "
            f"{passed / max(1, facts):.3f} | 200 | {100 * after / turns:.0f} |"
        )


if __name__ == "__main__":
    main()
