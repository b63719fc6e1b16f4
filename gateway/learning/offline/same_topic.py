"""A change on the same topic: "I've got Aiyana as my coach now" after "my coach at the gym is
Pedro", "换老师了，现在跟周老师学" after "老师姓陈", "年会改到2月13号了" after "年会定在2月6号".

Neither the old value nor an attribute the key reader knows is said, and the new value is of no
kind ``changed_value`` compares (a name, a place, a tool). What the two statements share is the
thing they are about: a noun of both. ``replaces(new, old)`` says whether ``new``, a statement of
change, is about a thing ``old`` is about and says something else of it; the store asks it only
of the user's memories nearest to ``new`` by embedding, so a shared noun is checked among
statements already close in meaning. A statement that adds ("also", "another", "又养了") replaces
nothing.
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache

from gateway.learning.offline.changed_value import is_change

_CJK = re.compile(r"[\u3400-\u9fff]")
_ADDS_EN = re.compile(r"\b(?:also|too|as well|another|second|extra|more)\b", re.I)
_ADDS_ZH = re.compile(r"又(?:买|养|添|多|报)|还(?:买|养|报)了|多了一|第二|也(?![改换调挪变转搬])")
# nouns that name no thing of the user's: who, and when
_GENERIC_ZH = frozenset(
    "用户 时候 现在 今年 去年 明年 每天 每周 每月 周末 上午 下午 晚上 早上 中午 东西 事情 情况".split()
)
_ZH_NOUN_FLAGS = ("n", "vn", "eng")


def replaces(new: str, old: str) -> bool:
    """Whether ``new`` (a statement of change) says something else of a thing ``old`` is about."""
    zh = bool(_CJK.search(new))
    if zh != bool(_CJK.search(old)) or not is_change(new) or (_ADDS_ZH if zh else _ADDS_EN).search(new):
        return False
    if zh and _same_frame_zh(new, old):
        return True
    ours, theirs = nouns(new), nouns(old)
    return bool(ours & theirs) and ours != theirs  # a thing in common, and something else said


# what a short Chinese statement of change says beside its frame: who, when, that it changed
_ZH_FILLER = re.compile(
    r"用户(?:的|一家|家)?|现在|目前|如今|已经|最近|主要|一般|平时|基本上?|新家|也|都|就|还|了|啦|喇|咯|呢|吧|[。！!，,\s]"
    r"|(?:改|换|转|变)(?:成|为|到)?"
)


def _same_frame_zh(new: str, old: str) -> bool:
    """ "现在用户演四凤" after "用户在话剧社演繁漪", "用户现在用白橡" after "用户主要用黑胡桃", "用户转长板了"
    after "用户玩短板": two short statements that say the same thing of another value. What is left
    of each without who, when and the change itself ends (or starts) with a value of a few
    characters that differs, next to a frame both share (the verb, or the rest of the noun)."""
    a, b = _runs_as_one(_ZH_FILLER.sub("", old)), _runs_as_one(_ZH_FILLER.sub("", new))
    if not a or not b or a == b or len(a) > 12 or len(b) > 12:
        return False
    kinds_old, kinds_new = _tool_kinds(old), _tool_kinds(new)
    if kinds_old and kinds_new and not kinds_old & kinds_new:
        return False  # "后端用 Go" and "改用 PostgreSQL": tools for two different things
    for la in range(1, min(4, len(a) - 1) + 1):
        for lb in range(1, min(4, len(b) - 1) + 1):
            if a[-la:] != b[-lb:] and _frame(a[:-la][-1], b[:-lb][-1]):
                return True  # the value at the end: 演|繁漪, 演|四凤
            if a[:la] != b[:lb] and _frame(a[la], b[lb]):
                return True  # the value in front: 玩短|板, 长|板
    return False


def _tool_kinds(text: str) -> set[str]:
    from gateway.learning.offline import lexicon

    return {k for w in re.findall(r"[A-Za-z][\w.+#-]*", text) if (k := lexicon.class_of(w)) is not None}


def _runs_as_one(text: str) -> str:
    """``text`` with each Latin word or number as one character ("开小米SU7" → 开小米 + one), so a
    value's length is counted alike in both scripts."""
    return re.sub(r"[A-Za-z0-9][\w.+-]*", lambda m: chr(0xE000 + zlib.crc32(m.group(0).lower().encode()) % 6400), text)


def _frame(x: str, y: str) -> bool:
    return x == y and x not in _NO_FRAME


# a particle or a preposition frames no value, nor a name ("狗叫豆豆", "猫叫咪咪": two pets)
_NO_FRAME = frozenset("的在是和与跟了着过个一叫")


@lru_cache(maxsize=1024)
def nouns(text: str) -> frozenset[str]:
    """The nouns of ``text`` that name a thing (lemmas in English, jieba words in Chinese)."""
    if _CJK.search(text):
        from gateway.learning.offline import chinese

        return frozenset(
            w.lower()
            for w, flag in chinese.tagged(text)
            if flag.startswith(_ZH_NOUN_FLAGS) and w not in _GENERIC_ZH and (len(w) >= 2 or flag == "eng")
        )
    from gateway.learning.offline import english

    return english.content_nouns(text)
