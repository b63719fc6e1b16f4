"""Is the offline learner's candidate memory, as it would be stored, a well-formed statement about the user?

The offline learner turns chat into "The user …" / "用户…" sentences; on casual chat the rewrite often
yields something that is no fact: a reply's "Nah," left in front, a verb that no longer agrees
("the user were", "the user do-s"), someone else's doing, an "it" or "he" with nothing it could
mean, a "last week" that will be wrong next week, a view ("the user thinks family is
everything"), or a sentence with nothing in it to hold on to. The phrasing of the user's input
varies without end; the shape of the output does not. So this check reads the output: the
English sentence is parsed with the spaCy pipeline the learner already holds, the Chinese one is
cut with jieba, and a candidate is turned down, with one of the reason codes below, when:

* ``ill-formed``: broken grammar (agreement, a verb capitalised mid-sentence, a negation left
  behind its verb, a dangling "to"), or an interjection, a discourse marker or a name said to
  the other party left in front of the subject;
* ``other-subject``: the main clause is about someone or something else: not the user, nor the
  user's own context (their team, company, project and its parts, family, relations, pets:
  "The team builds with Bazel." is about the user; "Sam's dog …" or "The assistant …" is not);
* ``unresolved-reference``: a pronoun or "there" with no earlier noun it could stand for;
* ``unanchored-date``: a relative time ("last week", "下个月") that ``anchor_dates`` could not
  make absolute;
* ``opinion``: a view, a belief or a value ("thinks …", "believes in …", "觉得…");
* ``unspecific``: nothing specific: no name, number or thing, only a generic verb or a verdict;
* ``momentary`` (the gate's code): a copular state of the user pinned to one day or one clock
  time ("On 2026-03-04 the user was a bit teary."), whatever word names the state; in Chinese,
  a clause whose subject is a part of the user's body ("腿有点酸"), a hedged impression ("好像更
  活泼了") or a later clause's exclamation ("…，广告太多了") is of the moment and goes, the fact
  beside it stays (``without_passing``, which the pipeline applies before the gate reads an item).

``anchor_dates`` first rewrites the relative times it can resolve against the conversation's
time ("moved yesterday" → "moved on 2026-11-30", "下个月" → "2026年12月"); the pipeline applies
it to every learner's items. ``checked`` drops a reply's opening or a vocative before the subject
("Okay, the user plays the cello." → "The user plays the cello.") rather than the statement.
Only the offline learner's rewrites are judged here (``pipeline``): a model writes its own
sentences, and an explicit "remember" keeps what the user asked for.
"""

from __future__ import annotations

import re
from calendar import month_name
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from gateway.learning.offline import dates
from gateway.learning.offline.key_record import RELATIONS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

__all__ = ["REASONS", "anchor_dates", "checked", "statement_reason", "title_without_passing", "without_passing"]

REASONS = ("ill-formed", "other-subject", "unanchored-date", "opinion", "unspecific")

_CJK = re.compile(r"[\u3400-\u9fff]")

# --- dates ----------------------------------------------------------------------------------

