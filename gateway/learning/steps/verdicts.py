"""The verdict on a new item against the user's memories: add, duplicate or supersede (the
cosine rules, the keys, the LLM learner's own ``same_as`` / ``updates``), and whether a
supersede waits for review (``learning.review: queue``)."""

from __future__ import annotations

from gateway.learning.offline.key_record import Key
from gateway.learning.offline.keys import mentions_value
from gateway.learning.parts import LearningParts
from gateway.learning.steps.dedup import compare
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.pipeline_records import PipelineSettings
from gateway.memory import Memory
from gateway.store import Job

_CONFLICT_BAND = 0.1
# the reasons of the supersedes that were declared rather than inferred (``reviewed``)
_SLOT_REASON = "new value for "
_OTHER_VALUE = "another value for "
_LEARNER_UPDATE = "the learner judged it an update"
# a change that names the value it leaves ("ditched Duolingo", "不考雅思了"): said, not inferred
NAMED_OLD = "the user said this is gone: "
# compare()'s reasons that mark a contradiction rather than a different fact
_CONFLICT_REASONS = (
    "numbers or dates differ",
    "negation differs",
    "preference direction differs",
    "order of a comparison differs",
)


class Verdicts:
    """Judges an item against the memories of the job's user (see the module docstring)."""

    def __init__(self, services: LearningParts, settings: PipelineSettings) -> None:
        self.services = services
        self.settings = settings

    def reviewed(self, why: str) -> bool:
        """Whether a supersede waits for review (``learning.review: queue``).

        With ``review_scope: uncertain`` only the supersedes memorelay inferred wait: those the
        cosine rules decided (two texts close by embedding that differ in some way), which is
        where a different fact on the same topic can be mistaken for a change, and another value
        of a key said without a word of change ("has 12 engineers" after "has 8"). A new value
        the user said replaces the old one ("moved to", "instead", "改用"), and an update the LLM
        learner itself declared about a memory it was shown (``updates``), are explicit and
        apply at once. ``review_scope: all`` queues every one."""
        if self.settings.review != "queue":
            return False
        explicit = why.startswith((_SLOT_REASON, NAMED_OLD)) or why == _LEARNER_UPDATE
        return self.settings.review_scope == "all" or not explicit

    async def judge(
        self, job: Job, item: KnowledgeItem, same_turn: set[str], key: Key | None = None
    ) -> tuple[str, str, list[tuple[Memory, float]]]:
        """add / duplicate / supersede against the user's closest active memory.

        At cosine >= ``dedup_threshold`` any difference supersedes. Just below it (within
        ``_CONFLICT_BAND``) only an explicit conflict does — other numbers or dates, negation,
        preference direction — because with the local USE model "likes coffee" / "does not like
        coffee anymore" is 0.82 and "8" / "12 engineers" 0.85, while a different fact on the
        same topic ("uses PostgreSQL" / "uses Redis") must stay a memory of its own.
        Memories stored from this same turn (``same_turn``) are never replaced by its other
        items: statements made together complement each other.
        The LLM learner's own verdict on a memory it was shown decides first (``same_as`` /
        ``updates``, see ``combined``); then the key (``keys``: one active value per key, several
        for a multi-valued attribute); then the cosine rules above, never across two keys.
        """
        judged = await self._judged(job, item, same_turn)
        if judged is not None:  # the LLM learner named the memory it repeats or updates
            return judged
        if item.slot:  # one active value per key, whatever the cosine
            held = [
                m
                for m in await self.services.memory.in_slot(job.tenant, job.user_id, item.slot)
                if m.id not in same_turn
            ]
            for m in held:
                verdict, why = compare(item.content, m.content)
                if verdict == "duplicate":
                    return verdict, why, [(m, 1.0)]
            if held and key is not None and key.multi:
                # an attribute holding several values (languages, pets, allergies): another one
                # adds, unless the sentence replaces one ("switched from Python to Go")
                if not key.change:
                    return "add", "", []
                if key.old:
                    held = [m for m in held if mentions_value(f"{m.title} {m.content}", key.old)]
            if held:
                why = compare(item.content, held[0].content)[1]
                # "moved to", "instead", "改用": the user said it changed; another value said
                # plainly is inferred to replace the old one (and waits for review when queued)
                said = key is None or key.change
                prefix = _SLOT_REASON if said else _OTHER_VALUE
                return "supersede", f"{prefix}{item.slot}: {why}", [(m, 1.0) for m in held]
            if key is not None and key.multi:
                return "add", "", []
        text = f"{item.title}\n{item.content}"
        floor = self.settings.dedup_threshold - _CONFLICT_BAND
        close = [
            (m, cos)
            for m, cos in await self.services.memory.nearest(job.tenant, job.user_id, text, k=2)
            # two memories with different keys are about different things, however close
            if cos >= floor and m.id not in same_turn and not (item.slot and m.slot and m.slot != item.slot)
        ][:1]
        if not close:
            return "add", "", close
        old, cos = close[0]
        verdict, why = compare(item.content, old.content)  # the facts, not their one-line titles
        if cos < self.settings.dedup_threshold and not why.startswith(_CONFLICT_REASONS):
            return "add", "", []
        return verdict, why, close

    async def _judged(
        self, job: Job, item: KnowledgeItem, same_turn: set[str]
    ) -> tuple[str, str, list[tuple[Memory, float]]] | None:
        """The LLM learner's own verdict: the item repeats (``same_as``) or updates (``updates``)
        a memory it was shown (``combined`` validated the id). ``None`` leaves it to the rules."""
        ref = item.same_as or item.updates
        if ref is None or ref in same_turn:
            return None
        old = await self.services.memory.get(job.tenant, job.user_id, ref)
        if old is None or not old.enabled or old.scope != "personal" or old.user_id != job.user_id:
            return None  # e.g. another item of this turn replaced it already
        if item.same_as:
            return "duplicate", "the learner judged it the same", [(old, 1.0)]
        return "supersede", _LEARNER_UPDATE, [(old, 1.0)]
