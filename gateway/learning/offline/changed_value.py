"""A change that names only the new value: "the lesson moved to Sunday afternoons", "it's 31
plants now", "课也改到周日下午了", "今年目标下调到30本".

Neither the old value nor the attribute is said, so neither a key nor ``replaced`` finds what it
replaces. What it shares with the memory it replaces is the kind of its value: a weekday, a
month, a time of day, a count of the same thing. ``replaces(new, old)`` says whether ``new``, a
statement of change, gives another value of that kind than ``old`` does, ``old`` being one of the
user's memories nearest to it that shares a word of its topic ("recital", "课", "plants").
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff]")
_ZH_DIGITS = "零一二两三四五六七八九十"

# what says a value changed (and not that it holds as it did)
_EN_CHANGE = re.compile(
    r"\b(?:now|anymore|any longer|no longer|instead|switched|moved|changed|swapped|pushed (?:back|forward)"
    r"|brought forward|rescheduled|postponed|went (?:up|down)|gone (?:up|down)|these days|nowadays|new)\b",
    re.I,
)
_ZH_CHANGE = re.compile(
    r"现在|改|换|调|推迟|提前|挪|延|变成|涨到|降到|增加到|减到|升到|扩到|跳槽|搬到|不再|如今|转(?!发|账|告|交|身)"
)

_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS_EN = "january february march april may june july august september october november december".split()
_EN_WEEKDAY = re.compile(r"\b(mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b", re.I)
# "May" is a month only beside a day number or after "in"/"since"/"until"
_EN_MONTH = re.compile(
    r"\b(?:(?:in|since|until|till|by|from|to|of|on)\s+(may)\b|(may)\s+\d{1,2}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(may)\b"
    r"|(jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember)?)\b",
    re.I,
)
_EN_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|o'clock)", re.I)
_EN_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
        " seventeen eighteen nineteen twenty".split()
    )
}
_EN_COUNT = re.compile(r"(?<![\w.,:])(\d[\d,]*(?:\.\d+)?k?)\s+([a-z]{3,})\b", re.I)
_EN_NOT_UNIT = frozenset(
    """years year old times time days day weeks week months month hours hour minutes minute mins min am pm
    percent and or of to the in on at for with per a an is are was were now more less than then instead not
    this that these those every each plus""".split()
)

_ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天末])")
_ZH_MONTH = re.compile(rf"([\d{_ZH_DIGITS}]{{1,3}})月(?!份?[\d{_ZH_DIGITS}]+[日号])")
_ZH_CLOCK = re.compile(rf"([\d{_ZH_DIGITS}]{{1,3}})点(半|[\d{_ZH_DIGITS}]{{1,3}}分?)?")
# a day of a month ("3月20号", "十月三日"): a date, not the month alone
_ZH_DATE = re.compile(rf"([\d{_ZH_DIGITS}]{{1,3}})月份?([\d{_ZH_DIGITS}]{{1,3}})[日号]")
_ZH_COUNT = re.compile(
    rf"([\d.]+|[{_ZH_DIGITS}百千万]+)\s*(本|个|只|辆|台|次|公里|块|元|万|千|斤|公斤|盆|套|人|度|克|毫升|分钟|小时|厘米|米|岁|格"
    # the other measure words that count things: a closed class of the language, not a topic list
    r"|箱|瓶|张|盒|条|节|场|家|位|头|匹|棵|株|亩|层|间|份|户|名|批|双|件|支|把|罐|桶|袋|群)"
)
# function words and words of time that say nothing of a topic
_ZH_FRAME = re.compile(
    r"用户|现在|已经|以后|之前|今年|每天|每周|每月|早上|上午|中午|下午|晚上|周末|星期|礼拜|改到|改成|改为|换成|调到|调成"
    rf"|[的了也在是有和都就还要会把被给跟这那个不没很太每周天日点半月号时分年吧啊呢。，、！？\s\d{_ZH_DIGITS}]"
)
_EN_STOP = frozenset(
    """the user user's users their they them is are was were be been has have had does do did a an of to in on at
    for with by from and or but so now not no anymore longer instead it it's its this that these those every each
    then than new one ones get gets got going go goes went up down back forward moved switched changed just also
    still really actually about around roughly some any more less week weeks month months day days year years
    morning mornings afternoon afternoons evening evenings night nights time times""".split()
)


def _zh_number(text: str) -> str:
    if text.isdigit() or re.fullmatch(r"[\d.]+", text):
        return text.lstrip("0") or "0"
    table = {c: i for i, c in enumerate("零一二三四五六七八九")}
    table["两"] = 2
    if text == "十":
        return "10"
    if "十" in text:
        tens, _, ones = text.partition("十")
        return str((table.get(tens, 1) if tens else 1) * 10 + (table.get(ones, 0) if ones else 0))
    return "".join(str(table[c]) for c in text if c in table) or text


def _en_number(text: str) -> str:
    low = text.lower().replace(",", "")
    if low.endswith("k") and low[:-1].replace(".", "").isdigit():
        return str(int(float(low[:-1]) * 1000))
    return str(_EN_NUMBER_WORDS.get(low, low))


def _unit(word: str) -> str:
    word = word.lower()
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def values(text: str) -> dict[str, set[str]]:
    """The typed values ``text`` names: ``weekday``, ``month``, ``date`` (a day of a month, in
    Chinese), ``clock`` and ``count:<unit>``."""
    found: dict[str, set[str]] = {}

    def add(kind: str, value: str) -> None:
        found.setdefault(kind, set()).add(value)

    if _CJK.search(text):
        for m in _ZH_WEEKDAY.finditer(text):
            add("weekday", "日" if m.group(1) == "天" else m.group(1))
        for m in _ZH_MONTH.finditer(text):
            add("month", _zh_number(m.group(1)))
        for m in _ZH_DATE.finditer(text):
            add("date", f"{_zh_number(m.group(1))}-{_zh_number(m.group(2))}")
        for m in _ZH_CLOCK.finditer(text):
            minutes = (m.group(2) or "").removesuffix("分")
            minutes = ":30" if minutes == "半" else f":{_zh_number(minutes)}" if minutes else ""
            add("clock", _zh_number(m.group(1)) + minutes)
        for m in _ZH_COUNT.finditer(text):
            add(f"count:{m.group(2)}", _zh_number(m.group(1)))
    for m in _EN_WEEKDAY.finditer(text):
        add("weekday", next(d for d in _WEEKDAYS_EN if d.startswith(m.group(1).lower()[:3])))
    for m in _EN_MONTH.finditer(text):
        name = next(g for g in m.groups() if g).lower()
        add("month", next(mo for mo in _MONTHS_EN if mo.startswith(name[:3])))
    for m in _EN_CLOCK.finditer(text):
        hour = int(m.group(1)) % 12 + (12 if m.group(3).lower().startswith("p") else 0)
        add("clock", f"{hour}:{m.group(2) or '00'}")
    for m in _EN_COUNT.finditer(text):
        unit = _unit(m.group(2))
        if unit not in _EN_NOT_UNIT and not _EN_CLOCK.match(m.group(0)):
            add(f"count:{unit}", _en_number(m.group(1)))
    return found


def is_change(text: str) -> bool:
    """Whether ``text`` says something changed ("now", "moved", "改到", "现在")."""
    return bool((_ZH_CHANGE if _CJK.search(text) else _EN_CHANGE).search(text))


def _topic(text: str) -> set[str]:
    if _CJK.search(text):
        return set(_ZH_FRAME.sub("", text)) - set("，。,.")
    words = re.findall(r"[a-z][a-z'-]+", text.lower())
    return {_stem(w) for w in words if w not in _EN_STOP and _unit(w) not in _EN_STOP and len(w) > 2}


def _stem(word: str) -> str:
    """ "inspections", "inspects", "inspecting" → "inspect": the topic, however it is inflected."""
    word = _unit(word)
    for suffix in ("ation", "ion", "ing", "ed", "er", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _same_count(kind: str, kinds: set[str]) -> str | None:
    """The kind in ``kinds`` that counts the same thing ("count:houseplant" and "count:plant")."""
    if not kind.startswith("count:"):
        return kind if kind in kinds else None
    unit = kind[6:]
    for other in kinds:
        if other.startswith("count:") and (other[6:].endswith(unit) or unit.endswith(other[6:])):
            return other
    return None


def replaces(new: str, old: str) -> bool:
    """Whether ``new`` (a statement of change) gives another value of a kind ``old`` holds, both
    on the same topic: a shared word ("recital"), or for a count the thing counted."""
    if bool(_CJK.search(new)) != bool(_CJK.search(old)) or not is_change(new):
        return False
    ours, theirs = values(new), values(old)
    for kind, said in ours.items():
        if kind == "date":
            continue  # a day of a month is any event's: "改到3月20号" may leave another event's date
        other = _same_count(kind, set(theirs))
        if other is None or not (said - theirs[other]):
            continue
        if kind.startswith("count:") or _topic(new) & _topic(old):
            return True
    return False
