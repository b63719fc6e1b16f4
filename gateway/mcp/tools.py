"""What each MCP tool does, on the same memory service, injection and learning code as chat.

``recall`` is injection's own selection (``gateway.memory.select``) with the injection
filter's options; ``remember`` and a ``forget`` by description are the chat commands run at
once by the learning pipeline (PII scrubbing, poisoning gate, dedup and replacement, forget
by meaning); the others are the user API's service calls. Every call writes one audit entry
(action ``mcp.<tool>``, actor ``mcp:user:<user>``, counts and ids, never text); the changes
themselves are audited by the service as for the API. A refusal or a bad argument is a tool
error (``Answer.error``) with a message a model can act on; nothing here raises past ``call``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import ValidationError

from gateway.errors import GatewayError
from gateway.learning.errors import LearningError
from gateway.learning.privacy.redact import PII_ONLY, remove_identifiers
from gateway.learning.privacy.sensitive import REASON as SENSITIVE
from gateway.learning.steps.commands import Command
from gateway.learning.steps.pipeline_records import Outcome
from gateway.learning.steps.poisoning import is_poisoning
from gateway.mcp import arguments as a
from gateway.mcp.caller import InjectionOptions, McpCaller
from gateway.memory import Memory, MemoryValidationError, render_block, select
from gateway.services import Services
from gateway.store import AuditEntry

log = logging.getLogger("memorelay.mcp")

_PROFILE_TOP = 10
_PROFILE_SCAN = 200


@dataclass(slots=True)
class Answer:
    text: str
    data: dict[str, Any] | None = None
    error: bool = False
    audit: dict[str, Any] = field(default_factory=dict)
    memory_id: str | None = None


class Refused(Exception):
    """A call memorelay will not carry out; the message says why (a tool error)."""


class MemoryTools:
    def __init__(self, services: Services, injection: InjectionOptions) -> None:
        self.services = services
        self.injection = injection

    async def call(self, caller: McpCaller, name: str, arguments: dict[str, Any]) -> Answer:
        """Run tool ``name`` (one of ``arguments.BY_NAME``) for ``caller``."""
        spec = a.BY_NAME[name]
        try:
            args = spec.arguments.model_validate(arguments)
            answer: Answer = await getattr(self, "_" + name)(caller, args)
        except ValidationError as exc:
            answer = Answer(a.problem(exc), error=True, audit={"refused": "invalid arguments"})
        except Refused as exc:
            answer = Answer(str(exc), error=True, audit={"refused": str(exc)[:200]})
        except (MemoryValidationError, GatewayError) as exc:
            answer = Answer(str(exc), error=True, audit={"refused": type(exc).__name__})
        except Exception:  # boundary: a bug answers a tool error, never a traceback
            log.exception("MCP tool %s failed", name)
            answer = Answer("internal gateway error", error=True, audit={"error": "internal"})
        await self._audit(caller, name, answer)
        return answer

    async def _audit(self, caller: McpCaller, name: str, answer: Answer) -> None:
        entry = AuditEntry(
            time=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            actor=f"mcp:user:{caller.user}",
            action=f"mcp.{name}",
            tenant=caller.tenant,
            user_id=caller.user,
            memory_id=answer.memory_id,
            after={"ok": not answer.error, **answer.audit},
        )
        try:
            await self.services.memory.store.audit(entry)
        except Exception:  # boundary: an audit write that fails is logged, the answer still goes out
            log.warning("could not write the audit entry of an MCP %s call", name, exc_info=True)

    # -- reading ------------------------------------------------------------------------------
    async def _recall(self, caller: McpCaller, args: a.RecallArgs) -> Answer:
        options = self.injection
        services = self.services
        chosen = await select(
            services.memory,
            caller.tenant,
            caller.user,
            args.query,
            model=args.model or "",
            context_window=services.model_info.context_window,
            top_k=args.limit or options.top_k,
            budget_percent=options.budget_percent,
            max_tokens=options.max_tokens,
            conversation=caller.conversation,
            category=args.category,
            keep=None if args.kind is None else (lambda m: m.kind == args.kind),
        )
        data = {
            "block": chosen.block,
            "tokens": chosen.tokens,
            "budget": chosen.budget,
            "memories": [_shown(m) for m in chosen.memories],
        }
        text = chosen.block or "No memories match this query."
        return Answer(text, data, audit={"returned": len(chosen.memories), "ids": chosen.ids})

    async def _list(self, caller: McpCaller, args: a.ListArgs) -> Answer:
        items, total = await self.services.memory.list(
            caller.tenant,
            caller.user,
            category=args.category,
            include_disabled=args.include_disabled,
            limit=args.limit,
            offset=args.offset,
            kind=args.kind,
        )
        data = {"data": [_shown(m) for m in items], "total": total, "offset": args.offset}
        return Answer(_json(data), data, audit={"returned": len(items)})

    async def _profile(self, caller: McpCaller, args: a.ProfileArgs) -> Answer:
        text, data = await self.profile(caller)
        return Answer(text, data, audit={"returned": len(data["pinned"]) + len(data["top"])})

    async def profile(self, caller: McpCaller) -> tuple[str, dict[str, Any]]:
        """Pinned memories and the most used enabled facts, as one memory block."""
        memory = self.services.memory
        pinned = await memory.pinned(caller.tenant, caller.user)
        pinned_ids = {m.id for m in pinned}
        recent, _ = await memory.list(caller.tenant, caller.user, limit=_PROFILE_SCAN)
        others = [m for m in recent if m.id not in pinned_ids and m.enabled]
        others.sort(key=lambda m: (m.access_count, m.score, m.updated_at), reverse=True)
        top = others[:_PROFILE_TOP]
        block = render_block(pinned + top, pinned=len(pinned))
        data = {"block": block, "pinned": [_shown(m) for m in pinned], "top": [_shown(m) for m in top]}
        return block or "No memories yet.", data

    # -- changing -----------------------------------------------------------------------------
    async def _remember(self, caller: McpCaller, args: a.RememberArgs) -> Answer:
        if caller.opt_out.learning:
            raise Refused("not stored: this request opted out of learning (X-Memorelay-Opt-Out)")
        outcome = await self._command(caller, Command("remember", args.text))
        if outcome.reason:
            raise Refused(
                "not stored: learning is off for this user (their own setting, or learning.consent: opt_in "
                "before they turned it on)"
            )
        return await self._outcome(caller, outcome)

    async def _forget(self, caller: McpCaller, args: a.ForgetArgs) -> Answer:
        memory = self.services.memory
        if args.id is not None:
            found = await self._own(caller, args.id)
            if not found.enabled:
                raise Refused(f"memory {args.id!r} is already disabled ({found.disabled_reason})")
            await memory.disable(
                caller.tenant, caller.user, found.id, "forgotten at the user's request", actor=self._actor(caller)
            )
            data = {"forgotten": [found.id]}
            return Answer(f"Forgot {found.id}: {found.title}", data, audit=data, memory_id=found.id)
        assert args.description is not None
        return await self._outcome(caller, await self._command(caller, Command("forget", args.description)))

    async def _update(self, caller: McpCaller, args: a.UpdateArgs) -> Answer:
        await self._own(caller, args.id)
        # as learning stores it: the clause that held personal data goes, never a placeholder
        text = await asyncio.to_thread(remove_identifiers, await self._scrubbed(args.text))
        if not text:
            raise Refused("not changed: nothing is left once personal data is removed")
        reason = is_poisoning(text)
        if reason:
            raise Refused(f"not changed: the text reads as an instruction to the assistant ({reason})")
        title = text.split("\n", 1)[0]
        changes = {"content": text, "title": title if len(title) <= 80 else title[:79].rstrip() + "…"}
        updated = await self.services.memory.update(
            caller.tenant, caller.user, args.id, changes, actor=self._actor(caller)
        )
        if updated is None:
            raise Refused(f"no own memory {args.id!r}")
        return Answer(_json(_shown(updated)), _shown(updated), audit={"updated": updated.id}, memory_id=updated.id)

    async def _pin(self, caller: McpCaller, args: a.PinArgs) -> Answer:
        await self._own(caller, args.id)
        updated = await self.services.memory.update(
            caller.tenant, caller.user, args.id, {"pinned": args.pinned}, actor=self._actor(caller)
        )
        if updated is None:
            raise Refused(f"no own memory {args.id!r}")
        said = "Pinned" if args.pinned else "Unpinned"
        return Answer(f"{said} {updated.id}", _shown(updated), audit={"pinned": args.pinned}, memory_id=updated.id)

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _actor(caller: McpCaller) -> str:
        return f"mcp:user:{caller.user}"

    async def _own(self, caller: McpCaller, memory_id: str) -> Memory:
        found = await self.services.memory.get(caller.tenant, caller.user, memory_id)
        if found is None:
            raise Refused(f"no memory {memory_id[:64]!r} for this user")
        if found.scope != "personal":
            raise Refused(f"memory {memory_id!r} is {found.scope}: only an operator can change it")
        return found

    async def _command(self, caller: McpCaller, command: Command) -> Outcome:
        learning = self.services.learning_service
        if learning is None:
            raise Refused("this gateway has no learning filter configured: nothing can be remembered or forgotten")
        outcome = await learning.command(caller.tenant, caller.user, caller.conversation, command)
        if outcome.error:
            raise Refused(f"nothing changed: {outcome.error.split(': ', 1)[-1]}")
        return outcome

    async def _scrubbed(self, text: str) -> str:
        learning = self.services.learning_service
        if learning is None:
            return text
        try:
            return await learning.scrubber.scrub(text, keep_names=learning.options.pii.keep_names)
        except LearningError as exc:  # fail closed: an unscrubbed text is not written
            raise Refused(f"not changed: personal data could not be checked ({exc})") from exc

    async def _outcome(self, caller: McpCaller, outcome: Outcome) -> Answer:
        """What a command did, in words and as data."""
        memory = self.services.memory
        stored = [m for m in [await memory.get(caller.tenant, caller.user, i) for i in outcome.added] if m]
        data: dict[str, Any] = {
            "stored": [_shown(m) for m in stored],
            "duplicates": outcome.duplicates,
            "replaced": outcome.superseded,
            "waiting_for_review": outcome.queued,
            "refused": outcome.rejected,
            "forgotten": outcome.disabled,
        }
        lines = [f"Stored {m.id}: {m.content}" for m in stored]
        lines += [f"Already known as {i} (not stored again)" for i in outcome.duplicates]
        lines += [f"Replaced {s['old']} with {s['new']} ({s['reason']})" for s in outcome.superseded]
        lines += [f"Replacing {q['old']} waits for review ({q['reason']})" for q in outcome.queued]
        lines += [f"Refused: {_REFUSALS.get(r['reason'], r['reason'])}" for r in outcome.rejected]
        lines += [f"Forgot {i}" for i in outcome.disabled]
        audit = {
            "stored": [m.id for m in stored],
            "duplicates": outcome.duplicates,
            "replaced": [s["old"] for s in outcome.superseded],
            "refused": len(outcome.rejected),
            "forgotten": outcome.disabled,
        }
        if outcome.command == "forget" and not outcome.disabled:
            lines.append("No memory of this user means that: nothing forgotten.")
        only_refused = outcome.rejected and not (stored or outcome.duplicates)
        return Answer("\n".join(lines), data, error=bool(only_refused), audit=audit)


# the learning log's reason codes a remember can end with, in words for the agent
_REFUSALS = {
    PII_ONLY: "nothing is left once personal data (PII) is removed",
    SENSITIVE: "it is a health, religion or similar detail about another person",
}


def _shown(m: Memory) -> dict[str, Any]:
    """A memory as a tool shows it: the API's fields without tenant and user."""
    out = m.to_json()
    out.pop("tenant", None)
    out.pop("user_id", None)
    return out


def _json(data: Any) -> str:
    return orjson.dumps(data).decode()
