"""What a person can do to one personal memory from ``/me/`` or the console: pin, turn off or
on, restore a replaced one, delete with a short undo. Both pages call these with the memory's
own tenant and user, through the same ``MemoryService`` calls as the user API."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from gateway.console.words import why_off
from gateway.memory import Memory, MemoryService, NewMemory

# what the memory actions below report, shown as notices on both /me/ and the operator console
NOTICES = (
    "pinned_ok",
    "unpinned_ok",
    "pin_full",
    "turned_off_ok",
    "turned_on_ok",
    "restored",
    "restored_replacing",
    "deleted_undo",
    "undone",
    "undo_late",
)

UNDO_S = 20.0  # long enough to read the notice and press Undo
TURNED_OFF = "turned off"
RESTORED = "restored"


@dataclass(frozen=True, slots=True)
class _Held:
    session: str
    memory: Memory
    until: float


class UndoBin:
    """Deleted memories held in this process for ``UNDO_S`` seconds, each behind a random
    token usable only by the session that deleted it; then forgotten (the text stays nowhere).
    On several replicas an undo reaching another one finds nothing and says it is too late."""

    def __init__(self, hold_s: float = UNDO_S) -> None:
        self.hold_s = hold_s
        self._held: dict[str, _Held] = {}

    def put(self, session: str, memory: Memory) -> str:
        self._expire()
        token = secrets.token_urlsafe(12)
        self._held[token] = _Held(session, memory, time.monotonic() + self.hold_s)
        return token

    def take(self, session: str, token: str) -> Memory | None:
        self._expire()
        held = self._held.get(token)
        if held is None or held.session != session:
            return None
        del self._held[token]
        return held.memory

    def _expire(self) -> None:
        now = time.monotonic()
        for token in [t for t, h in self._held.items() if h.until <= now]:
            del self._held[token]


async def set_pinned(memory: MemoryService, m: Memory, on: bool, *, actor: str) -> None:
    """Raises ``TooManyPinned`` past ``memory.max_pinned_per_user``."""
    await memory.update(m.tenant, m.user_id, m.id, {"pinned": on}, actor=actor)


async def set_enabled(memory: MemoryService, m: Memory, on: bool, *, actor: str) -> None:
    if on:
        await memory.update(m.tenant, m.user_id, m.id, {"enabled": True}, actor=actor)
    else:
        await memory.disable(m.tenant, m.user_id, m.id, TURNED_OFF, actor=actor)


async def restore(memory: MemoryService, m: Memory, *, actor: str) -> Memory | None:
    """Turn ``m`` back on; when a newer memory replaced it, that one is turned off, replaced by
    ``m`` in turn (so it can be restored the same way). Returns the memory turned off, if any."""
    why = why_off(m.disabled_reason)
    newer = await memory.get(m.tenant, m.user_id, why.other) if why.code == "replaced" and why.other else None
    async with memory.store.transaction():
        await memory.update(m.tenant, m.user_id, m.id, {"enabled": True}, actor=actor)
        if newer is not None and newer.enabled and newer.scope == "personal":
            await memory.disable(m.tenant, m.user_id, newer.id, f"superseded by {m.id} ({RESTORED})", actor=actor)
            return newer
    return None


async def delete(memory: MemoryService, undo: UndoBin, session: str, m: Memory, *, actor: str) -> str:
    """Delete ``m``; the token undoes it for ``UNDO_S`` seconds."""
    await memory.delete(m.tenant, m.user_id, m.id, actor=actor)
    return undo.put(session, m)


async def undo_delete(memory: MemoryService, undo: UndoBin, session: str, token: str, *, actor: str) -> Memory | None:
    """Store the deleted memory again (a new id, the same fields); None when too late."""
    m = undo.take(session, token)
    if m is None:
        return None
    restored = await memory.add(m.tenant, m.user_id, NewMemory.like(m), actor=actor)
    if not m.enabled:
        await memory.disable(m.tenant, m.user_id, restored.id, m.disabled_reason or TURNED_OFF, actor=actor)
    return restored


ACTIONS = ("pin", "unpin", "turn-off", "turn-on", "restore")


async def act(memory: MemoryService, m: Memory, what: str, *, actor: str) -> str:
    """Do ``what`` (one of ``ACTIONS``) to ``m``; the notice that says it was done."""
    if what in ("pin", "unpin"):
        await set_pinned(memory, m, what == "pin", actor=actor)
        return "pinned_ok" if what == "pin" else "unpinned_ok"
    if what in ("turn-off", "turn-on"):
        await set_enabled(memory, m, what == "turn-on", actor=actor)
        return "turned_on_ok" if what == "turn-on" else "turned_off_ok"
    replaced = await restore(memory, m, actor=actor)
    return "restored_replacing" if replaced else "restored"
