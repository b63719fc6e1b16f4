"""Explicit memory commands in the latest user turn (SPEC section 4, step 2).

"remember: …", "remember that …", "please remember …", "记住：…", "请记住…" store the stated
text; "forget …", "forget about …", "忘记…", "忘掉…", "不要记…" remove matching memories.
A command skips scoring and extraction, but its text still goes through PII scrubbing, the
poisoning check and dedup. Only a message that *starts* with a trigger is a command, and a
question ("do you remember …?", "记住了吗？") never is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from gateway.learning import heuristic
from gateway.learning.extraction import KnowledgeItem

CommandKind = Literal["remember", "forget"]

_POLITE_EN = (
    r"^\s*(?:(?:hey|hi|ok|okay|so|also|and)[,!\s]+)?(?:(?:please|pls|kindly)\s+)?"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
)
_REMEMBER_EN = re.compile(
    _POLITE_EN + r"(?:remember|memori[sz]e|keep in mind)"
    r"(?:\s+(?:this|that|the following))?(?:\s*[:：\-–—,，]\s*|\s+that\s+|\s+)(?P<text>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_FORGET_EN = re.compile(
    _POLITE_EN + r"(?:forget|unlearn|stop remembering|delete the memory)"
    r"(?:\s+(?:about|that|the fact that))?(?:\s*[:：\-–—,，]\s*|\s+)(?P<text>.+)$",
    re.IGNORECASE | re.DOTALL,
)
_NOT_A_COMMAND_EN = re.compile(
    r"^(?:when|what|how|why|who|where|if|whether|to\s+ask|it|about\s+it|that|this|me)\s*[.!]?$"
    r"|^(?:when|what|how|why|who|where|if|whether)\b",
    re.IGNORECASE,
)
_POLITE_ZH = r"^\s*(?:好的?|那|另外|还有)?[，,\s]*(?:请你?|麻烦你?|帮我|你要|你得|你)?"
_REMEMBER_ZH = re.compile(
    _POLITE_ZH + r"(?:记住|记下|记一下|牢记)(?:一下|这个|这点|这一点)?[：:，,\s]*(?P<text>.+)$",
    re.DOTALL,
)
_FORGET_ZH = re.compile(
    _POLITE_ZH + r"(?:忘记|忘掉|不要再?记住?|别再?记住?)(?:一下)?[：:，,\s]*(?:关于)?"
    r"(?P<text>.+)$",
    re.DOTALL,
)
_QUESTION_ZH = re.compile(r"[吗呢么？?]\s*$|怎么|如何|为什么|怎样")


@dataclass(frozen=True)
class Command:
    """An explicit instruction to store (``remember``) or remove (``forget``) ``text``."""

    kind: CommandKind
    text: str


def parse_command(text: str) -> Command | None:
    """Return the command the message starts with, or ``None``."""
    message = text.strip()
    if not message or message.endswith(("?", "？")):
        return None
    for kind, pattern in (("remember", _REMEMBER_EN), ("forget", _FORGET_EN)):
        m = pattern.match(message)
        if m:
            body = _clean(m.group("text"))
            if body and not _NOT_A_COMMAND_EN.match(body):
                return Command(kind, body)  # type: ignore[arg-type]
            return None
    for kind, pattern in (("remember", _REMEMBER_ZH), ("forget", _FORGET_ZH)):
        m = pattern.match(message)
        if m:
            body = _clean(m.group("text"))
            if body and not _QUESTION_ZH.search(body) and body not in ("了", "了吗", "吧"):
                return Command(kind, body)  # type: ignore[arg-type]
            return None
    return None


def _clean(body: str) -> str:
    return body.strip().strip("\"'“”‘’「」").strip()


def item_from_remember(text: str) -> KnowledgeItem:
    """Build the item for a "remember" command.

    When the text reads as a preference, rule or fact it is rephrased about the user (as the
    heuristic learner does); otherwise it is kept as written with first-person words turned
    into "the user". The category comes from simple word rules: preference words give
    ``user_preference``, technical words ``technical``, else ``domain``.
    """
    body = _clean(text)
    signal = heuristic.detect(body)
    if signal is not None:
        item = heuristic.to_item(signal)
    else:
        content = _about_user(body)
        kind = "preference" if _PREFERENCE.search(body) else "fact"
        category, subcategory = heuristic.categorise(kind, body)
        if category not in ("user_preference", "technical"):
            category, subcategory = "domain", "general"
        item = KnowledgeItem(
            title=_short_title(content),
            content=content,
            category=category,
            subcategory=subcategory,
            tags=[],
        )
    item.tags = ["remember", *[t for t in item.tags if t != "remember"]][:6]
    return item


_PREFERENCE = re.compile(
    r"\b(?:prefer\w*|like|likes|love|hate|dislike|favou?rite|want|wants|always|never|style)\b"
    r"|喜欢|偏好|偏爱|讨厌|希望|习惯|总是|永远|以后|风格",
    re.IGNORECASE,
)


def _about_user(body: str) -> str:
    if re.search(r"[\u3400-\u9fff]", body):
        text = heuristic.about_user_zh(body)
        return text if text.endswith(("。", "！", ".")) else text + "。"
    text = re.sub(r"^(?:i am|i'm)\b", "The user is", body, flags=re.IGNORECASE)
    text = re.sub(r"^my\b", "The user's", text, flags=re.IGNORECASE)
    text = re.sub(r"^our\b", "The user's team's", text, flags=re.IGNORECASE)
    text = re.sub(r"^i\b", "The user", text, flags=re.IGNORECASE)
    text = re.sub(r"^we\b", "The user's team", text, flags=re.IGNORECASE)
    text = heuristic.about_user_en(text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "。")) else text + "."


def _short_title(content: str) -> str:
    first = re.split(r"(?<=[.!?。！？])\s*", content.strip(), maxsplit=1)[0]
    first = first.rstrip(".。!！")
    limit = 30 if re.search(r"[\u3400-\u9fff]", first) else 80
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"
