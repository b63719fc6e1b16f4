"""What one parsed English clause is: a question, an imperative, a one-off, a first-person
statement, a relation, a dated episode of the user's life.

These are the judgements ``english`` makes before it keeps a clause; each reads the spaCy
parse of the clause only (no state across clauses).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from gateway.learning.offline import dates
from gateway.learning.offline.english_rewrite import _CHANGE, _WORK, _Rewriter, _subject, third_person

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

_FIRST = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"}


_SUBORDINATE = {"advcl", "relcl", "acl", "ccomp", "csubj", "pcomp"}


_ONE_OFF = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|weekend|week's)"
    r"|next (?:week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?"
    r"|last night|right now|at the moment|just now"
    # "on Wednesday" is one day; "on Wednesdays", "on Wednesday evenings" are a routine
    r"|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?! (?:morning|afternoon|evening|night)s\b)"
    r"|the \d{1,2}(?:st|nd|rd|th)\b|this (?:one|line|sentence|paragraph|function|file|bug|error|query|snippet))",
    re.IGNORECASE,
)


_TROUBLE = re.compile(
    r"\b(?:keeps? (?:\w+ing)|broken|crash(?:es|ed|ing)?|fail(?:s|ed|ing)|error|bug|not working|doesn't work"
    r"|isn't working|won't|stopped working|charged twice|lost my|can't log in|cannot log in)\b",
    re.IGNORECASE,
)


_RULE_WORDS = re.compile(
    r"\b(?:always|never|don't ever|do not ever|stop|avoid|no more|from now on|going forward|in future"
    r"|in the future|every time|whenever|each time|keep (?:the|your|it|them|answers|replies|responses)"
    r"|rather than|instead of|(?:don't|do not)\s+(?:use|add|give|write|include|suggest|recommend|mention|offer"
    r"|call|send|email|phone|schedule|book))\b",
    re.IGNORECASE,
)


_DEICTIC = {"this", "that", "it", "these", "those", "them", "one"}


_RELATIONS = {
    "wife",
    "husband",
    "partner",
    "spouse",
    "fiance",
    "fiancé",
    "fiancée",
    "girlfriend",
    "boyfriend",
    "daughter",
    "son",
    "kid",
    "kids",
    "child",
    "children",
    "baby",
    "twins",
    "mother",
    "mom",
    "mum",
    "father",
    "dad",
    "parents",
    "brother",
    "sister",
    "siblings",
    "grandma",
    "grandmother",
    "grandpa",
    "grandfather",
    "aunt",
    "uncle",
    "cousin",
    "niece",
    "nephew",
    "dog",
    "cat",
    "puppy",
    "kitten",
    "pet",
    "pets",
    "horse",
    "boss",
    "manager",
    "colleague",
    "coworker",
    "co-worker",
    "friend",
    "roommate",
    "neighbour",
    "neighbor",
    "mentor",
    "cofounder",
    "co-founder",
    "teammate",
    "bestie",
}


# a past event about this turn's errand or trouble, not the user's life
_ERRAND = re.compile(
    r"\b(?:order(?:ed)?|package|parcel|delivery|refund|charged?|ticket|invoice|payment|subscription|account"
    r"|password|login|app|bug|error|code|script|query|function|commit|deploy\w*|build|test|file|email(?:ed)?"
    r"|asked you|told you|sent you|this chat|this conversation)\b",
    re.IGNORECASE,
)


def _is_question(sent: Span) -> bool:
    text = sent.text.strip()
    if text.endswith("?"):
        return True
    first = sent[0]
    if first.lower_ in {"what", "why", "how", "when", "where", "who", "which", "whose"}:
        return True
    if (
        len(sent) > 1
        and first.tag_ in {"MD", "VBZ", "VBP", "VBD"}
        and sent[1].lower_ in {"you", "i", "we", "it", "there"}
    ):
        return True
    return False


def _in_main_clause(tok: Token, root: Token) -> bool:
    t = tok
    while t.i != root.i and t.head.i != t.i:
        if t.dep_ in _SUBORDINATE:
            return False
        t = t.head
    return True


def _first_person_main(sent: Span, root: Token) -> bool:
    lead = next((t for t in sent if t.dep_ not in {"intj", "punct", "cc", "advmod"}), None)
    if lead is not None and lead.lower_ in {"i", "we", "my", "our"}:
        return True
    for t in sent:
        if t.lower_ in _FIRST and t.tag_ in {"PRP", "PRP$"} and t.text != "US" and _in_main_clause(t, root):
            if _about_the_speaker(t, root):
                return True
    return False


def _about_the_speaker(t: Token, root: Token) -> bool:
    """ "I"/"my X" as the subject, or "X is my Y": the clause says something about the user, not
    merely mentions them ("their love gives me strength", "moments like these remind me")."""
    if t.dep_ in {"nsubj", "nsubjpass", "conj"} or (t.dep_ == "attr" and root.lemma_ == "be"):
        return True
    head = t.head
    if t.dep_ == "poss" and head.dep_ in {"nsubj", "nsubjpass", "attr", "conj"}:
        return head.dep_ != "conj" or head.head.dep_ in {"nsubj", "nsubjpass"}
    return root.lemma_ == "be" and head.dep_ == "attr"


def _imperative(sent: Span, root: Token) -> Token | None:
    """The verb of an imperative the sentence opens with ("please never use …", "keep …")."""
    if root.tag_ in {"VB", "VBP"} and _subject(root) is None:  # the tagger reads some imperatives as VBP
        before = [t for t in sent if t.i < root.i]
        if all(
            t.dep_ in {"intj", "punct", "cc", "advmod", "neg", "aux", "prep"}
            or t.head.dep_ in {"prep", "pobj"}
            or t.dep_ in {"pobj", "det", "amod"}
            for t in before
        ) and not any(t.lower_ in {"you", "i", "we", "to"} for t in before):
            return root
    lead = next((t for t in sent if t.dep_ not in {"intj", "punct", "cc", "advmod", "neg", "aux"}), None)
    if lead is None or lead.tag_ != "VB" or lead.i > sent.start + 4 or _subject(lead) is not None:
        return None
    if any(t.lower_ in {"to", "you", "i", "we"} for t in sent[: lead.i - sent.start]):
        return None
    return lead


def _now_state(root: Token) -> bool:
    """ "I got a gas grill now", "I've got 9 devs now": a past form with "now" says what holds
    from now on, not a past event."""
    return any(c.dep_ == "advmod" and c.lower_ == "now" for c in root.children)


def _enrolment(root: Token) -> bool:
    """ "signed up for my first ultra", "enrolled in a night course": a place the user holds
    from now on, not a past event."""
    lemma = root.lemma_.lower()
    return lemma in {"enrol", "enroll"} or (
        lemma == "sign" and any(c.dep_ == "prt" and c.lower_ == "up" for c in root.children)
    )


_RISE = {"go", "rise", "climb", "jump", "increase", "decrease", "grow", "fall", "creep", "shoot", "come"}


def _acquired(root: Token) -> bool:
    """ "picked up a second-hand Record Power bandsaw", "got a Takayama": something named the
    user now has, not a past event."""
    lemma = root.lemma_.lower()
    picked = lemma == "pick" and any(c.dep_ == "prt" and c.lower_ == "up" for c in root.children)
    if not (picked or lemma in {"get", "acquire", "inherit"}):
        return False
    return any(
        c.dep_ == "dobj"
        and c.lemma_.lower() not in _MESSAGES
        and any(t.tag_ in {"NNP", "NNPS"} for t in c.doc[c.left_edge.i : c.i + 1])
        for c in root.children
    )


_MESSAGES = frozenset("email e-mail mail message text call letter notification ticket reply invite".split())


def _new_amount(root: Token) -> bool:
    """ "Rent went up to 2,100", "my budget dropped to 15k": an amount that changed says what
    it is from now on, not an event."""
    if root.lemma_.lower() not in _RISE:
        return False
    to = [c for c in root.children if c.dep_ == "prep" and c.lower_ == "to"]
    return any(t.like_num or any(ch.isdigit() for ch in t.text) for p in to for t in p.subtree)


def _one_off(sent: Span, root: Token) -> bool:
    text = sent.text
    change = (
        root.lemma_.lower() in _CHANGE or _now_state(root) or _enrolment(root) or _new_amount(root) or _acquired(root)
    )
    if _ONE_OFF.search(text) and not change:
        return True
    if _TROUBLE.search(text):
        return True
    if root.tag_ == "VBD" and not change and root.lemma_.lower() != "be":
        return True  # a past event ("I was charged twice", "I found it")
    past_aux = any(c.dep_ in {"aux", "auxpass"} and c.tag_ == "VBD" for c in root.children)
    if past_aux and not change:
        return True  # "First person was boxing me in"
    if root.tag_ == "VBN" and not change and not any(c.dep_ in {"aux", "auxpass"} for c in root.children):
        return True
    for c in root.children:
        if c.dep_ in {"dobj", "attr"} and c.lower_ in _DEICTIC:
            return True  # "I need it for a homework", "I love it"
        if c.dep_ == "xcomp" and root.lemma_.lower() in {"need", "want", "try", "hope", "wonder"}:
            if not _RULE_WORDS.search(text):
                return True  # "I need to skip …", "I'm trying to add …"
    if root.lemma_.lower() == "like" and any(c.lower_ in {"'d", "would"} for c in root.children):
        return True  # "I'd like to change my address"
    return False


def _continues(text: str) -> bool:
    """A clause that goes on about the user's situation: "she uses a wheelchair", "performance matters"."""
    return bool(
        re.match(
            r"^(?:she|he|they|every|each|all|everything|so|the \w+ (?:is|are|has|have|comes?|needs?))\b", text, re.I
        )
    )


