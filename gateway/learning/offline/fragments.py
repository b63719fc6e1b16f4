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

from gateway.learning.offline import english

__all__ = ["casual_english", "dropped_subject", "intention_head", "question_head", "self_header", "spaced_clauses"]

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


# --- English ---------------------------------------------------------------------------------

# casual spellings of the first person and of negations, which the parser reads as other words
# ("im vegetarian" → a noun "im"); only whole words, never inside names
_CASUAL = {
    "i": "I",
    "im": "I'm",
    "ive": "I've",
    "id": "I'd",
    "ill": "I'll",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "isnt": "isn't",
    "arent": "aren't",
    "wasnt": "wasn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "shouldnt": "shouldn't",
    "thats": "that's",
}
# "ill" and "id" are words of their own unless the first person plainly follows ("id say …")
_CASUAL_WORD = re.compile(
    r"(?<![\w'’-])(?:i|im|ive|dont|doesnt|didnt|cant|isnt|arent|wasnt|havent|hasnt"
    r"|couldnt|wouldnt|shouldnt|thats)(?![\w'’-])"
)


def casual_english(sentence: str) -> str:
    """ "so im vegetarian, i dont eat fish" → "so I'm vegetarian, I don't eat fish"."""
    if re.search(rf"[{_CJK}]", sentence):
        return sentence
    return _CASUAL_WORD.sub(lambda m: _CASUAL[m.group(0)], sentence)


# the question after a statement: ", can I still …?", " - what should I …?", ", any ideas?"
_ASKS = re.compile(
    r"(?:,|;|\s[—–-])\s*(?=(?:so\s+|and\s+|but\s+)?(?:can|could|should|would|will|do|does|did|is|are|am|shall)"
    r"\s+(?:I|we|you|it|this|that|these|those|they|he|she|there|a|an|the|my|our|his|her|their)\b"
    r"|(?:so\s+|and\s+|but\s+)?(?:what|which|how|where|when|why|who|any)\b[^,]*\?\s*$)",
    re.I,
)
# "as a night-shift nurse, what should I eat?": who the user is, given as the frame of a question
_AS_A = re.compile(
    r"^(?:(?:so|ok(?:ay)?|hi|hey|well),?\s+)?as (?P<np>(?:an?|the) (?:[\w-]+ ){0,4}?[\w-]+)"
    r"(?:,|\s+(?=(?:what|which|how|where|when|why|is|are|can|could|should|do|does|would|any)\b))",
    re.I,
)
_AS_NOT = re.compile(
    r"^as (?:an? )?(?:result|example|side note|aside|reminder|whole|rule|matter|bonus|first step)\b", re.I
)


def question_head(sentence: str) -> str | None:
    """The statement about the user at the front of a question, said as a sentence of its
    own: "I'm allergic to peanuts, can I still make this?" → "I'm allergic to peanuts.",
    "as a night-shift nurse what should I eat?" → "I am a night-shift nurse."; None when the
    question has no such front."""
    m = _AS_A.match(sentence.strip())
    if m is not None and not _AS_NOT.search(m.group(0)):
        return f"I am {m.group('np')}."
    parts = _ASKS.split(sentence, maxsplit=1)
    if len(parts) < 2:
        return None
    head = parts[0].strip().rstrip(",;-—– ")
    return head + "." if len(head.split()) >= 3 and "?" not in head else None


# "…, and I want to move into product analytics": what the user wants next, after what they are
_THEN_WANTS = re.compile(
    r",?\s+(?:and|but|so)\s+(?=I(?:'d| would) (?:like|love) to\b|I (?:want|hope|plan) to\b"
    r"|I(?:'m| am) (?:hoping|planning|looking) to\b)"
)


def intention_head(sentence: str) -> str | None:
    """The statement before a wish or plan joined to it ("I'm a nurse in Leeds, and I want to
    retrain" → "I'm a nurse in Leeds."); None when there is none."""
    parts = _THEN_WANTS.split(sentence, maxsplit=1)
    if len(parts) < 2:
        return None
    head = parts[0].strip().rstrip(",;-—– ")
    return head + "." if len(head.split()) >= 3 else None


