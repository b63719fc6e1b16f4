"""An English sentence about the user, rewritten in the third person, token by token.

"I deploy" → "The user deploys", "my readers are in the US" → "The user's readers are in the
US", "don't" → "does not": only the pronoun and verb tokens the parser marked are replaced, so
nothing inside names or acronyms is touched. A change keeps only its new value ("moved off
Hetzner onto Fly.io" → "moved onto Fly.io"), and a phrase holding a PII placeholder is cut
out with it or the sentence is dropped. Which sentences are kept is ``english``'s.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

PLACEHOLDER_TOKEN = "Piiplaceholder"


_CHANGE = {
    "move",
    "switch",
    "migrate",
    "relocate",
    "change",
    "start",
    "stop",
    "quit",
    "join",
    "leave",
    "upgrade",
    "bump",
    "adopt",
    "drop",
    "replace",
    "finish",
    "hire",
    "open",
    "close",
    "diagnose",
    "decide",
    "become",
    "retire",
    "marry",
    "rip",
    "sell",
    "buy",
    "launch",
    "raise",
    "push",
    "graduate",
    "convert",
    "ditch",
    "cancel",
    "downgrade",
    "swap",
    "abandon",
}


_REMOVAL = {"rip", "drop", "abandon", "remove", "ditch", "retire", "kill", "deprecate"}


_WORK = re.compile(
    r"\b(?:app|api|code|service|stack|database|deploy\w*|server|backend|frontend|team|company|startup|product"
    r"|customers|clients|engineers|repo|pipelines?|project|platform|studio|business|shop|infra\w*)\b",
    re.IGNORECASE,
)


_FAMILY = re.compile(
    r"\b(?:wife|husband|partner|kids?|children|son|daughter|family|baby|fiancée?|parents|dog|cat|mum|mom|dad)\b",
    re.IGNORECASE,
)


def third_person(verb: str) -> str:
    """``use`` → ``uses``, ``watch`` → ``watches``, ``carry`` → ``carries``."""
    low = verb.lower()
    irregular = {"be": "is", "am": "is", "are": "is", "'m": "is", "'re": "is", "have": "has", "'ve": "has"}
    if low in irregular:
        return irregular[low]
    if low == "do":
        return "does"
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(low) > 2 and low.endswith("y") and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _subject(verb: Token) -> Token | None:
    for c in verb.children:
        if c.dep_ in {"nsubj", "nsubjpass", "expl"}:
            return c
    return None


class _Rewriter:
    """Token-level third-person rewrite of one sentence (see module docstring)."""

    def __init__(self, sent: Span, we_is: str, skip: set[int], rule: bool) -> None:
        self.sent = sent
        self.we_is = we_is
        self.skip = skip
        self.mentioned = rule  # a rule starts "The user wants the assistant to …"
        self.rule = rule
        self.agree: set[int] = set()
        self.negated: set[int] = set()
        for t in sent:
            if t.lower_ in {"i", "we"} and t.dep_ in {"nsubj", "nsubjpass"}:
                self._mark_agreement(t.head)

    def _mark_agreement(self, verb: Token) -> None:
        aux = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < verb.i]
        if aux:
            if aux[0].tag_ == "VBP":
                self.agree.add(aux[0].i)
        elif verb.tag_ == "VBP":
            self.agree.add(verb.i)
        for c in verb.children:
            if c.dep_ == "conj" and c.tag_ in {"VBP", "VB"} and _subject(c) is None:
                if not any(a.dep_ in {"aux", "auxpass"} for a in c.children):
                    self.agree.add(c.i)

    def word(self, t: Token) -> str:
        low = t.lower_
        if t.i in self.agree:
            return third_person(t.text) if not t.text.startswith("'") else " " + third_person(t.text)
        if low == "n't":
            return " not"
        if low in {"'d", "'ll"}:
            return " would" if low == "'d" else " will"
        if low == "'m" or (low == "'re" and t.i in self.agree):
            return " is"
        if t.tag_ == "PRP" and low in {"i", "we"}:
            phrase = "the user" if low == "i" else self.we_is
            self.mentioned = True
            return phrase
        if t.tag_ == "PRP$" and low in {"my", "our"}:
            phrase = "their" if self.mentioned else "the user's"
            self.mentioned = True
            return phrase
        if t.tag_ == "PRP" and low in {"me", "us"} and t.text != "US":
            phrase = "them" if self.mentioned or low == "us" else "the user"
            self.mentioned = True
            return phrase
        if low in {"myself", "ourselves"}:
            return "themselves"
        if low in {"mine", "ours"}:
            return "theirs"
        if low == "you" and t.tag_ == "PRP":
            return "the assistant" if not self.rule else "it"
        if low == "your" and t.tag_ == "PRP$":
            return "its" if self.rule else "the"
        if low == "do" and t.i in self.agree:
            return "does"
        return t.text

    def render(self, start: int) -> str:
        out: list[str] = []
        for t in self.sent:
            if t.i < start or t.i in self.skip:
                continue
            w = {"ca": "can", "wo": "will"}.get(t.lower_, self.word(t)) if t.lower_ in {"ca", "wo"} else self.word(t)
            out.append(w + t.whitespace_)
        text = "".join(out)
        text = re.sub(r"\s+([,.;:!?)])", r"\1", text)
        text = re.sub(r"\(\s+", "(", text)
        text = re.sub(r"\s{2,}", " ", text).strip()
        text = re.sub(r"\bplease[,]?\s+", "", text, flags=re.IGNORECASE)
        return text.strip(" ,;:-—–")


def _cut_placeholders(sent: Span, root: Token) -> set[int] | None:
    """Token indices to drop so no placeholder remains; None when the sentence must go."""
    skip: set[int] = set()
    for t in sent:
        if PLACEHOLDER_TOKEN not in t.text:
            continue
        node = t
        cut = None
        while node.i != root.i:
            if node.dep_ in {"prep", "appos", "npadvmod", "advmod", "conj", "dobj", "pobj"} and node.head.i != root.i:
                cut = node
            if node.dep_ in {"prep", "appos", "npadvmod"}:
                cut = node
                break
            node = node.head
        if cut is None:
            return None
        skip.update(x.i for x in cut.subtree)
    # whole clauses that would be left without their verb are not worth keeping
    if root.i in skip:
        return None
    return skip


def _cut_old_values(root: Token) -> set[int]:
    """For a change said with a removal first ("ripped out Airflow and moved …"): keep the
    subject and the new action."""
    skip: set[int] = set()
    if root.lemma_.lower() not in _CHANGE:
        return skip
    # "moved from X to Y", "off X onto Y", "instead of X" stay: the store reads the value left
    # off them to replace what named it, and keeps the new value only (``replaced``)
    if root.lemma_.lower() in _REMOVAL:
        conj = [c for c in root.children if c.dep_ == "conj" and c.pos_ == "VERB"]
        if conj:
            # keep the subject and the new action: "we [ripped out Airflow … and] moved …"
            subj = _subject(root)
            first = conj[0]
            skip.update(i for i in range(root.i, first.i) if subj is None or i not in {x.i for x in subj.subtree})
    return skip


def _title(content: str) -> str:
    text = content.rstrip(".")
    for prefix in ("The user wants the assistant to ", "The user's ", "The user "):
        if text.startswith(prefix):
            text = text[len(prefix) :]
            break
    text = text[:1].upper() + text[1:]
    return text if len(text) <= 80 else text[:79].rstrip() + "…"


def _finish(text: str) -> str:
    # "we bought our first place!!": the excitement is how it was said, the memory is a
    # statement; a short one ("I'm in!") stays an exclamation, for the gate to turn down
    text = text.strip()
    if len(text.split()) >= 6:
        text = re.sub(r"\s*!+$", "", text)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."


def _we_phrase(turn: str) -> str:
    if _FAMILY.search(turn) and not _WORK.search(turn):
        return "the user's family"
    if _WORK.search(turn):
        return "the user's team"
    return "the user"
