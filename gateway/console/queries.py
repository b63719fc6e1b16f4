"""Read-only views the operator console needs beyond the admin API: the learning trend by
category, learning outcomes by reason, and the tenants that hold memories."""

from __future__ import annotations

import calendar
import time
from dataclasses import dataclass
from typing import Any

from gateway.memory import CATEGORIES
from gateway.services import Services

TREND_DAYS = 30
OUTCOMES = ("stored", "below_threshold", "pii", "poisoning", "duplicate", "superseded", "disabled", "error")
_MAX_LOG_ROWS = 20_000


def last_days(days: int = TREND_DAYS, now: float | None = None) -> list[str]:
    today = time.time() if now is None else now
    return [time.strftime("%Y-%m-%d", time.gmtime(today - 86400 * (days - 1 - i))) for i in range(days)]


async def learned_by_day(services: Services, tenant: str | None, days: list[str]) -> dict[str, dict[str, int]]:
    """day -> category -> memories learned (source auto) that day."""
    rows = await services.memory.store.learned_per_day(days[0], tenant)
    out: dict[str, dict[str, int]] = {d: dict.fromkeys(CATEGORIES, 0) for d in days}
    for day, category, count in rows:
        if day in out and category in out[day]:
            out[day][category] = int(count)
    return out


def outcome_counts(entries: list[dict[str, Any]]) -> dict[str, int]:
    """Learning-log entries -> how many items or turns ended each way."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for e in entries:
        error = str(e.get("error") or "")
        if error:
            counts["pii" if "pii" in error.lower() else "error"] += 1
            continue
        if "disabled" in str(e.get("reason") or "") and e.get("score") is None:
            counts["disabled"] += 1
            continue
        counts["stored"] += len(e.get("added") or [])
        counts["duplicate"] += len(e.get("duplicates") or [])
        counts["superseded"] += len(e.get("superseded") or [])
        rejected = [r for r in e.get("rejected") or [] if isinstance(r, dict)]
        for r in rejected:  # the precision gate's reason codes, each counted on its own
            if r.get("code"):
                key = f"rejected_{r['code']}"
                counts[key] = counts.get(key, 0) + 1
        reasons = [str(r.get("reason", "")) for r in rejected if not r.get("code")]
        counts["poisoning"] += sum(1 for reason in reasons if not reason.startswith("invalid"))
        if e.get("score") is not None and not e.get("items_extracted") and not e.get("command"):
            counts["below_threshold"] += 1
    return counts


async def recent_outcomes(services: Services, tenant: str | None, since_day: str) -> dict[str, int]:
    return outcome_counts(await services.learning.log_since(since_day, tenant, _MAX_LOG_ROWS))


def age(iso: str, now: float) -> tuple[str, int]:
    """How long ago ``iso`` (a stored "2026-11-29T22:10:00Z") was, as (unit, count): "m"
    minutes under an hour, "h" hours under two days, else "d" days (for ``t("age_" + unit)``)."""
    try:
        then = calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))
    except ValueError:
        return "m", 0
    seconds = max(0.0, now - then)
    if seconds < 3600:
        return "m", int(seconds // 60)
    if seconds < 2 * 86400:
        return "h", int(seconds // 3600)
    return "d", int(seconds // 86400)


async def waiting_reviews(services: Services, tenant: str | None) -> int:
    """How many supersedes wait for a decision (one count, no rows read)."""
    _, total = await services.memory.store.reviews(tenant, None, "pending", limit=0, offset=0)
    return total


async def tenants(services: Services) -> list[str]:
    return await services.memory.store.tenants()


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    category: str
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    bars: list[Bar]
    max_value: int
    ticks: list[tuple[float, str]]  # (x, day label) under the axis
    total: int


def stacked_chart(by_day: dict[str, dict[str, int]], width: int = 720, height: int = 220) -> Chart:
    """Stacked bars, one per day, one colour per category, as SVG coordinates."""
    days = list(by_day)
    top, bottom, side = 10, 30, 24
    plot = height - top - bottom
    peak = max([sum(c.values()) for c in by_day.values()] + [1])
    slot = (width - 2 * side) / max(1, len(days))
    bars: list[Bar] = []
    for i, day in enumerate(days):
        y = float(top + plot)
        for category in CATEGORIES:
            count = by_day[day][category]
            if not count:
                continue
            h = plot * count / peak
            y -= h
            x = side + i * slot + 2
            bars.append(
                Bar(round(x, 2), round(y, 2), round(slot - 4, 2), round(h, 2), category, f"{day} {category}: {count}")
            )
    # a label every fifth day, ending on today
    ticks = [(round(side + i * slot + slot / 2, 2), days[i][5:]) for i in range(len(days) - 1, -1, -5)][::-1]
    total = sum(sum(c.values()) for c in by_day.values())
    return Chart(width, height, bars, peak, ticks, total)