_EN_MORE = re.compile(
    r"\b(?:(?P<this_year>this year)|(?P<last_year>last year)|(?P<next_year>next year)"
    r"|(?P<this_month>this month)|(?P<next_month>next month)|(?P<this_week>this week)|(?P<next_week>next week)"
    r"|(?P<tomorrow>tomorrow)"
    r"|(?:about |around )?(?P<years>\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten) years? ago)\b",
    re.I,
)
_ZH_MORE = re.compile(
    r"(?P<this_year>今年)|(?P<last_year>去年)|(?P<next_year>明年)|(?P<this_month>这个月|本月)"
    r"|(?P<next_month>下个?月)|(?P<this_week>这周|本周|这个?星期|这个?礼拜)|(?P<next_week>下周|下星期|下个?礼拜)"
    r"|(?P<tomorrow>明天)"
)
_EN_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_EN_NUMBERS |= {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
# "as of last week", "since yesterday": the preposition already says how the date relates
_EN_PREP_BEFORE = re.compile(r"\b(?:as of|since|from|until|by|in|on|during)\s*$", re.I)


def _next_month(day: date) -> date:
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def _more_english(m: re.Match[str], today: date) -> tuple[str, str]:
    """(phrase with its own preposition, phrase after one) for a match of ``_EN_MORE``."""
    if m.group("years"):
        raw = m.group("years").lower()
        year = str(today.year - (int(raw) if raw.isdigit() else _EN_NUMBERS[raw]))
        return f"in about {year}", f"about {year}"
    if m.group("tomorrow"):
        day = (today + timedelta(days=1)).isoformat()
        return f"on {day}", day
    if m.group("next_week") or m.group("this_week"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1 if m.group("next_week") else 0)
        return f"in the week of {monday.isoformat()}", f"the week of {monday.isoformat()}"
    if m.group("this_month") or m.group("next_month"):
        first = today.replace(day=1) if m.group("this_month") else _next_month(today)
        said = f"{month_name[first.month]} {first.year}"
        return f"in {said}", said
    shift = 0 if m.group("this_year") else (-1 if m.group("last_year") else 1)
    return f"in {today.year + shift}", str(today.year + shift)


def _more_chinese(m: re.Match[str], today: date) -> str:
    if m.group("tomorrow"):
        day = today + timedelta(days=1)
        return f"{day.year}年{day.month}月{day.day}日"
    if m.group("next_week") or m.group("this_week"):
        weeks = 1 if m.group("next_week") else 0
        return f"{(today - timedelta(days=today.weekday()) + timedelta(weeks=weeks)).isoformat()}那一周"
    if m.group("this_month") or m.group("next_month"):
        first = today.replace(day=1) if m.group("this_month") else _next_month(today)
        return f"{first.year}年{first.month}月"
    shift = 0 if m.group("this_year") else (-1 if m.group("last_year") else 1)
    return f"{today.year + shift}年"


def anchor_dates(text: str, now: datetime) -> str:
    """``text`` with each relative time it can resolve against ``now`` made absolute."""
    zh = bool(_CJK.search(text))
    for _ in range(4):  # a sentence holds a few at most
        found = dates.find_chinese(text, now) if zh else dates.find_english(text, now)
        if found is not None:
            said = found.chinese() if zh else found.english()
            head = text[: found.start]
            if not zh:
                said = said[:1].lower() + said[1:]
                if _EN_PREP_BEFORE.search(head):  # "since last week" → "since the week of …"
                    said = re.sub(r"^(?:on|in) ", "", said)
                if not head.strip():
                    said = said[:1].upper() + said[1:] + ","
            text = head + said + text[found.end :]
            continue
        more = (_ZH_MORE if zh else _EN_MORE).search(text)
        if more is None:
            break
        head = text[: more.start()]
        if zh:
            said = _more_chinese(more, now.date())
        else:
            own, bare = _more_english(more, now.date())
            said = bare if _EN_PREP_BEFORE.search(head) else own
            if not head.strip():
                said = said[:1].upper() + said[1:] + ","
        text = head + said + text[more.end() :]
    return text


_EN_RELATIVE = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|the other day|the day before|soon"
    r"|(?:last|next|this|past|coming) (?:week|weekend|month|year|night|morning|evening|summer|winter|spring|autumn"
    r"|fall|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?:a|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|several|\d+) (?:days?|weeks?|months?"
    r"|years?) ago|in (?:a|one|two|three|a few|a couple of|\d+) (?:days?|weeks?|months?))\b",
    re.I,
)
_ZH_RELATIVE = re.compile(
    r"昨天|昨晚|前天|今天|今晚|明天|后天|上周|下周|这周|本周|上个?月|下个?月|这个月|去年|今年|明年|前年|后年"
    r"|[\d一两二三四五六七八九十几]+(?:个)?(?:天|周|星期|月|年)(?:前|以前|之前|后|以后|之后)|前几天|过几天|过两天"
)

# --- English ----------------------------------------------------------------------------------

_LEAD = re.compile(
    r"^(?:(?:On|In) (?:the week of )?(?:about )?[\w\- ]*?\d{4}(?:-\d{2}-\d{2})?,? |In the user's setup, )"
)
_BROKEN = re.compile(r"\b\w+-s\b|\bto (?:do|does) not\b", re.I)
_BE = {"be", "become", "seem", "remain", "stay", "get", "feel", "look", "sound"}
# the other party's words or the user's reply, left before the statement
_DISCOURSE = {
    "yup",
    "yep",
    "yeah",
    "yes",
    "nah",
    "nope",
    "no",
    "well",
    "oh",
    "ah",
    "anyway",
    "anyways",
    "meanwhile",
    "so",
    "okay",
    "ok",
    "lol",
    "haha",
    "hey",
    "wow",
    "sure",
    "true",
    "honestly",
    "basically",
    "actually",
    "totally",
    "definitely",
    "absolutely",
    "seriously",
    "literally",
    "ugh",
    "hmm",
    "aw",
    "omg",
}
# nouns that name nothing in particular: a sentence whose only nouns are these says nothing specific
_GENERIC_NOUNS = {
    "thing",
    "stuff",
    "way",
    "lot",
    "bit",
    "ton",
    "time",
    "life",
    "people",
    "folk",
    "folks",
    "one",
    "something",
    "everything",
    "anything",
    "nothing",
    "difference",
    "impact",
    "challenge",
    "memory",
    "journey",
    "experience",
    "progress",
    "support",
    "love",
    "passion",
    "dream",
    "ambition",
    "option",
    "opportunity",
    "fun",
    "vibe",
    "day",
    "moment",
    "part",
    "kind",
    "sort",
    "deal",
    "matter",
    "idea",
    "world",
    "other",
    "everyone",
    "someone",
    "anyone",
    "heart",
    "mind",
    "feeling",
    "attitude",
    "strength",
    "confidence",
    "courage",
    "change",
    "cause",
    "future",
    "result",
    "success",
    "joy",
    "happiness",
    "peace",
    "hope",
    "effort",
    "work",
    "goal",
    "decision",
    "chance",
    "point",
    "sense",
    "side",
    "end",
    "start",
    "rest",
    "more",
    "most",
    "others",
    "ones",
    # a passing state: "is in a good mood", "in high spirits", "in bad shape"
    "mood",
    "spirits",
    "shape",
}
# verdicts and moods: as the only thing said of the user, no fact
_VERDICTS = {
    "great",
    "good",
    "fine",
    "ok",
    "okay",
    "amazing",
    "awesome",
    "cool",
    "nice",
    "fun",
    "ready",
    "positive",
    "passionate",
    "happy",
    "glad",
    "grateful",
    "thankful",
    "excited",
    "proud",
    "lucky",
    "blessed",
    "cute",
    "sweet",
    "lovely",
    "wonderful",
    "fantastic",
    "incredible",
    "inspiring",
    "encouraging",
    "supportive",
    "determined",
    "motivated",
    "committed",
    "dedicated",
    "eager",
    "keen",
    "up",
    "game",
    "sure",
    "busy",
    "bad",
    "terrible",
    "hard",
    "tough",
    "better",
    "best",
    "worse",
    "worst",
    "real",
    "genuine",
    "content",
    "chill",
    "chilled",
    "brave",
    "special",
    "important",
    "meaningful",
    "fulfilling",
    "rewarding",
    "professional",
    "different",
    "able",
}
_OPINION_VERBS = {"think", "believe", "feel", "guess", "reckon", "suppose", "hope", "care", "wonder", "imagine"}
_OPINION_VERBS |= {"picture", "wish", "agree", "realize", "realise", "bet", "doubt", "say", "mean", "matter"}
_PRONOUNS = {"he", "him", "his", "she", "her", "hers", "it", "its", "himself", "herself", "itself"}
_DEMONSTRATIVES = {"this", "that", "these", "those", "some"}
_ARGUMENT = {"nsubj", "nsubjpass", "dobj", "pobj", "attr", "dative", "oprd"}


