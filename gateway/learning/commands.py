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

from gateway.learning import atomic, chinese, english, gate, heuristic
from gateway.learning.extraction import KnowledgeItem
from gateway.learning.keys import derive_key
from gateway.learning.redact import remove_identifiers
from gateway.memory import Memory

CommandKind = Literal["remember", "forget"]

_POLITE_EN = (
    r"^\s*(?:(?:hey|hi|ok|okay|so|also|and)[,!\s]+)?(?:(?:please|pls|kindly)\s+)?"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:(?:do me a favou?r(?: and|,)|just|now)\s+)?"
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
    """An explicit instruction to store (``remember``) or remove (``forget``) ``text``.

    A forget command may also state something new ("forget the Steam Deck thing, we target
    the Switch now"): that part is ``statement``, learned after the forgetting.
    """

    kind: CommandKind
    text: str
    statement: str | None = None


def parse_command(text: str) -> Command | None:
    """Return the command the message starts with, or ``None``."""
    message = text.strip()
    if not message or message.endswith(("?", "？")):
        return None
    for kind, pattern in (("remember", _REMEMBER_EN), ("forget", _FORGET_EN)):
        m = pattern.match(message)
        if m:
            body = _clean(m.group("text"))
            if kind == "forget":
                body = _ABOUT_EN.sub("", body)
            if body and not _NOT_A_COMMAND_EN.match(body):
                return _forget(body) if kind == "forget" else Command("remember", body)
            return None
    for kind, pattern in (("remember", _REMEMBER_ZH), ("forget", _FORGET_ZH)):
        m = pattern.match(message)
        if m:
            body = _clean(m.group("text"))
            if body and not _QUESTION_ZH.search(body) and body not in ("了", "了吗", "吧"):
                return _forget(body) if kind == "forget" else Command("remember", body)
            return None
    return None


_ABOUT_EN = re.compile(
    r"^(?:(?:what|everything|anything|all) (?:i|we) (?:said|told you|mentioned|wrote) (?:about|regarding|on)"
    r"|(?:everything|anything) (?:about|regarding)|about|that|the fact that)\s+",
    re.IGNORECASE,
)
_THING_EN = re.compile(r"^(?:the|my|our)\s+(.+?)\s+(?:thing|stuff|bit|part|business|one)$", re.IGNORECASE)
_THING_ZH = re.compile(
    r"^(?:关于|我说过的|我说的|之前说的)?(.+?)(?:的事情|的事|这件事情?|这事|那件事|的那件事|这一点|这条)?[了吧啊呀]*$"
)
_REST_SPLIT = re.compile(r"(?:[,;，；。.!！]\s*|\s+[-–—]\s+)")


def _forget(body: str) -> Command:
    """Split "X, <new statement>" into the topic to forget and the statement to learn."""
    parts = _REST_SPLIT.split(body, maxsplit=1)
    topic = parts[0].strip()
    rest = parts[1].strip() if len(parts) > 1 else ""
    if re.search(r"[\u3400-\u9fff]", topic):
        m = _THING_ZH.match(topic)
        topic = (m.group(1) if m else topic).strip()
    else:
        m = _THING_EN.match(topic)
        topic = m.group(1) if m else topic
    statement = rest if len(re.findall(r"\w+", rest)) >= 3 or len(re.findall(r"[\u3400-\u9fff]", rest)) >= 4 else None
    return Command("forget", _clean(topic) or body, statement)


def _clean(body: str) -> str:
    return body.strip().strip("\"'“”‘’「」").strip()


def remember_item(scrubbed: str) -> KnowledgeItem | None:
    """The item of a "remember" command whose text was scrubbed: the identifiers and the
    phrases that carried them removed (``redact``), the fact kept; None when nothing is left."""
    text = remove_identifiers(scrubbed)
    if not text:
        return None
    item = item_from_remember(text)
    item.content = remove_identifiers(item.content)
    return item if item.content else None


