"""The values a statement says are gone: "moved from Cardiff to Newport", "ditched Duolingo",
"not home workouts anymore", "instead of Jest", "switched Asana for Jira", "Asana → Jira",
"不考雅思了", "飞书不续费了", "从顺丰换成京东".

A change that names the value it leaves replaces what the user said about that value, whatever
attribute that memory was keyed under: the old sentence's key comes from the frame it was said
in ("trains at home", "has dumbbells for home workouts"), the new one's from the new wording, and
the two rarely agree. The value itself is what both share. ``named_old`` reads those values off a
memory's sentence, ``holds`` says whether another memory names one of them, and ``current_part``
is the sentence without the clauses that only say what is gone ("the user is in Chapel Allerton
now" from "Finally out of Headingley, the user is in Chapel Allerton now"), so the memory of the
change states the current value only.
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff]")
_DET = r"(?:(?:the|a|an|my|our|their|his|her|its|that|those|all|any)\s+)?"
# a short noun phrase: up to three words, ended by punctuation, a connector or a preposition
_ENDS = r"(?:and|so|but|because|since|as|to|for|with|in|at|on|now|any|anymore)\b"
_PHRASE = rf"(?P<old>[\w'+#.-]+(?:\s+(?!{_ENDS})[\w'+#-]+){{0,2}})"
_GONE_VERB = (
    r"ditched|dropped(?: out of)?|quits?|left|cancel+ed|gave up(?: on)?|given up(?: on)?|gives up(?: on)?|sold"
    r"|got rid of|pulled out of|resign(?:ed|s)? from|stepped down from|withdr(?:awn|ew|aws) from|bowed out of"
    r"|pack(?:ed|s)? in|jack(?:ed|s)? in"
    r"|(?:is|am|are|'m|'s)\s+(?:so\s+|totally\s+|completely\s+|well\s+)?(?:done with|sick of|fed up with)"
    r"|moved out of|moved away from|switched away from|stopped(?: using| going to| doing| eating| drinking| playing)?"
)
_EN = [
    re.compile(
        r"\b(?:moved|switched|changed|went|gone|migrated|upgraded|downgraded|transferred|converted|shifted"
        rf"|relocated|swapped|ported)\s+(?:[\w'-]+\s+){{0,3}}?(?:(?:away\s+)?from|off(?:\s+of)?)\s+{_DET}{_PHRASE}\s+(?:to|into|onto)\b",
        re.I,
    ),
    re.compile(rf"\binstead of\s+{_DET}{_PHRASE}", re.I),
    re.compile(rf"\b(?:switched|swapped|traded|exchanged|replaced)\s+{_DET}{_PHRASE}\s+(?:for|with)\b", re.I),
    # "ditched Duolingo", "left the bank": said of the user, not "their left knee"
    re.compile(
        r"(?:^|[,;:]\s*|\b(?:user|they|we|has|have|had|just|already|finally|also|and|then|recently|so)\s+)"
        rf"(?:{_GONE_VERB})\s+{_DET}{_PHRASE}",
        re.I,
    ),
    re.compile(
        r"\bno longer\s+(?:(?:uses?|using|eats?|eating|does|doing|at|on|in|with|a|an|the|goes to|plays?)\s+)?"
        + _PHRASE,
        re.I,
    ),
    re.compile(
        rf"\bnot\s+(?:(?:fully|really|strictly|totally|on|using|doing|at|in)\s+)?{_PHRASE}\s+any ?(?:more|longer)\b",
        re.I,
    ),
    re.compile(r"(?P<old>[\w+#.-]+(?:\s[\w+#.-]+)?)\s*(?:→|->|=>)\s*\w", re.I),
    # "flying to Oslo now, not Bergen": the new value, then the one it leaves
    re.compile(rf"\bnow,?\s+(?:and\s+)?not\s+(?:in\s+|at\s+|on\s+)?{_DET}{_PHRASE}", re.I),
]
_ZH_VALUE = r"(?P<old>[\u4e00-\u9fffA-Za-z0-9+#.\-]{2,8}?)"
_ZH_VERB = r"用|考|吃|喝|去|做|玩|学|住|开|坐|养|练|穿|买|续费|订|在"
_ZH = [
    re.compile(rf"从\s*{_ZH_VALUE}\s*(?:换|改|转|搬|迁|调|切|跳槽|辞职|离职)"),
    # "不再收勃艮第了": any verb of one or two characters after 不再 (both readings are tried)
    re.compile(rf"不再[\u4e00-\u9fff]{_ZH_VALUE}\s*了"),
    re.compile(rf"不再[\u4e00-\u9fff]{{2}}{_ZH_VALUE}\s*了"),
    re.compile(rf"不(?:再)?(?:{_ZH_VERB})\s*{_ZH_VALUE}\s*了"),
    re.compile(rf"不是\s*{_ZH_VALUE}\s*了"),
    re.compile(rf"没(?:再|让)\s*{_ZH_VALUE}\s*(?:做|用|去|弄)"),
    # "没在幼儿园干了": no longer working there
    re.compile(rf"(?:没|不)(?:再)?在\s*{_ZH_VALUE}\s*(?:干|做|上班|工作|待|呆)(?:了|啦)"),
]
# a value said before its negation: "飞书不续费了", "泳池太远就不去了" (the clause's topic)
# or said sold, returned or thrown out: "索尼出掉了", "旧车卖掉了"
_ZH_PARTED = r"卖|出|退|扔|转手|送人|处理"
_ZH_TOPIC_GONE = re.compile(
    rf"^(?P<topic>[^，,；;。]+?)(?:用户)?(?:已经|也|就|都)?(?:(?:不|冇)(?:再)?(?:{_ZH_VERB})?|(?:{_ZH_PARTED})掉?)(?:了|啦)"
)
_GENERIC = frozenset(
    """it that this them these those one ones thing things stuff lot bit job place time work way kind sort
    user the a an my our their his her something everything anything whole idea plan
    lol haha tbh lmao honestly""".split()
)
_TASTE = re.compile(r"(?:like|love|enjoy|hate|dislike|prefer|want|mind|care)\b", re.I)
_STOP = frozenset("a an the of to in on at for with by and or my our their his her its is are was".split())
_INLINE = [
    (re.compile(rf"\s+(?:(?:away\s+)?from|off(?:\s+of)?)\s+{_DET}{_PHRASE}(?=\s+(?:to|into|onto)\b)", re.I), ""),
    (re.compile(rf",?\s+instead of\s+{_DET}{_PHRASE}", re.I), ""),
    (re.compile(rf"\b(?P<verb>switched|swapped|traded|exchanged)\s+{_DET}{_PHRASE}\s+for\b", re.I), r"\g<verb> to"),
    (re.compile(r"(?P<old>[\w+#.-]+(?:\s[\w+#.-]+)?)\s*(?:→|->|=>)\s*(?=\w)"), ""),
    (re.compile(rf"从\s*{_ZH_VALUE}\s*(?=换|改|转|搬|迁|调|切|跳槽|辞职|离职)"), ""),
]
_CLAUSES_EN = re.compile(r"\s*(?:[,;]|\s[—–-]\s)\s*|\s+(?:so|but|and)\s+(?=(?:not|no longer|no more)\b)")
_CLAUSES_ZH = re.compile(r"[，,；;]")
_SUBJECT_EN = re.compile(r"^(?:the user|their)\b", re.I)
# a clause that goes on with the user's doing, its subject left out: "bought a Filippi"
_BARE_DOING = re.compile(r"^(?:bought|got|picked up|switched to|moved to|joined|started|took up|went for)\s+\w", re.I)


def _stem(word: str) -> str:
    word = word.lower().removesuffix("'s")
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _words(text: str) -> set[str]:
    # a Latin name inside Chinese ("用户用Notion做笔记") is a word of its own
    return {_stem(w) for w in re.findall(r"(?:(?![\u3400-\u9fff])[\w'+#-])+", text) if w.lower() not in _STOP}


def _zh_topic(clause: str) -> str | None:
    from gateway.learning.offline import chinese

    body = re.sub(r"^用户(?:的)?", "", clause.strip())
    m = _ZH_TOPIC_GONE.match(body)
    if m is None:
        return None
    topic, at = m.group("topic"), 0
    for word, tag in chinese.tagged(body):
        if at >= len(topic):
            break
        at += len(word)
        if len(word) >= 2 and (tag.startswith("n") or tag == "eng"):
            return word
    return topic if 2 <= len(topic) <= 4 and _CJK.fullmatch(topic[0]) else None


def named_old(content: str) -> tuple[str, ...]:
    """The values ``content`` (a memory's sentence) says are gone, in its own words."""
    found: list[str] = []
    if _CJK.search(content):
        for pattern in _ZH:
            found.extend(m.group("old").strip() for m in pattern.finditer(content))
        for clause in _CLAUSES_ZH.split(content):
            topic = _zh_topic(clause)
            if topic is not None:
                found.append(topic)
        found = [v for v in found if len(_CJK.findall(v)) >= 2 or re.fullmatch(r"[A-Za-z][\w+#.-]{2,}", v)]
    else:
        for pattern in _EN:
            found.extend(m.group("old").strip(" .'") for m in pattern.finditer(content))
        # "does not like coffee anymore" is a changed taste, a new value of its own
        found = [v for v in found if _words(v) - {_stem(g) for g in _GENERIC} and not _TASTE.match(v)]
    return tuple(dict.fromkeys(found))


def holds(text: str, values: tuple[str, ...]) -> bool:
    """Whether ``text`` names one of ``values``: every content word of it (English, stemmed:
    "monday gym sessions" in "gym sessions on Mondays"), or the words themselves (Chinese)."""
    low = text.lower()
    words = _words(text)
    for value in values:
        if _CJK.search(value):
            if value.lower() in low:
                return True
            continue
        wanted = _words(value) - {_stem(g) for g in _GENERIC}
        if wanted and wanted <= words:
            return True
    return False


def _inline(content: str) -> str:
    """ "switched from Asana to Jira" → "switched to Jira", "uses Jira instead of Asana" →
    "uses Jira", "Asana → Jira" → "Jira", "从顺丰换成京东" → "换成京东": the old value out of the
    clause that also names the new one."""
    for pattern, to in _INLINE:
        content = pattern.sub(to, content)
    return content


def current_part(content: str, olds: tuple[str, ...]) -> str | None:
    """``content`` without what names the values that are gone (a phrase beside the new value,
    or a clause of its own); ``None`` when what is left says nothing of the user on its own
    (then the sentence is only a retraction)."""
    zh = bool(_CJK.search(content))
    body = _inline(content).strip().rstrip("。.")
    clauses = [c for c in (_CLAUSES_ZH if zh else _CLAUSES_EN).split(body) if c and c.strip()]
    kept = [c.strip() for c in clauses if not holds(c, olds) and not (zh and _zh_topic(c) in olds)]
    if not zh:
        if kept and kept[0] == clauses[-1].strip() and _BARE_DOING.match(kept[0]):
            kept[0] = "the user " + kept[0]  # "sold the Empacher, bought a Filippi": the user's doing
        # "New job, left the bank, the user is at …": from the clause that speaks of the user
        while kept and not _SUBJECT_EN.match(kept[0]):
            kept.pop(0)
    if not kept:
        return None
    if zh:
        text = "，".join(kept)
        text = text if text.startswith("用户") else "用户" + text
        return text + "。" if len(_CJK.findall(text)) >= 5 else None
    if not _SUBJECT_EN.match(kept[0]):
        return None
    text = ", ".join(kept)
    return text[:1].upper() + text[1:] + "."


# what sets a statement's polarity, and what only times or frames it: "用户不吃香菜" and
# "用户现在其实能吃香菜了" say the same predicate, one of them negated
_ZH_NEGATION = re.compile(r"不再|不能|不会|不用|没有|没|不|别")
_ZH_FRAME = re.compile(
    r"^用户(?:的)?|现在|其实|已经|如今|目前|重新|又|也|还|都|可以|能够|能|会|开始|了|啦|呢|吧|[。！!，,.\s]"
)
_EN_NEGATION = frozenset("not n't no never anymore longer".split())
_EN_FRAME = frozenset(
    """the user user's they them their is are was be been does do did doe can could now again actually really
    these days nowadays any more back started start""".split()
)


def _lemma(word: str) -> str:
    """ "eats", "eating", "eat" → one form (no parse: a handful of memories per item)."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ing", "ed")) and len(word) > 5:
        word = word[: -3 if word.endswith("ing") else -2]
    elif word.endswith("es") and len(word) > 4 and word[-3] in "sxzh":
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    return word.removesuffix("e")


def _zh_core(text: str) -> tuple[bool, str]:
    body = _ZH_FRAME.sub("", text)
    return bool(_ZH_NEGATION.search(body)), _ZH_FRAME.sub("", _ZH_NEGATION.sub("", body))


def _en_core(text: str) -> tuple[bool, frozenset[str]]:
    tokens = re.findall(r"n't|[a-z0-9][a-z0-9+#-]*", re.sub(r"n't\b", " n't", text.lower()))
    negated = any(t in _EN_NEGATION for t in tokens)
    return negated, frozenset(_lemma(t) for t in tokens if t not in _EN_NEGATION | _EN_FRAME | _STOP)


def flipped(new: str, old: str) -> bool:
    """Whether ``new`` says what ``old`` says the other way round: the same predicate, negated in
    one of them only ("用户不吃香菜" / "用户现在其实能吃香菜了", "The user does not eat meat" /
    "The user eats meat again now"). The later statement is what holds now."""
    if bool(_CJK.search(new)) != bool(_CJK.search(old)):
        return False
    if _CJK.search(new):
        (neg_new, core_new), (neg_old, core_old) = _zh_core(new), _zh_core(old)
        return neg_new != neg_old and core_new == core_old and len(_CJK.findall(core_new)) >= 2
    (neg_new, words_new), (neg_old, words_old) = _en_core(new), _en_core(old)
    return neg_new != neg_old and words_new == words_old and bool(words_new)