def _is_user(t: Token) -> bool:
    return t.lower_ == "user" or (t.lower_ in {"their", "them", "they"})


def _about_user(t: Token) -> bool:
    """The user, something or someone of the user's ("the user's band's gig", "the user's
    flatmate Sam"), or a list holding the user."""
    if _is_user(t) or any(c.dep_ in {"poss", "compound"} and _about_user(c) for c in t.children):
        return True
    return any(c.dep_ == "conj" and _about_user(c) for c in t.children)


# the user's own context: who and what a statement without "the user" is still about ("The team
# builds with Bazel.", "The dog is called Biscuit.", "We deploy on Fridays."): the user's group,
# workplace, project and its parts, family, relations and pets
_CONTEXT_NOUNS = set(RELATIONS) | {"team", "company", "startup", "org", "organisation", "organization", "business"}
_CONTEXT_NOUNS |= {"shop", "studio", "family", "household", "home", "flat", "house"}
_CONTEXT_NOUNS |= {"project", "repo", "repository", "codebase", "monorepo", "app", "application", "service", "product"}
_CONTEXT_NOUNS |= {"site", "website", "stack", "backend", "frontend", "api", "pipeline", "ci", "build", "deploy"}
_CONTEXT_NOUNS |= {"deployment", "server", "database", "db", "cluster", "infra", "infrastructure", "code", "tests"}
_CONTEXT_NOUNS |= {"department", "squad", "office", "employer", "job", "client", "customers", "users", "kids"}
_CONTEXT_NOUNS |= {"children", "parents", "folks", "colleagues", "coworkers", "teammates", "pets", "dogs", "cats"}
_OWN = {"our", "my", "their", "the", "this", "that"}


def _users_context(t: Token) -> bool:
    """The user's group, workplace, project, family, relation or pet, with no other owner named
    ("The team", "our repo", "the dog"; not "Sam's dog", "a company")."""
    if t.lower_ in {"we", "us"}:
        return True
    if t.pos_ not in {"NOUN"} or t.lemma_.lower() not in _CONTEXT_NOUNS and t.lower_ not in _CONTEXT_NOUNS:
        return False
    owners = [c for c in t.children if c.dep_ in {"poss", "det"}]
    return all(c.lower_ in _OWN or _about_user(c) for c in owners)


def _someone_else(t: Token) -> bool:
    """A named person, a pronoun that is not the user, or something of theirs ("Sam's flat")."""
    if t.pos_ == "PROPN" or (t.tag_ == "PRP" and not _is_user(t)):
        return True
    return any(c.dep_ == "poss" and not _about_user(c) for c in t.children)


def _english(content: str, kind: str) -> str | None:
    from gateway.learning.offline import english

    if _EN_RELATIVE.search(content):
        return "unanchored-date"
    lead = _LEAD.match(content)
    body = content[lead.end() :] if lead else content
    pipeline = english.nlp()
    with english._parse_lock:
        doc = pipeline(body)
    sent = next(iter(doc.sents))
    # "In the user's setup, …" is the terse reading's: a list of attributes, no clause to parse
    terse = lead is not None and lead.group(0).startswith("In the user's setup")
    dated = lead is not None and not terse
    shape = None if terse else (_lead_reason(sent) or _grammar_reason(sent) or _subject_reason(sent))
    one_day = lead is not None and _ONE_DAY.match(lead.group(0)) is not None
    moment = None if terse or kind == "rule" else _moment_reason(sent, one_day)
    return shape or moment or _reference_reason(sent) or _opinion_reason(sent) or _specific_reason(sent, kind, dated)


_ONE_DAY = re.compile(r"^On \d{4}-\d{2}-\d{2}\b")
# a clock time or a part of one night: "at 4am", "at 11:30 pm", "at midnight"
_CLOCK = re.compile(r"\b(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|midnight|dawn|night)\b", re.I)
_STATE_VERBS = {"be", "feel", "seem", "look"}
_DEGREE = {"so", "very", "really", "totally", "completely", "utterly", "super", "quite", "pretty", "bit", "extremely"}


