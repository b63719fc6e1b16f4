"""``MemoryPolicy``: what the learning side decides about memories it does not write itself.

The memory service and its roles hold one policy object each, the same one: the composition
sets it from the ``learning`` filter's options (a command line may change it before a round),
and every role reads it when it acts, never a copy taken earlier."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gateway.store import Decay

from ._clock import now_iso


@dataclass(slots=True)
class MemoryPolicy:
    # learning_enabled of a user with no stored setting (the learning filter's consent option)
    learning_default: bool = True
    # decay of auto memories (decay_half_life_days, episode_half_life_days, decay_floor)
    decay_half_life_days: float = 90.0
    episode_half_life_days: float = 30.0
    decay_floor: float = 0.05
    # the key (``slot``) of a personal memory's text (``gateway.learning.offline.keys.derive_key``):
    # an edited text gets its key again, or none
    key_of: Callable[[str], str | None] | None = None

    def decay(self) -> Decay:
        """The decay as of now, for the store's strength comparisons."""
        return Decay(now_iso(), self.decay_half_life_days, self.decay_floor, self.episode_half_life_days)
