"""A move replaces where the user was: "我们全家搬去苏州啦" after "我在上海自己做芝士", "I've
moved to Leeds" after "I run a supper club in York".

The memory of the old place is rarely keyed where the user lives (it says what they do there),
so no key replaces it. What the two share is a place of the user's own, said where the user is
the subject ("用户在上海…", "The user … in York"): a move to another city leaves the sentence
that puts the user in the old one untrue. A relation's place ("用户的父母住在上海") and where the
user comes from ("用户是上海人", "The user is from York") stay.
"""

from __future__ import annotations

import re

from gateway.learning.offline.key_record import Key

_CJK = re.compile(r"[\u3400-\u9fff]")
# the user placed in a city: "用户在上海…", "用户住在杭州…", "用户一家在成都…"
_ZH_USER_IN = re.compile(
    r"^用户(?:一家|全家|现在|目前)?(?:住|生活|工作)?在(?P<place>[\u4e00-\u9fff]{2,4}?)(?=[\u4e00-\u9fff])"
)
# … "The user … in York": one capitalised word after "in" (a longer name is a venue or a club),
# not a month or a day
_EN_USER_IN = re.compile(
    r"^The user(?! is from\b)(?! comes from\b)[^,.;]*?\bin\s+(?P<place>[A-Z][a-z]{2,})\b(?!\s+[A-Z])(?!'s)"
)
# "… the school's in Govanhill, here in Glasgow": "here" is where the speaker is
_EN_HERE_IN = re.compile(r"\b(?:up |down |out |over )?here in\s+(?P<place>[A-Z][a-z]{2,})\b(?!\s+[A-Z])(?!'s)")
_NOT_PLACES = frozenset(
    """january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday english french german spanish chinese python java""".split()
)


def _is_move(key: Key | None) -> bool:
    return key is not None and key.slot == "home.city" and key.change and bool(key.values)


def _place_zh(text: str) -> str | None:
    from gateway.learning.offline import chinese

    m = _ZH_USER_IN.match(text)
    if m is None:
        return None
    # the place is a place name (jieba's ``ns``), not a company or a room ("在腾讯", "在家")
    rest = text[m.start("place") :]
    for word, flag in chinese.tagged(rest):
        return word if flag == "ns" and len(word) >= 2 else None
    return None


def replaces(key: Key | None, old: str) -> bool:
    """Whether a statement keyed ``key`` (a move to a city) leaves ``old``, a memory that puts the
    user in another city, untrue."""
    if not _is_move(key):
        return False
    assert key is not None
    new_places = {v.lower() for v in key.values}
    if _CJK.search(old):
        place = _place_zh(old)
        return place is not None and not any(place in v or v in place for v in new_places)
    m = _EN_USER_IN.match(old) or _EN_HERE_IN.search(old)
    if m is None:
        return False
    place = m.group("place").lower()
    return place not in _NOT_PLACES and not any(place in v or v in place for v in new_places)
