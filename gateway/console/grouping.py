"""How ``/me/`` groups the memories in use: one place to say by which field, in which order.

Memories are grouped by ``category`` today. To group by ``kind`` (fact, preference, relation,
episode, rule), set ``FIELD = "kind"`` and ``ORDER`` to the kinds; the translations already
name them ("fact" -> "Facts")."""

from __future__ import annotations

from gateway.memory import CATEGORIES, Memory

FIELD = "category"
ORDER: tuple[str, ...] = CATEGORIES


def group_of(m: Memory) -> str:
    return str(getattr(m, FIELD, "") or "")


def grouped(memories: list[Memory]) -> list[tuple[str, list[Memory]]]:
    """(group, its memories) in ``ORDER``, then any group ``ORDER`` does not name, in the order
    met; empty groups left out."""
    seen = list(ORDER) + [g for g in dict.fromkeys(group_of(m) for m in memories) if g not in ORDER]
    out = [(g, [m for m in memories if group_of(m) == g]) for g in seen]
    return [(g, ms) for g, ms in out if ms]