# "Background: data analyst at a logistics firm", "About me - retired teacher, two grandkids":
# a header that says the rest is about the user, then what the user is, without a verb
_SELF_HEADER = re.compile(
    r"^(?:(?:a (?:bit|little) |some |quick |short )?(?:background|about me|context about me|bio|my background"
    r"|profile|me))\s*(?::|\s[—–-])\s*(?P<rest>\S.*)$",
    re.I,
)
_NOT_A_ROLE = re.compile(
    r"^(?:i|i'm|im|we|we're|my|our|the|this|that|it|it's|there|here|he|she|they|you|so|and|but|because|if|when)\b"
    r"|^\S+(?:ed|ing)\b|\b(?:is|am|are|was|were|have|has|had|do|does|did|can|will)\b",
    re.I,
)


def self_header(sentence: str) -> str:
    """ "Background: data analyst at a logistics firm, mostly SQL" → "I'm a data analyst at a
    logistics firm, mostly SQL"; any other sentence as it is."""
    m = _SELF_HEADER.match(sentence.strip())
    if m is None:
        return sentence
    rest = m.group("rest")
    first = rest.split(",")[0]
    if _NOT_A_ROLE.search(first) or len(first.split()) > 12:
        return sentence
    if re.match(r"^(?:an?)\s", rest, re.I):
        return f"I'm {rest}"
    article = "an" if rest[:1].lower() in "aeiou" else "a"
    return f"I'm {article} {rest}"


# "learning spanish so I can talk to my in-laws", "signed the lease yesterday": the user's own
# doings with the "I" left out, as people type; only a sentence that opens with the verb
# a progressive keeps only when it is an ongoing part of the user's life, not what they are
# doing as they type ("baking cupcakes with the kids", "procrastinating obviously")
_DROPPED_ING = re.compile(
    r"^(?P<verb>learning|studying|training|teaching|working|living|renting|raising|running|building|preparing"
    r"|applying|moving|relocating|freelancing|volunteering|practi[sc]ing|saving|recovering)"
    r"\s+(?=(?:a|an|the|my|our|for|as|at|on|in|to|with|from|near|up|\w+\b(?:\s\w+)?\s(?:for|at|in|so|because)\b|[a-z]+\b))",
    re.I,
)
_DROPPED_ED = re.compile(
    r"^(?P<verb>[a-z]{3,}ed|got|bought|sold|built|took|gave up|gave away)"
    r"\s+(?=(?:a|an|the|my|our|up|off|to|on|in|into|with|for|over|back|out|across|\d)\b)",
    re.I,
)
# a change of the user's with the "I" left out names what it leaves: "quit the cafe", "ditched duolingo"
_DROPPED_CHANGE = re.compile(
    r"^(?P<verb>quit|left|ditched|dropped|cancell?ed|switched|downgraded|upgraded|swapped)\s+(?=[a-z])", re.I
)
# a routine said without "I": "surf before work, weekdays around 6am", "train on Tuesdays",
# "surf Mullaghmore now". Only a sentence that opens with a plain verb and says when it recurs (or
# that it holds now); a request to the assistant opens with a verb of a task and stays one
_DROPPED_HABIT = re.compile(r"^(?P<verb>[a-z]{3,}(?<!s)(?<!ly)(?<!ing)(?<!ed))\s+(?=[\w'])")
_ROUTINE = re.compile(
    r"\b(?:weekdays|weekends|(?:every|each)\s+(?:day|morning|evening|night|week|weekend|month|\w+day)"
    r"|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days|(?:before|after)\s+work|most\s+(?:days|mornings|evenings|nights)"
    r"|daily|nightly|twice\s+a\s+(?:week|month)|\d+\s*(?:x|times)\s+a\s+(?:week|month)|now\W*$)",
    re.I,
)
_TASK_VERBS = frozenset(
    """write check give make list explain tell show summarize summarise translate find help send add fix create
    remind keep use stop avoid call book schedule plan suggest recommend answer reply respond draft compare calculate
    convert generate please let try look read review update change set put get take note remember forget ignore
    start turn bring open close pick ask sort count print format rewrite edit delete remove cancel save copy""".split()
)
_NOT_A_VERB = frozenset(
    """the this that then there also just only still every each most some and but with from after before into onto
    over under about around now not yes yeah nope okay cool nice great good bad new old big small one two""".split()
)
_NOT_VERBS = re.compile(
    r"^(?:nothing|something|anything|everything|morning|evening|during|according|string|spring|thing|building"
    r"|wedding|ceiling|feeling|being|king|ring|sibling|darling|pudding|shopping|clothing|ceiling|meeting|sibling"
    r"|bed|red|need|seed|speed|feed|hundred|shed|weed|sacred|naked|wicked|ragged|beloved|related|based|used"
    r"|interested|excited|tired|bored|worried|scared|stressed|confused|married|engaged|supposed|allowed|asked)$",
    re.I,
)
# "big news:", "quick update -", "fyi,": what follows is the news
_NEWS_HEADER = re.compile(
    r"^(?:(?:big|good|great|some|small|quick|exciting|little)\s+)?(?:news|update|updates|fyi|heads up)\s*[:,!—–-]+\s*",
    re.I,
)
# a leading hedge before what the user says of themselves: "I'd say I'm B1", "I think we're fine"
_HEDGE = re.compile(r"^(?:I'd say|I would say|I guess|I reckon|I suppose)\s+(?=(?:I|I'm|we|we're|my|our)\b)", re.I)


