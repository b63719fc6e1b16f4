"""An experiment, not a product part: a learned precision filter, logistic regression on the
local encoder's embedding of a memory (plus its kind, length and script) predicting P(junk),
trained on labelled learner output.

Training data comes from ``bench/learning_quality.py --dump FILE``: every memory the learner
created on a labelled set, labelled good (matches an expected fact), junk (matches nothing, or
holds a forbidden string) or optional (left out), and for every expected fact the memories that
recalled it. Use spent sets only (``bench/data/``), never the development sets in ``../shared``.

* ``--cv``: leave-one-set-out cross-validation. A fold is a set family (``heldout3-app.json``
  and ``heldout3-casual.json`` together: one author wrote both); the model is trained on the
  other families and the held-out files are scored as the filter would: precision of the created
  memories and recall of the expected facts (a fact stays recalled while one memory that matched
  it is kept) before and after dropping those at or above each threshold. Offline: a dropped
  memory's effect on later turns (what it would have replaced) is not replayed.
* ``--gate-junk``: the gate's rejected candidates of clear junk codes (``GATE_JUNK``, from the
  learning log: their titles) are junk training rows too; ``--balanced`` weighs the classes
  equally; ``--pca K`` fits on the vector's first K principal directions.

The threshold rule is chosen on the CV, never on one set: the lowest threshold that keeps at
least 97% of the good memories on average over the held-out files. The result (bench/README.md,
"A learned junk filter"): no-go, nothing of it ships.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/junk_filter_cv.py DUMP.jsonl ...``
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KINDS = ("fact", "preference", "relation", "episode", "rule", "correction")
_CJK = re.compile(r"[\u3400-\u9fff]")
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)
KEEP_GOOD = 0.97  # the threshold rule: the lowest threshold keeping this share of good memories on average
# the gate's reason codes whose rejected candidates are junk training rows with ``--gate-junk``
GATE_JUNK = frozenset(
    ("pleasantry", "small-talk", "question", "momentary", "about-assistant", "intention", "fragment", "hypothetical")
)
ALPHA = 0.01  # L2 penalty on standardised features (mean log loss + alpha/2 |w|^2)


def filter_text(title: str, content: str) -> str:
    """The text scored: what the store step's duplicate check embeds for an item."""
    return f"{title}\n{content}"


def extra_features(kind: str, content: str) -> list[float]:
    """The features besides the vector: kind (one-hot), log length, whether it is Chinese."""
    return [*(1.0 if kind == k else 0.0 for k in KINDS), math.log1p(len(content)), float(bool(_CJK.search(content)))]


def family(set_name: str) -> str:
    """``heldout3-app.json`` -> ``heldout3``: the files one author wrote together."""
    return re.sub(r"-(app|casual|remember|injections)$", "", set_name.removesuffix(".json"))