def _moment_reason(sent: Span, one_day: bool) -> str | None:
    """A copular state of the user ("was a bit teary", "felt queasy") pinned to one day or one
    clock time: the mood or the body of that moment, whatever word names it. An event of that day
    ("was promoted", "got married") has a verb of its own; a state with an object ("afraid of
    heights") or a noun ("was a nurse") is a disposition or a role; a state with no time is not
    judged here."""
    root = sent.root
    subjects = [c for c in root.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if not subjects or subjects[0].lower_ != "user":
        return None
    if any(c.dep_ in {"attr", "dobj", "ccomp", "xcomp", "agent", "dative"} for c in root.children):
        return None
    if root.tag_ == "VBN" and any(c.dep_ == "auxpass" for c in root.children):
        # "was totally frazzled": a participle said with its degree is a state; "was promoted" is not
        if not any(c.dep_ in {"advmod", "npadvmod"} and c.lower_ in _DEGREE for c in root.children):
            return None
        state = root
    elif root.lemma_.lower() in _STATE_VERBS:
        states = [c for c in root.children if c.dep_ == "acomp" or (c.dep_ == "oprd" and c.tag_ == "JJ")]
        if not states:
            return None
        state = states[0]
    else:
        return None
    preps = [p for t in {root, state} for p in t.children if p.dep_ == "prep"]
    clock = [p for p in preps if _CLOCK.search(" ".join(x.text for x in p.subtree))]
    if len(clock) < len(preps):
        return None  # "allergic to cats", "in Lisbon": what the state is about or where
    return "momentary" if one_day or clock else None


# a reply's opening or a name said to the other party, then a comma, then the statement; or a
# connective said straight before the subject ("Meanwhile the user's flatmate …")
_CONNECTIVES = "|".join(sorted(_DISCOURSE | {"now", "lately", "also", "plus", "then", "still", "and", "but"}))
_LEAD_TO_DROP = re.compile(rf"^(?:[^,]{{1,40}}?,\s+(?=[^,]*\buser\b)|(?:{_CONNECTIVES})\s+(?=the user\b))", re.I)


def _without_lead(content: str) -> str | None:
    """``content`` without what stands before its subject ("Heads up, Sam and the user are …"
    → "Sam and the user are …"), or ``None`` when nothing such is there to drop."""
    if _LEAD.match(content) or _CJK.search(content):
        return None
    m = _LEAD_TO_DROP.match(content)
    if m is None:
        return None
    rest = content[m.end() :]
    return rest[:1].upper() + rest[1:]


def _first_user(sent: Span) -> Token | None:
    return next((t for t in sent if t.lower_ == "user"), None)


def _lead_reason(sent: Span) -> str | None:
    """A reply's opening or a name said to the other party left before "the user"."""
    user = _first_user(sent)
    if user is None:
        return None
    start = user.i - 1 if user.i > sent.start and sent.doc[user.i - 1].lower_ == "the" else user.i
    lead = [t for t in sent if t.i < start]
    if not lead:
        return None
    words = [t for t in lead if not t.is_punct]
    if any(t.tag_ == "UH" or t.pos_ == "INTJ" or t.lower_ in _DISCOURSE for t in words[:1]):
        return "ill-formed"  # "Nah, the user has not.", "Yup, …"
    before_comma: list[Token] = []
    for t in lead:
        if t.text == ",":
            break
        before_comma.append(t)
    comma = len(before_comma) < len(lead)
    if comma and not any(t.pos_ in {"NOUN", "NUM"} or t.like_num for t in before_comma):
        return "ill-formed"  # "Much better, the user …", "Maria, the user …"
    if len(words) == 1 and words[0].text[:1].isupper() and words[0].pos_ in {"PROPN", "ADV"} and not comma:
        if words[0].tag_ not in {"RB"} or words[0].text.lower() not in {"now", "sometimes", "usually", "often"}:
            return "ill-formed"  # "Kiki the user can not sleep."
    return None


def _grammar_reason(sent: Span) -> str | None:
    for t in sent:
        if t.i == sent.start:
            continue
        prev = sent.doc[t.i - 1]
        if t.text.isalpha() and t.text[:1].isupper() and t.text[1:].islower():
            if t.tag_.startswith("VB") and (prev.lower_ == "user" or prev.pos_ == "AUX"):
                return "ill-formed"  # "The user Speaks soon."
            if t.tag_ in {"JJ", "RB"} and re.search(r"(?:ed|ing|ly)$", t.text) and prev.lemma_ == "be":
                return "ill-formed"  # "The user is Retired now."
        if t.lower_ == "user" and t.dep_ in {"nsubj", "nsubjpass"} and not any(c.dep_ == "conj" for c in t.children):
            verb = t.head
            auxes = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < verb.i]
            finite = auxes[0] if auxes else verb
            if finite.tag_ == "VBP" or finite.lower_ in {"were", "are"}:
                return "ill-formed"  # "The user were able …", "the user have …"
        if t.dep_ == "neg" and t.head.pos_ == "VERB" and t.i > t.head.i:
            if not any(c.dep_ in {"aux", "auxpass"} for c in t.head.children):
                return "ill-formed"  # "The user misses not the paperwork."
        if t.dep_ == "csubj" and any(c.dep_ in {"aux", "nsubj"} for c in t.children):
            return "ill-formed"  # "The user is running can really boost the mood."
        if t.tag_ == "TO" and t.i + 1 < sent.end and (sent.doc[t.i + 1].pos_ in {"ADP", "PUNCT"}):
            return "ill-formed"  # "… is not allowed to for a fortnight."
    last = [t for t in sent if not t.is_punct]
    if last and (last[-1].pos_ == "AUX" or (last[-1].dep_ == "neg" and last[-1].head.pos_ == "AUX")):
        return "ill-formed"  # "The user has not."
    return None