# an amount or aim of the user's own said without "my": "rent went up to 2,100", "the budget is 25k now"
_OWN_AMOUNT = re.compile(
    r"^(?:(?:ugh|so|and|also|oh|btw|update)\b[\s,:!-]*)*(?:the\s+)?"
    r"(?=(?:\w+\s)?(?:rent|mortgage|budget|salary|income|commute|goal|target|weight|deadline)\s+"
    r"(?:is|was|went|has|had|just|now|got|dropped|rose|increased|decreased|came|grew|jumped|'s)\b)",
    re.I,
)


# something of the user's that changed, then what it is now: "the dentist appointment got pushed
# back, it's on May 3 now", "the team meeting moved, it's on thursdays now" → "my dentist
# appointment is on May 3 now"
_CHANGED_THING = re.compile(
    r"^(?:(?:so|and|also|oh|btw|update|plus)\b[\s,:!-]*)*(?:the|my|our)\s+(?P<thing>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)"
    r"\s+(?:got\s+|has\s+been\s+|was\s+|just\s+|finally\s+)?(?:pushed\s+(?:back|forward)|moved(?:\s+(?:back|forward|up))?"
    r"|changed|rescheduled|postponed|brought\s+forward)(?:\s+(?:again|too|as\s+well))?,\s+(?:and\s+)?(?:so\s+)?"
    r"it(?:'s|\s+is)\s+(?P<rest>\S.*)$",
    re.I,
)


def dropped_subject(sentence: str) -> str:
    """The sentence with the "I" (or "my") a user left out put back, and a leading hedge removed;
    a news header before a clause without its "I" ("big news: moved to Cincinnati …") goes with it."""
    s = _HEDGE.sub("", sentence.strip())
    headed = _NEWS_HEADER.sub("", s)
    if headed != s and (_DROPPED_ED.match(headed) or _DROPPED_ING.match(headed) or _DROPPED_CHANGE.match(headed)):
        s = headed
    if s.endswith("?") or re.search(rf"[{_CJK}]", s):
        return s
    changed = _CHANGED_THING.match(s)
    if changed is not None:
        return f"my {changed.group('thing')} is {changed.group('rest')}"
    own = _OWN_AMOUNT.match(s)
    if own is not None and not re.match(r"(?:my|our|his|her|their|your)\b", s[own.end() :], re.I):
        return "my " + s[own.end() :]
    m = _DROPPED_ING.match(s) or _DROPPED_ED.match(s) or _DROPPED_CHANGE.match(s) or _dropped_habit(s)
    if m is None or _NOT_VERBS.match(m.group("verb")) or re.match(r"^living (?!in|on|with|near)\b", s, re.I):
        return s
    verb = m.group("verb")
    rest = verb[:1].lower() + verb[1:] + s[m.end("verb") :]
    return f"I'm {rest}" if verb.lower().endswith("ing") else f"I {rest}"


def _dropped_habit(s: str) -> re.Match[str] | None:
    m = _DROPPED_HABIT.match(s)
    if m is None or not _ROUTINE.search(s):
        return None
    verb = m.group("verb").lower()
    if verb in _TASK_VERBS or verb in _NOT_A_VERB or not english.verb_of_i(s):
        return None
    return m


_ASIDE = re.compile(r"\s*\([^()]*(?:<[A-Z][A-Z_]{2,}>|@|\d[\d\s-]{5,}\d|\bplease\b)[^()]*\)")


def without_asides(sentence: str) -> str:
    """A parenthetical aside that holds an identifier or a request dropped ("I invoice monthly
    (the IBAN is …, put it in the footer please)" → "I invoice monthly"): the fact around it
    stands without it."""
    return _ASIDE.sub("", sentence)
