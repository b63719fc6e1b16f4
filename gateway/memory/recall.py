"""Multi-path recall for injection: relevance re-ordered by recency, popularity, co-occurrence
and a fatigue penalty (``memory.recall``).

The retriever's fused list (vector + keyword lists) decides *what* is relevant; these paths only
re-order its head: the ``limit x POOL_FACTOR`` best fused candidates, each scored

    relevance / best relevance                         (1.0 for the best, in [0, 1])
    + recency_weight      x 0.5 ** (days since last use or update / recency_half_life_days)
    + popularity_weight   x log(1 + this user's citations) / log(1 + their most cited memory's)
    + cooccurrence_weight x how often it was injected together with the query's strong
                            candidates (the 3 best fused), scaled to the pool's highest
    - fatigue_weight      x (fatigue_turns - k + 1) / fatigue_turns  when injected k turns ago
                            in this conversation (k <= fatigue_turns; no conversation id: none)

where the bonuses go only to candidates of at least ``RELEVANT_SHARE`` (half) of the best
relevance, and every candidate below that share ranks after every one above it, whatever
penalties those get: a memory climbs over another only when their relevance differs by less
than the bonus weights, fatigue rotates the relevant ones among themselves, a weak match is
never lifted nor pulled in by fatigue, and nothing outside the pool comes in, however popular.
Under ``fusion: rrf`` relevance is ranks only, and ``_share`` takes the share over the pool's
range instead (nearer the best than the pool's last). Pinned memories are injected apart
(``memory_injection``) and are left out of the statistics.

No store round trip on the chat's path: per-user citation counts and co-occurrences are held in
process (``RecallStats``), loaded in the background from the citation log on a user's first
chat and again every ``RELOAD_S`` (so pruned or deleted uses and other replicas' uses show then;
a deleted memory's counts only ever order candidates that exist), updated as this process logs
uses, and bounded (``MAX_USERS``, ``MAX_ENTRIES``: least recently served users leave first); a
conversation's last turns are kept in a bounded LRU fed by the same log. With several replicas (``store.shared``) a
conversation this replica has not seen is read from the store's citation log in the background
(its fatigue applies from its next turn here); turns another replica serves afterwards reach
this one only through the next reload of the user's statistics, not its fatigue: route a
conversation to one replica (sticky sessions) for exact fatigue. On SQLite (one process) a
restart forgets the conversations' last turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ._clock import now_iso

if TYPE_CHECKING:
    from gateway.store import Change, MemoryStore, Use

    from .types import Memory

log = logging.getLogger("memorelay.memory")

POOL_FACTOR = 3  # the fused candidates re-ordered: limit x this
RELEVANT_SHARE = 0.5  # a candidate below this share of the best relevance gets no bonus
STRONG = 3  # the query's strong candidates, whose past companions co-occurrence favours
RELOAD_S = 600.0  # a user's statistics are read again from the citation log this often
LOADED_USES = 5000  # the newest uses a load reads per user
MAX_USERS = 10_000
# counts and co-occurrence pairs held for all users together (about 100 bytes each): past it
# the least recently served users' statistics leave first
MAX_ENTRIES = 1_000_000
MAX_CONVERSATIONS = 10_000


@dataclass(frozen=True, slots=True)
class RecallSettings:
    """``memory.recall`` (gateway/config.py); a weight of 0 turns its path off."""

    recency_weight: float = 0.05
    recency_half_life_days: float = 30.0
    popularity_weight: float = 0.1
    cooccurrence_weight: float = 0.05
    fatigue_weight: float = 0.3
    fatigue_turns: int = 3

    @property
    def on(self) -> bool:
        return any(
            w > 0 for w in (self.recency_weight, self.popularity_weight, self.cooccurrence_weight, self.fatigue_weight)
        )


@dataclass(slots=True)
class _UserStats:
    counts: dict[str, int] = field(default_factory=dict)
    together: dict[str, dict[str, int]] = field(default_factory=dict)
    top: int = 0  # the highest count
    size: int = 0  # entries held in counts and together
    loaded_at: float = 0.0
    # uses logged while a load reads the store; those from ``since`` on are added after it
    pending: list[list[str]] | None = None
    pending_times: list[str] = field(default_factory=list)

    def add_turn(self, ids: Sequence[str]) -> int:
        """Count one response's memories; answers how many entries it added."""
        before = self.size
        for mid in ids:
            n = self.counts.get(mid, 0) + 1
            self.counts[mid] = n
            self.top = max(self.top, n)
            self.size += n == 1
        if len(ids) > 1:
            for a in ids:
                row = self.together.setdefault(a, {})
                for b in ids:
                    if b != a:
                        n = row.get(b, 0) + 1
                        row[b] = n
                        self.size += n == 1
        return self.size - before


