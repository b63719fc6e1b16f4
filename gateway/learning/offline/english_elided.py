"""English clauses that leave the user out: what the user is, has and does, said without "I".

People type about themselves in fragments ("freelance ux designer in austin, still have like 18k
of student loans left", "both veggie so …", "sitting cfa level 1 in may", "allergic to
peanuts"). Each comma, "so", "but" or parenthesised part of a sentence is read on its own
parse; a part without a subject becomes a sentence of its own with the user put back when it
opens with

* a verb of a lasting state or habit ("have", "live", "work", "grow", "train" …; "-ing" forms
  of what one does for a while: "sitting", "preparing", "studying"), or "can't"/"can only";
* an adjective of what the user is ("veggie", "lactose intolerant", "allergic to …", "weakest
  at …": an adjective with its complement, or one of diet, health and status);
* a role ("accountant in lagos", "software tester in Toronto");

or when its subject is a bare noun with an amount ("current base is €62k": the user's).

The rest of the sentence stays as it was written, and so does a sentence that opens with the
user ("I'm 29, software tester in Toronto, …" goes on about them already); a part that greets
someone by name ("morning coach") or hedges ("probably a bad lawyer") is left alone. Whether the
new sentence is a memory is still for the gate and the clause reader to decide (a momentary
"just curious" is turned down there); this only says whose part it is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gateway.learning.offline import english

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["clauses"]

_CJK = re.compile(r"[\u3400-\u9fff]")
# where a part ends: a comma, a semicolon, "so", "but", "plus", a parenthesis
_BOUNDARY = re.compile(r",\s+|;\s+|\s+(?:so|but|plus|\+)\s+|\s*[()]\s*|\s+-\s+")
_OPENS_WITH_USER = re.compile(r"^(?:I|I'm|I've|I'd|we|we're|we've|my|our)\b", re.I)
# a greeting with a name ("morning coach", "night juniper") or a hedge ("probably a bad lawyer")
_NOT_SAID_OF_SELF = re.compile(
    r"^(?:(?:good )?(?:morning|night|evening|afternoon)|hi|hiya|heya|hey|hello|yo|dear)\b"
    r"|\b(?:probably|maybe|perhaps|might|would|could|if only|wish)\b",
    re.I,
)
_OPENER = re.compile(r"^(?:(?:and|also|oh|ok(?:ay)?|well|plus|though|tbh|honestly|btw)\b[,\s]*)+", re.I)

# the lasting states and habits a part may open with in its base form; instructions to the
# assistant ("use metric", "keep it short", "avoid jargon") are not among them
_STATE_VERBS = {
    "have",
    "live",
    "work",
    "grow",
    "own",
    "rent",
    "teach",
    "study",
    "train",
    "speak",
    "eat",
    "drink",
    "cook",
    "commute",
    "hate",
    "love",
    "enjoy",
    "volunteer",
    "freelance",
}
# what one is doing for a while, not as one types
_ONGOING = {
    "living",
    "working",
    "studying",
    "training",
    "sitting",
    "preparing",
    "learning",
    "teaching",
    "renting",
    "raising",
    "saving",
    "growing",
    "freelancing",
    "volunteering",
    "recovering",
    "revising",
}
_WHERE = {"in", "on", "with", "near", "at", "off", "abroad", "alone", "together", "by", "out"}
_NOT_AN_OBJECT = {
    "news",
    "question",
    "idea",
    "update",
    "moment",
    "second",
    "minute",
    "look",
    "go",
    "think",
    "try",
    "read",
    "this",
    "that",
    "it",
    "these",
    "those",
    "fun",
    "nice",
    "good",
}
# what the user is, said as an adjective: diet, health and status
_STATUS = re.compile(
    r"^(?:(?:both|still|also|strictly|fully|full|mostly|totally|completely|very|pretty|quite|severely|mildly)\s+)*"
    r"(?:veggie|vegetarian|vegan|pescatarian|pescetarian|lactose[- ]intolerant|gluten[- ]free|coeliac|celiac|diabetic"
    r"|teetotal|sober|halal|kosher|organic|retired|self[- ]employed|freelance|unemployed|single|married|divorced"
    r"|pregnant|colou?rblind|deaf|left[- ]handed|right[- ]handed|asthmatic|epileptic|dyslexic|autistic"
    r"|intolerant to [\w ]+|allergic to [\w ]+)"
    r"(?:\s+(?:mum|mom|dad|parent|mother|father|student|teacher|nurse|engineer|developer))?(?:\s+life)?"
    r"(?:\s+(?:now|too|lol|haha|though|anyway|as well|again|these days|since \w+|for (?:\w+ )?years?))*$",
    re.I,
)
# an adjective with its complement: "allergic to peanuts", "weakest at ethics", "fluent in Dutch"
_TRAIT = re.compile(
    r"^(?:(?:really|very|pretty|quite|much|way|a lot|kinda|kind of|still|also|only)\s+)*"
    r"(?:\w+est|\w+ic|\w+ant|\w+ent|\w+ive|fluent|bad|terrible|rubbish|hopeless|weak|strong|decent|okay|ok|fine|good|great)"
    r"\s+(?:at|in|with|to|on)\s+(?!this|that|it|the moment|hearing|know|see|go)\w+",
    re.I,
)
_AGENT = re.compile(r"(?:er|or|ist|ant|ent|ian|eer|ary|ive)$", re.I)
_ROLES = {
    "developer",
    "engineer",
    "programmer",
    "designer",
    "manager",
    "student",
    "teacher",
    "scientist",
    "analyst",
    "architect",
    "founder",
    "cto",
    "ceo",
    "consultant",
    "researcher",
    "doctor",
    "nurse",
    "lawyer",
    "writer",
    "accountant",
    "freelancer",
    "sre",
    "intern",
    "professor",
    "pm",
    "radiographer",
    "tester",
    "barista",
    "chef",
    "pharmacist",
    "paramedic",
    "electrician",
    "plumber",
    "carpenter",
    "photographer",
    "translator",
    "tutor",
    "coach",
    "vet",
    "dentist",
    "surgeon",
    "midwife",
    "firefighter",
    "pilot",
    "mechanic",
    "librarian",
    "journalist",
    "editor",
    "artist",
    "musician",
}
# agent nouns that name things or others, not what the user is
_NOT_ROLES = {
    "computer",
    "printer",
    "router",
    "charger",
    "folder",
    "user",
    "customer",
    "order",
    "number",
    "counter",
    "paper",
    "letter",
    "water",
    "weather",
    "other",
    "corner",
    "container",
    "cluster",
    "server",
    "browser",
    "dinner",
    "winter",
    "summer",
    "center",
    "centre",
    "parent",
    "partner",
    "client",
    "agent",
    "event",
    "comment",
    "content",
    "payment",
    "account",
    "percent",
    "moment",
    "restaurant",
    "plant",
    "giant",
    "library",
    "summary",
    "diary",
    "january",
    "february",
    "october",
    "november",
    "december",
    "september",
    "word",
    "door",
    "floor",
    "error",
    "color",
    "colour",
    "factor",
    "motor",
    "sensor",
    "monitor",
    "flavor",
    "flavour",
    "favour",
    "favor",
    "hour",
    "answer",
    "flyer",
    "driver",
    "player",
    "member",
    "owner",
    "leader",
    "speaker",
    "sticker",
}


def clauses(sentence: str) -> list[str]:
    """The sentence as it was, or, when parts of it leave the user out, its parts: each such
    part as a sentence of its own with the user put back, the rest as written."""
    if _CJK.search(sentence):
        return [sentence]
    if _OPENS_WITH_USER.match(_OPENER.sub("", sentence.strip())):
        return [sentence]  # "I'm 29, software tester in Toronto, …": the parts go on about the user as written
    spans = _spans(sentence)
    texts = [_OPENER.sub("", sentence[a:b]).strip() for a, b in spans]
    with english._parse_lock:
        docs = list(english.nlp().pipe([t or "." for t in texts]))
    supplied = [_with_user(t, d) if t else None for t, d in zip(texts, docs, strict=True)]
    if not any(supplied):
        return [sentence]
    out: list[str] = []
    run_start: int | None = None
    for (a, _), said in zip(spans, supplied, strict=True):
        if said is None:
            run_start = a if run_start is None else run_start
            continue
        if run_start is not None:
            out.append(sentence[run_start:a].strip(" ,;-+()"))
            run_start = None
        out.append(said)
    if run_start is not None:
        out.append(sentence[run_start:].strip(" ,;-+()"))
    return [o for o in out if o]


def _spans(sentence: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    at = 0
    for m in _BOUNDARY.finditer(sentence):
        if m.start() > at:
            spans.append((at, m.start()))
        at = m.end()
    if at < len(sentence):
        spans.append((at, len(sentence)))
    return spans


def _with_user(text: str, doc: Doc) -> str | None:
    """The part with the user put back, or ``None`` when it has its own subject or is not
    about what the user is, has or does."""
    words = [t for t in doc if not t.is_punct]
    if len(words) < 2 or text.endswith("?") or _NOT_SAID_OF_SELF.search(text):
        return None
    if _own_amount(doc):
        return f"My {text[:1].lower()}{text[1:].rstrip(' .!,')}."
    for t in doc:
        if t.dep_ in {"nsubj", "nsubjpass", "expl"} and t.head.i == doc[:].root.i and t.i < t.head.i:
            if t.lower_ not in {"both", "all", "still"}:  # "both veggie": the parser takes "both" for a subject
                return None
    body = _without_aside(text, doc).rstrip(" .!,")
    if _role(doc):
        article = "" if words[0].lower_ in {"a", "an"} else ("an " if body[:1].lower() in "aeiou" else "a ")
        return f"I'm {article}{body}."
    trait = _TRAIT.match(body) and (words[0].tag_[:2] in {"JJ", "RB"} or not words[0].tag_.startswith(("VB", "NN")))
    if _STATUS.match(body) or trait:
        return f"I'm {body}."
    lead = _lead(words)
    if lead is None:
        return None
    low = lead.lower_
    if low == "living" and (lead.i + 1 >= len(doc) or doc[lead.i + 1].lower_ not in _WHERE):
        return None  # "living the dream"
    if lead.tag_ == "VBG" and low in _ONGOING:
        return f"I'm {body[lead.idx :]}." if lead.i == words[0].i else f"I'm {body}."
    if lead.tag_ in {"VB", "VBP"} and lead.lemma_.lower() in _STATE_VERBS and lead.lower_ == lead.lemma_.lower():
        if any(c.dep_ in {"dobj", "pobj", "prt"} and c.lower_ in _NOT_AN_OBJECT for c in lead.children):
            return None
        return f"I {body}."
    if low in {"can't", "cannot"} or (low == "can" and len(words) > 1 and words[1].lower_ == "only"):
        return f"I {body}."
    return None


def _without_aside(text: str, doc: Doc) -> str:
    """The part without a trailing "if that matters", "if it helps": an aside, not a condition."""
    for t in doc:
        if t.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ == "if" for c in t.children):
            if any(c.dep_ == "nsubj" and c.lower_ in {"that", "it", "this"} for c in t.children):
                start = min(x.idx for x in t.subtree)
                return text[:start].rstrip(" ,")
    return text


def _own_amount(doc: Doc) -> bool:
    """ "rent is $1,850", "current base is €62k": an amount of the user's, its noun said bare."""
    root = doc[:].root
    if root.lemma_ != "be" or root.tag_ != "VBZ":
        return False
    subj = next((c for c in root.children if c.dep_ == "nsubj"), None)
    if subj is None or subj.tag_ != "NN" or subj.i != next(t.i for t in doc if not t.is_punct and t.dep_ != "amod"):
        return False
    if any(c.dep_ in {"det", "poss"} for c in subj.children):
        return False
    after = [t for t in doc if t.i > root.i]
    return any(t.tag_ in {"CD", "$"} or t.text[:1] in "$€£¥" for t in after[:3])


def _lead(words: list[Token]) -> Token | None:
    """The first word that is not an adverb of frequency or degree ("still have …")."""
    for t in words:
        if t.pos_ == "ADV" or t.lower_ in {"like", "usually", "mostly", "still", "also", "only", "just"}:
            continue
        return t
    return None


def _role(doc: Doc) -> bool:
    """ "accountant in lagos", "freelance ux designer in austin": a role, perhaps where, no verb."""
    if any(t.pos_ in {"VERB", "AUX"} for t in doc) or doc[0].lower_ in {"the", "this", "that", "my", "our", "your"}:
        return False
    head = next((t for t in doc if t.i == doc[:].root.i), None)
    if head is None or head.tag_ not in {"NN", "NNP"}:
        return False
    name = head.lower_
    if name in _NOT_ROLES:
        return False
    return name in _ROLES or (bool(_AGENT.search(name)) and any(c.dep_ in {"compound", "amod"} for c in head.children))
