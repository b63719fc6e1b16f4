"""Statements said as fragments: clause ends without punctuation, self-descriptions in a question.

Users type the way they talk. A Chinese turn often separates its clauses with spaces only
("我家猫叫团子 英短蓝猫 三岁了 我住北京"), so the whole turn reads as one clause and its
trailing question ("…正常吗") makes all of it a question. An English turn often puts what the
user is in front of what they ask ("as a night-shift nurse, what should I eat before work?"):
the question is not a memory, the self-description is. This module rewrites such a sentence
into the form the clause readers (``english``, ``chinese``) already judge clause by clause; it
never makes a memory itself, so everything the gate turns down stays turned down.
"""

from __future__ import annotations

import re

__all__ = ["spaced_clauses"]

_CJK = r"\u3400-\u9fff"
_SPACE_BEFORE_CJK = re.compile(rf"[ \t\u3000]+(?=[{_CJK}])")
# what ends a Chinese clause before a space: a Chinese character or a closing mark, or a number
# written right after one ("目标总分7 口语最差"); a space after a Latin word or a version
# inside a clause ("后端用 Go 开发", "el-table-v2 要单独装吗") is left alone
_CLAUSE_END = re.compile(rf"(?:[{_CJK}）)】」』%]|[{_CJK}][\d.]*\d)$")


def spaced_clauses(sentence: str) -> str:
    """A Chinese sentence with its space-separated clauses joined by "，"; other text as it is."""
    if not re.search(rf"[{_CJK}]", sentence):
        return sentence
    text = sentence.strip()
    out: list[str] = []
    at = 0
    for m in _SPACE_BEFORE_CJK.finditer(text):
        token = text[at : m.start()].rsplit(None, 1)[-1] if text[at : m.start()].strip() else ""
        out.append(text[at : m.start()])
        out.append("，" if token and _CLAUSE_END.search(token) else m.group(0))
        at = m.end()
    out.append(text[at:])
    return "".join(out)
