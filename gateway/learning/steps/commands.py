"""Explicit memory commands in the latest user turn (SPEC section 4, step 2).

"remember: …", "remember that …", "please remember …", "note that …", "记住：…", "请记住…" store the stated
text; "forget …", "forget about …", "忘记…", "忘掉…", "不要记…" remove matching memories.
A command skips scoring and extraction, but its text still goes through PII scrubbing, the
poisoning check and dedup. A remember is a command only when the message *starts* with it,
and a question ("do you remember …?", "记住了吗？") never is. A request to forget may also
stand in the middle of a message and be asked politely ("quick thing - can you forget where I
live?", "could you delete what I told you about my salary?", "另外把我住哪儿的信息删掉吧"):
the rest of the message is then the statement learned beside it. A topic that names an
attribute rather than its value ("where I live", "my job", "我住哪") also finds the memories
holding that attribute's key (``slot_word``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from gateway.learning.offline import atomic, chinese, english, heuristic
from gateway.learning.offline.keys import derive_key
from gateway.learning.privacy.redact import remove_identifiers
from gateway.learning.steps import gate
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.memory import Memory

CommandKind = Literal["remember", "forget"]

_POLITE_EN = (
    r"^\s*(?:(?:hey|hi|ok|okay|so|also|and)[,!\s]+)?(?:(?:please|pls|kindly)\s+)?"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:(?:do me a favou?r(?: and|,)|just|now)\s+)?"
)
_REMEMBER_EN = re.compile(
    _POLITE_EN + r"(?:remember|memori[sz]e|keep (?:(?:this|that|it) )?in mind|(?:just )?for (?:your )?future reference"
    r"|(?:make a |take )?note(?= that\b| down\b|\s*:)(?: down)?)"
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
    """Return the command the message starts with, or a request to forget inside it, or ``None``."""
    message = text.strip()
    if not message:
        return None
    command = _leading(message) if not message.endswith(("?", "？")) else None
    return command or _forget_inside(message)


def _leading(message: str) -> Command | None:
    for kind, pattern in (("remember", _REMEMBER_EN), ("forget", _FORGET_EN)):
        m = pattern.match(message)
        if m:
            body = _clean(m.group("text"))
            if kind == "forget":
                body = _ABOUT_EN.sub("", body)
            if body and (not _NOT_A_COMMAND_EN.match(body) or kind == "forget" and slot_words(body)):
                if kind == "remember":
                    return Command("remember", body)
                command = _forget(body)
                if _NOT_A_COMMAND_EN.match(command.text) and not slot_words(command.text):
                    return None  # "ok, forget it. Let's do the recipe."
                return command
            return None
    for kind, pattern in (("remember", _REMEMBER_ZH), ("forget", _FORGET_ZH)):
        m = pattern.match(message)
        if m:
            body = _clean(m.group("text"))
            if body and not _QUESTION_ZH.search(body) and body not in ("了", "了吗", "吧"):
                return _forget(body) if kind == "forget" else Command("remember", body)
            return None
    return None


# a clause that asks to forget, wherever it stands: after the start, a sentence end or a dash
_CLAUSE_START = re.compile(r"(?:^|(?<=[.!?;:。！？；：])\s*|\s+[-–—]+\s+|(?<=[，,])\s*)")
_ASK_EN = re.compile(
    r"(?:(?:hey|hi|ok|okay|so|also|and|oh|btw|actually|one more thing|quick thing)[,!\s]+)*"
    r"(?:(?:please|pls|kindly)\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+|pls\s+|just\s+)?)?"
    r"(?:please\s+|pls\s+|just\s+)?",
    re.IGNORECASE,
)
_FORGET_VERB_EN = re.compile(
    r"(?:forget|unlearn|stop remembering|don'?t remember|no need to remember)\b(?:\s+(?:about|that|the fact that))?"
    r"(?P<text>[^?!.;]+)",
    re.IGNORECASE,
)
# "delete", "scratch" … are also tasks ("delete the second paragraph"): only with a memory as object
_ERASE_EN = re.compile(
    r"(?:delete|remove|erase|scratch|drop|wipe|clear|get rid of)\s+(?P<text>"
    r"(?:what|everything|anything|all|the stuff|the things?)\s+(?:i|we)\s+(?:said|told you|mentioned|wrote|shared)\b"
    r"[^?!.;]*"
    r"|(?:the|that|my|any)\s+(?:memory|memories|note|notes|info|information|thing|bit|part|stuff|details?)\s+"
    r"(?:about|on|regarding|of)\b[^?!.;]*"
    r"|[^?!.;]*?\b(?:from|in|out of) (?:your|the) memory\b[^?!.;]*)",
    re.IGNORECASE,
)
_ERASE_ZH = re.compile(
    r"^(?:另外|还有|对了|顺便|然后|以及)?[，,\s]*(?:请你?|麻烦你?|帮我|你)?(?:把|将)?"
    r"(?P<text>[^，,。！？!?；;]{1,30}?)(?:你|也)?(?:帮我|给我)?(?:删了|删掉|删除|去掉|清掉|抹掉|忘了|忘掉"
    r"|(?P<unkept>(?:就|也)?(?:别再?|不要再?|不用再?)记(?:住|着|下来)?了))"
)
# a Chinese topic to delete must name what was kept, or an earlier one now old ("之前那个…旧数"): a task
# ("把第二段删掉") is none
_KEPT_ZH = re.compile(
    r"存的|记的|记住的|信息|那条|这条|记录|说过|说的|告诉你|资料|我住|我的|(?:之前|以前|原来)那个.*旧"
)
_META = re.compile(
    r"\b(?:sav(?:e|ed|ing)|stor(?:e|ed|ing)|remember(?:ed|ing)?|memor(?:y|ies)|keep (?:it|that|this)|on file"
    r"|coming up|hanging around|written down|(?:your|the) notes|on record)\b|存|记住|记下|记录|保存|留着",
    re.IGNORECASE,
)


def _forget_inside(message: str) -> Command | None:
    """A request to forget that is not the message's opening, or is asked as a question ("can
    you forget where I live?"); the rest of the message, less what only speaks of storing it,
    is the statement beside it."""
    for start in _CLAUSE_START.finditer(message):
        at = opened = start.end()
        rest = message[at:]
        if re.search(r"[\u3400-\u9fff]", rest[:2]):
            m = _ERASE_ZH.match(rest)
            if m is None or re.fullmatch(r"[你您][也就]?", m.group("text")):  # "你忘掉吧": no topic of its own
                m = _FORGET_ZH.match(rest)
            if m is None or (m.re is _FORGET_ZH and at == 0):
                continue  # a "忘记…" opening the message is ``_leading``'s
            topic = m.group("text")
            if _QUESTION_ZH.search(re.split(r"[。！？!?；;]", rest, maxsplit=1)[0]):
                continue
            # "阿泽礼物那件事别记了": the verb itself speaks of what was kept
            if m.re is _ERASE_ZH and not m.group("unkept") and not _KEPT_ZH.search(topic):
                continue
            if m.re is _FORGET_ZH:
                topic = re.split(r"[，,。！？!?；;]", topic, maxsplit=1)[0]
                if _PARTICLES_ONLY.match(topic):
                    # "之前说的豆瓣那个，你忘掉吧": the topic is the clause before the verb
                    topic = _topic_before(message[:at])
                    if not topic:
                        continue
                    opened = message.rfind(topic, 0, at)
            topic = _zh_topic(topic)
            if m.re is _FORGET_ZH:
                end = _clause_end(message, at + m.start("text") + len(m.group("text")))
            else:  # "…那条你删了吧 现在都在杭州": what follows the verb is said beside it
                end = at + m.end()
                end += len(message[end:]) - len(message[end:].lstrip("吧哈啊呀了"))
        else:
            lead = _ASK_EN.match(rest)
            body = rest[lead.end() if lead else 0 :]
            m = _FORGET_VERB_EN.match(body) or _ERASE_EN.match(body)
            if m is None or (at == 0 and lead is not None and not lead.group(0) and m.re is _FORGET_VERB_EN):
                continue  # a plain "forget …" opening the message is ``_leading``'s
            inner = _forget(m.group("text"))
            topic = _en_topic(inner.text)
            end = _clause_end(message, at + (lead.end() if lead else 0) + m.end())
            if inner.statement:
                end = at + (lead.end() if lead else 0) + m.start("text")  # said in the same clause
                end = message.find(inner.text, end) + len(inner.text) if inner.text in message[end:] else end
        if not topic or (_NOT_A_COMMAND_EN.match(topic) and not slot_words(topic)):
            continue
        before = message[:opened].rstrip()
        if re.search(r"[-–—:：]$", before) and not re.search(r"[.!?。！？；;]", before):
            before = ""  # "quick thing before my question - can you forget …": a lead-in, no fact
        around = f"{before}\n{message[end:].lstrip()}"
        kept = [s for s in heuristic.split_sentences(around) if s.strip(" -–—,，") and not _META.search(s)]
        said = " ".join(s.strip(" -–—,，") for s in kept).strip()
        said = re.sub(r"(?<=[。！？；])\s+(?=[\u3400-\u9fff])", "", said)
        # only what the learner reads as a statement: a question or a greeting beside it is none
        return Command("forget", topic, said if said and heuristic.signals(said) else None)
    return None


_PARTICLES_ONLY = re.compile(r"^[吧了啊呀哈嘛哦吗]*$")


def _topic_before(before: str) -> str:
    """The clause just before a bare "忘掉吧" in the same sentence: what it asks to forget."""
    sentence = re.split(r"[。！？!?；;]", before.rstrip("，, "))[-1]
    clause = re.split(r"[，,]", sentence)[-1].strip()
    return clause if len(re.findall(r"[\u3400-\u9fff]", clause)) >= 2 else ""


def _clause_end(message: str, at: int) -> int:
    m = re.compile(r"[.!?;。！？；]+\s*").search(message, at)
    return m.end() if m else len(message)


_TOPIC_LEAD_EN = re.compile(
    r"^\s*(?:(?:what|everything|anything|all|the stuff|the things?)\s+(?:i|we)\s+(?:said|told you|mentioned|wrote"
    r"|shared)(?:\s+(?:before|earlier|previously))?(?:\s+(?:about|regarding|on))?"
    r"|(?:the|that|my|any)\s+(?:memory|memories|note|notes|info|information|thing|bit|part|stuff|details?)\s+"
    r"(?:about|on|regarding|of)|(?:i|we) (?:said|told you|mentioned)(?: that)?|about|that|the fact that)\s+",
    re.IGNORECASE,
)
_TOPIC_TAIL_EN = re.compile(
    r"\s+(?:from (?:before|earlier)|(?:that )?you (?:saved|stored|have|kept|noted)(?: down)?|(?:from|in|out of)"
    r" (?:your|the) memory|for me|please|pls|too|as well|thing|stuff|bit|part|business|one)\s*$",
    re.IGNORECASE,
)


def _en_topic(raw: str) -> str:
    topic = _clean(raw)
    for _ in range(3):
        m = _THING_EN.match(topic)
        topic = _TOPIC_TAIL_EN.sub("", _TOPIC_LEAD_EN.sub("", m.group(1) if m else topic)).strip()
    return _clean(topic).rstrip(",， ")


def _zh_topic(raw: str) -> str:
    topic = re.sub(r"^(?:之前|以前|上次|刚才)?(?:你)?(?:存的|记的|记住的|说过的|说的|告诉你的)", "", raw.strip())
    topic = re.sub(r"^(?:之前|以前|上次|刚才)(?:我)?(?:说|提|讲)(?:过)?(?:的)?", "", topic)  # "之前说我在豆瓣…"
    topic = re.sub(r"^(?:之前|以前|原来)那个", "", topic)  # "之前那个房贷8600的旧数": the earlier one
    topic = re.sub(r"(?:的)?(?:那个|这个)$", "", topic)  # "…标记读书那个": that one
    topic = re.sub(r"(?:的)?(?:信息|那条|这条|记录|资料|事情|事)+$", "", topic).strip()
    m = _THING_ZH.match(topic)
    return _clean(m.group(1) if m else topic)


_ABOUT_EN = re.compile(
    r"^(?:(?:what|everything|anything|all) (?:i|we) (?:said|told you|mentioned|wrote) (?:about|regarding|on)"
    r"|(?:everything|anything) (?:about|regarding)|about|that|the fact that)\s+",
    re.IGNORECASE,
)
_THING_EN = re.compile(r"^(?:the|my|our)\s+(.+?)\s+(?:thing|stuff|bit|part|business|one)$", re.IGNORECASE)
_THING_ZH = re.compile(
    r"^(?:关于|我说过的|我说的|之前说的)?(.+?)(?:的事情|的事|这件事情?|这事|那件事|的那件事|这一点|这条)?[了吧啊呀]*$"
)
_REST_SPLIT = re.compile(r"(?:[,;，；。.!！?？]\s*|\s+[-–—]\s+)")


def _forget(body: str) -> Command:
    """Split "X, <new statement>" into the topic to forget and the statement to learn."""
    body = _TOPIC_LEAD_EN.sub("", body)  # "that I said I wear size 11": what was said
    parts = _REST_SPLIT.split(body, maxsplit=1)
    topic = parts[0].strip()
    rest = parts[1].strip() if len(parts) > 1 else ""
    if re.search(r"[\u3400-\u9fff]", topic):
        topic = _zh_topic(topic)
    else:
        topic = _en_topic(topic)
    # what only speaks of the storing ("I don't want that saved") is no statement
    rest = " ".join(s for s in heuristic.split_sentences(rest) if not _META.search(s))
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
_READ_WHOLE = 0.75


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
    # the learner's one reading stands for the text only when it says most of it ("还有以后给我推荐餐厅别推
    # 有香菜的，我一点都吃不了" is not "用户一点都吃不了")
    if signal is not None and signal.kind != "correction" and _coverage(body, [signal.content]) >= _READ_WHOLE:
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
    did have has had not no just also really very any all some so then now old previous former current earlier
    before new fine""".split()
)
_STOP_ZH = frozenset(
    "我 我们 你 用户 的 了 是 在 和 就 都 也 这 那 个 事 这件事 吧 啊 呢 说 过 有 要"
    " 之前 以前 原来 那个 这个 那条 这条".split()
)