def load(paths: list[Path]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    memories: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    rejected: list[dict[str, Any]] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["type"] == "memory":
                memories.append(row)
            elif row["type"] == "fact":
                facts.append(row)
            else:
                rejected.append(row)
    return memories, facts, rejected


def embed(texts: list[str], cache: Path) -> np.ndarray:
    """The local encoder's vectors (L2-normalised), cached by text in ``cache`` (npz)."""
    known: dict[str, np.ndarray] = {}
    if cache.exists():
        with np.load(cache, allow_pickle=False) as f:
            known = dict(zip([str(t) for t in f["texts"]], f["vectors"], strict=True))
    todo = [t for t in dict.fromkeys(texts) if t not in known]
    if todo:
        from gateway.memory.model_cache import load_use

        model = load_use(1, None)
        vectors = np.asarray(model.encode(todo), dtype=np.float32).reshape(len(todo), -1)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        known.update(zip(todo, vectors, strict=True))
        np.savez(cache, texts=np.array(list(known)), vectors=np.stack(list(known.values())))
    return np.stack([known[t] for t in texts])


def features(rows: list[dict[str, Any]], cache: Path) -> np.ndarray:
    vectors = embed([filter_text(r["title"], r["content"]) for r in rows], cache)
    extra = np.array([extra_features(r["kind"], r["content"]) for r in rows], dtype=np.float32)
    return np.hstack([vectors, extra])


def fit(
    x: np.ndarray, y: np.ndarray, alpha: float = ALPHA, pca: int = 0, weight: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method on standardised features (the vector first
    projected on its ``pca`` principal directions of the training rows, when given); the
    weights returned apply to the raw features (projection and standardisation folded in)."""
    dim = x.shape[1] - len(extra_features("fact", ""))
    centre = np.zeros(dim)
    basis = np.eye(dim)
    if pca:
        centre = x[:, :dim].mean(axis=0)
        basis = np.linalg.svd(x[:, :dim] - centre, full_matrices=False)[2][:pca].T
    xp = np.hstack([(x[:, :dim] - centre) @ basis, x[:, dim:]])
    mean, std = xp.mean(axis=0), xp.std(axis=0) + 1e-6
    z = np.hstack([(xp - mean) / std, np.ones((len(xp), 1))])
    w = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], alpha)
    reg[-1] = 0.0  # no penalty on the bias
    sw = np.ones(len(y)) if weight is None else weight
    n = sw.sum()
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ w)))
        grad = z.T @ (sw * (p - y)) / n + reg * w
        hess = (z * (sw * p * (1 - p))[:, None]).T @ z / n + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    on_xp = w[:-1] / std
    bias = float(w[-1] - (on_xp * mean).sum())
    on_vector = basis @ on_xp[: basis.shape[1]]
    bias -= float(centre @ on_vector)
    return np.concatenate([on_vector, on_xp[basis.shape[1] :]]), bias


def p_junk(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-(x @ weights + bias))))


def score_file(
    mems: list[dict[str, Any]], facts: list[dict[str, Any]], p: np.ndarray, threshold: float
) -> dict[str, float]:
    """Precision of the created memories and recall of the expected facts with the memories at
    or above ``threshold`` dropped (1.01: none dropped)."""
    dropped = {m["id"] for m, pj in zip(mems, p, strict=True) if pj >= threshold}
    kept = [m for m in mems if m["id"] not in dropped]
    good = sum(m["label"] == "good" for m in kept)
    junk = sum(m["label"] == "junk" for m in kept)
    all_good = sum(m["label"] == "good" for m in mems)
    recalled = sum(any(i not in dropped for i in f["by"]) for f in facts)
    return {
        "precision": good / (good + junk) if good + junk else 0.0,
        "recall": recalled / len(facts) if facts else 0.0,
        "good_kept": good / all_good if all_good else 1.0,
        "junk": junk,
        "good": good,
        "forbidden": sum(m["forbidden"] for m in kept),
    }


def auc(p: np.ndarray, labels: list[str]) -> float:
    """The chance that a junk memory scores above a good one (ties half)."""
    junk = [s for s, lab in zip(p, labels, strict=True) if lab == "junk"]
    good = [s for s, lab in zip(p, labels, strict=True) if lab == "good"]
    if not junk or not good:
        return float("nan")
    wins = sum((j > g) + 0.5 * (j == g) for j in junk for g in good)
    return float(wins / (len(junk) * len(good)))


def train_on(
    x: np.ndarray, rows: list[dict[str, Any]], keep: list[int], opts: argparse.Namespace
) -> tuple[np.ndarray, float]:
    """Fit on ``rows[keep]`` (good and junk ones): balanced classes with ``--balanced``."""
    keep = [i for i in keep if rows[i]["label"] in ("good", "junk")]
    y = np.array([rows[i]["label"] == "junk" for i in keep], dtype=float)
    weight = None
    if opts.balanced:
        weight = np.where(y == 1, 0.5 / max(y.mean(), 1e-6), 0.5 / max(1 - y.mean(), 1e-6))
    return fit(x[keep], y, opts.alpha, opts.pca, weight)


def with_gate_junk(memories: list[dict[str, Any]], rejected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The memories, then the gate's rejected candidates of ``GATE_JUNK`` codes as junk rows
    (training only: a held-out file is scored on its memories)."""
    extra = [
        {"type": "gate", "set": r["set"], "id": f"gate-{k}", "kind": "fact", "title": r["title"]}
        | {"content": r["title"], "label": "junk", "forbidden": False}
        for k, r in enumerate(rejected)
        if r["code"] in GATE_JUNK
    ]
    return memories + extra


def cross_validate(
    memories: list[dict[str, Any]], facts: list[dict[str, Any]], opts: argparse.Namespace, rows: list[dict[str, Any]]
) -> None:
    """``rows``: the training rows (the memories, with ``--gate-junk`` the gate's too)."""
    x = features(rows, opts.cache)
    fams = sorted({family(m["set"]) for m in memories})
    by_file: dict[str, dict[float, dict[str, float]]] = defaultdict(dict)
    aucs: dict[str, float] = {}
    for fam in fams:
        weights, bias = train_on(x, rows, [i for i, m in enumerate(rows) if family(m["set"]) != fam], opts)
        for name in sorted({m["set"] for m in memories if family(m["set"]) == fam}):
            idx = [i for i, m in enumerate(memories) if m["set"] == name]
            p = p_junk(x[idx], weights, bias)
            mems = [memories[i] for i in idx]
            aucs[name] = auc(p, [m["label"] for m in mems])
            set_facts = [f for f in facts if f["set"] == name]
            for t in (1.01, *THRESHOLDS):
                by_file[name][t] = score_file(mems, set_facts, p, t)
    setup = f"alpha {opts.alpha}, pca {opts.pca or '-'}, balanced {opts.balanced}, gate junk {opts.gate_junk}"
    print(f"leave-one-set-out CV ({setup}); per file: precision / recall (good kept) [forbidden kept]\n")
    head = " | ".join(["none", *(f"t={t}" for t in THRESHOLDS)])
    print(f"| file | {head} |")
    print("|---|" + "---|" * (len(THRESHOLDS) + 1))
    for name, row in by_file.items():
        cells = [
            f"{r['precision']:.3f} / {r['recall']:.3f} ({r['good_kept']:.2f}) [{r['forbidden']}]" for r in row.values()
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    print("AUC (junk over good) per held-out file: " + ", ".join(f"{k} {v:.3f}" for k, v in aucs.items()))
    print(f"mean AUC {np.nanmean(list(aucs.values())):.3f}")
    for t in THRESHOLDS:
        dp = np.mean([row[t]["precision"] - row[1.01]["precision"] for row in by_file.values()])
        dr = np.mean([row[t]["recall"] - row[1.01]["recall"] for row in by_file.values()])
        kept = np.mean([row[t]["good_kept"] for row in by_file.values()])
        worst = min(row[t]["recall"] - row[1.01]["recall"] for row in by_file.values())
        print(
            f"t={t}: mean precision {dp:+.3f}, mean recall {dr:+.3f} (worst file {worst:+.3f}), "
            f"mean good kept {kept:.3f}"
        )
    ok = [t for t in THRESHOLDS if np.mean([row[t]["good_kept"] for row in by_file.values()]) >= KEEP_GOOD]
    if not ok:
        print(f"no threshold keeps {KEEP_GOOD:.0%} of the good memories on average")
        return
    chosen = ok[0]
    print(f"\nthreshold rule (keeps >= {KEEP_GOOD:.0%} of good memories on average): t={chosen}\n")
    print("| held-out file | precision before -> after | recall before -> after | junk dropped | good dropped |")
    print("|---|---:|---:|---:|---:|")
    for name, row in by_file.items():
        a, b = row[1.01], row[chosen]
        print(
            f"| {name} | {a['precision']:.3f} -> {b['precision']:.3f} | {a['recall']:.3f} -> {b['recall']:.3f} "
            f"| {a['junk'] - b['junk']:.0f}/{a['junk']:.0f} | {a['good'] - b['good']:.0f}/{a['good']:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dumps", nargs="+", type=Path)
    parser.add_argument("--alpha", type=float, default=ALPHA)
    parser.add_argument("--pca", type=int, default=0, help="project the vector on this many principal directions")
    parser.add_argument("--balanced", action="store_true", help="weigh junk and good rows equally")
    parser.add_argument("--gate-junk", action="store_true", help="train on the gate's rejected candidates too")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/junk-filter-embeddings.npz"))
    args = parser.parse_args()
    memories, facts, rejected = load(args.dumps)
    if any(m["set"].startswith(("learning-dev", "locomo-dev")) for m in memories):
        raise SystemExit("the development sets are never training data")
    print(f"{len(memories)} memories: " + ", ".join(f"{k} {v}" for k, v in _labels(memories).items()))
    rows = with_gate_junk(memories, rejected) if args.gate_junk else memories
    cross_validate(memories, facts, args, rows)


def _labels(memories: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for m in memories:
        out[m["label"]] += 1
    return dict(out)


if __name__ == "__main__":
    main()
