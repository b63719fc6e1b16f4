"""Consolidation of one user's memory: merge near-duplicates, and compress
clusters of small related facts into one summary memory.

Only the user's enabled personal *auto* memories take part: pinned, manual and system memories,
memories with a profile slot (one value per slot: they supersede, not summarise) in clusters,
and memories a pending review names are never touched. Two steps, on the stored embeddings:

1. **Merge**: memories of one category at cosine >= ``merge_threshold`` to the strongest of them
   (score, then uses, then newest) that ``dedup.classify`` finds saying the same thing as it are
   merged into it. One that differs (a number, a name, a negation: "allergic to walnuts" next to
   "allergic to peanuts") is a distinct fact and is not merged: consolidation never supersedes
   (that is the learner's decision, with its review queue). The kept memory takes over the
   merged ones' use counts (summed), last use (latest), score (highest) and tags; they are
   disabled with the reason "merged into <kept id>".
2. **Compress**: of the rest, small facts (content at most ``small_chars``) of one category at
   cosine >= ``cluster_threshold`` to a seed (the strongest first; star clusters, no chaining)
   form a cluster of ``min_cluster``..``max_cluster``; one summary memory (``summaries``: the
   learning model once per cluster, else the offline rules) replaces them, the originals
   disabled with the reason "consolidated into <summary id>".

A user's pass is written in one transaction (each merge and cluster checked by
``MemoryService.merge_into`` / ``compress``): a crash leaves the user's memory as it was or fully
consolidated, and readers reload it once. Model calls and embeddings happen before it, so the
write lock is never held across an upstream call. Nothing is deleted. A user who turned learning
off is left as is (their memory is not rewritten: consolidation is learning too); their
reflection report is still written.
Without an embedder nothing is compared, so nothing is consolidated.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gateway.learning.steps.dedup import classify
from gateway.learning.upkeep.reflection import now_iso
from gateway.learning.upkeep.summaries import Summariser
from gateway.memory import Memory, MemoryService
from gateway.store import PartitionRows

MAX_TAGS = 20


@dataclass(frozen=True, slots=True)
class ConsolidationSettings:
    merge_threshold: float = 0.9
    cluster_threshold: float = 0.6
    min_cluster: int = 3
    max_cluster: int = 8
    small_chars: int = 300
    summary_chars: int = 800


@dataclass(slots=True)
class Merge:
    kept: Memory
    merged: list[Memory]


@dataclass(slots=True)
class Plan:
    merges: list[Merge] = field(default_factory=list)
    clusters: list[list[Memory]] = field(default_factory=list)  # the seed first


@dataclass(slots=True)
class UserResult:
    """What one user's pass did (or, with ``dry_run``, would do)."""

    tenant: str
    user_id: str
    merges: list[dict[str, Any]] = field(default_factory=list)  # {"into": id, "ids": [...]}
    summaries: list[dict[str, Any]] = field(default_factory=list)  # {"id": id, "title", "from": [...]}
    skipped: int = 0  # groups that changed while the pass ran (left for the next one)
    note: str = ""  # why nothing was done ("learning off", "no embeddings")

    def line(self) -> str:
        merged = sum(len(m["ids"]) for m in self.merges)
        compressed = sum(len(s["from"]) for s in self.summaries)
        text = (
            f"{self.tenant}/{self.user_id}: merged {merged} into {len(self.merges)}, "
            f"consolidated {compressed} into {len(self.summaries)} summaries"
        )
        if self.skipped:
            text += f", {self.skipped} groups changed meanwhile (skipped)"
        return text + (f" ({self.note})" if self.note else "")


def _strength_key(m: Memory) -> tuple[float, int, str]:
    return (m.score, m.access_count, m.updated_at)


def plan(rows: PartitionRows, settings: ConsolidationSettings, protected: set[str]) -> Plan:
    """The merges and clusters among one user's enabled personal memories (``rows``, with
    their vectors); ``protected`` ids (named by pending reviews) are left alone. Pure CPU."""
    out = Plan()
    if rows.vectors is None:
        return out
    vectors = rows.vectors
    norms = np.linalg.norm(vectors, axis=1)
    # grouped by category and kind: a merge or a summary never mixes kinds (an event is not a fact)
    by_category: dict[tuple[str, str], list[int]] = {}
    for i, m in enumerate(rows.memories):
        if (
            m.scope == "personal"
            and m.source == "auto"
            and m.enabled
            and not m.pinned
            and m.id not in protected
            and norms[i] > 0
        ):
            by_category.setdefault((m.category, m.kind), []).append(i)
    for indices in by_category.values():
        group = [rows.memories[i] for i in indices]
        unit = vectors[indices] / norms[indices][:, None]
        sims = unit @ unit.T
        order = sorted(range(len(group)), key=lambda k: _strength_key(group[k]), reverse=True)
        taken: set[int] = set()
        for i in order:
            if i in taken:
                continue
            # only what says the same thing as the kept memory: look-alikes that differ (peanuts
            # and walnuts) are distinct facts, left to the compress step, which keeps every one
            same = [
                j
                for j in order
                if j != i
                and j not in taken
                and sims[i, j] >= settings.merge_threshold
                and group[j].slot == group[i].slot
                and classify(group[j].content, group[i].content) == "duplicate"
            ]
            if not same:
                continue
            out.merges.append(Merge(group[i], [group[j] for j in same]))
            taken.update([i, *same])
        small = [
            k
            for k in order
            if k not in taken and group[k].slot is None and len(group[k].content) <= settings.small_chars
        ]
        for i in small:
            if i in taken:
                continue
            near = sorted(
                (j for j in small if j != i and j not in taken and sims[i, j] >= settings.cluster_threshold),
                key=lambda j: -float(sims[i, j]),
            )[: settings.max_cluster - 1]
            if len(near) + 1 < settings.min_cluster:
                continue
            out.clusters.append([group[i], *(group[j] for j in near)])
            taken.update([i, *near])
    return out


