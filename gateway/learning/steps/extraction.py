"""Knowledge items and the tolerant parser of the extraction model's answer (SPEC 4, step 5).

The model should answer a JSON array of ``{"title", "content", "kind", "category",
"subcategory", "tags"}`` (or ``{"items": [...]}`` where a provider forces an object). Real answers come
wrapped in code fences or prose; ``parse_items`` finds the JSON, keeps the valid items and
drops the rest. ``find_json`` is shared with the scoring parser.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any

from gateway.learning.errors import MalformedOutput
from gateway.learning.offline.slots import normalise_slot
from gateway.memory.types import CATEGORIES

__all__ = [
    "CATEGORIES",
    "KINDS",
    "KnowledgeItem",
    "MalformedOutput",
    "entries_of",
    "find_json",
    "normalise_kind",
    "parse_items",
    "validate_item",
]
log = logging.getLogger("memorelay.learning")

MAX_TITLE = 200
MAX_CONTENT = 2000
MAX_TAGS = 10
MAX_TAG_LEN = 40
MAX_SUBCATEGORY = 64

_CATEGORY_SYNONYMS = {
    "preference": "user_preference",
    "preferences": "user_preference",
    "user_preferences": "user_preference",
    "userpreference": "user_preference",
    "user": "user_preference",
    "personal": "user_preference",
    "habit": "user_preference",
    "habits": "user_preference",
    "behavior": "user_preference",
    "behaviour": "user_preference",
    "style": "user_preference",
    "用户偏好": "user_preference",
    "偏好": "user_preference",
    "行为习惯": "user_preference",
    "tech": "technical",
    "technology": "technical",
    "technical_knowledge": "technical",
    "engineering": "technical",
    "技术": "technical",
    "技术知识": "technical",
    "biz": "business",
    "business_knowledge": "business",
    "业务": "business",
    "业务知识": "business",
    "org": "organizational",
    "organization": "organizational",
    "organisation": "organizational",
    "organisational": "organizational",
    "organizational_knowledge": "organizational",
    "relationship": "organizational",
    "relationships": "organizational",
    "组织": "organizational",
    "组织知识": "organizational",
    "关系知识": "organizational",
    "domain_knowledge": "domain",
    "knowledge": "domain",
    "general": "domain",
    "领域": "domain",
    "领域知识": "domain",
}
_LIST_KEYS = ("items", "memories", "knowledge", "results", "data")
KINDS = ("fact", "preference", "relation", "episode", "rule")
_KIND_SYNONYMS = {
    "facts": "fact",
    "entity": "fact",
    "attribute": "fact",
    "事实": "fact",
    "实体": "fact",
    "preferences": "preference",
    "like": "preference",
    "倾向": "preference",
    "偏好": "preference",
    "relations": "relation",
    "relationship": "relation",
    "person": "relation",
    "关系": "relation",
    "episodes": "episode",
    "event": "episode",
    "情节": "episode",
    "事件": "episode",
    "rules": "rule",
    "instruction": "rule",
    "规则": "rule",
}
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_MAX_SCAN = 200


@dataclass
class KnowledgeItem:
    """One memory to be stored: a fact about the user or their world."""

    title: str
    content: str
    category: str
    subcategory: str = ""
    tags: list[str] = field(default_factory=list)
    kind: str = "fact"
    slot: str | None = None  # profile slot (``gateway.learning.offline.slots``); same slot, new value supersedes
    # the LLM learner's judgement against a memory it was shown (``combined``): its id, validated
    same_as: str | None = None
    updates: str | None = None


def find_json(raw: str) -> Any:
    """Return the first JSON object or array in a model answer.

    Tries, in order: fenced code blocks, the whole answer, then every ``{`` or ``[`` from the
    left (``raw_decode``), each also with trailing commas removed. Raises ``MalformedOutput``
    when none decodes.
    """
    if not isinstance(raw, str):
        raise MalformedOutput(f"model answer is {type(raw).__name__}, not text")
    candidates = [m.group(1) for m in _FENCE.finditer(raw)] + [raw]
    for candidate in candidates:
        value = _decode_first(candidate)
        if value is not None:
            return value
    raise MalformedOutput("no JSON object or array in the model answer")


def _decode_first(text: str) -> Any:
    decoder = json.JSONDecoder()
    for variant in (text, _TRAILING_COMMA.sub(r"\1", text)):
        stripped = variant.strip()
        try:
            value = json.loads(stripped)
        except ValueError:
            pass
        else:
            if isinstance(value, dict | list):
                return value
        starts = [i for i, c in enumerate(variant) if c in "{["][:_MAX_SCAN]
        for i in starts:
            try:
                value, _ = decoder.raw_decode(variant, i)
            except ValueError:
                continue
            if isinstance(value, dict | list):
                return value
    return None


def parse_items(raw: str, *, max_items: int = 5) -> list[KnowledgeItem]:
    """Parse the extraction answer into at most ``max_items`` valid items.

    Invalid items (unknown category, no content, not an object) are dropped. Over-long titles
    and contents are cut to ``MAX_TITLE``/``MAX_CONTENT``. Raises ``MalformedOutput`` when the
    answer holds no JSON, or JSON of an unusable shape.
    """
    return [item for item, _ in entries_of(find_json(raw), max_items=max_items)]


def entries_of(value: Any, *, max_items: int = 5) -> list[tuple[KnowledgeItem, dict[str, Any]]]:
    """The valid items of a decoded answer (``parse_items``; also the ``items`` of a combined
    answer, see ``combined``), each with the raw entry it came from."""
    if isinstance(value, dict):
        listed = next((value[k] for k in _LIST_KEYS if isinstance(value.get(k), list)), None)
        if listed is not None:
            value = listed
        elif "content" in value or "title" in value:
            value = [value]
        elif not value or any(k in value for k in _LIST_KEYS):
            return []
        else:
            raise MalformedOutput("JSON object without an items list")
    if not isinstance(value, list):
        raise MalformedOutput("items are not a JSON array")
    items: list[tuple[KnowledgeItem, dict[str, Any]]] = []
    for entry in value:
        item = validate_item(entry)
        if item is not None and isinstance(entry, dict):
            items.append((item, entry))
        if len(items) >= max_items:
            break
    return items


def validate_item(entry: object) -> KnowledgeItem | None:
    """Normalise one decoded entry, or return ``None`` when it cannot be a memory."""
    if not isinstance(entry, dict):
        return None
    category = normalise_category(entry.get("category"))
    content = _text(entry.get("content"))
    title = _one_line(_text(entry.get("title")))
    if category is None or not (content or title):
        return None
    content = content or title
    if not title:
        title = _one_line(content)
    return KnowledgeItem(
        title=_cut(title, MAX_TITLE),
        content=_cut(content, MAX_CONTENT),
        category=category,
        subcategory=_subcategory(entry.get("subcategory")),
        tags=_tags(entry.get("tags")),
        kind=normalise_kind(entry.get("kind")),
        slot=normalise_slot(entry.get("slot")),
    )


def normalise_kind(value: object) -> str:
    """One of ``KINDS``; a missing or unknown kind is a ``fact`` (an unknown one is logged)."""
    if value is None or value == "":
        return "fact"
    key = str(value).strip().lower() if isinstance(value, str) else ""
    kind = key if key in KINDS else _KIND_SYNONYMS.get(key)
    if kind is None:
        log.info("the learner gave an unknown kind %r: stored as a fact", str(value)[:40])
        return "fact"
    return kind


def normalise_category(value: object) -> str | None:
    """Map a model's category to one of ``CATEGORIES``; ``None`` when unknown."""
    if not isinstance(value, str):
        return None
    key = re.sub(r"[\s\-/]+", "_", value.strip().lower())
    if key in CATEGORIES:
        return key
    return _CATEGORY_SYNONYMS.get(key) or _CATEGORY_SYNONYMS.get(key.replace("_", ""))


def _text(value: object) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _one_line(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return re.sub(r"\s+", " ", first.strip().lstrip("#*- ").strip())


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _subcategory(value: object) -> str:
    text = _one_line(_text(value)).lower()
    return re.sub(r"[\s\-]+", "_", text)[:MAX_SUBCATEGORY]


def _tags(value: object) -> list[str]:
    if isinstance(value, str):
        value = re.split(r"[,，;；]", value)
    if not isinstance(value, list):
        return []
    tags: list[str] = []
    seen: set[str] = set()
    for raw in value:
        tag = _one_line(_text(raw)).lstrip("#").strip()
        if not tag or len(tag) > MAX_TAG_LEN or tag.lower() in seen:
            continue
        seen.add(tag.lower())
        tags.append(tag)
        if len(tags) >= MAX_TAGS:
            break
    return tags
