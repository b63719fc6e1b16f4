"""Duplicate or supersede: the rule for two memories already close by embedding (SPEC 4, step 6).

The embedder says two texts are about the same thing; this module says whether the new one
*adds or changes* something. ``classify(new, old)`` returns:

* ``"duplicate"`` when they say the same: equal after ``normalise``, or their content words
  (stop words removed, crude stemming, preference verbs folded to one token) differ only by
  filler words ("really", "usually", "uses", "的", "都" …);
* ``"supersede"`` otherwise, and in particular when they differ in numbers or dates, in
  names or other content words (tabs ↔ spaces, Python ↔ Go, 张三 ↔ 李四), in negation
  (not/never/don't, 不/没/别 …), in the direction of a preference (like ↔ dislike,
  喜欢 ↔ 讨厌), or in the order of a comparison ("tabs over spaces" ↔ "spaces over tabs").

Close but not identical texts supersede by default: the newest statement wins, and the old
memory is disabled rather than lost, which is the cheaper mistake.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Literal

Verdict = Literal["duplicate", "supersede"]

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[a-z0-9][a-z0-9+#.'_-]*[a-z0-9+#]|[a-z0-9]")
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_MONTHS = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday|today|tomorrow|yesterday)\b"
)
_CN_NUMERAL = re.compile(r"[零〇两二三四五六七八九十百千万亿]+|(?<![一])一(?![个下些直起般定样切])")
_NEG_EN = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|neither|nor|without|cannot|can't|don't|doesn't"
    r"|didn't|won't|isn't|aren't|wasn't|weren't|shouldn't|wouldn't|mustn't|hasn't|haven't)\b"
    r"|n't\b"
)
_NEG_ZH = re.compile(r"(?:不(?![错过同断少仅久管然如但论止])|没|别(?![人的处])|无(?![论])|非(?![常])|勿|未(?![来]))")
_PREF_POS = re.compile(
    r"\b(?:prefer(?:s|red|ring)?|likes?|liked|loves?|loved|enjoys?|favou?rs?|favou?rite|wants?"
    r"|fan of|keen on)\b|更喜欢|比较喜欢|喜欢|偏好|偏爱|爱用|喜爱|倾向于?|希望|想要"
)
_PREF_NEG = re.compile(
    r"\b(?:dislikes?|disliked|hates?|hated|avoids?|avoided|detests?|can't stand)\b"
    r"|讨厌|反感|厌恶|受不了|排斥"
)
_COMPARISON = re.compile(r"\b(?:over|than|rather|instead|versus|vs)\b|而不是|而非|比起|比|胜过|优先于|代替|取代")
_STOP_EN = frozenset(
    """
    a an the is are was were be been being am to of in on at for with by from as and or but
    that this these those it its it's they them their theirs he she his her we our ours us i
    me my mine you your yours user user's users s the_user do does did so such
    really very quite rather usually generally typically mostly mainly also just always often
    much more most all any some use uses used using work works working has have had
    prefer_tok like_tok
    """.split()
)
_STOP_ZH = frozenset("的了是在和与及也就都很还又吗呢吧啊呀着过把被给对用户我你他她它们这那个一些")
_POS_TOKEN = " ⊕ "
_NEG_TOKEN = " ⊖ "


def normalise(text: str) -> str:
    """Case-fold, map full-width to half-width (NFKC), drop punctuation, squeeze spaces.

    Spaces between CJK characters are removed, since Chinese does not use them.
    """
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    chars = [" " if unicodedata.category(c)[0] in "PSZC" and c not in "'+#" else c for c in text]
    text = re.sub(r"\s+", " ", "".join(chars)).strip()
    text = re.sub(r"(?<=[^\sa-z0-9]) (?=[^\sa-z0-9])", "", text)
    return re.sub(r"(?<=\w)'(?=\s|$)|(?:^|(?<=\s))'", "", text)


def classify(new_text: str, old_text: str) -> Verdict:
    """``"duplicate"`` when both say the same thing, else ``"supersede"`` (module docstring)."""
    return compare(new_text, old_text)[0]


def compare(new_text: str, old_text: str) -> tuple[Verdict, str]:
    """Like ``classify``, with a short reason for the learning log."""
    new, old = normalise(new_text), normalise(old_text)
    if new == old:
        return "duplicate", "same text once normalised"
    checks = (
        ("numbers or dates differ", _numbers),
        ("negation differs", _negation),
        ("preference direction differs", _polarity),
    )
    for reason, feature in checks:
        if feature(new) != feature(old):
            return "supersede", reason
    new_words, old_words = _content(new), _content(old)
    if new_words == old_words:
        if _COMPARISON.search(new) and _sequence(new) != _sequence(old):
            return "supersede", "order of a comparison differs"
        return "duplicate", "same content words"
    changed = sorted((new_words - old_words) | (old_words - new_words))
    return "supersede", "content differs: " + ", ".join(changed[:6])


def numbers(text: str) -> Counter[str]:
    """The numbers and dates of a ``normalise``-d text (with their counts)."""
    return _numbers(text)


def content_words(text: str) -> frozenset[str]:
    """The content words of a ``normalise``-d text: stemmed, stop and filler words out."""
    return _content(text)


def _numbers(text: str) -> Counter[str]:
    found = Counter(m.group(0).replace(",", "") for m in _NUMBER.finditer(text))
    found.update(m.group(0) for m in _MONTHS.finditer(text))
    found.update(m.group(0) for m in _CN_NUMERAL.finditer(text))
    return found


def _negation(text: str) -> int:
    count = len(_NEG_EN.findall(text)) + len(_NEG_ZH.findall(text))
    return count % 2


def _polarity(text: str) -> int:
    positive = bool(_PREF_POS.search(_PREF_NEG.sub(" ", text)))
    negative = bool(_PREF_NEG.search(text))
    return int(positive) - int(negative)


def _fold(text: str) -> str:
    text = _PREF_NEG.sub(_NEG_TOKEN, text)
    return _PREF_POS.sub(_POS_TOKEN, text)


def _sequence(text: str) -> list[str]:
    words: list[str] = []
    for token in _TOKEN.findall(_fold(text)):
        word = _stem(token)
        if word not in _STOP_EN and word not in _STOP_ZH:
            words.append(word)
    return words


def _content(text: str) -> frozenset[str]:
    return frozenset(_sequence(text))


def _stem(token: str) -> str:
    token = token.removesuffix("'s")
    if len(token) <= 3 or not token.isascii() or not token.isalpha():
        return token
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh")):
        if token.endswith(suffix):
            return token[: -len(suffix)] + repl
    if token.endswith("ing") and len(token) > 5:
        return token[:-3]
    if token.endswith("ed") and len(token) > 4:
        return token[:-2]
    if token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token