@dataclass(frozen=True, slots=True)
class Signals:
    """What the re-ranking knows of one caller and conversation at the moment of a query."""

    counts: Mapping[str, int]
    together: Mapping[str, Mapping[str, int]]
    top: int
    recent: Sequence[frozenset[str]]  # the conversation's last turns, newest first


_NOTHING = Signals({}, {}, 0, ())


def _turns(uses: Iterable[Use]) -> list[list[str]]:
    """Uses grouped into turns: one response's uses are logged together, with one time and
    conversation (oldest turn first when ``uses`` come oldest first)."""
    out: list[list[str]] = []
    last: tuple[str | None, str, str] | None = None
    for u in uses:
        key = (u.conversation_id, u.time, u.surface)
        if key != last:
            out.append([])
            last = key
        out[-1].append(u.memory_id)
    return out


class RecallStats:
    """Per-user citation statistics and per-conversation last turns, in process (module docstring)."""

    def __init__(
        self, store: MemoryStore, settings: RecallSettings, flush: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self._store = store
        self._flush = flush  # writes the citation log's buffer, so a load reads every use
        self.settings = settings
        self._users: OrderedDict[tuple[str, str], _UserStats] = OrderedDict()
        self._conversations: OrderedDict[tuple[str, str, str], deque[frozenset[str]]] = OrderedDict()
        self._reloading: dict[tuple[str, str], _UserStats] = {}  # fresh statistics being read
        self._entries = 0  # the sizes of the statistics in _users
        self._loads: set[asyncio.Task[None]] = set()
        self._loading_conversations: set[tuple[str, str, str]] = set()

    async def stop(self) -> None:
        for task in list(self._loads):
            task.cancel()
        for task in list(self._loads):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._loads.add(task)
        task.add_done_callback(self._loads.discard)

    # -- read on the chat's path (dict lookups; loads start in the background) ---------------
    def signals(self, tenant: str, user_id: str | None, conversation_id: str | None) -> Signals:
        if not user_id or not self.settings.on:
            return _NOTHING
        s = self.settings
        counts: Mapping[str, int] = {}
        together: Mapping[str, Mapping[str, int]] = {}
        top = 0
        if s.popularity_weight > 0 or s.cooccurrence_weight > 0:
            stats = self._user(tenant, user_id)
            if stats.pending is None:
                counts, together, top = stats.counts, stats.together, stats.top
        recent: Sequence[frozenset[str]] = ()
        if conversation_id and s.fatigue_weight > 0:
            key = (tenant, user_id, conversation_id)
            turns = self._conversations.get(key)
            if turns is not None:
                self._conversations.move_to_end(key)
                recent = tuple(reversed(turns))
            elif self._store.shared and key not in self._loading_conversations:
                self._loading_conversations.add(key)
                self._spawn(self._load_conversation(key))
        return Signals(counts, together, top, recent)

    def _user(self, tenant: str, user_id: str) -> _UserStats:
        key = (tenant, user_id)
        stats = self._users.get(key)
        if stats is None:
            stats = _UserStats(pending=[])
            self._users[key] = stats
            self._trim()
            self._spawn(self._load_user(key, stats))
        else:
            self._users.move_to_end(key)
            stale = stats.loaded_at and time.monotonic() - stats.loaded_at > RELOAD_S
            if stale and key not in self._reloading:
                # the held statistics serve until the fresh ones are read
                fresh = self._reloading[key] = _UserStats(pending=[])
                self._spawn(self._load_user(key, fresh))
        return stats

    # -- fed by the citation log -------------------------------------------------------------
    def record(self, uses: Sequence[Use], leave_out: Iterable[str] = ()) -> None:
        """One response's uses (``MemoryService.record_uses``); ``leave_out``: its pinned ones."""
        if not uses or not self.settings.on:
            return
        skip = set(leave_out)
        first = uses[0]
        ids = [u.memory_id for u in uses if u.memory_id not in skip]
        if not ids:
            return
        user = (first.tenant, first.user_id)
        for stats in (self._users.get(user), self._reloading.get(user)):
            if stats is None:
                continue
            if stats.pending is not None:
                stats.pending.append(ids)
                stats.pending_times.append(first.time)
            elif self._users.get(user) is stats:
                self._entries += stats.add_turn(ids)
                self._trim()
        if first.conversation_id and self.settings.fatigue_weight > 0:
            key = (first.tenant, first.user_id, first.conversation_id)
            turns = self._conversations.get(key)
            if turns is None:
                turns = deque(maxlen=self.settings.fatigue_turns)
                self._conversations[key] = turns
                if len(self._conversations) > MAX_CONVERSATIONS:
                    self._conversations.popitem(last=False)
            else:
                self._conversations.move_to_end(key)
            turns.append(frozenset(ids))

    def changed(self, change: Change) -> None:
        """A tenant move (``"*"``) takes users' uses elsewhere: forget that tenant."""
        if change.kind == "memories" and change.user_id == "*":
            for key in [k for k in self._users if k[0] == change.tenant]:
                self._entries -= self._users.pop(key).size
            for ckey in [k for k in self._conversations if k[0] == change.tenant]:
                del self._conversations[ckey]

    # -- background loads --------------------------------------------------------------------
    async def _load_user(self, key: tuple[str, str], stats: _UserStats) -> None:
        since = now_iso()
        try:
            if self._flush is not None:
                await self._flush()
            uses = await self._store.recent_uses(key[0], key[1], None, LOADED_USES)
        except Exception as exc:  # boundary: ranking goes on without popularity; retried later
            log.warning("recall statistics of a user could not be read: %s", type(exc).__name__)
            uses = []
        finally:
            if self._reloading.get(key) is stats:
                del self._reloading[key]
        pending, times = stats.pending or [], stats.pending_times
        # the store answers newest first: count the uses logged before the load began, then
        # those this process logged meanwhile (a use is never counted twice)
        for ids in _turns(u for u in reversed(uses) if u.time < since):
            stats.add_turn(ids)
        for ids, stamp in zip(pending, times, strict=True):
            if stamp >= since:
                stats.add_turn(ids)
        stats.pending, stats.pending_times = None, []
        stats.loaded_at = time.monotonic()
        held = self._users.get(key)
        if held is not None:  # (a user evicted meanwhile stays out)
            self._entries += stats.size - (0 if held is stats else held.size)
            self._users[key] = stats
            self._trim()

    def _trim(self) -> None:
        """Least recently served users leave first, past MAX_USERS or MAX_ENTRIES (the newest stays)."""
        while len(self._users) > 1 and (len(self._users) > MAX_USERS or self._entries > MAX_ENTRIES):
            _, gone = self._users.popitem(last=False)
            self._entries -= gone.size

    async def _load_conversation(self, key: tuple[str, str, str]) -> None:
        try:
            n = self.settings.fatigue_turns
            uses = await self._store.recent_uses(key[0], key[1], key[2], n * 50)
            turns: deque[frozenset[str]] = deque(maxlen=n)
            for ids in _turns(reversed(uses)):
                turns.append(frozenset(ids))
            # turns this replica logged while the store was read are newer: they go last
            turns.extend(self._conversations.get(key, ()))
            self._conversations[key] = turns
            if len(self._conversations) > MAX_CONVERSATIONS:
                self._conversations.popitem(last=False)
        except Exception as exc:  # boundary: no fatigue from other replicas this time
            log.warning("recent turns of a conversation could not be read: %s", type(exc).__name__)
        finally:
            self._loading_conversations.discard(key)


@lru_cache(maxsize=65_536)
def _epoch(stamp: str) -> float:
    try:
        return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
    except ValueError:
        return 0.0


def rerank(
    fused: Sequence[tuple[str, float]],
    rows: Mapping[str, Memory],
    signals: Signals,
    settings: RecallSettings,
    now: float | None = None,
    *,
    ranks_only: bool = False,
) -> list[tuple[str, float]]:
    """``fused`` (the pool, best first, relevance scores) re-ordered by the recall paths (see the
    module docstring); ids without a row keep their relevance share only. ``ranks_only``: the
    scores are reciprocal-rank sums (``fusion: rrf``)."""
    if not fused:
        return []
    shares = _shares(fused, ranks_only)
    clock = time.time() if now is None else now
    strong = [mid for mid, _ in fused[:STRONG]]
    near: dict[str, float] = {}
    if settings.cooccurrence_weight > 0 and signals.together:
        for mid, _ in fused:
            near[mid] = float(sum(signals.together.get(s, {}).get(mid, 0) for s in strong if s != mid))
    near_top = max(near.values(), default=0.0)
    pop_scale = math.log1p(signals.top) if signals.top > 0 else 0.0
    turns = settings.fatigue_turns
    half_life_s = settings.recency_half_life_days * 86_400.0
    out: list[tuple[str, float, bool]] = []
    for (mid, _), share in zip(fused, shares, strict=True):
        score = share
        row = rows.get(mid)
        # only a candidate near the best is lifted: the bonuses never bring in a weak match
        if share >= RELEVANT_SHARE:
            if settings.recency_weight > 0 and row is not None:
                last = max(_epoch(row.updated_at), _epoch(row.last_access_at) if row.last_access_at else 0.0)
                score += settings.recency_weight * 0.5 ** (max(0.0, clock - last) / half_life_s)
            if pop_scale > 0 and settings.popularity_weight > 0:
                score += settings.popularity_weight * math.log1p(signals.counts.get(mid, 0)) / pop_scale
            if near_top > 0:
                score += settings.cooccurrence_weight * near[mid] / near_top
        if settings.fatigue_weight > 0:
            for k, turn in enumerate(signals.recent[:turns], start=1):
                if mid in turn:
                    score -= settings.fatigue_weight * (turns - k + 1) / turns
                    break
        out.append((mid, score, share >= RELEVANT_SHARE))
    # the relevant ones first, whatever their penalties: fatigue re-orders them among
    # themselves and never lets a weak match in ahead of one (a stable sort keeps ties in order)
    out.sort(key=lambda c: (c[2], c[1]), reverse=True)
    return [(mid, score) for mid, score, _ in out]


def _shares(fused: Sequence[tuple[str, float]], ranks_only: bool) -> list[float]:
    """Each candidate's relevance as a share of the best's, in [0, 1]. Reciprocal-rank sums
    lie close together (1/61 and 1/75 for ranks 1 and 15 of one list: every candidate would
    clear half of the best), so there the share is taken over the pool's range."""
    best = fused[0][1]
    if ranks_only:
        low = min(score for _, score in fused)
        if best <= low:  # all alike: all as relevant as the best
            return [1.0] * len(fused)
        return [(score - low) / (best - low) for _, score in fused]
    best = best if best > 0 else 1.0
    return [score / best for _, score in fused]
