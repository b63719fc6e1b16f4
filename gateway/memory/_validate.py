"""Field validation for new memories and updates; every error names its field."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from gateway.store.kinds import KINDS, derive_kind

from .types import CATEGORIES, SCOPES, SOURCES, MemoryPoisoning, MemoryValidationError, NewMemory

MAX_TITLE = 200
MAX_CONTENT = 8000
MAX_SUBCATEGORY = 100
MAX_TAGS = 20
MAX_TAG = 50

USER_UPDATE_KEYS = frozenset({"title", "content", "category", "subcategory", "kind", "tags", "enabled", "pinned"})
ADMIN_UPDATE_KEYS = USER_UPDATE_KEYS | {"score", "disabled_reason"}


def _no_nul(field_name: str, text: str) -> str:
    # PostgreSQL text cannot hold NUL; refused on every backend, so both store the same
    if "\x00" in text:
        raise MemoryValidationError(field_name, "must not contain NUL characters")
    return text


def title(value: Any) -> str:
    if not isinstance(value, str):
        raise MemoryValidationError("title", "must be a string")
    text = _no_nul("title", str(value).strip())
    if not text:
        raise MemoryValidationError("title", "must not be empty")
    if "\n" in text or "\r" in text:
        raise MemoryValidationError("title", "must be one line")
    if len(text) > MAX_TITLE:
        raise MemoryValidationError("title", f"must be at most {MAX_TITLE} characters")
    return text


def content(value: Any) -> str:
    if not isinstance(value, str):
        raise MemoryValidationError("content", "must be a string")
    text = _no_nul("content", str(value).strip())
    if not text:
        raise MemoryValidationError("content", "must not be empty")
    if len(text) > MAX_CONTENT:
        raise MemoryValidationError("content", f"must be at most {MAX_CONTENT} characters")
    return text


def category(value: Any) -> str:
    if value not in CATEGORIES:
        raise MemoryValidationError("category", f"must be one of {', '.join(CATEGORIES)}")
    return str(value)


def kind(value: Any) -> str:
    if value not in KINDS:
        raise MemoryValidationError("kind", f"must be one of {', '.join(KINDS)}")
    return str(value)


def subcategory(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or "\n" in value:
        raise MemoryValidationError("subcategory", "must be a one-line string")
    text = _no_nul("subcategory", str(value).strip())
    if len(text) > MAX_SUBCATEGORY:
        raise MemoryValidationError("subcategory", f"must be at most {MAX_SUBCATEGORY} characters")
    return text


def tags(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise MemoryValidationError("tags", "must be a list of strings")
    out: list[str] = []
    for tag in value:
        if not isinstance(tag, str):
            raise MemoryValidationError("tags", "must be a list of strings")
        tag = _no_nul("tags", tag.strip())
        if not tag:
            continue
        if len(tag) > MAX_TAG or "\n" in tag:
            raise MemoryValidationError("tags", f"each tag must be one line of at most {MAX_TAG}")
        if tag not in out:
            out.append(tag)
    if len(out) > MAX_TAGS:
        raise MemoryValidationError("tags", f"at most {MAX_TAGS} tags")
    return out


def enabled(value: Any) -> bool:
    if not isinstance(value, bool):
        raise MemoryValidationError("enabled", "must be a boolean")
    return value


def pinned(value: Any) -> bool:
    if not isinstance(value, bool):
        raise MemoryValidationError("pinned", "must be a boolean")
    return value


def score(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise MemoryValidationError("score", "must be a number")
    if not 0.0 <= float(value) <= 1.0:
        raise MemoryValidationError("score", "must be between 0 and 1")
    return float(value)


def identity(tenant: Any, user_id: Any, scope: str) -> tuple[str, str]:
    if not isinstance(tenant, str) or not tenant:
        raise MemoryValidationError("tenant", "must be a non-empty string")
    if scope == "personal":
        if not isinstance(user_id, str) or not user_id:
            raise MemoryValidationError("user_id", "is required for personal memories")
        return tenant, user_id
    return tenant, ""


# a key's later segments may hold a name or value in any script ("rel.mia.age", "taste.咖啡")
_SLOT = re.compile(r"[a-z][a-z0-9_]*(?:\.\w+)*")
MAX_SLOT = 64


def slot(value: Any) -> str | None:
    """A profile slot such as ``home.city``: lower-case dotted words, or None."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_SLOT or not _SLOT.fullmatch(value) or value != value.casefold():
        raise MemoryValidationError("slot", "must be lower-case dotted words such as 'home.city'")
    return value


def not_poisoning(title_text: str, content_text: str) -> None:
    """Raise ``MemoryPoisoning`` when the text steers the assistant (the learner's check)."""
    from gateway.learning.steps.poisoning import is_poisoning  # a pure function; imported late: learning imports memory

    reason = is_poisoning(f"{title_text}\n{content_text}")
    if reason is not None:
        raise MemoryPoisoning(reason)