def _subject_reason(sent: Span) -> str | None:
    """The first clause is about someone or something else: "Sam kept the old flat, …"."""
    subjects = [t for t in sent if t.dep_ in {"nsubj", "nsubjpass", "csubj", "expl"}]
    if not subjects or _about_user(subjects[0]) or _users_context(subjects[0]):
        return None
    verb = subjects[0].head
    if verb.lemma_ in _BE and any(c.dep_ in {"attr", "acomp"} and _about_user(c) for c in verb.children):
        return None  # "Listening is now the user's strong point."
    if _someone_else(subjects[0]):
        return "other-subject"
    done_to_user = any(c.dep_ in {"dobj", "dative"} and _about_user(c) for c in verb.children)
    if not done_to_user and not any(_about_user(t) for t in subjects[1:]):
        return "other-subject"  # "The weather was lovely." (not "A company in Leeds hired the user.")
    return None  # a topic first, then the user: "Only problem is time, the user does 12 hr shifts."


# "he" and "she" stand for a person (or a pet) named before, not for a thing
_PERSONAL = {"he", "him", "his", "she", "her", "hers", "himself", "herself"}
_PERSON_NOUNS = set(RELATIONS) | {"person", "man", "woman", "guy", "girl", "boy", "lady", "gentleman", "teacher"}
_PERSON_NOUNS |= {"doctor", "nurse", "coach", "client", "customer", "landlord", "landlady", "owner", "tutor", "vet"}
_PERSON_NOUNS |= {"student", "pupil", "baby", "toddler", "kid", "puppy", "parent", "grandparent", "bride", "groom"}


def _reference_reason(sent: Span) -> str | None:
    """A pronoun or "there" that nothing earlier in the memory can stand for."""
    for t in sent:
        low = t.lower_
        pronoun = low in _PRONOUNS and t.tag_ in {"PRP", "PRP$"}
        demonstrative = low in _DEMONSTRATIVES and t.tag_ == "DT" and t.dep_ in _ARGUMENT
        there = low == "there" and t.tag_ == "RB"
        if not (pronoun or demonstrative or there):
            continue
        if low == "it" and t.dep_ == "nsubj" and any(c.dep_ in {"xcomp", "ccomp"} for c in t.head.children):
            continue  # "it takes a while to …": a dummy subject
        if low == "it" and t.i == sent.start and t.head.lemma_ == "be":
            continue  # "It is just the user and their partner": the leading "it" is the gate's
        earlier = [
            x for x in sent if x.i < t.i and x.pos_ in {"NOUN", "PROPN"} and x.lower_ != "user" and not x.is_stop
        ]
        if there and not any(x.pos_ == "PROPN" or x.dep_ == "pobj" for x in earlier):
            return "unresolved-reference"
        if low in _PERSONAL and not any(x.pos_ == "PROPN" or x.lemma_.lower() in _PERSON_NOUNS for x in earlier):
            return "unresolved-reference"  # "… close to her place": a place or a plan is no "her"
        if not earlier:
            return "unresolved-reference"
    return None


def _opinion_reason(sent: Span) -> str | None:
    root = sent.root
    if root.lemma_ in _OPINION_VERBS:
        if root.lemma_ in {"feel", "matter", "mean"} or any(
            c.dep_ in {"ccomp", "xcomp"} or (c.dep_ == "prep" and c.lower_ in {"in", "about", "that", "of"})
            for c in root.children
        ):
            return "opinion"  # "The user thinks family is everything.", "believes in community"
    for c in root.children:
        if c.dep_ == "acomp" and c.lemma_.lower() in _VERDICTS:
            if any(p.dep_ == "prep" and p.lower_ in {"about", "for", "of", "to"} for p in c.children):
                # "is up for the challenge", "is passionate about making an impact": a verdict with
                # nothing named; "is passionate about veterans' rights" names what the user cares for
                objects = [x for p in c.children if p.dep_ == "prep" for x in p.subtree if _names_something(x)]
                if not objects:
                    return "opinion"
    return None


def _names_something(t: Token) -> bool:
    """A name, or a thing that is not one of the generic nouns."""
    if t.pos_ == "PROPN":
        return True
    return t.pos_ == "NOUN" and t.lemma_.lower() not in _GENERIC_NOUNS and t.lower_ not in _GENERIC_NOUNS


# verbs that say nothing of what happened: "On 2026-02-02 the user did something brave."
_GENERIC_VERBS = {"do", "have", "make", "get", "be", "go", "happen", "try", "see", "feel", "find", "take"}