def remember_items(scrubbed: str) -> list[KnowledgeItem]:
    """The items of a "remember" command: one per fact when the text states several that the
    learner reads whole (what it would drop, a name or a detail, keeps the text in one piece),
    else the one item of ``remember_item``; none when only identifiers were said."""
    item = remember_item(scrubbed)
    if item is None:
        return []
    text = remove_identifiers(scrubbed)
    parts = [p for p in heuristic.extract_items(text, max_items=8) if p.kind != "correction"]
    parts = [atom for p in parts for atom in atomic.split_item(p)]
    if len(parts) < 2 or _coverage(text, [p.content for p in parts]) < _WHOLE:
        return [item]
    slots = {derive_key(p.content) for p in parts}
    if len(slots - {None}) < 2:
        return [item]  # split only what holds two attributes that may change on their own
    if any(gate.item_reason(p) is not None for p in parts):
        return [item]  # a part that would not stand alone ("The user's staging database lives.")
    for part in parts:
        part.tags = ["remember", *[t for t in part.tags if t != "remember"]][:6]
    return parts


_WHOLE = 0.8


def _coverage(text: str, contents: list[str]) -> float:
    """How much of ``text`` the items say: its content words (Chinese: its characters)."""
    said = " ".join(contents).lower()
    if re.search(r"[\u3400-\u9fff]", text):
        chars = [c for c in re.findall(r"[\u3400-\u9fff]", text) if c not in "我们的了是在和也就都你"]
        return sum(c in said for c in chars) / max(1, len(chars))
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9'-]*", text.lower()) if w not in _STOP_EN]
    return sum(w in said for w in words) / max(1, len(words))


def item_from_remember(text: str) -> KnowledgeItem:
    """Build the item for a "remember" command.

    When the text reads as a preference, rule or fact it is rephrased about the user (as the
    heuristic learner does); otherwise it is kept as written with first-person words turned
    into "the user". The category comes from simple word rules: preference words give
    ``user_preference``, technical words ``technical``, else ``domain``.
    """
    body = _clean(text)
    signal = heuristic.detect(body)
    if signal is not None and signal.kind != "correction":
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
            kind=kind,
            slot=derive_key(content),
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
        text = chinese._about_user(body, chinese._we_phrase(body))
        return text if text.endswith(("。", "！", ".")) else text + "。"
    return english.rephrase(_task(body)) or body


def _task(body: str) -> str:
    """ "Remember: send the weekly report on Fridays" is a task of the user's ("The user needs
    to send …"); an instruction about the user ("call me after 6pm") stays as it is."""
    pipeline = english.nlp()
    with english._parse_lock:
        doc = pipeline(body)
    sent = next(iter(doc.sents), None)
    if sent is None:
        return body
    root = sent.root
    subject = any(c.dep_ in {"nsubj", "nsubjpass", "expl"} for c in root.children)
    if root.tag_ != "VB" or subject or root.i != sent.start or any(t.lower_ in {"me", "us"} for t in sent):
        return body
    return "I need to " + body[:1].lower() + body[1:]


def _short_title(content: str) -> str:
    first = re.split(r"(?<=[.!?。！？])\s*", content.strip(), maxsplit=1)[0]
    first = first.rstrip(".。!！")
    limit = 30 if re.search(r"[\u3400-\u9fff]", first) else 80
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


_STOP_EN = frozenset(
    """a an the and or but of to in on at for with by from about as is are was were be been am i me my mine we us
    our ours you your user user's that this these those it its what said told thing stuff bit part being do does
    did have has had not no just also really very any all some so then now""".split()
)
_STOP_ZH = frozenset("我 我们 你 用户 的 了 是 在 和 就 都 也 这 那 个 事 这件事 吧 啊 呢 说 过 有 要".split())


def topic_words(topic: str) -> set[str]:
    """Content words of a forget topic (lower-case English words, Chinese words of 2+ characters)."""
    words = {w for w in re.findall(r"[a-z0-9][a-z0-9+#.'-]*", topic.lower()) if w not in _STOP_EN and len(w) > 1}
    cjk = "".join(re.findall(r"[\u3400-\u9fff]+", topic))
    if cjk:
        words |= {w for w in chinese.words(cjk) if len(w) >= 2 and w not in _STOP_ZH}
    return {w.rstrip(".") for w in words}


def mentions(memory: Memory, words: set[str]) -> bool:
    """Whether a memory's text holds one of ``words`` (English on word boundaries)."""
    text = f"{memory.title}\n{memory.content}".lower()
    for w in words:
        if re.search(r"[\u3400-\u9fff]", w):
            if w in text:
                return True
        elif re.search(rf"(?<![a-z0-9]){re.escape(w)}(?:s|es)?(?![a-z0-9])", text):
            return True
    return False
