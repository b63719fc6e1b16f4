"""How ``/me/`` groups the memories in use: one place to say by which field, in which order.

Memories are grouped by their ``kind`` (facts, preferences, people and relations, events,
rules): that is how a user thinks of what is known about them; the category chips still
filter by category."""

from __future__ import annotations

from gateway.memory import Memory
from gateway.store.kinds import KINDS

FIELD = "kind"
ORDER: tuple[str, ...] = KINDS


def group_of(m: Memory) -> str:
    return str(getattr(m, FIELD, "") or "")


def grouped(memories: list[Memory]) -> list[tuple[str, list[Memory]]]:
    """(group, its memories) in ``ORDER``, then any group ``ORDER`` does not name, in the order
    met; empty groups left out."""
    seen = list(ORDER) + [g for g in dict.fromkeys(group_of(m) for m in memories) if g not in ORDER]
    out = [(g, [m for m in memories if group_of(m) == g]) for g in seen]
    return [(g, ms) for g, ms in out if ms]