# a topic that names an attribute, not its value: the keys (``keys``) of the memories it means
_SLOT_TOPICS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(
            r"\bwhere (?:i|we) (?:live|stay|am based|'m based|reside)\b|\bmy (?:home |street |postal )?(?:address|city"
            r"|town|location|neighbou?rhood)\b|\bwhere (?:my|our) (?:home|flat|house|place) is\b"
            r"|住(?:在)?哪|住址|地址|住的地方|家在哪|住在什么地方|居住地|所在城市",
            re.IGNORECASE,
        ),
        ("home.city", "team.city"),
    ),
    (re.compile(r"\bwhere i'?m from\b|\bmy hometown\b|老家|家乡", re.IGNORECASE), ("home.origin",)),
    (
        re.compile(
            r"\bwhere (?:i|we) work\b|\bmy (?:old |previous |former |current )?(?:job|employer|workplace|role"
            r"|position|occupation)\b|在哪(?:上班|工作)|我的工作|工作单位|(?:我的|我)?职位",
            re.IGNORECASE,
        ),
        ("work.employer", "work.role"),
    ),
    (re.compile(r"\bmy diet\b|\bwhat i (?:eat|don'?t eat)\b|饮食|忌口", re.IGNORECASE), ("diet",)),
    (re.compile(r"\b(?:my|our|the) budget\b|预算", re.IGNORECASE), ("trip.budget",)),
    (re.compile(r"\b(?:my|our) team(?:'s)? size\b|团队(?:有)?多少人|团队规模", re.IGNORECASE), ("team.size",)),
)
_SLOT = "slot:"
_WHERE_ZH = frozenset("哪 哪儿 哪里 什么地方 地方 信息".split())
# the words a topic names an attribute with (``_SLOT_TOPICS``), no value of it
_ATTRIBUTE_WORDS = frozenset(
    """where live stay based reside home street postal address city town location neighbourhood neighborhood
    flat house place hometown work job employer workplace role position occupation diet eat don't budget team
    team's size 住址 地址 工作 职位 饮食 忌口 预算 团队 规模 老家 家乡 居住地 城市 所在 上班 单位""".split()
)


