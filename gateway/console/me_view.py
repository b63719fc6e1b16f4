"""What ``/me/`` and the console's user page show beyond one page of memories: the memories
replaced or turned off (each with why, the memory named in the reason, and when), and the
memories a reflection report counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.console.words import Why, why_off
from gateway.memory import Memory, MemoryService

MAX_OFF = 500  # the newest replaced or turned-off memories listed (the rest stay in the export)
SHOWN_PER_KIND = 10  # memories a reflection lists per line before "and N more"


@dataclass(frozen=True, slots=True)
class Off:
    """A memory not in use, why, and the memory its reason names (None once deleted)."""

    memory: Memory
    why: Why
    other: Memory | None


async def own(memory: MemoryService, tenant: str, user_id: str, ids: list[str]) -> dict[str, Memory]:
    """The user's own memories among ``ids`` (one read), for titles and links."""
    found = await memory.store.fetch(list(dict.fromkeys(ids)))
    return {k: m for k, m in found.items() if m.tenant == tenant and (m.scope != "personal" or m.user_id == user_id)}


async def turned_off(memory: MemoryService, tenant: str, user_id: str) -> list[Off]:
    """The user's personal memories not in use, newest change first, except those waiting
    for a review (the page shows those with the review)."""
    items, _ = await memory.list(tenant, user_id, include_disabled=True, personal_only=True, limit=MAX_OFF)
    off = [(m, why_off(m.disabled_reason)) for m in items if not m.enabled]
    off = [(m, w) for m, w in off if w.code != "pending"]
    off.sort(key=lambda pair: pair[0].updated_at, reverse=True)
    others = await own(memory, tenant, user_id, [w.other for _, w in off if w.other])
    return [Off(m, w, others.get(w.other or "")) for m, w in off]


async def reflection_lists(
    memory: MemoryService, tenant: str, user_id: str, report: dict[str, Any]
) -> dict[str, tuple[list[Memory], int]]:
    """kind -> (the first memories it counts that still exist, how many more it counts)."""
    ids: dict[str, list[str]] = {k: list(v) for k, v in report.get("ids", {}).items()}
    found = await own(memory, tenant, user_id, [i for v in ids.values() for i in v[:SHOWN_PER_KIND]])
    out: dict[str, tuple[list[Memory], int]] = {}
    for kind, kind_ids in ids.items():
        shown = [found[i] for i in kind_ids[:SHOWN_PER_KIND] if i in found]
        out[kind] = (shown, int(report.get("counts", {}).get(kind, len(kind_ids))) - len(shown))
    return out
