"""One learning job, top to bottom (SPEC §4 learning steps 2–7).

strip own injection → explicit command? → score (threshold) → scrub PII (fail closed)
→ extract → scrub items → reject poisoning → dedup / supersede → store → limits → log.
The LLM learner: local pre-check → scrub PII (fail closed) → ONE upstream call that scores and
extracts (``combined``) → threshold → the same item steps, its ``same_as``/``updates`` verdicts
on the memories it was shown taking part in dedup / supersede.
Nothing here raises past ``run`` except ``RetryableError`` (the worker retries those) and
``LeaseLost``: before its first write of a job (memories added, disabled, refreshed or evicted)
the pipeline awaits ``hold``, which confirms the worker still holds the job's lease and raises
``LeaseLost`` if another worker claimed it meanwhile (see ``gateway.learning.workers``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from gateway.chat import TranscriptMessage
from gateway.errors import TooManyPinned
from gateway.learning import atomic, gate, heuristic, lexicon
from gateway.learning.combined import MAX_KNOWN, Known, known_memories
from gateway.learning.commands import (
    Command,
    item_from_remember,
    mentions,
    parse_command,
    remember_items,
    topic_words,
)
from gateway.learning.completers import AnthropicCompleter, ChatCompleter, Completer
from gateway.learning.dedup import compare
from gateway.learning.errors import LearningError, MalformedOutput
from gateway.learning.extraction import KnowledgeItem
from gateway.learning.key_record import Key
from gateway.learning.keys import key_of, mentions_value, named_only_as_old
from gateway.learning.learners import HeuristicLearner, Learner, LLMLearner, RetryableError, Turn
from gateway.learning.parts import LearningParts
from gateway.learning.poisoning import is_poisoning, without_steering
from gateway.learning.redact import PII_ONLY, PLACEHOLDER, remove_identifiers
from gateway.learning.sensitive import third_party_sensitive
from gateway.learning.standing import is_standing_rule
from gateway.memory import Memory, MemoryValidationError, NewMemory, strip_block
from gateway.store import Job

log = logging.getLogger("memorelay.learning")
T = TypeVar("T")

_CONTEXT_MESSAGES = 6
_MAX_MESSAGE_CHARS = 4000
_FORGET_COSINE = 0.6
_CONFLICT_BAND = 0.1
# the reasons of the supersedes that were declared rather than inferred (``_reviewed``)
_SLOT_REASON = "new value for "
_OTHER_VALUE = "another value for "
_LEARNER_UPDATE = "the learner judged it an update"
# compare()'s reasons that mark a contradiction rather than a different fact
_CONFLICT_REASONS = (
    "numbers or dates differ",
    "negation differs",
    "preference direction differs",
    "order of a comparison differs",
)


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    model: str
    threshold: float
    dedup_threshold: float
    max_memories_per_user: int
    max_items: int
    # "queue": a supersede that needs review waits for the user or an operator (``_reviewed``)
    review: str = "auto"
    review_scope: str = "uncertain"
    max_per_kind: Mapping[str, int] = field(default_factory=dict)  # learning.max_per_kind
    # names of the user's relations stay in memories; False: replaced by the relation
    keep_names: bool = True


@dataclass(slots=True)
class Outcome:
    """The learning-log entry of one job (no raw conversation text)."""

    learner: str
    score: float | None = None
    dimensions: dict[str, float] | None = None
    reason: str = ""
    command: str | None = None
    items_extracted: int = 0
    added: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    superseded: list[dict[str, str]] = field(default_factory=list)
    # supersedes waiting for review: {"review", "old", "new", "reason"}
    queued: list[dict[str, str]] = field(default_factory=list)
    rejected: list[dict[str, str]] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    evicted: int = 0
    tokens: int = 0
    duration_ms: float = 0.0
    error: str | None = None

    def entry(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def job_payload(
    transcript: list[TranscriptMessage], answer: str, dialect: str, when: datetime | None = None
) -> dict[str, Any]:
    """What a job keeps: the last turns (already without the gateway's memory block), the
    answer, the dialect the conversation spoke (which upstream its own model lives on) and the
    conversation's time (``X-Memorelay-Time``, else now: relative dates are resolved from it)."""
    recent = [
        {"role": m["role"], "content": strip_block(m["content"])[:_MAX_MESSAGE_CHARS]}
        for m in transcript[-_CONTEXT_MESSAGES:]
    ]
    return {
        "messages": [m for m in recent if m["content"]],
        "answer": strip_block(answer)[:_MAX_MESSAGE_CHARS],
        "dialect": dialect,
        "time": (when or datetime.now(UTC)).isoformat(),
    }


def turn_of(payload: dict[str, Any]) -> Turn:
    messages = payload.get("messages") or []
    users = [m["content"] for m in messages if m.get("role") == "user"]
    user_text = users[-1] if users else ""
    answer = str(payload.get("answer") or "")
    lines = [f"{m['role'].capitalize()}: {m['content']}" for m in messages]
    lines.append(f"Assistant: {answer}")
    return Turn(user_text=user_text, assistant_text=answer, transcript="\n".join(lines), time=_time_of(payload))


def _time_of(payload: dict[str, Any]) -> datetime:
    """The conversation's time a job carries (older jobs have none: now)."""
    try:
        when = datetime.fromisoformat(str(payload["time"]))
    except (KeyError, ValueError):
        return datetime.now(UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _gated(code: str, title: str = "") -> dict[str, str]:
    """A learning-log entry for a candidate the precision gate turned down (``gate.REASONS``)."""
    return {"title": title[:80], "reason": code, "code": code}


def _names_only_as_old(memory: Memory, words: set[str]) -> bool:
    """Whether every topic word ``memory`` says is a value it replaced ("moved from X to Y")."""
    said = [w for w in words if mentions(memory, {w})]
    return bool(said) and all(named_only_as_old(memory.content, w) for w in said)


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


Hold = Callable[[], Awaitable[None]]


async def _unfenced() -> None:
    """No lease to confirm (a pipeline run outside the worker pool)."""


async def _unpinned_if_full(new: NewMemory, write: Callable[[NewMemory], Awaitable[T]]) -> T:
    """``write(new)``; when the user's L1 is full, ``new`` is kept unpinned (retrieved only
    when relevant) rather than refused."""
    try:
        return await write(new)
    except TooManyPinned:
        new.pinned = False
        return await write(new)


class Scrubber(Protocol):
    """PII scrubbing that fails closed (raises ``PiiError``); see ``pii_process``."""

    async def scrub(self, text: str, *, keep_names: bool = False) -> str: ...

    async def scrub_many(self, texts: list[str], *, keep_names: bool = False) -> list[str]: ...


class Pipeline:
    def __init__(self, services: LearningParts, settings: PipelineSettings, scrubber: Scrubber) -> None:
        self.services = services
        self.settings = settings
        self.scrubber = scrubber

    def _needs_key(self, model: str, anthropic: bool) -> bool:
        """Pass-through mode without a configured key for the upstream the learner asks."""
        upstreams = self.services.config.upstreams
        configured_key = (upstreams.anthropic if anthropic else upstreams.default).api_key
        return (
            (anthropic or model not in self.services.upstreams.aliases)
            and not configured_key.get_secret_value()
            and not self.services.auth.gateway_key_mode
        )

    def uses_caller_key(self, model: str, dialect: str | None) -> bool:
        """Whether a job of this conversation model and dialect is learned with the caller's
        own upstream key (then the enqueuing replica holds that key in memory)."""
        model = self.settings.model or model
        if model == "heuristic":
            return False
        from_anthropic = dialect == "anthropic_messages"
        anthropic = not self.settings.model and from_anthropic
        if from_anthropic and not anthropic:
            return False  # the caller's Anthropic credential never goes to another upstream
        return self._needs_key(model, anthropic)

    def learner_for(self, job: Job, authorization: str | None) -> Learner:
        model = self.settings.model or job.model
        if model == "heuristic":
            return HeuristicLearner()
        config = self.services.config
        # a conversation's own Anthropic model is asked on the Anthropic upstream (SPEC §4 `model` empty)
        from_anthropic = job.payload.get("dialect") == "anthropic_messages"
        anthropic = not self.settings.model and from_anthropic
        if from_anthropic and not anthropic:
            # the job holds the credential of upstreams.anthropic: it never goes to another upstream
            default_key = config.upstreams.default.api_key.get_secret_value()
            authorization = f"Bearer {default_key}" if default_key else None
        if self._needs_key(model, anthropic) and authorization is None:
            # the caller's key lives only in the memory of the replica that queued the job (or
            # of this one before a restart): learn offline, and count it
            log.info("job %s: its caller key is not held here: using the heuristic learner", job.id)
            if self.uses_caller_key(job.model, job.payload.get("dialect")):
                self.services.metrics.learning_key_fallbacks.inc()
            return HeuristicLearner()
        upstreams = self.services.upstreams
        completer: Completer
        if anthropic:
            completer = AnthropicCompleter(upstreams.anthropic, authorization)
        else:
            completer = ChatCompleter(upstreams, authorization, config.server.upstream_timeout_s)
        return LLMLearner(model, completer, self.services.learning)

    async def run(self, job: Job, authorization: str | None, hold: Hold = _unfenced) -> Outcome:
        """Learn ``job``; ``hold`` is awaited before the first write (raises ``LeaseLost``)."""
        started = time.perf_counter()
        learner = self.learner_for(job, authorization)
        outcome = Outcome(learner=learner.name)
        turn = turn_of(job.payload)
        try:
            settings = await self.services.memory.get_settings(job.tenant, job.user_id)
            if not settings.get("learning_enabled", True):
                outcome.reason = "learning disabled by the user"
            else:
                await self._learn(job, learner, turn, outcome, hold)
        except RetryableError:
            raise
        except (LearningError, MalformedOutput) as exc:
            outcome.error = f"{type(exc).__name__}: {exc}"
            log.warning("learning job %s: %s", job.id, outcome.error)
        outcome.tokens = turn.usage.prompt_tokens + turn.usage.completion_tokens
        outcome.duration_ms = round((time.perf_counter() - started) * 1000, 2)
        if outcome.tokens:
            await self.services.learning.add_usage(
                job.tenant, job.user_id, turn.usage.prompt_tokens, turn.usage.completion_tokens
            )
        return outcome

    async def command(self, job: Job, command: Command) -> Outcome:
        """Carry out one explicit command now (the MCP ``remember`` and ``forget`` tools), the
        way a chat's "remember: …" or "forget …" is learned: its text is scrubbed of PII (fail
        closed), then poisoning check, dedup and replacement, or forget by meaning. A remember
        for a user whose learning is off stores nothing and says so in ``reason``."""
        started = time.perf_counter()
        outcome = Outcome(learner="command", command=command.kind)
        settings = await self.services.memory.get_settings(job.tenant, job.user_id)
        if command.kind == "remember" and not settings.get("learning_enabled", True):
            outcome.reason = "learning disabled by the user"
        else:
            try:
                await self._command(job, command, outcome, _unfenced)
            except (LearningError, MalformedOutput) as exc:
                outcome.error = f"{type(exc).__name__}: {exc}"
                log.warning("explicit %s for a user of tenant %s: %s", command.kind, job.tenant, outcome.error)
        outcome.duration_ms = round((time.perf_counter() - started) * 1000, 2)
        return outcome

    async def _learn(self, job: Job, learner: Learner, turn: Turn, outcome: Outcome, hold: Hold) -> None:
        # the user's own words are checked for steering before any learner reads them: what a
        # learner keeps is rewritten ("you" → "the assistant"), which can hide the attack
        turn.user_text, steering = without_steering(turn.user_text)
        outcome.rejected.extend({"title": "", "reason": reason} for reason in steering)
        if not turn.user_text:
            outcome.reason = "nothing left once the steering was removed"
            return
        command = parse_command(turn.user_text)
        if command is not None:
            outcome.command = command.kind
            await self._command(job, command, outcome, hold)
            return
        if isinstance(learner, HeuristicLearner):
            await self._learn_offline(job, learner, turn, outcome, hold)
            return
        if not heuristic.worth_learning(turn.user_text):
            # no first-person or standing content: an LLM learner is not asked at all
            outcome.reason = "pre-check: nothing about the user in this turn"
            return
        # fail closed: a PiiError ends the job here, nothing of this turn leaves for the model
        turn.user_text, turn.assistant_text, turn.transcript = await self.scrubber.scrub_many(
            [turn.user_text, turn.assistant_text, turn.transcript], keep_names=self.settings.keep_names
        )
        known = await self._known(job, turn.user_text)
        # one upstream call: the score and the items together (``combined``)
        result, items = await learner.learn(turn, self.settings.max_items, known)
        outcome.score, outcome.dimensions, outcome.reason = result.score, result.dimensions, result.reason
        if result.score < self.settings.threshold:
            return
        await self._keep(job, items, result.score, outcome, hold)

    async def _learn_offline(
        self, job: Job, learner: HeuristicLearner, turn: Turn, outcome: Outcome, hold: Hold
    ) -> None:
        result = await learner.score(turn)
        outcome.score, outcome.dimensions, outcome.reason = result.score, result.dimensions, result.reason
        outcome.rejected.extend(_gated(code) for code in turn.rejected)
        if result.score < self.settings.threshold:
            return
        # fail closed: a PiiError ends the job here. The offline learner reads nothing but the
        # user's words: only those are scrubbed (half the scrubber's work per job)
        (turn.user_text,) = await self.scrubber.scrub_many([turn.user_text], keep_names=self.settings.keep_names)
        turn.assistant_text = turn.transcript = ""
        items = await learner.extract(turn, self.settings.max_items)
        await self._keep(job, items, result.score, outcome, hold)

    async def _keep(self, job: Job, items: list[KnowledgeItem], score: float, outcome: Outcome, hold: Hold) -> None:
        # one fact per memory: a compound setup sentence becomes one item per attribute
        items = [part for item in items for part in await asyncio.to_thread(atomic.split_item, item)]
        outcome.items_extracted = len(items)
        await self._scrub_items(items)  # one round trip to the scrubber for all of them
        await hold()
        for item in items:
            # the precision gate, on what would be stored: identifiers go first (``redact``), so a
            # fact that held one is judged without it; an item left empty is _store's (pii-only)
            item.content = await asyncio.to_thread(remove_identifiers, item.content)
            code = gate.item_reason(item) if item.content else None
            if code is not None:
                outcome.rejected.append(_gated(code, item.title))
                continue
            await self._store(job, item, outcome, source="auto", score=score, scrubbed=True)
        await self._limits(job, outcome)

    async def _known(self, job: Job, text: str) -> list[Known]:
        """The user's active memories nearest to this turn, shown to the LLM learner to judge
        its items against (by embedding; by keywords when there is no embedder)."""
        memory = self.services.memory
        found = [m for m, _ in await memory.nearest(job.tenant, job.user_id, text, k=MAX_KNOWN)]
        if not found:
            hits = await memory.search(job.tenant, job.user_id, text, limit=MAX_KNOWN, scope="personal")
            found = [h.memory for h in hits if h.memory.enabled]
        return known_memories([(m.id, m.title) for m in found])

    async def _command(self, job: Job, command: Command, outcome: Outcome, hold: Hold) -> None:
        text = await self.scrubber.scrub(command.text, keep_names=self.settings.keep_names)
        await hold()
        if command.kind == "remember":
            items = await asyncio.to_thread(remember_items, text)
            outcome.items_extracted = len(items)
            if not items:
                outcome.rejected.append({"title": "", "reason": PII_ONLY})
                return
            for item in items:
                await self._store(job, item, outcome, source="manual", score=1.0)
            await self._limits(job, outcome)
            return
        for m in await self._about(job, text):
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
            items = heuristic.extract_items(statement) or [item_from_remember(statement)]
            outcome.items_extracted = len(items)
            for item in items:
                # said beside a forget, not asked to be remembered: the precision gate applies
                code = gate.item_reason(item)
                if code is not None:
                    outcome.rejected.append(_gated(code, item.title))
                    continue
                await self._store(job, item, outcome, source="manual", score=1.0)
            await self._limits(job, outcome)

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
            saying = {m.id: m for m in [*(m for m, _ in near), *hits] if mentions(m, words)}
            kept = [m for m in saying.values() if not await asyncio.to_thread(_names_only_as_old, m, words)]
            if kept:
                return kept
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

    async def _scrub_items(self, items: list[KnowledgeItem]) -> None:
        texts = await self.scrubber.scrub_many(
            [t for item in items for t in (item.title, item.content)], keep_names=self.settings.keep_names
        )
        for k, item in enumerate(items):
            item.title, item.content = texts[2 * k], texts[2 * k + 1]

    async def _store(
        self, job: Job, item: KnowledgeItem, outcome: Outcome, *, source: str, score: float, scrubbed: bool = False
    ) -> None:
        if not scrubbed:
            await self._scrub_items([item])
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
        verdict, why, close = await self._judge(job, item, set(outcome.added), key)
        if verdict == "duplicate":
            await memory.refresh(close[0][0].id)
            outcome.duplicates.append(close[0][0].id)
            return
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
        reviewed = verdict == "supersede" and self._reviewed(why)
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

    def _reviewed(self, why: str) -> bool:
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
        explicit = why.startswith(_SLOT_REASON) or why == _LEARNER_UPDATE
        return self.settings.review_scope == "all" or not explicit

    async def _judge(
        self, job: Job, item: KnowledgeItem, same_turn: set[str], key: Key | None = None
    ) -> tuple[str, str, list[tuple[Memory, float]]]:
        """add / duplicate / supersede against the user's closest active memory (SPEC §4 step 6).

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

    async def _limits(self, job: Job, outcome: Outcome) -> None:
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
