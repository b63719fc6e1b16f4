"""Export a user's memories as JSON, Markdown or CSV, and read back what JSON export writes
(an import adds only what the user does not have yet, so running it twice is harmless)."""

from __future__ import annotations

import csv
import io
import time
from typing import Any

from gateway.memory import Memory, MemoryValidationError, NewMemory, derive_kind

EXPORT_VERSION = 1
_NEW_KEYS = (
    "title",
    "content",
    "category",
    "subcategory",
    "kind",
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


def _md(text: str) -> str:
    """Text for the Markdown export with raw HTML escaped: a viewer that renders Markdown
    shows ``<script>`` as text instead of running it (``&`` first, so entities stay literal)."""
    return text.replace("&", "&amp;").replace("<", "&lt;")


def export_markdown(user_id: str, memories: list[Memory]) -> str:
    lines = [f"# Memories of {_md(user_id)}", ""]
    for m in memories:
        lines.append(f"## {_md(m.title)}")
        lines.append("")
        tags = _md(", ".join(m.tags)) if m.tags else "-"
        state = "enabled" if m.enabled else f"disabled ({_md(m.disabled_reason or 'no reason')})"
        sub = "/" + _md(m.subcategory) if m.subcategory else ""
        lines.append(f"- id: `{m.id}` · kind: {m.kind} · category: {m.category}{sub} · scope: {m.scope}")
        lines.append(f"- source: {m.source} · score: {m.score:.2f} · {state} · tags: {tags}")
        lines.append(f"- created: {m.created_at} · updated: {m.updated_at}")
        lines.append("")
        lines.append(_md(m.content.strip()))
        lines.append("")
    return "\n".join(lines)


CSV_COLUMNS = (
    "id",
    "tenant",
    "user_id",
    "scope",
    "category",
    "subcategory",
    "kind",
    "slot",
    "title",
    "content",
    "tags",
    "source",
    "source_conversation_id",
    "score",
    "enabled",
    "disabled_reason",
    "created_at",
    "updated_at",
    "access_count",
    "last_access_at",
)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value: Any) -> str:
    """A cell a spreadsheet shows as text: one that would start a formula gets a leading quote
    (OWASP's advice against CSV injection); None is empty, booleans are true/false."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        value = ";".join(str(v) for v in value)
    text = str(value)
    if isinstance(value, str) and text.startswith(_FORMULA_STARTS):
        return "'" + text
    return text


def export_csv(memories: list[Memory]) -> str:
    """A header row, then one row per memory (the SPEC section 4 fields; tags joined by ``;``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for m in memories:
        data = m.to_json()
        writer.writerow([_csv_cell(data[key]) for key in CSV_COLUMNS])
    return out.getvalue()


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
    # a file written before memories had a kind: the kind is derived as the migrations do
    kind = data.get("kind")
    if kind is None:
        kind = derive_kind(data["category"], subcategory, data["title"], data["content"], tags)
    return NewMemory(
        title=data["title"],
        content=data["content"],
        category=data["category"],
        subcategory=subcategory,
        tags=list(tags),
        kind=kind,
        **kwargs,
    )


def read_export(data: Any) -> list[NewMemory]:
    """Memories from a JSON export (the object, or just its list of memories)."""
    return [item for _, item in read_export_with_ids(data)]


def read_export_with_ids(data: Any) -> list[tuple[str | None, NewMemory]]:
    """Like ``read_export``, each memory with the id it had when exported (None if absent)."""
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
        exported_id = item.get("id")
        out.append((exported_id if isinstance(exported_id, str) else None, new_memory(fields)))
    return out


def not_yet_present(items: list[tuple[str | None, NewMemory]], existing: list[Memory]) -> tuple[list[NewMemory], int]:
    """The items to add so that importing the same export twice adds nothing the second time:
    an item is skipped when the user already has a memory with its exported id (restoring
    into the same user) or with the same title and content (imported before, under a new
    id), disabled ones included; returns (to add, skipped)."""
    ids = {m.id for m in existing}
    seen = {(m.title, m.content) for m in existing}
    fresh: list[NewMemory] = []
    for exported_id, item in items:
        key = (item.title, item.content)
        if (exported_id is not None and exported_id in ids) or key in seen:
            continue
        seen.add(key)
        fresh.append(item)
    return fresh, len(items) - len(fresh)
