"""Field validation for new memories and updates; every error names its field."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from .kinds import KINDS, derive_kind
from .types import CATEGORIES, SCOPES, SOURCES, MemoryValidationError, NewMemory

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


def new_memory(item: NewMemory) -> NewMemory:
    """Return a normalised copy of ``item`` or raise MemoryValidationError."""
    if item.scope not in SCOPES:
        raise MemoryValidationError("scope", f"must be one of {', '.join(SCOPES)}")
    if item.source not in SOURCES:
        raise MemoryValidationError("source", f"must be one of {', '.join(SOURCES)}")
    conv = item.source_conversation_id
    if conv is not None and not isinstance(conv, str):
        raise MemoryValidationError("source_conversation_id", "must be a string")
    clean = NewMemory(
        title=title(item.title),
        content=content(item.content),
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