def _specific_reason(sent: Span, kind: str, dated: bool) -> str | None:
    """Nothing to hold on to: no name, number or thing named, only generic words and verdicts;
    a dated event is specific by its date and its verb ("In the week of … the user graduated.")."""
    if kind == "rule":
        return None
    if dated and sent.root.pos_ == "VERB" and sent.root.lemma_.lower() not in _GENERIC_VERBS:
        return None
    # "The user's team has been so supportive.": a verdict on someone of the user's; the subject
    # names whom it is about, not anything said of them
    said_of = [c for c in sent.root.children if c.dep_ in {"nsubj", "nsubjpass"}] if sent.root.lemma_ in _BE else []
    skip = {x.i for c in said_of if _about_user(c) for x in c.subtree}
    for t in sent:
        if t.i not in skip and t.i > sent.start and (t.like_num or t.pos_ == "NUM"):
            return None  # "is twelve": a number, though spaCy lists it as a stop word
        if t.lower_ == "user" or t.is_punct or t.is_stop or t.i in skip:
            continue
        if t.tag_ == "VBN" and any(c.dep_ == "auxpass" for c in t.children) and t.lemma_.lower() not in _VERDICTS:
            if not any(c.dep_ in {"agent", "dobj", "prep"} for c in t.children):
                return None  # an attribute the parser took for a passive: "The user is both veggie."
        if t.pos_ in {"PROPN", "NUM"} or t.like_num or any(ch.isdigit() for ch in t.text):
            return None
        if t.i > sent.start and t.text[:1].isupper() and t.text.lower() != "i":
            return None  # a name, whatever the parser took it for ("uses PostgreSQL", tagged an adverb)
        if t.pos_ == "NOUN" and t.lemma_.lower() not in _GENERIC_NOUNS and t.lower_ not in _GENERIC_NOUNS:
            return None
        if t.pos_ == "ADJ" and t.dep_ in {"acomp", "attr", "oprd", "conj"} and t.lemma_.lower() not in _VERDICTS:
            return None  # "is vegan", "is left-handed"
        if t.pos_ == "ADJ" and t.dep_ == "amod" and t.head.pos_ == "NOUN" and t.lemma_.lower() not in _VERDICTS:
            return None  # "a small workshop"
    return "unspecific"


# --- Chinese ------------------------------------------------------------------------------

_ZH_LEAD = re.compile(r"^(?:\d{4}年\d{1,2}月(?:\d{1,2}日)?|\d{4}-\d{2}-\d{2}那一周)[，,]?")
# a view, a feeling or hearsay: "用户觉得…", "用户感觉用户胖了"
_ZH_OPINION = re.compile(r"^用户(?:的)?(?:觉得|感觉|认为|以为|相信|说|怕|担心|知道|猜|估计|发现)")
_ZH_EMBEDDED_QUESTION = re.compile(r"是不是|是否|有没有|哪来|为什么|怎么|什么|吗")
_ZH_PRONOUN = re.compile(r"[他她它](?!们)")
_ZH_NOUN_FLAGS = ("n", "nr", "ns", "nt", "nz", "ng", "eng", "m", "t", "s", "j", "x", "nw", "vn", "an", "f")
_ZH_GENERIC = {"情况", "东西", "事情", "事儿", "问题", "一下", "要求", "时候", "感觉", "样子", "人"}


def _chinese(content: str, kind: str) -> str | None:
    from gateway.learning.offline import chinese

    if _ZH_RELATIVE.search(content):
        return "unanchored-date"
    body = _ZH_LEAD.sub("", content.strip()).rstrip("。！!.")
    if not body.startswith("用户"):
        head = body.split("用户", 1)[0]
        tags = chinese.tagged(head) if head else []
        # a topic said first is fine ("蛋白粉用户不喝了", "写代码用户用…"); an adverb, a
        # preposition or a pronoun is what another subject's clause opens with ("就怕老师问用户…", "在用户脚边…")
        if "用户" not in body or any(f[:1] in {"d", "p", "c", "r"} for _, f in tags):
            return "other-subject"
    if re.fullmatch(r"用户(?:也|都|还)?是[\u4e00-\u9fff]{1,3}的", body):
        return "unspecific"  # "用户是专业的。": a verdict, not what the user is
    if _ZH_OPINION.match(body):
        return "opinion"
    if _ZH_EMBEDDED_QUESTION.search(body) and kind != "rule":
        return "question"
    if m := _ZH_PRONOUN.search(body):
        before = chinese.tagged(body[: m.start()].replace("用户", ""))
        if not any(f.startswith(("n", "eng")) and w not in _ZH_GENERIC for w, f in before):
            return "unresolved-reference"  # "用户家短腿屁股大，一看到它就…" has a noun; "用户放学后他先…" not
    whole = [(w, f) for w, f in chinese.tagged(body) if w not in {"用户", "的"}]
    specific = [w for w, f in whole if f.startswith(_ZH_NOUN_FLAGS) and w not in _ZH_GENERIC]
    # jieba cuts a name it does not know into characters tagged as verbs ("换成钉钉" -> 换成/钉/钉):
    # a verb with another verb-tagged word after it has an object, which is specific enough
    specific += [w for (w, f), (_, g) in zip(whole, whole[1:], strict=False) if f == "v" and g.startswith("v")]
    if kind != "rule" and not specific and not re.search(r"\d|[A-Za-z]{2,}", body):
        return "unspecific"  # "用户放心。", "用户是专业的。", "用户转行了。"
    return None


