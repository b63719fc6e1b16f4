"""Consolidation rounds: every user's pass (``consolidation``) and reflection reports
(``reflection``), run by ``memorelay memories consolidate`` and, every
``learning.consolidate_interval_h`` hours, by the gateway itself.

The periodic round runs off the request path: its CPU work (the similarity scan, embedding the
summaries) goes through the memory package's CPU thread at background priority, behind any
chat's query, and it yields between users. With several replicas on one PostgreSQL database
only the holder of the ``consolidation`` advisory lock runs a round, and a round another
replica recorded less than half an interval ago (meta ``last_consolidation``) is skipped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gateway.learning.llm.completers import ChatCompleter
from gateway.learning.upkeep.consolidation import ConsolidationSettings, UserResult, consolidate_user
from gateway.learning.upkeep.reflection import now_iso, tenant_report, user_report
from gateway.learning.upkeep.summaries import LLMSummary, RuleSummary, Summariser
from gateway.memory import MemoryService
from gateway.store import Reflection

if TYPE_CHECKING:
    from gateway.config import Config
    from gateway.learning.options import LearningOptions
    from gateway.learning.parts import LearningParts
    from gateway.upstreams import UpstreamRouter

log = logging.getLogger("memorelay.learning")
LAST = "last_consolidation"
ACTOR = "consolidation"


@dataclass(frozen=True, slots=True)
class RoundSettings:
    consolidation: ConsolidationSettings = field(default_factory=ConsolidationSettings)
    stale_days: float = 60.0


@dataclass(slots=True)
class RoundResult:
    users: list[UserResult] = field(default_factory=list)
    reports: list[Reflection] = field(default_factory=list)
    summariser: str = "rules"
    seconds: float = 0.0
    failed: list[str] = field(default_factory=list)  # "tenant/user" of passes that raised (logged)


def round_settings(options: LearningOptions) -> RoundSettings:
    return RoundSettings(
        ConsolidationSettings(
            merge_threshold=options.consolidate_merge_threshold,
            cluster_threshold=options.consolidate_cluster_threshold,
            min_cluster=options.consolidate_min_cluster,
            max_cluster=options.consolidate_max_cluster,
            small_chars=options.consolidate_small_chars,
            summary_chars=options.consolidate_summary_chars,
        ),
        stale_days=options.reflection_stale_days,
    )


def summariser_for(
    config: Config, upstreams: UpstreamRouter, gateway_key_mode: bool, options: LearningOptions | None
) -> Summariser:
    """The learning model (``learning.model``) when the gateway can ask it with a key of its
    own (a model alias, ``upstreams.default.api_key`` or gateway-key mode); else the rules. A
    caller's pass-through key is never used outside that caller's own requests."""
    model = options.model if options is not None else ""
    if not model or model == "heuristic":
        return RuleSummary()
    key = config.upstreams.default.api_key.get_secret_value()
    if model not in upstreams.aliases and not key and not gateway_key_mode:
        return RuleSummary()
    completer = ChatCompleter(upstreams, f"Bearer {key}" if key else None, config.server.upstream_timeout_s)
    return LLMSummary(model, completer)


async def _since(memory: MemoryService, tenant: str, user_id: str, end: str) -> str | None:
    """Where the next report's period starts: the end of the last one (None: no report yet)."""
    latest = await memory.latest_reflection(tenant, user_id)
    return latest.period_end if latest is not None and latest.period_end < end else None


async def consolidate_round(
    memory: MemoryService,
    settings: RoundSettings,
    summariser: Summariser,
    *,
    tenant: str | None = None,
    user_id: str | None = None,
    dry_run: bool = False,
) -> RoundResult:
    """Consolidate each user (of ``tenant``; only ``user_id`` when given) and, unless
    ``dry_run``, write each one's reflection report and one per tenant."""
    started = time.perf_counter()
    result = RoundResult(summariser=summariser.name)
    owners: dict[str, list[str]] = {}
    for row in await memory.list_users(tenant):
        if user_id is None or row["user_id"] == user_id:
            owners.setdefault(row["tenant"], []).append(row["user_id"])
    # a user without memories (a typo, a deleted account) is not there: no pass and no report
    for owner_tenant, users in owners.items():
        reports: list[Reflection] = []
        for user in users:
            try:
                done = await consolidate_user(
                    memory,
                    owner_tenant,
                    user,
                    settings.consolidation,
                    summariser,
                    actor=ACTOR,
                    dry_run=dry_run,
                )
                report = None
                if not dry_run:
                    end = now_iso()  # after the pass: its writes fall in the period
                    start = await _since(memory, owner_tenant, user, end)
                    report = await user_report(memory, owner_tenant, user, start, end, stale_days=settings.stale_days)
                    await memory.add_reflection(report)
            except Exception as exc:  # boundary: one user's failure (a damaged row) never stops the round
                # the ids and the error's type only: its message may quote a memory
                log.error("consolidation of user %r in tenant %r failed (%s)", user, owner_tenant, type(exc).__name__)
                log.debug("consolidation failure", exc_info=True)
                result.failed.append(f"{owner_tenant}/{user}")
                continue
            result.users.append(done)
            if report is not None:
                reports.append(report)
            await asyncio.sleep(0)  # let requests in between users
        if reports and user_id is None:  # a tenant report sums a whole round of its users
            end = now_iso()
            start = await _since(memory, owner_tenant, "", end)
            first = min(r.period_start for r in reports)
            summed = tenant_report(owner_tenant, reports, start or first, end)
            await memory.add_reflection(summed)
            result.reports.append(summed)
        result.reports.extend(reports)
    result.seconds = time.perf_counter() - started
    return result


async def consolidate_every(services: LearningParts, options: LearningOptions) -> None:
    """Run until cancelled: one round per interval (the first one interval after start)."""
    interval = options.consolidate_interval_h * 3600
    settings = round_settings(options)
    while True:
        await asyncio.sleep(interval)
        try:
            summariser = summariser_for(services.config, services.upstreams, services.auth.gateway_key_mode, options)
            await scheduled_round(services, settings, interval, summariser)
        except Exception:  # boundary: a failed round is logged and tried again next interval
            log.exception("consolidation round failed")


async def scheduled_round(
    services: LearningParts, settings: RoundSettings, interval_s: float, summariser: Summariser
) -> RoundResult | None:
    """One round, unless another replica holds the job or ran it less than half an interval ago."""
    store = services.backend.memories
    async with store.exclusive("consolidation") as held:
        if not held:
            return None
        last = await store.get_meta(LAST)
        if last is not None and time.time() - float(last) < interval_s / 2:
            return None  # another replica did this round
        done = await consolidate_round(services.memory, settings, summariser)
        await store.set_meta(LAST, f"{time.time():.3f}")
        changed = sum(len(u.merges) + len(u.summaries) for u in done.users)
        log.info(
            "consolidation round: %d users, %d merges and summaries, %d reports in %.1f s (%s), %d users failed",
            len(done.users),
            changed,
            len(done.reports),
            done.seconds,
            done.summariser,
            len(done.failed),
        )
        return done
