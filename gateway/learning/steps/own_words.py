"""The user's own words: what a user pasted, quoted or forwarded is not about them.

A memory is a statement the user made about themselves. A turn often carries someone else's
text as well: an e-mail to reword, a product listing to compare, an essay sentence to correct,
a quote from a contractor, a recruiter's message. Read as the user's prose, such text becomes
"The user …" facts that were never said about the user, and an instruction hidden in it (a
note to AI assistants inside a listing) becomes the user's preference.

The rules read the shape of the text, never its topic:

* a lead that announces material ("here's the email:", "pasted from the shop site:",
  "帮我改下这句：", "原文：") ends the user's prose: what follows the colon is the material,
  to the end of the turn or to the end of the quote it opens;
* a block between separator lines (``---``, ``===``, ``***``) is pasted;
* a line quoted from end to end ('…', "…", “…”, 「…」) of more than a few words is pasted;
* an HTML comment is never prose;
* a line in a script the learner does not read (Japanese kana, Korean, Cyrillic, Arabic …) is
  another language's text, not the user's statement.

``own_words`` returns the rest of the turn, lines kept as lines, and how many pieces went.
"""

from __future__ import annotations

import re

__all__ = ["own_words"]

# the kinds of text a user pastes in to be worked on
_MATERIAL = (
    r"(?:e-?mails?|messages?|letters?|essays?|paragraphs?|sentences?|passages?|texts?|listings?|reviews?"
    r"|descriptions?|posts?|drafts?|articles?|transcripts?|snippets?|announcements?|adverts?|ads?|quotes?"
    r"|quotations?|invoices?|contracts?|clauses?|captions?|tweets?|comments?|poems?|lyrics|scripts?|stor(?:y|ies)"
    r"|speech(?:es)?|wording|translation|dms?|thread|reply|replies|notes? from)"
)
# a lead that announces someone else's text, or text to work on, up to its colon
_LEAD_EN = re.compile(
    r"\b(?:past(?:e|ed|ing)|copied|forwarded)\b[^:\n]{0,60}:"
    rf"|\b(?:this|that|the|these|those|his|her|their|a|an|following)\s+(?:[\w'-]+\s+){{0,2}}{_MATERIAL}\b[^:\n.?!]{{0,50}}:"
    r"|\b(?:translate|proofread|correct|fix|rewrite|reword|rephrase|improve|summari[sz]e|check|edit|polish|review"
    r"|compare|shorten|tighten|grade|mark)\s+[^:\n]{1,60}:"
    r"|\b(?:says|said|wrote|writes|replied|sent(?: me)?|reads)\s*:",
    re.IGNORECASE,
)
_LEAD_ZH = re.compile(
    r"(?:这句|这段|这封|这篇|这份|这条|这则|这几句|以下|下面|如下|原文|本文|正文|全文|邮件|短信|消息|文章|作文|段落"
    r"|句子|段话|报价单?|合同|文案|评论|通知|帖子|翻译|改一?下|改改|润色|修改|校对|看看|看下|看一下|检查"
    r"|发来|发过来|转发|写道|说道)[^：:\n]{0,16}[：:]"
)
_SEPARATOR = re.compile(r"^\s*(?:-{3,}|={3,}|\*{3,}|_{3,}|~{3,})\s*$")
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_OPENING_QUOTES = {"'": "'", '"': '"', "“": "”", "‘": "’", "「": "」", "『": "』", "«": "»", "„": "“"}
# scripts the learner does not read: a line in one of them is text in another language
_FOREIGN = re.compile(r"[\u3040-\u30ff\uac00-\ud7af\u0400-\u04ff\u0600-\u06ff\u0590-\u05ff\u0e00-\u0e7f]")
_FOREIGN_MIN = 3
_QUOTED_MIN_WORDS = 4
_QUOTED_MIN_CHARS = 16


def own_words(text: str) -> tuple[str, int]:
    """``text`` without the material the user pasted, quoted or forwarded (see the module
    docstring), and how many pieces were removed."""
    dropped = 0
    text, n = _HTML_COMMENT.subn(" ", text)
    dropped += n
    text, n = _after_lead(text)
    dropped += n
    kept: list[str] = []
    inside = False
    lines = text.split("\n")
    separators = [i for i, line in enumerate(lines) if _SEPARATOR.match(line)]
    for i, line in enumerate(lines):
        if _SEPARATOR.match(line):
            # a block opens at a separator with another below it; the last one closes it
            inside = not inside and any(j > i for j in separators)
            dropped += 1
            continue
        if inside or _quoted_line(line) or len(_FOREIGN.findall(line)) >= _FOREIGN_MIN:
            dropped += 1
            continue
        kept.append(line)
    return "\n".join(kept), dropped


def _after_lead(text: str) -> tuple[str, int]:
    """The turn up to a lead's colon; after it, only what follows the quote the lead opens."""
    match = _LEAD_EN.search(text) or _LEAD_ZH.search(text)
    if match is None:
        return text, 0
    head, tail = text[: match.start()], text[match.end() :]
    head = head[: max(head.rfind(c) for c in ".!?。！？\n，,；;") + 1]  # the lead's own clause is the request
    body = tail.lstrip()
    close = _OPENING_QUOTES.get(body[:1])
    if close is not None:
        # the closing mark, not an apostrophe inside the quote ("the user's")
        end = re.search(re.escape(close) + r"(?![A-Za-z])", body[1:])
        if end is not None:
            rest, _ = _after_lead(body[end.end() + 1 :])  # the user's words after the quoted material
            return f"{head}\n{rest}", 1
    return head, 1


def _quoted_line(line: str) -> bool:
    """A line quoted from end to end: its first and last marks are a matching pair."""
    s = line.strip().rstrip(".,;:!?。，；：！？")
    if len(s) < _QUOTED_MIN_CHARS:
        return False
    close = _OPENING_QUOTES.get(s[0])
    if close is None or s[-1] != close:
        return False
    return len(s.split()) >= _QUOTED_MIN_WORDS or bool(re.search(r"[\u3400-\u9fff]{6}", s))
