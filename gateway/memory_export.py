"""Export a user's memories as JSON or Markdown, and read back what JSON export writes."""

from __future__ import annotations

import time
from typing import Any

from gateway.memory import Memory, MemoryValidationError, NewMemory

EXPORT_VERSION = 1
_NEW_KEYS = (
    "title",
    "content",
    "category",
    "subcategory",
    "tags",
    "scope",
    "source",
    "source_conversation_id",
    "score",
)


def export_json(tenant: str, user_id: str, memories: list[Memory]) -> dict[str, Any]:
    return {
        "version": EXPORT_VERSION,
        "tenant": tenant,
        "user_id": user_id,
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "memories": [m.to_json() for m in memories],
    }


def export_markdown(user_id: str, memories: list[Memory]) -> str:
    lines = [f"# Memories of {user_id}", ""]
    for m in memories:
        lines.append(f"## {m.title}")
        lines.append("")
        tags = ", ".join(m.tags) if m.tags else "-"
        state = "enabled" if m.enabled else f"disabled ({m.disabled_reason or 'no reason'})"
        lines.append(
            f"- id: `{m.id}` · category: {m.category}{'/' + m.subcategory if m.subcategory else ''} · scope: {m.scope}"
        )
        lines.append(f"- source: {m.source} · score: {m.score:.2f} · {state} · tags: {tags}")
        lines.append(f"- created: {m.created_at} · updated: {m.updated_at}")
        lines.append("")
        lines.append(m.content.strip())
        lines.append("")
    return "\n".join(lines)


def new_memory(data: dict[str, Any], *, allowed: tuple[str, ...] = _NEW_KEYS) -> NewMemory:
    """A ``NewMemory`` from a JSON object; unknown keys and wrong types are errors."""
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise MemoryValidationError(unknown[0], f"unknown field {unknown[0]!r}")
    for key in ("title", "content", "category"):
        if not isinstance(data.get(key), str):
            raise MemoryValidationError(key, f"'{key}' is required and must be a string")
    tags = data.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise MemoryValidationError("tags", "'tags' must be a list of strings")
    subcategory = data.get("subcategory") or ""
    if not isinstance(subcategory, str):
        raise MemoryValidationError("subcategory", "'subcategory' must be a string")
    kwargs: dict[str, Any] = {
        k: data[k] for k in ("scope", "source", "source_conversation_id", "score") if k in data and data[k] is not None
    }
    return NewMemory(
        title=data["title"],
        content=data["content"],
        category=data["category"],
        subcategory=subcategory,
        tags=list(tags),
        **kwargs,
    )


def read_export(data: Any) -> list[NewMemory]:
    """Memories from a JSON export (the object, or just its list of memories)."""
    items = data.get("memories") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise MemoryValidationError("memories", "expected an export object or a list of memories")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise MemoryValidationError(f"memories[{i}]", "each memory must be an object")
        if item.get("enabled") is False:
            continue  # disabled memories stay out of a restore
        fields = {k: item[k] for k in _NEW_KEYS if k in item}
        fields.pop("scope", None)  # imported memories belong to the importing user
        out.append(new_memory(fields))
    return out