def slot_words(topic: str) -> set[str]:
    """The keys a topic names by its attribute ("where I live" → the home), as ``slot:<key>``
    words that ``mentions`` matches against a memory's key."""
    return {_SLOT + slot for pattern, slots in _SLOT_TOPICS if pattern.search(topic) for slot in slots}


def _clause_keys(content: str) -> set[str]:
    """The keys of a memory's clauses: one that says several things is keyed by its first only."""
    clauses = [c for c in re.split(r"[,;，；。]|\s+(?:and|but|so)\s+", content) if len(c.strip()) > 3]
    if len(clauses) < 2:
        return set()
    subject = "The user " if not re.search(r"[\u3400-\u9fff]", content) else "用户"
    found = {derive_key(c if c.lower().startswith(("the user", "用户")) else subject + c.strip()) for c in clauses}
    return {k for k in found if k}


def topic_words(topic: str) -> set[str]:
    """Content words of a forget topic (lower-case English words, Chinese words of 2+ characters),
    and the keys it names by their attribute (``slot_words``)."""
    words = {w for w in re.findall(r"[a-z0-9][a-z0-9+#.'-]*", topic.lower()) if w not in _STOP_EN and len(w) > 1}
    cjk = "".join(re.findall(r"[\u3400-\u9fff]+", topic))
    slots = slot_words(topic)
    if cjk:
        words |= {w for w in chinese.words(cjk) if len(w) >= 2 and w not in _STOP_ZH and w not in _WHERE_ZH}
    words = {w.rstrip(".") for w in words} - _ATTRIBUTE_WORDS
    # "where I live" names the attribute only: its key; "my job at Initech" names a value too
    return words if words else slots


def _spread(word: str, text: str) -> bool:
    """Whether a Chinese verb-object ``word`` stands in ``text`` with a few characters between
    its parts ("养猫" in "养了一只橘猫"), within one clause."""
    if not 2 <= len(word) <= 4:
        return False
    gap = r"[^，,。；;！!？?\s]{0,4}?"
    return re.search(gap.join(re.escape(c) for c in word), text) is not None


def mentions(memory: Memory, words: set[str]) -> bool:
    """Whether a memory's text holds one of ``words`` (English on word boundaries), or its key is
    one a ``slot:`` word names."""
    text = f"{memory.title}\n{memory.content}".lower()
    for w in words:
        if w.startswith(_SLOT):
            if memory.slot == w[len(_SLOT) :] or w[len(_SLOT) :] in _clause_keys(memory.content):
                return True
            continue
        if re.search(r"[\u3400-\u9fff]", w):
            if w in text or _spread(w, text):
                return True
        elif re.search(rf"(?<![a-z0-9]){re.escape(w)}(?:s|es)?(?![a-z0-9])", text):
            return True
    return False
