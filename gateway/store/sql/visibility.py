"""The WHERE clauses that key every read of memories by tenant and user."""

from __future__ import annotations

from typing import Any

from ..keyword_index import SHARED_OWNER
from ..records import Visibility


def visible(where: Visibility, *, enabled_only: bool | None = None) -> tuple[str, list[Any]]:
    """The clause (``?`` placeholders, without ``WHERE``) for the rows ``where`` may read:
    own personal (when ``user_id`` is set) plus the tenant's shared and system ones, narrowed
    by its filters; ``enabled_only`` overrides ``where.include_disabled``."""
    clauses = ["tenant = ?"]
    args: list[Any] = [where.tenant]
    if where.personal_only or where.scope == "personal":
        if where.user_id is None:
            clauses.append("FALSE")
        else:
            clauses.append("scope = 'personal' AND user_id = ?")
            args.append(where.user_id)
    elif where.user_id is None:
        clauses.append("scope IN ('shared', 'system')")
    else:
        clauses.append("(scope IN ('shared', 'system') OR (scope = 'personal' AND user_id = ?))")
        args.append(where.user_id)
    for column, value in (("scope", where.scope), ("category", where.category), ("kind", where.kind)):
        if value is not None:
            clauses.append(f"{column} = ?")
            args.append(value)
    if enabled_only if enabled_only is not None else not where.include_disabled:
        clauses.append("enabled")
    return " AND ".join(clauses), args


def partition(tenant: str, owner: str) -> tuple[str, list[Any]]:
    """The clause for one partition: a user's personal rows, or (``SHARED_OWNER``) the
    tenant's shared and system rows."""
    if owner == SHARED_OWNER:
        return "tenant = ? AND scope IN ('shared', 'system')", [tenant]
    return "tenant = ? AND scope = 'personal' AND user_id = ?", [tenant, owner]
