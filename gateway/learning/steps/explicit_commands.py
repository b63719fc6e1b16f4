"""The explicit commands' path: "remember: …" stores what follows as said (scrubbed of PII,
fail closed), "forget …" disables the memories it means (by the words it names, else by
meaning), and a statement beside a forget ("forget X, <what is true now>") is learned too."""

from __future__ import annotations

import asyncio
import re

from gateway.learning.offline import chinese, heuristic
from gateway.learning.offline.keys import named_only_as_old
from gateway.learning.parts import LearningParts
from gateway.learning.privacy.redact import PII_ONLY
from gateway.learning.steps import gate
from gateway.learning.steps.commands import Command, mentions, remember_items, topic_words
from gateway.learning.steps.job_payload import time_of
from gateway.learning.steps.pipeline_records import Hold, Outcome, PipelineSettings, Scrubber, gated
from gateway.learning.steps.statement import anchor_dates
from gateway.learning.steps.store_items import ItemStore
from gateway.memory import Memory
from gateway.store import Job

_FORGET_COSINE = 0.6


def _names_only_as_old(memory: Memory, words: set[str]) -> bool:
    """Whether every topic word ``memory`` says is a value it replaced ("moved from X to Y")."""
    said = [w for w in words if mentions(memory, {w})]
    return bool(said) and all(named_only_as_old(memory.content, w) for w in said)


def _names(content: str) -> set[str]:
    """The names and numbers a memory says: what makes it about one thing (Chinese nouns of two
    characters or more, English words capitalised inside the sentence, numbers)."""
    if re.search(r"[\u3400-\u9fff]", content):
        return {w for w, tag in chinese.tagged(content) if len(w) >= 2 and tag[:1] in {"n", "e"} and w != "用户"}
    words = re.findall(r"(?<=[^.!?]\s)[A-Z][\w+#-]+|\b\d[\d.,]*\b", content)
    return {w.lower() for w in words}


def _most_specific(memories: list[Memory], words: set[str]) -> list[Memory]:
    """Of the memories saying some of a forget's words, those saying the most of them when that
    is two or more: "forget the hives being in Dorset" means the memory of the hives in Dorset,
    not every memory about the hives; a topic of one word ("Kubernetes") means all that say it."""
    said = {m.id: sum(1 for w in words if mentions(m, {w})) for m in memories}
    best = max(said.values(), default=0)
    return [m for m in memories if said[m.id] == best] if best >= 2 else memories


class ExplicitCommands:
    """Carries out a remember or forget command of a job (see the module docstring)."""

    def __init__(
        self, services: LearningParts, settings: PipelineSettings, scrubber: Scrubber, items: ItemStore
    ) -> None:
        self.services = services
        self.settings = settings
        self.scrubber = scrubber
        self.items = items

    async def run(self, job: Job, command: Command, outcome: Outcome, hold: Hold) -> None:
        text = await self.scrubber.scrub(command.text, keep_names=self.settings.keep_names)
        await hold()
        if command.kind == "remember":
            items = await asyncio.to_thread(remember_items, text)
            outcome.items_extracted = len(items)
            if not items:
                outcome.rejected.append({"title": "", "reason": PII_ONLY})
                return
            for item in items:
                await self.items.store(job, item, outcome, source="manual", score=1.0)
            await self.items.limits(job, outcome)
            return
        forgotten = await self._about(job, text)
        for m in forgotten:
            await self.services.memory.disable(
                job.tenant,
                job.user_id,
                m.id,
                "forgotten at the user's request",
                actor=f"user:{job.user_id}",
            )
            outcome.disabled.append(m.id)
        if command.statement:  # "forget X, <what is true now>": learn the new part too
            statement = await self.scrubber.scrub(command.statement, keep_names=self.settings.keep_names)
            now = time_of(job.payload)
            # only what the learner reads as a fact: the rest of the message was not asked to be kept
            items = heuristic.extract_items(statement)
            outcome.items_extracted = len(items)
            gone = {name for m in forgotten for name in _names(m.content)}
            for item in items:
                if gone & _names(item.content):
                    # "forget the cat, Tiger lives with my parents now": what was asked to go
                    # is not kept again through the sentence beside it
                    outcome.rejected.append({"title": item.title[:80], "reason": "names what was just forgotten"})
                    continue
                # said beside a forget, not asked to be remembered: the precision gate applies,
                # to the statement with its relative dates made absolute
                item.content, item.title = anchor_dates(item.content, now), anchor_dates(item.title, now)
                code = gate.item_reason(item)
                if code is not None:
                    outcome.rejected.append(gated(code, item.title))
                    continue
                await self.items.store(job, item, outcome, source="manual", score=1.0)
            await self.items.limits(job, outcome)

    async def _about(self, job: Job, topic: str) -> list[Memory]:
        """The user's active memories a forget command means. When the topic has words, only
        the memories that say them ("what I said about Kubernetes"), never one that names them
        only as the value it replaced ("moved from Kubernetes to Nomad"); without a memory that
        says them, those close by embedding, except the memories that replaced one that did."""
        memory = self.services.memory
        words = topic_words(topic)
        near = await memory.nearest(job.tenant, job.user_id, topic, k=8)
        hits = [h.memory for h in await memory.search(job.tenant, job.user_id, topic, limit=8, scope="personal")]
        hits = [m for m in hits if m.enabled]
        if words:
            # a forget is rare and must find every memory saying its words, not only the nearest
            listed, _ = await memory.list(job.tenant, job.user_id, scope="personal", personal_only=True, limit=500)
            candidates = [*(m for m, _ in near), *hits, *(m for m in listed if m.enabled)]
            saying = {m.id: m for m in candidates if mentions(m, words)}
            # "the old 8600 mortgage figure": a number named is the one value meant, beside its topic
            numbers = {w for w in words if re.search(r"\d", w)}
            if numbers:
                # none active holding it: the value is gone already, and what replaced it stays
                saying = {i: m for i, m in saying.items() if mentions(m, numbers)}
            kept = [m for m in saying.values() if not await asyncio.to_thread(_names_only_as_old, m, words)]
            if kept:
                return _most_specific(kept, words)
            replaced = await self._replacements(job, words)
            return [m for m, cos in near if cos >= _FORGET_COSINE and m.id not in replaced and m.id not in saying]
        found = {m.id: m for m, cos in near if cos >= _FORGET_COSINE}
        if not found:  # nothing to compare words with: the best keyword hit
            found = {m.id: m for m in hits[:1]}
        return list(found.values())

    async def _replacements(self, job: Job, words: set[str]) -> set[str]:
        """The ids of the memories that superseded one saying ``words``."""
        rows, _ = await self.services.memory.list(
            job.tenant, job.user_id, include_disabled=True, personal_only=True, limit=500
        )
        found = set()
        for m in rows:
            if not m.enabled and m.disabled_reason and mentions(m, words):
                ref = re.match(r"superseded by (mem_\w+)", m.disabled_reason)
                if ref:
                    found.add(ref.group(1))
        return found
