"""A fact without what is said beside it: the reason someone else gave, a remark on something else.

Users explain their changes and habits: "netball moved to Thursdays because the hall was
double-booked", "排练挪到周二和周五了，因为活动中心周末要装修", "住在女儿家附近，方便照看外孙",
"moved to Stockport last month so my bindery is the spare room, the damp in there is unreal". The
fact is the first clause; the reason is about someone or something else and true of that day
(a booking, a renovation, a grandchild's care, a room's damp), and would be injected into every
later prompt with the fact. So a reason clause (because/cos …, 因为/由于/为了/方便 …) that does not
have the user as its subject is cut, and so is a trailing clause with a subject of its own
("…, the damp in there is unreal"). A reason that is the user's ("because the user is vegan",
"因为用户对花生过敏") stays: it is a fact too. What is cut is never the whole sentence.
"""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff]")

# ", because the hall was double-booked", " cos Megan swears by hers", " because of the school run"
_REASON_EN = re.compile(r",?\s+(?:because|'cause|cos|coz|cuz)\b(?P<why>[^.;!?]*)", re.I)
# the reason is the user's own: "because the user is vegan", "because they can't eat gluten"
_USERS_OWN_EN = re.compile(r"^\s*(?:of\s+)?(?:the user|they|their own|the user's own)\b", re.I)
# ", the damp in there is unreal", ", weekends are usually mental": a clause about another thing
_REMARK_EN = re.compile(
    r",\s+(?:the|this|that|it|its|it's|weekends|everyone|people)\b(?:\s+[\w'-]+){0,3}?\s+(?:is|are|was|were|'s|seems?)\b"
    r"(?P<rest>[^.;!?]*)(?=[.;!?]*$)",
    re.I,
)
# "，因为活动中心周末要装修", "，方便照看外孙", "，为了省电费"
_REASON_ZH = re.compile(r"[，,]\s*(?:因为|由于|为了|方便|好让|免得|省得)(?P<why>[^。！？；]*)")


def without_reasons(content: str) -> str:
    """``content`` without a reason or remark beside its fact (module docstring); unchanged
    when nothing is cut or when cutting would leave no statement."""
    if _CJK.search(content):
        cut = _REASON_ZH.sub(lambda m: m.group(0) if "用户" in m.group("why") else "", content)
    else:
        cut = _REASON_EN.sub(lambda m: m.group(0) if _USERS_OWN_EN.match(m.group("why")) else "", content)
        cut = _REMARK_EN.sub(lambda m: m.group(0) if re.search(r"\bthe user\b", m.group(0), re.I) else "", cut)
    if cut == content:
        return content
    cut = cut.rstrip(" ,，")
    if len(re.findall(r"[\w\u3400-\u9fff]", cut)) < 6:
        return content
    if not content.rstrip().endswith(("。", ".", "!", "！")) or cut.endswith(("。", ".", "!", "！")):
        return cut  # a title has no full stop to put back
    return cut + ("。" if _CJK.search(cut) else ".")
