"""One learning job, top to bottom.

strip own injection → explicit command? → score (threshold) → scrub PII (fail closed)
→ extract → scrub items → reject poisoning → dedup / supersede → store → limits → log.
The LLM learner: local pre-check → scrub PII (fail closed) → ONE upstream call that scores and
extracts (``combined``) → threshold → the same item steps, its ``same_as``/``updates`` verdicts
on the memories it was shown taking part in dedup / supersede.
Nothing here raises past ``run`` except ``RetryableError`` (the worker retries those) and
``LeaseLost``: before its first write of a job (memories added, disabled, refreshed or evicted)
the pipeline awaits ``hold``, which confirms the worker still holds the job's lease and raises
``LeaseLost`` if another worker claimed it meanwhile (see ``gateway.learning.runtime.workers``).

The stages live beside it: what a job keeps (``job_payload``), the explicit commands
(``explicit_commands``), the store stage (``store_items``) and its verdicts (``verdicts``),
and the records they share (``pipeline_records``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime

from gateway.learning.errors import LearningError, MalformedOutput
from gateway.learning.llm.combined import MAX_KNOWN, Known, known_memories
from gateway.learning.llm.completers import AnthropicCompleter, ChatCompleter, Completer
from gateway.learning.llm.learners import HeuristicLearner, Learner, LLMLearner, RetryableError, Turn
from gateway.learning.offline import atomic, heuristic
from gateway.learning.parts import LearningParts
from gateway.learning.privacy.redact import remove_identifiers
from gateway.learning.steps import gate
from gateway.learning.steps.commands import Command, parse_command
from gateway.learning.steps.explicit_commands import ExplicitCommands
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.job_payload import turn_of
from gateway.learning.steps.pipeline_records import Hold, Outcome, PipelineSettings, Scrubber, gated, unfenced
from gateway.learning.steps.poisoning import without_steering
from gateway.learning.steps.reasons import without_reasons
from gateway.learning.steps.statement import anchor_dates, checked, title_without_passing, without_passing
from gateway.learning.steps.store_items import ItemStore
from gateway.learning.steps.verdicts import Verdicts
from gateway.store import Job

log = logging.getLogger("memorelay.learning")


class Pipeline:
    def __init__(self, services: LearningParts, settings: PipelineSettings, scrubber: Scrubber) -> None:
        self.services = services
        self.settings = settings
        self.scrubber = scrubber
        self.items = ItemStore(services, settings, scrubber, Verdicts(services, settings))
        self.commands = ExplicitCommands(services, settings, scrubber, self.items)

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
        # a conversation's own Anthropic model is asked on the Anthropic upstream (``learning.model`` empty)
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

    async def run(self, job: Job, authorization: str | None, hold: Hold = unfenced) -> Outcome:
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
                await self.commands.run(job, command, outcome, unfenced)
            except (LearningError, MalformedOutput) as exc:
                outcome.error = f"{type(exc).__name__}: {exc}"
                log.warning("explicit %s for a user of tenant %s: %s", command.kind, job.tenant, outcome.error)
        outcome.duration_ms = round((time.perf_counter() - started) * 1000, 2)
        return outcome

    async def _learn(self, job: Job, learner: Learner, turn: Turn, outcome: Outcome, hold: Hold) -> None:
        # the user's own words are checked for steering before any learner reads them: what a
        # learner keeps is rewritten ("you" → "the assistant"), which can hide the attack
        said = turn.user_text
        turn.user_text, steering = without_steering(turn.user_text)
        outcome.rejected.extend({"title": "", "reason": reason} for reason in steering)
        if not turn.user_text:
            outcome.reason = "nothing left once the steering was removed"
            return
        opening = parse_command(said) if steering else None
        if opening is not None and opening.kind == "remember":
            # one memory asked for, part of it steering: refused whole, as the API refuses it
            # (what is left of it, a label claiming a system voice or a fact it chose, is the attack's)
            outcome.reason = "a remember command that steers the assistant"
            return
        command = parse_command(turn.user_text)
        if command is not None:
            outcome.command = command.kind
            await self.commands.run(job, command, outcome, hold)
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
        await self._keep(job, items, result.score, outcome, hold, turn.time)

    async def _learn_offline(
        self, job: Job, learner: HeuristicLearner, turn: Turn, outcome: Outcome, hold: Hold
    ) -> None:
        result = await learner.score(turn)
        outcome.score, outcome.dimensions, outcome.reason = result.score, result.dimensions, result.reason
        outcome.rejected.extend(gated(code) for code in turn.rejected)
        if result.score < self.settings.threshold:
            return
        # fail closed: a PiiError ends the job here. The offline learner reads nothing but the
        # user's words: only those are scrubbed (half the scrubber's work per job)
        (turn.user_text,) = await self.scrubber.scrub_many([turn.user_text], keep_names=self.settings.keep_names)
        turn.assistant_text = turn.transcript = ""
        items = await learner.extract(turn, self.settings.max_items)
        await self._keep(job, items, result.score, outcome, hold, turn.time, rewritten=True)

    async def _keep(
        self,
        job: Job,
        items: list[KnowledgeItem],
        score: float,
        outcome: Outcome,
        hold: Hold,
        now: datetime,
        *,
        rewritten: bool = False,
    ) -> None:
        """Store what a learner found. ``now`` is the conversation's time (relative dates are made
        absolute against it); ``rewritten`` marks the offline learner's own rewrites of the user's
        words, which are also checked as sentences (``statement``): a model's items, an explicit
        command's and a consolidation's are not."""
        # one fact per memory: a compound setup sentence becomes one item per attribute
        items = [part for item in items for part in await asyncio.to_thread(atomic.split_item, item)]
        outcome.items_extracted = len(items)
        await self.items.scrub_items(items)  # one round trip to the scrubber for all of them
        await hold()
        for item in items:
            # the precision gate, on what would be stored: identifiers go first (``redact``), so a
            # fact that held one is judged without it; an item left empty is _store's (pii-only)
            item.content = await asyncio.to_thread(remove_identifiers, item.content)
            # "moved yesterday" is wrong tomorrow: the date it means
            item.content, item.title = anchor_dates(item.content, now), anchor_dates(item.title, now)
            if rewritten and item.content:
                # a mood beside the fact ("…，烦死了") goes before the gate reads the fact
                item.content = await asyncio.to_thread(without_passing, item.content, item.kind)
                # "…because the hall was double-booked": the fact without someone else's reason
                if item.kind != "rule":
                    item.content, item.title = without_reasons(item.content), without_reasons(item.title)
            code = gate.item_reason(item) if item.content else None
            if code is None and rewritten and item.content:
                # the offline rewrite, parsed as it would be stored: off the event loop
                item.content, code = await asyncio.to_thread(checked, item.content, item.kind)
                item.title = title_without_passing(item.title) if item.kind != "rule" else item.title
            if code == "unspecific" and await self.items.retract(job, item, outcome):
                continue  # "quit streaming": too bare for a memory, but it says what is gone
            if code is not None:
                outcome.rejected.append(gated(code, item.title))
                continue
            await self.items.store(job, item, outcome, source="auto", score=score, scrubbed=True)
        await self.items.limits(job, outcome)

    async def _known(self, job: Job, text: str) -> list[Known]:
        """The user's active memories nearest to this turn, shown to the LLM learner to judge
        its items against (by embedding; by keywords when there is no embedder)."""
        memory = self.services.memory
        found = [m for m, _ in await memory.nearest(job.tenant, job.user_id, text, k=MAX_KNOWN)]
        if not found:
            hits = await memory.search(job.tenant, job.user_id, text, limit=MAX_KNOWN, scope="personal")
            found = [h.memory for h in hits if h.memory.enabled]
        return known_memories([(m.id, m.title) for m in found])