def new_memory(item: NewMemory) -> NewMemory:
    """Return a normalised copy of ``item`` or raise MemoryValidationError."""
    if item.scope not in SCOPES:
        raise MemoryValidationError("scope", f"must be one of {', '.join(SCOPES)}")
    if item.source not in SOURCES:
        raise MemoryValidationError("source", f"must be one of {', '.join(SOURCES)}")
    conv = item.source_conversation_id
    if conv is not None and not isinstance(conv, str):
        raise MemoryValidationError("source_conversation_id", "must be a string")
    checked_title, checked_content = title(item.title), content(item.content)
    not_poisoning(checked_title, checked_content)
    clean = NewMemory(
        title=checked_title,
        content=checked_content,
        category=category(item.category),
        subcategory=subcategory(item.subcategory),
        tags=tags(item.tags),
        scope=item.scope,
        source=item.source,
        source_conversation_id=conv,
        score=score(item.score),
        slot=slot(item.slot),
        pinned=pinned(item.pinned),
        kind=kind(item.kind) if item.kind else "",
    )
    if not clean.kind:  # a caller that names no kind (a console form, a plugin): as older rows
        clean.kind = derive_kind(clean.category, clean.subcategory, clean.title, clean.content, clean.tags)
    return clean


_FIELD_CHECKS = {
    "title": title,
    "content": content,
    "category": category,
    "subcategory": subcategory,
    "kind": kind,
    "tags": tags,
    "enabled": enabled,
    "pinned": pinned,
    "score": score,
}


def changes(raw: dict[str, Any], allowed: frozenset[str]) -> dict[str, Any]:
    """Validate an update's changes against the allowed keys."""
    if not isinstance(raw, dict):
        raise MemoryValidationError("body", "must be an object")
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in allowed:
            raise MemoryValidationError(str(key), "cannot be changed")
        if key == "disabled_reason":
            if value is not None and not isinstance(value, str):
                raise MemoryValidationError(key, "must be a string")
            out[key] = value
        else:
            out[key] = _FIELD_CHECKS[key](value)
    return out


# -- stored rows (a backup being restored): the API's rules, and what the API would have set --
MAX_ID = 256  # as the user and conversation ids of requests (gateway.chat.identity)


def stored_id(field_name: str, value: Any, *, empty: bool = False) -> str:
    """An id as the gateway writes them: a printable string of at most ``MAX_ID`` characters."""
    if not isinstance(value, str):
        raise MemoryValidationError(field_name, "must be a string")
    if not value and not empty:
        raise MemoryValidationError(field_name, "must not be empty")
    if len(value) > MAX_ID or not value.isprintable():
        raise MemoryValidationError(field_name, f"must be printable and at most {MAX_ID} characters")
    return value


def stored_time(field_name: str, value: Any, *, optional: bool = False) -> None:
    from datetime import datetime

    if value is None and optional:
        return
    if not isinstance(value, str):
        raise MemoryValidationError(field_name, "must be an ISO 8601 time")
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise MemoryValidationError(field_name, "must be an ISO 8601 time") from None


def _optional_text(field_name: str, value: Any) -> None:
    if value is not None and not isinstance(value, str):
        raise MemoryValidationError(field_name, "must be a string or null")
    if value is not None:
        _no_nul(field_name, value)


def stored_memory(m: Any) -> None:
    """Raise ``MemoryValidationError`` (naming the field) unless ``m`` (a ``Memory``) is a row
    the API could have stored: the create rules for its text fields, and its ids, scope,
    source, flags, counts and times of the right kinds."""
    stored_id("id", m.id)
    if m.scope not in SCOPES:
        raise MemoryValidationError("scope", f"must be one of {', '.join(SCOPES)}")
    stored_id("tenant", m.tenant)
    stored_id("user_id", m.user_id, empty=m.scope != "personal")
    if m.scope != "personal" and m.user_id:
        raise MemoryValidationError("user_id", f"must be empty for {m.scope} memories")
    if m.source not in SOURCES:
        raise MemoryValidationError("source", f"must be one of {', '.join(SOURCES)}")
    for name, check in (("title", title), ("content", content), ("subcategory", subcategory)):
        if check(getattr(m, name)) != (getattr(m, name) or ""):
            raise MemoryValidationError(name, "must not start or end with white space")
    category(m.category)
    if not isinstance(m.tags, list) or tags(m.tags) != m.tags:
        raise MemoryValidationError("tags", "must be a list of distinct, non-empty one-line strings")
    slot(m.slot)
    score(m.score)
    enabled(m.enabled)
    pinned(m.pinned)
    _optional_text("disabled_reason", m.disabled_reason)
    if m.source_conversation_id is not None:
        stored_id("source_conversation_id", m.source_conversation_id)
    if isinstance(m.access_count, bool) or not isinstance(m.access_count, int) or m.access_count < 0:
        raise MemoryValidationError("access_count", "must be a whole number, at least 0")
    stored_time("created_at", m.created_at)
    stored_time("updated_at", m.updated_at)
    stored_time("last_access_at", m.last_access_at, optional=True)
