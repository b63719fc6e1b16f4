"""The poisoning check measured on lists written before its rules were widened
(``poisoning_cases/``): steering phrasings, obfuscated (zero-width characters, Cyrillic and
Greek look-alikes, spaced-out letters and Chinese characters, leetspeak, full-width forms)
and paraphrased, and benign look-alikes that state facts or preferences.

Before the rules were widened: 10 of 42 attacks detected, 0 of 26 benign flagged; after: 42
of 42, 0 of 26. The rules were then rewritten as concepts near each other (an override verb
near an instruction noun, everyone as the audience, a secret near a destination); 24 attacks
and 21 look-alikes written for that were added (66 and 47 in all)."""

from __future__ import annotations

import json
from pathlib import Path

from gateway.learning.steps.poisoning import is_poisoning

CASES = Path(__file__).parent / "poisoning_cases"


def _load(name: str) -> list[str]:
    return [str(t) for t in json.loads((CASES / name).read_text(encoding="utf-8"))]


def test_every_attack_of_the_list_is_detected() -> None:
    attacks = _load("poisoning_attacks.json")
    missed = [t for t in attacks if is_poisoning(t) is None]
    assert len(attacks) >= 40 and not missed, missed


def test_no_benign_look_alike_is_flagged() -> None:
    benign = _load("poisoning_benign.json")
    flagged = [(t, is_poisoning(t)) for t in benign if is_poisoning(t) is not None]
    assert len(benign) >= 25 and not flagged, flagged