# a clause of the moment beside a fact: "刚下夜班", "累得不行", "有点担心", "头都大了"; and an aside in
# brackets that comments rather than names ("（亲戚太多了没办法）")
_ZH_PASSING_CLAUSE = re.compile(
    r"^(?:现在|今天|这会儿)?(?:刚|才)(?:下|到|起|回|忙|吃)[\u4e00-\u9fff]{0,4}$"
    r"|^(?:好|有点|有些|太|超|特别|真|快)?[累困饿烦气吓疼热冷急愁忙](?:得(?:不行|要命|要死|半死|够呛|慌)|死|疯)(?:了|我了)?$"
    r"|^(?:我|用户)?(?:有点|有些|好|挺|很|特别|超)(?:累|困|烦|担心|焦虑|紧张|难受|崩溃|郁闷|开心|激动)(?:了|啊|呀)?$"
    r"|^[\u4e00-\u9fff]{0,3}都(?:大|麻|快断|断)了$"
    r"|^(?:好|有点|真)?[累困饿烦疼热冷急愁气忙]得[\u4e00-\u9fff]{2,10}(?:了|啦)$"  # 累得腰都直不起来了
)
_ZH_ASIDE = re.compile(r"[（(][^）)]*(?:了|太|没办法|吧|啊|哈|呢)[^）)]*[）)]")


# the parts of the body whose feeling a clause can tell ("眼睛有点干", "胳膊都抬不起来了"); a
# whole word as jieba cuts it, so "头发", "手机" and "手工" are not "头" and "手"
_ZH_BODY = {
    "头", "脑子", "脑袋", "眼睛", "眼皮", "嗓子", "喉咙", "脖子", "肩膀", "肩", "后背", "腰", "胳膊", "手", "手心",
    "手指", "手腕", "腿", "小腿", "大腿", "脚", "脚底", "脚踝", "膝盖", "肚子", "胃", "脸", "屁股", "全身", "浑身",
}  # fmt: skip
# how long it has been so: the body's lasting condition, not this moment's feeling
_ZH_BODY_LASTING = re.compile(r"一直|总是|老是|长期|常年|从小|天生|每[天周月年次]|经常|慢性|多年|好几年")
# a passing impression: "好像更活泼了", "看起来更精神了"
_ZH_HEDGED_NOW = re.compile(r"(?:好像|似乎|看起来|看上去|貌似|感觉)[^，]{0,8}了$")


def _zh_state_of_the_moment(clause: str) -> bool:
    """A clause whose subject is a part of the user's body, with no time to it, or a hedged
    impression of a change: how things feel or look at this moment (module docstring)."""
    from gateway.learning.offline import chinese

    if _ZH_HEDGED_NOW.search(clause):
        return True
    if _ZH_BODY_LASTING.search(clause):
        return False
    words = [(w, f) for w, f in chinese.tagged(re.sub(r"^(?:用户|我)的?", "", clause)) if w.strip()]
    if len(words) < 2 or words[1][0] in {"的", "是", "着", "上", "里"}:
        return False  # "背的是…", "手上戴着…": the word names no feeling of the body
    (first, flag) = words[0]
    return (first in _ZH_BODY and flag.startswith("n")) or (first[:1] in _ZH_BODY and flag in {"a", "l", "i", "z"})


# an exclamation after the fact ("…，印象笔记太卡了", "…，真难受啊"): a verdict of the moment, most
# often on something else, not what the user's fact is
_ZH_EXCLAIMED = re.compile(r"(?:太|真)[\u4e00-\u9fff]{1,4}(?:了|啊)$")


def _zh_exclaimed(clause: str) -> bool:
    """An exclamation ("太卡了", "真难受啊") with "太"/"真" a word of its own: "太极拳" is no "太"."""
    from gateway.learning.offline import chinese

    if _ZH_EXCLAIMED.search(clause) is None:
        return False
    # jieba glues the degree word to a one-character adjective ("太卡", "太贵"); a longer word, or
    # a noun of two, is a word of its own ("太极拳", "太阳", "真相")
    words = [w for w, _ in chinese.tagged(clause)]
    return any(w in {"太", "真"} or (len(w) == 2 and w[0] in "太真" and w not in _ZH_TAI_ZHEN_WORDS) for w in words)


_ZH_TAI_ZHEN_WORDS = {
    "太太",
    "太阳",
    "太空",
    "太极",
    "太后",
    "太子",
    "真相",
    "真人",
    "真心",
    "真实",
    "真正",
    "真理",
    "真空",
}


_ZH_OTHERS = frozenset("老板 同事 领导 客户 邻居 室友 房东 老师 朋友 他 她 他们 她们 人家 别人".split())


def _zh_someone_elses_doing(clause: str) -> bool:
    """A later clause whose subject is a person named by name (jieba's ``nr``), doing a thing of
    their own ("…，王磊周六要值班"): not the user's fact. One that says who they are ("张伟是设计师")
    or brings the user in ("…和用户…") stays."""
    from gateway.learning.offline import chinese

    if "用户" in clause or "我" in clause:
        return False
    words = [(w, f) for w, f in chinese.tagged(clause) if w.strip()]
    while len(words) > 3 and (words[0][1] == "t" or re.fullmatch(r"(?:周|星期|礼拜)[一二三四五六日天末]", words[0][0])):
        words = words[1:]  # "周五老板要办 live": when, then who
    if len(words) >= 3 and words[0][0] in _ZH_OTHERS and words[1][1].startswith("v") and words[1][0] != "是":
        return True  # "…，老板要办 live": a reason that is someone else's doing ("老师很严格" says what they are)
    if len(words) < 3 or words[0][1] != "nr" or words[1][0] in {"是", "的", "和", "跟", "叫"}:
        return False
    # jieba tags some common nouns "nr" ("宾客"): a name has a surname or a 阿/小/老 before one character
    first = words[0][0]
    return first in chinese.person_names(clause) or re.fullmatch(r"[阿小老][\u4e00-\u9fff]", first) is not None


