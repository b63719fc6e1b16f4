"""Timestamps as stored and returned: ISO 8601 UTC with second precision."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now_iso(offset: timedelta | None = None) -> str:
    """Now (plus ``offset``) as "2026-11-29T22:10:00Z"."""
    moment = datetime.now(UTC) + (offset or timedelta())
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