def _has_specifics(sent: Span) -> bool:
    return any(t.tag_ in {"NNP", "NNPS", "CD"} for t in sent)


# changes whose new state is the fact to keep ("we moved to Nomad last month"), even when dated
_STATE_CHANGE = {
    "move",
    "switch",
    "migrate",
    "relocate",
    "change",
    "convert",
    "upgrade",
    "bump",
    "replace",
    "drop",
    "rip",
    "port",
    "stop",
    "quit",
    "leave",
    "join",
    "start",
    "become",
    "retire",
    "hire",
}


@dataclass(frozen=True)
class _Piece:
    kind: str  # fact | preference | relation | episode | rule
    body: str
    first: bool  # says something about the user in its main clause
    subject: str = ""  # "The user's daughter": what a following "she" refers to
    lead: str = ""  # "The user's team uses": how a verbless list item after it reads
    title: str = ""


def _relation(sent: Span, root: Token) -> bool:
    """A person, pet or organisation in the user's life: "my daughter Mia", "Rex is our dog"."""
    for t in sent:
        if t.lower_ in _RELATIONS and any(c.lower_ in {"my", "our"} for c in t.children):
            return t.dep_ in {"nsubj", "nsubjpass", "attr", "appos", "dobj"} or t.head.dep_ in {"nsubj", "attr"}
    if root.lemma_.lower() == "have":
        return any(c.dep_ == "dobj" and c.lower_ in _RELATIONS for c in root.children)
    return False