def _carry(kept: Memory, merged: list[Memory]) -> dict[str, Any]:
    """What the kept memory takes over from those merged into it (only what changes)."""
    everyone = [kept, *merged]
    tags = list(dict.fromkeys(t for m in everyone for t in m.tags))[:MAX_TAGS]
    last = max((m.last_access_at for m in everyone if m.last_access_at), default=None)
    carry: dict[str, Any] = {
        "access_count": sum(m.access_count for m in everyone),
        "score": max(m.score for m in everyone),
        "tags": tags,
        "last_access_at": last,
    }
    return {k: v for k, v in carry.items() if getattr(kept, k) != v}


def summary_memory(members: list[Memory], title: str, content: str, stamp: str) -> Memory:
    """The summary replacing ``members`` (the seed first): their category and kind, best score,
    summed uses and latest use, so decay and ranking treat it as the facts it holds."""
    seed = members[0]
    tags = list(dict.fromkeys(t for m in members for t in m.tags))[:MAX_TAGS]
    return Memory(
        id="mem_" + uuid.uuid4().hex,
        tenant=seed.tenant,
        user_id=seed.user_id,
        scope="personal",
        category=seed.category,
        subcategory=seed.subcategory,
        kind=seed.kind,
        title=title,
        content=content,
        tags=tags,
        source="auto",
        source_conversation_id=None,
        score=max(m.score for m in members),
        enabled=True,
        disabled_reason=None,
        created_at=stamp,
        updated_at=stamp,
        access_count=sum(m.access_count for m in members),
        last_access_at=max((m.last_access_at for m in members if m.last_access_at), default=None),
    )


async def consolidate_user(
    memory: MemoryService,
    tenant: str,
    user_id: str,
    settings: ConsolidationSettings,
    summariser: Summariser,
    *,
    actor: str,
    dry_run: bool = False,
) -> UserResult:
    """One user's pass: plan on the stored embeddings, summarise the clusters, then write every
    merge and cluster in one transaction (nothing with ``dry_run``)."""
    result = UserResult(tenant, user_id)
    if not (await memory.get_settings(tenant, user_id)).get("learning_enabled", True):
        result.note = "learning off: left as is"
        return result
    rows = await memory.personal_rows(tenant, user_id)
    if not rows.memories:
        result.note = "no memories"
        return result
    if rows.vectors is None:
        result.note = "no embeddings: nothing compared"
        return result
    pending, _ = await memory.reviews(tenant, user_id, "pending", limit=10_000, offset=0)
    protected = {i for review, _, _ in pending for i in (review.old_id, review.new_id)}
    found = await memory.background(plan, rows, settings, protected)
    summaries = []
    for cluster in found.clusters:  # model calls and embeddings first, outside the write transaction
        summary = await summariser.summarise(cluster, settings.summary_chars)
        if len(summary.members) < settings.min_cluster:
            continue
        new = summary_memory(summary.members, summary.title, summary.content, now_iso())
        # one summary at a time: a chat's query never waits behind a batch of them on the CPU thread
        vectors = None if dry_run else await memory.embed_memories([(new.title, new.content)])
        summaries.append((new, None if vectors is None else vectors[0], summary.members))
    if dry_run:
        result.merges = [{"into": m.kept.id, "ids": [x.id for x in m.merged]} for m in found.merges]
        result.summaries = [{"id": n.id, "title": n.title, "from": [x.id for x in ms]} for n, _, ms in summaries]
        return result
    # one commit for the user's whole pass: readers (a replica's working set) reload the user's
    # memories once, not once per group; a group changed since the read is skipped
    async with memory.store.transaction():
        for merge in found.merges:
            if await memory.merge_into(merge.kept, merge.merged, _carry(merge.kept, merge.merged), actor=actor):
                result.merges.append({"into": merge.kept.id, "ids": [m.id for m in merge.merged]})
            else:
                result.skipped += 1
        for new, vector, members in summaries:
            if await memory.compress(new, vector, members, actor=actor):
                result.summaries.append({"id": new.id, "title": new.title, "from": [m.id for m in members]})
            else:
                result.skipped += 1
    return result
