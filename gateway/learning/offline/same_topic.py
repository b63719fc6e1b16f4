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
from functools import lru_cache

from gateway.learning.offline.changed_value import is_change

_CJK = re.compile(r"[\u3400-\u9fff]")
_ADDS_EN = re.compile(r"\b(?:also|too|as well|another|second|extra|more)\b", re.I)
_ADDS_ZH = re.compile(r"又(?:买|养|添|多|报)|还(?:买|养|报)了|多了一|第二")
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
    ours, theirs = nouns(new), nouns(old)
    return bool(ours & theirs) and ours != theirs  # a thing in common, and something else said


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
