"""The store stage: one extracted item to a memory. Its text is scrubbed of identifiers, checked
for third-party sensitive facts and poisoning, keyed (``keys``), judged (``verdicts``) and
written: added, refreshed as a duplicate, or superseding the memories it replaces; a
retraction ("no longer on Jest") disables what held the value. Then the user's limits."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from gateway.errors import TooManyPinned
from gateway.learning.offline import atomic, changed_value, lexicon, moved, same_topic
from gateway.learning.offline import replaced as gone_values
from gateway.learning.offline.key_record import Key
from gateway.learning.offline.keys import key_of, mentions_value
from gateway.learning.parts import LearningParts
from gateway.learning.privacy.redact import PII_ONLY, PLACEHOLDER, remove_identifiers
from gateway.learning.privacy.sensitive import third_party_sensitive
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.pipeline_records import Outcome, PipelineSettings, Scrubber
from gateway.learning.steps.poisoning import is_poisoning
from gateway.learning.steps.standing import is_standing_rule
from gateway.learning.steps.verdicts import NAMED_OLD, Verdicts
from gateway.memory import Memory, MemoryValidationError, NewMemory
from gateway.store import Job

log = logging.getLogger("memorelay.learning")
T = TypeVar("T")
_SCAN = 1000  # the user's memories read for the ones naming a value that is gone
FLIPPED = "said the other way round now"
CHANGED = "another value of the same kind now"
MOVED = "moved away from there"


def _holds(text: str, values: tuple[str, ...]) -> bool:
    """Whether ``text`` names one of ``values``, as written or as the same known thing
    ("the Tuesday swim sessions" and "swims on Tuesdays")."""
    if mentions_value(text, values):
        return True
    named = {lexicon.canonical(name) for value in values for name, _ in lexicon.tools_in(value)}
    return bool(named) and any(lexicon.canonical(name) in named for name, _ in lexicon.tools_in(text))


def _title_of(content: str) -> str:
    first = content.split("\n", 1)[0]
    return first if len(first) <= 80 else first[:79].rstrip() + "…"


async def _unpinned_if_full(new: NewMemory, write: Callable[[NewMemory], Awaitable[T]]) -> T:
    """``write(new)``; when the user's L1 is full, ``new`` is kept unpinned (retrieved only
    when relevant) rather than refused."""
    try:
        return await write(new)
    except TooManyPinned:
        new.pinned = False
        return await write(new)


class ItemStore:
    """Stores the items of a job, one at a time (see the module docstring)."""

    def __init__(
        self, services: LearningParts, settings: PipelineSettings, scrubber: Scrubber, verdicts: Verdicts
    ) -> None:
        self.services = services
        self.settings = settings
        self.scrubber = scrubber
        self.verdicts = verdicts

    async def scrub_items(self, items: list[KnowledgeItem]) -> None:
        texts = await self.scrubber.scrub_many(
            [t for item in items for t in (item.title, item.content)], keep_names=self.settings.keep_names
        )
        for k, item in enumerate(items):
            item.title, item.content = texts[2 * k], texts[2 * k + 1]

    async def store(
        self, job: Job, item: KnowledgeItem, outcome: Outcome, *, source: str, score: float, scrubbed: bool = False
    ) -> None:
        if not scrubbed:
            await self.scrub_items([item])
        # nothing stored carries a placeholder or the gap of one: the phrase that held the
        # identifier goes (``redact``), and an item left with nothing is not stored
        item.content = await asyncio.to_thread(remove_identifiers, item.content)
        if not item.content:
            outcome.rejected.append({"title": "", "reason": PII_ONLY})
            return
        if PLACEHOLDER.search(item.title):
            item.title = _title_of(item.content)
        sensitive = third_party_sensitive(item.content)
        if sensitive:
            outcome.rejected.append({"title": "", "reason": sensitive})
            return
        poisoning = is_poisoning(f"{item.title}\n{item.content}")
        if poisoning:
            log.warning("learning job %s rejected an item: %s", job.id, poisoning)
            outcome.rejected.append({"title": item.title[:80], "reason": poisoning})
            return
        memory = self.services.memory
        # a dated episode is no attribute of the user: it is never replaced by a key
        key = None if item.kind == "episode" else await asyncio.to_thread(key_of, item.content)
        if key is not None:
            item.slot = key.slot  # the parse decides; a model-given slot only where it finds none
            if key.retraction and await self._retract(job, key, outcome):
                return
            if key.change:  # the memory of a change holds the new value only
                changed = atomic.without_old(item.content, key)
                if changed != item.content:
                    item.content = changed
                    item.title = _title_of(changed)
        # "ditched Duolingo", "not home workouts anymore", "从顺丰换成京东": what the user said
        # of the value that is gone goes, whatever attribute it was keyed under
        words = () if item.kind == "episode" else gone_values.named_old(item.content)
        gone: list[Memory] = []
        if words:
            gone = await self._naming(job, words, outcome)
            current = gone_values.current_part(item.content, words)
            if current is None:  # only a retraction: nothing new to store once the old is gone
                if gone:
                    await self._disable(job, gone, words, outcome)
                    return
            elif current != item.content:
                item.content = current
                item.title = _title_of(current)
                # the key of what holds now ("uses Zed now", not the "VS Code" it replaced)
                key = await asyncio.to_thread(key_of, current)
                item.slot = key.slot if key is not None else item.slot
        if not gone and item.kind != "episode":
            # "现在能吃香菜了" after "不吃香菜": the same predicate said the other way round now
            gone = await self._flipped(job, item.content, outcome)
            words = (FLIPPED,) if gone else words
        if not gone and item.kind != "episode" and changed_value.is_change(item.content):
            # "课也改到周日下午了" after "每周六上午上课": another value of the same kind, on the same
            # topic; "I've got Aiyana as my coach now" after "my coach is Pedro": something else
            # said of the same thing
            gone = await self._near(job, item.content, outcome, _changes)
            words = (CHANGED,) if gone else words
        if not gone and item.kind != "episode" and key is not None and key.change:
            # "全家搬去苏州啦" after "用户在上海自己做芝士": a move leaves the old city's sentences untrue
            gone = await self._moved_from(job, key, outcome)
            words = (MOVED,) if gone else words
        verdict, why, close = await self.verdicts.judge(job, item, set(outcome.added), key)
        if verdict == "duplicate":
            await memory.refresh(close[0][0].id)
            outcome.duplicates.append(close[0][0].id)
            for m in gone:
                if m.id != close[0][0].id and await memory.disable(
                    job.tenant, job.user_id, m.id, f"{NAMED_OLD}{', '.join(words)}", actor="learning"
                ):
                    outcome.disabled.append(m.id)
            return
        if gone:
            seen = {old.id for old, _ in close}
            close = close + [(m, 1.0) for m in gone if m.id not in seen]
            if verdict != "supersede":
                verdict, why = "supersede", f"{NAMED_OLD}{', '.join(words)}"
        new = NewMemory(
            title=item.title,
            content=item.content,
            category=item.category,
            subcategory=item.subcategory,
            tags=list(item.tags),
            source=source,
            source_conversation_id=job.conversation_id,
            score=round(score, 4),
            slot=item.slot,
            # a standing rule is stored as one whatever the learner called it
            kind="rule" if is_standing_rule(item) else item.kind,
            # L1: a standing rule, or the update of a pinned memory, is proposed pinned
            pinned=is_standing_rule(item) or (verdict == "supersede" and any(old.pinned for old, _ in close)),
        )
        reviewed = verdict == "supersede" and self.verdicts.reviewed(why)
        olds = [old for old, _ in close]
        replaced: list[str] = []
        try:
            if verdict == "supersede" and not reviewed:
                # the new memory and the old ones' disabling commit together (or not at all)
                created, replaced = await _unpinned_if_full(
                    new, lambda n: memory.supersede(job.tenant, job.user_id, n, olds, why, actor="learning")
                )
                for old in olds:
                    if old.id not in replaced:
                        log.info(
                            "job %s: %s was edited, disabled or deleted since it was read: kept, beside %s",
                            job.id,
                            old.id,
                            created.id,
                        )
            else:
                created = await _unpinned_if_full(
                    new, lambda n: memory.add(job.tenant, job.user_id, n, actor="learning")
                )
        except MemoryValidationError as exc:
            outcome.rejected.append({"title": item.title[:80], "reason": f"invalid: {exc}"})
            return
        outcome.added.append(created.id)
        if reviewed:
            for review in await memory.queue_supersede(created, olds, why, actor="learning"):
                outcome.queued.append({"review": review.id, "old": review.old_id, "new": created.id, "reason": why})
        elif verdict == "supersede":
            outcome.superseded.extend({"old": old_id, "new": created.id, "reason": why} for old_id in replaced)

    async def retract(self, job: Job, item: KnowledgeItem, outcome: Outcome) -> bool:
        """Only what ``item`` says is gone ("The user quits streaming.", too bare to be a memory of
        its own): disable the memories naming it. False when it says nothing is gone, or names
        no memory."""
        words = () if item.kind == "episode" else gone_values.named_old(item.content)
        if not words or gone_values.current_part(item.content, words) is not None:
            return False
        gone = await self._naming(job, words, outcome)
        await self._disable(job, gone, words, outcome)
        return bool(gone)

    async def _disable(self, job: Job, gone: list[Memory], words: tuple[str, ...], outcome: Outcome) -> None:
        for m in gone:
            reason = f"no longer true: the user said so ({', '.join(words)})"
            if await self.services.memory.disable(job.tenant, job.user_id, m.id, reason, actor="learning"):
                outcome.disabled.append(m.id)

    async def _naming(self, job: Job, olds: tuple[str, ...], outcome: Outcome) -> list[Memory]:
        """The user's active memories that name one of the values ``olds``."""
        return await self._scan(job, outcome, lambda m: gone_values.holds(f"{m.title} {m.content}", olds))

    async def _moved_from(self, job: Job, key: Key, outcome: Outcome) -> list[Memory]:
        """The user's active memories that put them in a city a move (``key``) leaves (``moved``)."""
        return await self._scan(job, outcome, lambda m: moved.replaces(key, m.content))

    async def _scan(self, job: Job, outcome: Outcome, gone: Callable[[Memory], bool]) -> list[Memory]:
        """The user's active memories (up to ``_SCAN``) for which ``gone`` holds: not this turn's,
        nor a dated episode, which stays true of its day."""
        memories, _ = await self.services.memory.list(
            job.tenant, job.user_id, scope="personal", personal_only=True, limit=_SCAN
        )
        return [m for m in memories if m.enabled and m.kind != "episode" and m.id not in outcome.added and gone(m)]

    async def _flipped(self, job: Job, content: str, outcome: Outcome) -> list[Memory]:
        """The user's active memories nearest to ``content`` that say it negated the other way
        (``replaced.flipped``); not this turn's, nor a dated episode."""
        return await self._near(job, content, outcome, gone_values.flipped)

    async def _near(
        self, job: Job, content: str, outcome: Outcome, replaced_by: Callable[[str, str], bool]
    ) -> list[Memory]:
        """The user's active memories nearest to ``content`` that it replaces by
        ``replaced_by(content, old)``; not this turn's, nor a dated episode."""
        memory = self.services.memory
        near = [m for m, _ in await memory.nearest(job.tenant, job.user_id, content, k=3)]
        if not near:  # no embedder: by keywords
            near = [h.memory for h in await memory.search(job.tenant, job.user_id, content, limit=3, scope="personal")]
        return [
            m
            for m in near
            if m.enabled and m.kind != "episode" and m.id not in outcome.added and replaced_by(content, m.content)
        ]

    async def _retract(self, job: Job, key: Key, outcome: Outcome) -> bool:
        """ "No longer on Jest", "不再用 Jest 了": disable the memories of that key holding the
        value, without a new one (a changed taste, "does not like coffee anymore", is a new
        value and is stored). False when no memory held it (the statement is then kept)."""
        if key.slot.startswith("taste."):
            return False
        memory = self.services.memory
        held = [
            m
            for m in await memory.in_slot(job.tenant, job.user_id, key.slot)
            if m.id not in outcome.added and (not key.values or _holds(f"{m.title} {m.content}", key.values))
        ]
        for m in held:
            await memory.disable(
                job.tenant, job.user_id, m.id, f"no longer true: the user said so ({key.slot})", actor="learning"
            )
            outcome.disabled.append(m.id)
        if held:
            return True
        # "改用 PostgreSQL 了，MySQL 那套已经下线": the value went with this turn's change already;
        # "no longer X" is then no fact of its own
        gone = [s["old"] for s in outcome.superseded] + outcome.disabled
        for old_id in gone:
            old = await memory.get(job.tenant, job.user_id, old_id)
            if old is not None and old.slot == key.slot and key.values:
                if _holds(f"{old.title} {old.content}", key.values):
                    return True
        return False

    async def limits(self, job: Job, outcome: Outcome) -> None:
        keep = self.settings.max_memories_per_user
        if await self.services.memory.count_personal(job.tenant, job.user_id) > keep:
            # what the user just said is never the one evicted to make room for it
            outcome.evicted = await self.services.memory.evict_lowest(
                job.tenant, job.user_id, keep, actor="learning", protect=outcome.added
            )
        if self.settings.max_per_kind:
            outcome.evicted += await self.services.memory.evict_per_kind(
                job.tenant, job.user_id, self.settings.max_per_kind, actor="learning", protect=outcome.added
            )


def _changes(new: str, old: str) -> bool:
    """Whether ``new``, a statement of change, replaces ``old``, one of the memories nearest to it."""
    return changed_value.replaces(new, old) or same_topic.replaces(new, old)
