"""Reflection reports: what a user's memory did over a period, read from the
store, so a report says the same whoever consolidated (the periodic job, the CLI) and whatever
the learning workers did meanwhile.

Per user, over ``period_start``..``period_end``:

* ``learned``: auto memories created in the period (summaries count as ``summaries``);
* ``merged``: memories disabled in the period as "merged into <id>" (``merges``: into which);
* ``consolidated``: disabled as "consolidated into <id>", ``summaries`` the memories made of them;
* ``superseded``: disabled in the period as superseded by a newer statement;
* ``decayed``: auto memories now weaker than ``learning.decay_floor`` (retention removes them);
* ``most_used``: the memories most injected into the user's responses in the period (citation log);
* ``stale``: enabled memories not used (nor created) for ``stale_days``.

A report holds counts and memory ids, never memory text. A tenant's report (``user_id`` "") sums
its users' reports of one round. Ids lists keep at most ``MAX_IDS`` each.
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from gateway.memory import CONSOLIDATED_REASON, MERGED_REASON, Memory, MemoryService
from gateway.store import Reflection

KINDS = ("learned", "merged", "consolidated", "summaries", "superseded", "decayed", "most_used", "stale")
MAX_IDS = 100
TOP_USED = 10
MERGED = MERGED_REASON
CONSOLIDATED = CONSOLIDATED_REASON
SUPERSEDED = "superseded by "


_last_ns = 0


def new_id() -> str:
    """``refl_`` + the time in ns (hex, growing in this process) + random hex: reports of one
    second list in the order they were written, on both backends and after a restore (the
    lists sort by creation time, then id)."""
    global _last_ns
    _last_ns = max(_last_ns + 1, time.time_ns())
    return f"refl_{_last_ns:016x}{uuid.uuid4().hex[:8]}"


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def now_iso() -> str:
    return iso(datetime.now(UTC))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")  # as the stores write times


def strength(m: Memory, now: datetime, half_life_days: float) -> float:
    """``store.Decay``'s strength, as the stores compute it in SQL."""
    last = parse_time(m.last_access_at or m.updated_at)
    days = max(0.0, (now - last).total_seconds() / 86400.0)
    return float(m.score * 0.5 ** min(1000.0, days / half_life_days))


def _in(m: Memory, start: str, end: str) -> bool:
    return start < m.updated_at <= end


def _report(ids: dict[str, list[str]], merges: list[dict[str, Any]], most_used: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "counts": {k: len(ids[k]) for k in KINDS},
        "ids": {k: ids[k][:MAX_IDS] for k in KINDS},
        "merges": merges[:MAX_IDS],
        "most_used": most_used,
    }


async def user_report(
    memory: MemoryService, tenant: str, user_id: str, start: str | None, end: str, *, stale_days: float
) -> Reflection:
    """``start`` None: the user's first report, over everything since their first memory."""
    now = parse_time(end)
    mine = await memory.store.personal(tenant, user_id)
    if start is None:
        first = min((m.created_at for m in mine), default=end)
        start = min(end, iso(parse_time(first) - timedelta(seconds=1)))
    ids: dict[str, list[str]] = {k: [] for k in KINDS}
    into: dict[str, list[str]] = {}
    for m in mine:
        reason = m.disabled_reason or ""
        if not m.enabled and _in(m, start, end):
            if reason.startswith(MERGED):
                ids["merged"].append(m.id)
                into.setdefault(reason[len(MERGED) :], []).append(m.id)
            elif reason.startswith(CONSOLIDATED):
                ids["consolidated"].append(m.id)
                target = reason[len(CONSOLIDATED) :]
                if target not in ids["summaries"]:
                    ids["summaries"].append(target)
            elif reason.startswith(SUPERSEDED):
                ids["superseded"].append(m.id)
    made = set(ids["summaries"])
    cutoff = iso(now - timedelta(days=stale_days))
    for m in mine:
        if m.source == "auto" and start < m.created_at <= end and m.id not in made:
            ids["learned"].append(m.id)
        half_life = memory.episode_half_life_days if m.kind == "episode" else memory.decay_half_life_days
        if m.source == "auto" and not m.pinned and strength(m, now, half_life) < memory.decay_floor:
            ids["decayed"].append(m.id)
        if m.enabled and not m.pinned and (m.last_access_at or m.created_at) < cutoff:
            ids["stale"].append(m.id)
    await memory.flush_uses()
    used = await memory.store.most_used(tenant, user_id, start, TOP_USED)
    ids["most_used"] = [mid for mid, _ in used]
    merges = [{"into": kept, "ids": merged} for kept, merged in into.items()]
    report = _report(ids, merges, [{"id": mid, "uses": n} for mid, n in used])
    return Reflection(new_id(), tenant, user_id, start, end, end, report)


def tenant_report(tenant: str, reports: list[Reflection], start: str, end: str) -> Reflection:
    """The sum of one round's user reports of ``tenant``."""
    ids: dict[str, list[str]] = {k: [] for k in KINDS}
    merges: list[dict[str, Any]] = []
    used: list[dict[str, Any]] = []
    counts = dict.fromkeys(KINDS, 0)
    for r in reports:
        for k in KINDS:
            counts[k] += int(r.report["counts"].get(k, 0))
            ids[k].extend(r.report["ids"].get(k, []))
        merges.extend(r.report.get("merges", []))
        used.extend(r.report.get("most_used", []))
    used.sort(key=lambda u: (-int(u["uses"]), str(u["id"])))
    report = _report(ids, merges, used[:TOP_USED])
    report["counts"] = counts  # the full counts, not those of the kept ids
    report["users"] = len(reports)
    return Reflection(new_id(), tenant, "", start, end, end, report)


def reflection_json(r: Reflection) -> dict[str, Any]:
    """A report as the APIs answer it."""
    return {
        "id": r.id,
        "tenant": r.tenant,
        "user_id": r.user_id,
        "kind": "user" if r.user_id else "tenant",
        "period_start": r.period_start,
        "period_end": r.period_end,
        "created_at": r.created_at,
        "users": int(r.report.get("users", 1 if r.user_id else 0)),
        "counts": dict(r.report.get("counts", {})),
        "ids": dict(r.report.get("ids", {})),
        "merges": list(r.report.get("merges", [])),
        "most_used": list(r.report.get("most_used", [])),
    }