def _subject_phrase(sent: Span, root: Token) -> str:
    """ "The user's daughter" for a clause whose subject is "my daughter (Mia)"."""
    subj = _subject(root)
    if subj is None or subj.lower_ not in _RELATIONS:
        return ""
    words = [t for t in subj.subtree]
    if not words or words[0].lower_ not in {"my", "our"}:
        return ""
    rest = " ".join(t.text for t in words[1:])
    return f"The user's {rest}"


def _lead_of(body: str, root: Token) -> str:
    """How a verbless list item after this clause reads: "The user's team uses"."""
    m = re.match(r"^((?:The user|the user)(?:'s (?:team|family|\w+))?)\b", body)
    if m is None:
        return ""
    subject = m.group(1)[:1].upper() + m.group(1)[1:]
    lemma = root.lemma_.lower()
    if _new_amount(root):
        return ""  # an amount takes one value: what follows it is no list of more
    if lemma == "be":  # "we're a React shop, pnpm, Jest": a setup; "my aim is X, Y" is not
        return f"{subject} uses" if _WORK.search(body) else ""
    if lemma == "have":
        return f"{subject} has"
    particles = " ".join(c.text for c in root.children if c.dep_ == "prt")
    verb = third_person(root.lemma_) if root.tag_ in {"VBP", "VBZ", "VB"} else root.text
    return f"{subject} {verb}{' ' + particles if particles else ''}"


def _episode(
    text: str, sent: Span, root: Token, now: datetime | None, first: bool, we_is: str, skip: set[int]
) -> _Piece | None:
    """A dated event in the user's life ("Yesterday I took my puppy Max to the vet")."""
    if now is None or not first or root.lemma_.lower() in _STATE_CHANGE:
        return None
    past = root.tag_ == "VBD" or (
        root.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in root.children)
    )
    if not past or _TROUBLE.search(text) or _ERRAND.search(text):
        return None
    when = dates.find_english(text, now)
    if when is None:
        return None
    base = sent.start_char
    skip = skip | {t.i for t in sent if when.start <= t.idx - base < when.end}
    for c in root.children:  # "… and it was so powerful": a judgement, not the event
        if c.dep_ == "conj" and (s := _subject(c)) is not None and s.lower_ not in _FIRST:
            skip |= {x.i for x in c.subtree} | {x.i for x in root.children if x.dep_ == "cc" and x.i < c.i}
    body = _Rewriter(sent, we_is, skip, rule=False).render(sent.start)
    body = re.sub(r"^(?:the user)\b", "the user", body, flags=re.I)
    if len(body.split()) < 3 or not body.lower().startswith(("the user", "their")):
        return None
    title = body[len("the user ") :] if body.lower().startswith("the user ") else body
    title = f"{when.day.isoformat()}: {title.rstrip('.')}"
    return _Piece("episode", f"{when.english()} {body[:1].lower() + body[1:]}", True, title=title[:80])