# where the first clause's own sentence goes on: after an emoji or an ellipsis
_ZH_SENTENCE_GOES_ON = re.compile(r"(?<=[^\w\s，。、])\s+|……+")
_ZH_OWN_SUBJECT = re.compile(r"^(?:\d{4}年\d{1,2}月(?:\d{1,2}日)?)?用户")


def _after_passing_lead(content: str, clauses: list[str], passing: list[bool], end: str) -> tuple[str, bool]:
    """The rewrite whose first clause was of the moment: what follows it when that still says
    something of the user (a clause with its own "用户", or one that goes on with a verb: "用户手抖
    写不好，改学太极拳了" keeps "用户改学太极拳了"); else the whole of it was of the moment."""
    from gateway.learning.offline import chinese

    parts = [p.strip() for p in _ZH_SENTENCE_GOES_ON.split(clauses[0])[1:] if p.strip()]
    rest = parts + [c.strip() for c, p in zip(clauses[1:], passing[1:], strict=True) if not p and c.strip()]
    for k, part in enumerate(rest):
        if _ZH_OWN_SUBJECT.match(part):
            return "，".join(rest[k:]) + end, False
    words = [(w, f) for w, f in chinese.tagged(rest[0]) if w.strip()] if rest else []
    if words and words[0][1].startswith("v"):
        return "用户" + "，".join(rest) + end, False
    return content, True


def _without_passing_clauses(content: str) -> tuple[str, bool]:
    """A Chinese rewrite without its clauses of the moment, and whether its first clause (the
    one that says who) was one of them."""
    text = _ZH_ASIDE.sub("", content)
    end = "。" if text.endswith("。") else ""
    clauses = text.rstrip("。！!").split("，")
    passing = [
        bool(_ZH_PASSING_CLAUSE.match(re.sub(r"^用户", "", c.strip())))
        or _zh_state_of_the_moment(c.strip())
        or (k > 0 and (_zh_exclaimed(c.strip()) or _zh_someone_elses_doing(c.strip())))
        for k, c in enumerate(clauses)
    ]
    if passing[0]:
        return _after_passing_lead(content, clauses, passing, end)
    return "，".join(c for c, p in zip(clauses, passing, strict=True) if not p) + end, False


# a month the user typed in lower case ("a half marathon in may"): a name, written as one
_EN_LOWER_MONTH = re.compile(
    r"\b(?:in|by|until|till|since|from|early|late|mid|of|next|last|this|every|each|end of|start of)[ -]"
    r"(?-i:(january|february|march|april|may|june|july|august|september|october|november|december))\b",
    re.I,
)


def without_passing(content: str, kind: str) -> str:
    """A Chinese rewrite without its clauses of the moment beside the fact, before the gate reads
    it ("用户的训练时间调到周日上午了，烦死了。" is judged as "用户的训练时间调到周日上午了。"); one that
    is of the moment from its first clause on is left whole, for the gate to turn down."""
    if kind == "rule" or not _CJK.search(content):
        return content
    kept, passing = _without_passing_clauses(content)
    return content if passing or not kept.strip("。") else kept


def title_without_passing(title: str) -> str:
    """A Chinese rewrite's title without the clauses of the moment ``checked`` drops from its content."""
    return _without_passing_clauses(title)[0] if _CJK.search(title) else title


def checked(content: str, kind: str) -> tuple[str, str | None]:
    """``content`` as it may be stored, and why it may not (``statement_reason``): a reply's
    opening or a vocative left before the subject is dropped rather than the whole statement
    ("Okay, the user plays the cello." is kept as "The user plays the cello."), and so are a
    Chinese rewrite's clauses of the moment ("用户在医院当护士，累得不行。" is kept as
    "用户在医院当护士。"); the rest is judged."""
    if _CJK.search(content) and kind != "rule":
        content, passing = _without_passing_clauses(content)
        if passing:
            return content, "momentary"
    elif not _CJK.search(content):
        content = _EN_LOWER_MONTH.sub(lambda m: m.group(0)[: -len(m.group(1))] + m.group(1).capitalize(), content)
    reason = statement_reason(content, kind)
    if reason == "ill-formed" and (rest := _without_lead(content.strip())) is not None:
        again = statement_reason(rest, kind)
        if again != "ill-formed":
            return rest, again
    return content, reason


def statement_reason(content: str, kind: str) -> str | None:
    """Why ``content`` (a candidate memory as it would be stored) is not a well-formed,
    specific statement about the user, or ``None`` (module docstring)."""
    text = content.strip()
    if not text:
        return None
    if _CJK.search(text):
        return _chinese(text, kind)
    if _BROKEN.search(text):
        return "ill-formed"  # the rewrite's "do-s", "to do not give"
    if re.match(r"^(?:Correction from the user|The user wants the assistant)\b", text):
        return None  # a correction or a standing rule is said to the assistant: its own checks
    return _english(text, kind)
