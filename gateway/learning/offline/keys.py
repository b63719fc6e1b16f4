"""The key of a memory: its subject and attribute, read off the memory's own sentence.

A key names *what* a fact is about — "stack.hosting" (where the user's app runs),
"home.city", "work.employer", "family.daughter", "rel.mia.age", "taste.coffee" — never its
value. The user has one active memory per single-valued key: a new value supersedes the old
one whatever the wording ("we moved from Kubernetes to Nomad", "we now deploy on Nomad
instead"). It is stored in the memory's ``slot`` field.

English sentences are read off the dependency parse of the spaCy pipeline the offline learner
already holds (``english.nlp``: one model per process, its named-entity recogniser run only
here, for places): the attribute comes from the verb and preposition frame ("deploy on X" →
``stack.hosting``, "live in X" / "moved to <a place>" → ``home.city``, "works at X" →
``work.employer``), from the noun of a copula ("their test runner is Vitest" →
``stack.tests``), and only for a frame that says nothing ("uses X") from what X is
(``lexicon``). The subject is the user, their team or family (one profile), or a named
relation ("rel.mia.age"); a fact about the user's sister never shares a key with the user's
own. Chinese sentences are cut with jieba and read by clause patterns (``keys_zh``) (住在/搬到 → home.city,
部署在 → stack.hosting, 改用/换成 + a tool → that tool's attribute, 女儿叫… → family.daughter).

Besides the key, ``key_of`` tells whether the sentence states a change ("moved", "instead",
"改用"), a retraction without a new value ("no longer", "stopped", "不再"), the value words and
the values it names as the old ones ("from Kubernetes"). Attributes that hold several values
(languages spoken, allergies, children, pets, hobbies) are ``multi``: a new value adds unless
the sentence states a change.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from gateway.learning.offline import lexicon
from gateway.learning.offline.key_record import MAX_KEY, RELATIONS, Key, clean_segment, join_key
from gateway.learning.offline.keys_zh import key_zh

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

_CJK = re.compile(r"[\u3400-\u9fff]")
_VALID = re.compile(r"[a-z][a-z0-9_]*(?:\.\w+)+|[a-z][a-z0-9_]*")


def derive_key(text: str, lang: str | None = None) -> str | None:
    """The key of ``text`` (a memory's content), or None when it names no attribute."""
    key = key_of(text, lang)
    return key.slot if key is not None else None


@lru_cache(maxsize=1024)  # the same text is keyed by the pipeline, forget and the header check
def key_of(text: str, lang: str | None = None) -> Key | None:
    """The key of ``text`` with what the sentence says about its value (module docstring)."""
    text = text.strip()
    if not text:
        return None
    if lang is None:
        lang = "zh" if _CJK.search(text) else "en"
    from gateway.learning.offline.slots import topic_slot

    found = key_zh(text) if lang == "zh" else _key_en(text)
    topical = topic_slot(text)
    if topical is not None and (
        found is None
        or (found.weak and found.slot not in lexicon.MULTI_CLASSES)
        or found.slot.startswith(("does.", "taste.", "profile."))
        or topical == "team.size"
    ):
        # attributes named by their own word (emoji, indentation, diet, team size …); without a
        # frame the sentence's own words say whether it changes ("now", "已经") or ends one
        base = found or Key(topical, change=_changes(text, lang), retraction=_retracts(text, lang))
        found = Key(topical, False, base.values, base.old, base.change, base.retraction)
    bad = found is not None and (
        not _VALID.fullmatch(found.slot) or len(found.slot) > MAX_KEY or found.slot != found.slot.casefold()
    )
    if bad:
        return None  # a key is dotted lower-case words (the store's check): none rather than a bad one
    return found


_NEW_VALUE = re.compile(r"\b(?:now|instead|switched|these days)\b|现在|改成|换成|改用|改为|而是", re.I)
_RETRACT_EN = re.compile(
    r"\bno longer\b|\b(?:not|n't)\b.*\b(?:any ?more|any longer)\b|\b(?:stopped|quit|gave up|given up|ditched)\b",
    re.I,
)
_CHANGE_EN = re.compile(r"\b(?:now|instead|switched|moved|changed|actually|any ?more|no longer|these days)\b", re.I)


def _retracts(text: str, lang: str) -> bool:
    """ "No longer vegetarian", "不再吃素了": the value ends, and the sentence names no new one."""
    from gateway.learning.offline.keys_zh import retracts_zh

    if lang == "zh":
        return retracts_zh(text)
    return bool(_RETRACT_EN.search(text)) and not _NEW_VALUE.search(text)


def _changes(text: str, lang: str) -> bool:
    """ "Actually the budget is more like 2k now", "预算已经改成两万了": a new value of the attribute."""
    from gateway.learning.offline.keys_zh import changes_zh

    if _retracts(text, lang):
        return False
    return changes_zh(text) if lang == "zh" else bool(_CHANGE_EN.search(text))


# --- English ---------------------------------------------------------------------------------

_USER_WORDS = {"user", "i", "we", "they", "user's", "family", "household"}
_TEAM_WORDS = {"team", "company", "startup", "org", "organisation", "organization", "business", "shop", "studio"}
_PLURAL = {
    **{"kids": "kid", "children": "child", "dogs": "dog", "cats": "cat", "daughters": "daughter", "sons": "son"},
    **{"parents": "parents", "parent": "parents"},
}
# the noun of "the user's <noun> is X" → attribute
_NOUN_ATTR = {
    "database": "stack.database",
    "db": "stack.database",
    "test runner": "stack.tests",
    "test framework": "stack.tests",
    "testing framework": "stack.tests",
    "tests": "stack.tests",
    "editor": "stack.editor",
    "ide": "stack.editor",
    "frontend": "stack.frontend",
    "front end": "stack.frontend",
    "backend": "stack.backend",
    "hosting": lexicon.HOSTING,
    "host": lexicon.HOSTING,
    "cloud": lexicon.HOSTING,
    "infrastructure": lexicon.HOSTING,
    "infra": lexicon.HOSTING,
    "platform": lexicon.HOSTING,
    "orchestrator": "stack.orchestrator",
    "queue": "stack.queue",
    "broker": "stack.queue",
    "ci": "stack.ci",
    "pipeline": "stack.ci",
    "package manager": "stack.package_manager",
    "city": "home.city",
    "home": "home.city",
    "hometown": "home.origin",
    "employer": "work.employer",
    "company": "work.employer",
    "job": "work.role",
    "role": "work.role",
    "title": "work.role",
    "position": "work.role",
    "profession": "work.role",
    "occupation": "work.role",
    "diet": "diet",
    "budget": "trip.budget",
    "language": "stack.language",
}
_LANGUAGES = set(
    "english chinese mandarin cantonese japanese korean french german spanish italian portuguese russian arabic"
    " hindi dutch swedish polish turkish greek hebrew vietnamese thai indonesian".split()
)
_LIVE = {"live", "reside", "settle", "stay"}
_DWELLINGS = {"place", "flat", "apartment", "house", "home", "studio", "condo", "room", "bungalow", "cottage"}
_MOVE = {"move", "relocate", "emigrate"}
_CHANGE = {"move", "switch", "migrate", "change", "replace", "relocate", "convert", "port", "swap", "transition"}
_STOP = {"stop", "quit", "drop", "abandon", "ditch", "leave", "cease"}
_DEPLOY = {"deploy", "host", "ship", "release", "serve", "self-host"}
_USE = {"use", "adopt", "choose", "pick", "select", "standardise", "standardize", "rely", "build", "write", "code"}
_OWN = {"have", "own", "get", "buy"}
# what one "has" that is no possession
_NOT_OWNED = set(
    """question problem issue meeting time minute hour day week month year idea call chance deadline lot bit
    feeling plan appointment job role experience budget team way thing look go word chat break lunch dinner
    breakfast shower nap rest class lesson exam interview trip holiday baby kid child sense fun""".split()
)
_PLANS = {"plan", "tier", "subscription", "package"}
_RISE = {"go", "rise", "climb", "jump", "increase", "decrease", "grow", "fall", "drop", "creep", "come", "shoot"}
_TASTE = {"like", "love", "enjoy", "hate", "dislike", "adore", "detest", "prefer", "favour", "favor"}
_ROLE_NOUNS = re.compile(
    r"(?:er|or|ist|ant|ent|ian|eer|ect|man|woman|person|student|lead|founder|cto|ceo|sre|devops|pm|nurse|chef"
    r"|doctor|lawyer|scientist|analyst|intern|freelancer|consultant|owner)$"
)


def _key_en(text: str) -> Key | None:
    from gateway.learning.offline import english

    pipeline = english.nlp()
    with english._parse_lock:
        doc = pipeline(text)
    places = _Places(doc)
    for sent in doc.sents:
        key = _Sentence(sent, places).key()
        if key is not None:
            return key
    return None


class _Places:
    """The tokens the named-entity recogniser calls places, asked only when a frame needs it
    ("moved to X": a city, or a platform?): it costs as much as the parse."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.found: set[int] | None = None

    def __contains__(self, i: object) -> bool:
        if self.found is None:
            from gateway.learning.offline import english

            pipeline = english.nlp()
            with english._parse_lock:
                doc = pipeline.get_pipe("ner")(self.doc) if "ner" in pipeline.disabled else self.doc
            self.found = {t.i for e in doc.ents if e.label_ in {"GPE", "LOC"} for t in e}
        return i in self.found


class _Sentence:
    def __init__(self, sent: Span, places: _Places) -> None:
        self.sent = sent
        self.places = places
        low = sent.text.lower()
        self.retracting = bool(
            re.search(r"\bno longer\b|\bnot\b.*\b(?:any ?more|any longer)\b|n't\b.*\b(?:any ?more|any longer)\b", low)
        )
        self.changing = bool(re.search(r"\b(?:instead|now|from|switched|moved|migrated|replaced|new)\b", low))
        self.old = tuple(self._old_values())

    # -- pieces --------------------------------------------------------------------------
    def _old_values(self) -> list[str]:
        old: list[str] = []
        for t in self.sent:
            if t.lower_ in {"from", "off"} and t.dep_ == "prep" or t.lower_ == "of" and t.head.lower_ == "instead":
                old.extend(_phrase(c) for c in t.children if c.dep_ == "pobj")
            if t.lower_ == "off" and t.dep_ == "prt":  # "moved off Heroku": the particle's object
                old.extend(
                    _phrase(c)
                    for c in t.head.children
                    if c.dep_ == "dobj" or c.dep_ == "npadvmod" and c.pos_ == "PROPN" and c.i == t.i + 1
                )
        low = self.sent.text.lower()
        named = [m.group("old") for m in _NO_LONGER.finditer(low)] if self.retracting and _NEW_VALUE.search(low) else []
        # "not fully veggie anymore … pescatarian now": what is no longer so is the old value,
        # and what the sentence's verb takes is the new one
        old.extend(named)
        if self.retracting and not named:
            root = self.sent.root
            old.extend(_phrase(c) for c in root.children if c.dep_ in {"dobj", "attr"})
            old.extend(_phrase(g) for c in root.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj")
        return [o for o in old if o]

    def _subject(self, verb: Token) -> tuple[str, str | None, Token | None]:
        """('user' | 'team' | 'rel', relation role or name, the subject token)."""
        subj = next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
        if subj is None and verb.dep_ in {"xcomp", "conj", "ccomp"}:
            return self._subject(verb.head)
        if subj is None:
            return "user", None, None
        return (*_who(subj), subj)

    def key(self) -> Key | None:
        root = self.sent.root
        verbs = [root, *[c for c in root.children if c.dep_ in {"xcomp", "conj"} and c.pos_ in {"VERB", "AUX"}]]
        if root.lemma_ in _STOP | {"start", "begin", "decide", "try", "continue", "keep"}:
            verbs = [*verbs[1:], root]  # "stopped using Jest": the inner verb names the attribute
        if root.lemma_ in _CHANGE:  # "switched to learning Korean": the gerund names it
            inner = [g for c in root.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pcomp"]
            verbs = [*(g for g in inner if g.pos_ == "VERB"), *verbs]
        plan = self._plan()
        if plan is not None:
            return plan
        for verb in verbs:
            key = self._frame(verb)
            if key is not None:
                return key
        return self._dwelling() or self._fallback(verbs)

    def _plan(self) -> Key | None:
        """ "On the pro plan", "upgraded to the team tier", "downgraded to basic": the plan a
        user is on is one value, whatever else the sentence says."""
        for t in self.sent:
            lemma = t.lemma_.lower()
            if lemma in _PLANS and t.head.lower_ == "on" and t.head.dep_ == "prep":
                names = [c for c in t.children if c.dep_ in {"compound", "amod"} and c.lower_ not in {"new", "current"}]
                if names:
                    return self._make(("user", None), "account.plan", [names[0].text])
            owned = any(c.dep_ == "dobj" and c.pos_ == "NOUN" for c in t.children)  # "upgraded its servers to 64 GB"
            if lemma in {"upgrade", "downgrade"} and t.pos_ == "VERB" and not owned:
                to = [g for c in t.children if c.dep_ == "prep" and c.lower_ == "to" for g in c.children]
                if to:
                    value = next((c.text for c in to[0].children if c.dep_ in {"compound", "amod"}), to[0].text)
                    return replace(self._make(("user", None), "account.plan", [value]), change=True)
        return None

    def _dwelling(self) -> Key | None:
        """ "… in their flat in Leeds", "our house in Porto": the home is where the user's
        dwelling is, whatever the verb."""
        for t in self.sent:
            owner = _owner(t)
            if t.lemma_.lower() not in _DWELLINGS or owner is None or _who(owner)[0] != "user":
                continue
            for prep in (c for c in t.children if c.dep_ == "prep" and c.lower_ in {"in", "near"}):
                for place in (g for g in prep.children if g.dep_ == "pobj"):
                    if place.pos_ == "PROPN" or place.i in self.places:
                        return self._make(("user", None), "home.city", [_phrase(place)])
        return None

    def _make(self, who: tuple[str, str | None], attr: str, values: list[str], *, multi: bool = False) -> Key:
        kind, name = who
        multi = multi or attr in lexicon.MULTI_CLASSES
        stop = self.sent.root.lemma_ in _STOP and not any(
            t.lower_ in {"now", "instead"} or t.lemma_ in {"switch", "move"} for t in self.sent
        )
        retraction = (self.retracting or stop) and not re.search(r"\b(?:now|instead)\b", self.sent.text.lower())
        change = not retraction and (self.changing or any(t.lemma_ in _CHANGE for t in self.sent) or bool(self.old))
        if kind == "rel" and name:
            slot = join_key("rel", name, *attr.split("."))
            subject = f"rel:{name}"
        else:
            slot = attr if attr.count(".") >= 1 or attr in {"diet"} else join_key("profile", attr)
            subject = "user"
        gone = {o.lower() for o in self.old}
        kept = [v for v in values if v and v.lower() not in gone]
        if not kept and gone:  # the frame found the old value only: the new one is the other tool
            kept = [n for n, cls in lexicon.tools_in(self.sent.text) if cls == attr and n.lower() not in gone][:1]
        values = kept or values
        return Key(
            slot,
            multi,
            tuple(v.lower() for v in values),
            tuple(o.lower() for o in self.old),
            change,
            retraction,
            subject,
        )

    # -- frames --------------------------------------------------------------------------
    def _frame(self, verb: Token) -> Key | None:
        lemma = verb.lemma_.lower()
        kind, name, subj = self._subject(verb)
        who = (kind, name)
        preps = [
            (c.lower_, g) for c in verb.children if c.dep_ in {"prep", "agent"} for g in c.children if g.dep_ == "pobj"
        ]
        objs = [c for c in verb.children if c.dep_ in {"dobj", "attr", "oprd", "acomp", "dative"}]
        # relation identity: "Mia is the user's daughter", "the user's daughter is called Mia"
        if lemma == "be" and subj is not None and kind == "rel" and name and name not in RELATIONS:
            for o in objs:
                role = _relation(o)
                if role and o.dep_ == "attr":
                    group, multi = RELATIONS[role]
                    return self._make(("user", None), f"{group}.{role}", [subj.text], multi=multi)
        if lemma in {"call", "name"} and kind == "rel" and name in RELATIONS:
            group, multi = RELATIONS[name]
            return self._make(("user", None), f"{group}.{name}", [_phrase(o) for o in objs], multi=multi)
        if lemma in {"rename", "name", "call"}:  # whoever named it
            # "the kids renamed the cat Luna": the relation's name changes
            for o in objs:
                role = _relation(o)
                names = [c for c in o.children if c.dep_ in {"appos", "oprd"} and c.pos_ == "PROPN"]
                names += [c for c in verb.children if c.dep_ in {"oprd", "xcomp", "npadvmod"} and c.pos_ == "PROPN"]
                if role and names:
                    group, multi = RELATIONS[role]
                    key = self._make(("user", None), f"{group}.{role}", [_phrase(names[0])], multi=multi)
                    return replace(key, change=key.change or lemma == "rename")
        if lemma in _OWN and kind != "rel":
            # "has a charcoal grill", "got a gas grill now": one thing of its kind, by its noun;
            # a thing "at their flat in Leeds" says first where the user lives
            home = self._dwelling()
            if home is not None:
                return home
            for o in objs:
                if o.dep_ == "dobj" and o.pos_ == "NOUN" and not _relation(o) and o.lemma_.lower() not in _NOT_OWNED:
                    return self._make(who, f"owns.{clean_segment(o.lemma_)}", [_phrase(o)])
        if lemma == "have" and kind != "rel":
            for o in objs:
                role = _relation(o)
                if role:
                    group, multi = RELATIONS[role]
                    count = any(c.dep_ == "nummod" for c in o.children)
                    attr: str | None = f"{group}.{role}" + (".count" if count else "")
                    named = [_phrase(c) for c in o.subtree if c.pos_ == "PROPN"]
                    return self._make(who, attr or role, named or [o.lemma_], multi=multi and not count)
        # ages: "Mia turned five", "the user's daughter is five (years old)"
        if lemma in {"turn", "be"} and kind == "rel":
            for o in [*objs, *[g for _, g in preps]]:
                if o.like_num or any(c.like_num for c in o.children) or o.lower_ in {"old"}:
                    return self._make(who, "age", [_phrase(o)])
        # where the app runs: the frame decides, whatever the name is
        if lemma in _DEPLOY:
            for prep, obj in preps:
                if prep in {"on", "to", "onto", "in", "at", "into"}:
                    return self._make(who, lexicon.HOSTING, [_phrase(obj)])
                if prep in {"with", "via", "using", "through"}:
                    return self._make(who, lexicon.class_of(_phrase(obj)) or "stack.deploy_tool", [_phrase(obj)])
        if lemma == "run" and kind != "rel":
            for prep, obj in preps:
                if prep in {"on", "in", "onto"}:
                    cls = lexicon.class_of(_phrase(obj))
                    return self._make(who, cls or lexicon.HOSTING, [_phrase(obj)])
        # home: "lives in Munich", "moved to Berlin" (a place), "is based in Lyon"
        if lemma in _LIVE or (lemma == "base" and verb.tag_ == "VBN"):
            for prep, obj in preps:
                if prep in {"in", "at", "near", "outside"}:
                    return self._make(who, "home.city" if kind != "team" else "team.city", [_phrase(obj)])
        if lemma in _MOVE | {"migrate", "switch", "port", "transition"}:
            for prep, obj in reversed(preps):
                if prep not in {"to", "into", "onto"}:
                    continue
                phrase = _phrase(obj)
                cls = lexicon.class_of(phrase)
                if cls is not None:
                    return self._make(who, cls, [phrase])
                moved = [o for o in objs if o.dep_ == "dobj" and o.lemma_ not in {"family", "household"}]
                # "moved into a bigger flat in Partick": the home is where the new place is
                homes = [o.lemma_ for o in [obj] if o.lemma_ in _DWELLINGS]
                where = [g for c in obj.children if c.dep_ == "prep" and c.lower_ in {"in", "near"} for g in c.children]
                where += [g for p, g in preps if p in {"in", "near"}]
                where = [g for g in where if g.pos_ == "PROPN" or g.i in self.places]
                if lemma in _MOVE and homes and not moved and where:
                    return self._make(who, "home.city" if kind != "team" else "team.city", [_phrase(where[0])])
                if lemma in _MOVE and not moved and (obj.i in self.places or obj.pos_ == "PROPN" and kind != "team"):
                    if obj.i in self.places or not _techy(obj.text):
                        return self._make(who, "home.city" if kind != "team" else "team.city", [phrase])
                if moved:
                    return self._make(who, lexicon.HOSTING, [phrase])
        if lemma == "be" and kind != "rel":
            for o in objs:
                if o.lower_ == "based" or o.lower_ == "from":
                    continue
            for prep, obj in preps:
                if prep == "from" and (obj.i in self.places or obj.pos_ == "PROPN"):
                    return self._make(who, "home.origin", [_phrase(obj)])
            # "is in Edinburgh now", "is in a retirement flat in Scarborough now": where the user
            # lives now (without "now" it may be where they are this week)
            if kind == "user" and any(t.lower_ in {"now", "nowadays"} for t in self.sent):
                for prep, obj in preps:
                    if prep != "in":
                        continue
                    if obj.i in self.places:
                        return self._make(who, "home.city", [_phrase(obj)])
                    if obj.lemma_ in _DWELLINGS:
                        where = [
                            g
                            for c in obj.children
                            if c.dep_ == "prep" and c.lower_ in {"in", "near"}
                            for g in c.children
                        ]
                        where = [g for g in where if g.i in self.places]
                        if where:
                            return self._make(who, "home.city", [_phrase(where[0])])
        # work: "works at Acme as a data engineer", "joined Globex"
        if lemma == "work":
            shifts = [o for o in objs if o.lemma_.lower() in {"shift", "night", "weekend", "hour"}]
            if shifts:  # "works day shifts at the hospital": when, more than where
                return self._make(who, "work.schedule", [_phrase(shifts[0])])
            for prep, obj in preps:
                if prep in {"at", "for"}:
                    return self._make(who, "work.employer", [_phrase(obj)])
                if prep == "as":
                    return self._make(who, "work.role", [_phrase(obj)])
                if prep == "on":
                    return self._make(who, "work.project", [_phrase(obj)], multi=True)
        if lemma == "join" and kind != "rel":
            for o in objs:
                if o.pos_ == "PROPN" or o.lemma_ in _TEAM_WORDS:
                    return self._make(who, "work.employer", [_phrase(o)])
        if lemma == "leave" and kind != "rel":
            for o in objs:
                if o.pos_ == "PROPN":
                    return self._make(who, "work.employer", [_phrase(o)])
        # languages spoken, allergies
        if lemma in {"speak", "learn"}:
            langs = [t.text for t in verb.subtree if t.lower_ in _LANGUAGES]
            if langs:
                return self._make(who, "lang.spoken" if lemma == "speak" else "lang.learning", langs, multi=True)
        allergic = next((t for t in self.sent if t.lower_ in {"allergic", "allergy", "allergies", "intolerant"}), None)
        if allergic is not None:
            things = [g for t in allergic.subtree if t.dep_ == "prep" for g in t.children if g.dep_ == "pobj"]
            return self._make(who, "health.allergies", [_phrase(g) for g in things], multi=True)
        # taste: "likes coffee", "prefers tea over coffee", "hates exclamation marks"
        if lemma in _TASTE:
            things = [o for o in verb.children if o.dep_ in {"dobj", "xcomp", "ccomp"}]
            if things:
                thing = things[0]
                value = _phrase(_object_of(thing))
                cls = lexicon.class_of(value) if lemma in {"prefer", "favour", "favor"} else None
                if cls is not None:
                    return self._make(who, cls, [value])
                rivals = [_phrase(g) for _, g in preps] if lemma in {"prefer", "favour", "favor"} else []
                words = sorted({_lemma_phrase(_object_of(thing)), *(r.lower() for r in rivals[:1])})
                return self._make(who, "taste." + "_vs_".join(clean_segment(w) for w in words), [value])
        if lemma == "be" and kind != "rel":
            for o in objs:
                is_value = lexicon.class_of(o.text) is not None  # "a thriller" is a genre, not a job
                if o.dep_ == "attr" and o.pos_ == "NOUN" and _ROLE_NOUNS.search(o.lemma_.lower()) and not is_value:
                    if not _relation(o) and o.lemma_ not in {"fan", "user", "member", "customer"}:
                        return self._make(who, "work.role", [_phrase(o)])
        # the user's <noun> went up to X: the same attribute as "the user's <noun> is X", changed
        rises = lemma in _RISE and any(p == "to" for p, _ in preps)
        owner = _owner(subj) if rises and subj is not None and subj.pos_ == "NOUN" else None
        if subj is not None and owner is not None:
            noun = _noun_phrase(subj)
            attr = _NOUN_ATTR.get(noun) or _NOUN_ATTR.get(subj.lemma_.lower()) or clean_segment(noun)
            key = self._make(_who(owner), attr, [_phrase(g) for p, g in preps if p == "to"][:1])
            return replace(key, change=True, retraction=False)
        # the user's <noun> is X: the noun is the attribute
        if lemma == "be" and subj is not None and subj.pos_ in {"NOUN", "PROPN"}:
            noun = _noun_phrase(subj)
            owner = _owner(subj)
            if owner is not None:
                attr = _NOUN_ATTR.get(noun) or _NOUN_ATTR.get(subj.lemma_.lower())
                okind, oname = _who(owner)
                values = [_phrase(o) for o in objs]
                if attr is None:
                    cls = next((lexicon.class_of(v) for v in values if lexicon.class_of(v)), None)
                    attr = cls or clean_segment(noun)
                return self._make((okind, oname), attr, values)
        # use X (for Y): what X is, or what it is for
        if lemma in _USE or lemma in _CHANGE or lemma in {"run", "go", "stick", "stay", "move"}:
            candidates = [_phrase(o) for o in objs] + [_phrase(g) for p, g in preps if p in {"with", "to", "on", "in"}]
            for value in candidates:
                cls = lexicon.class_of(value)
                if cls is not None:
                    return self._make(who, cls, [value], multi=cls in lexicon.MULTI_CLASSES)
            for prep, obj in preps:
                if prep in {"for", "as"} and candidates:
                    purpose = _noun_phrase(obj)
                    attr = _NOUN_ATTR.get(purpose) or "tools." + clean_segment(purpose)
                    return self._make(who, attr, candidates[:1])
        return None

    def _fallback(self, verbs: list[Token]) -> Key | None:
        """No frame: a sentence that names tools of one kind only ("No longer on Jest: Vitest now.")."""
        tools = lexicon.tools_in(self.sent.text)
        classes = {cls for _, cls in tools}
        if len(classes) == 1:
            (cls,) = classes
            values = [name for name, _ in tools]
            key = self._make(("user", None), cls, values[-1:], multi=cls in lexicon.MULTI_CLASSES)
            return replace(key, weak=True)
        for verb in verbs:
            kind, name, _ = self._subject(verb)
            if verb.pos_ != "VERB" or verb.lemma_ in _STOP | {"say", "think", "want", "need", "have", "be"}:
                continue
            objs = [c for c in verb.children if c.dep_ in {"dobj"}]
            if objs and kind == "user":
                # an activity: several at once ("plays tennis", "plays chess"); kept for retractions
                return self._make((kind, name), f"does.{clean_segment(verb.lemma_)}", [_phrase(objs[0])], multi=True)
        return None


_NO_LONGER = re.compile(
    r"\b(?:no longer|not)\s+(?:(?:fully|really|quite|totally|strictly|a|an|on|using|eating|doing|at|in|with)\s+)*"
    r"(?P<old>[a-z][\w-]+)(?=[^,;.]*\b(?:any ?more|any longer)\b|\s*[,;.]|\s*$)"
)


def _who(tok: Token) -> tuple[str, str | None]:
    """Who a noun phrase is: the user (or their family), the team, or a relation."""
    low = tok.lower_
    lemma = _PLURAL.get(low, tok.lemma_.lower())
    if low in _USER_WORDS or lemma in _USER_WORDS:
        return "user", None
    if lemma in _TEAM_WORDS:
        return "team", None
    if lemma in RELATIONS:
        named = [c for c in tok.children if c.dep_ in {"appos", "compound"} and c.pos_ == "PROPN"]
        return "rel", (named[0].text.lower() if named else lemma)
    if tok.pos_ == "PROPN" and tok.ent_type_ in {"PERSON", ""} and tok.dep_ in {"nsubj", "nsubjpass", "poss"}:
        return "rel", tok.text.lower()
    owner = _owner(tok)
    if owner is not None and owner.i != tok.i:
        return _who(owner)
    return "user", None


def _owner(tok: Token) -> Token | None:
    return next((c for c in tok.children if c.dep_ == "poss"), None)


def _relation(tok: Token) -> str | None:
    lemma = _PLURAL.get(tok.lower_, tok.lemma_.lower())
    return lemma if lemma in RELATIONS else None


def _object_of(tok: Token) -> Token:
    """The thing a gerund or clause is about: "likes hiking" → hiking, "likes to swim" → swim."""
    for c in tok.children:
        if c.dep_ in {"dobj", "attr"}:
            return c
    return tok


def _phrase(tok: Token) -> str:
    words = [t for t in tok.subtree if t.dep_ not in {"det", "poss", "case", "punct", "prep", "cc"} or t.i == tok.i]
    words = [t for t in words if not (t.dep_ in {"amod", "advmod"} and t.lower_ in {"single", "new", "now"})]
    keep = [t for t in words if t.i <= tok.i or t.dep_ in {"compound", "nummod", "flat"}]
    return " ".join(t.text for t in keep).strip()


def _lemma_phrase(tok: Token) -> str:
    parts = [c.lemma_.lower() for c in tok.children if c.dep_ == "compound"]
    return " ".join([*parts, tok.lemma_.lower()])


def _noun_phrase(tok: Token) -> str:
    parts = [c.lower_ for c in tok.children if c.dep_ in {"compound", "amod"} and c.lower_ not in {"main", "current"}]
    return " ".join([*parts, tok.lower_]).strip()


def _techy(word: str) -> bool:
    return bool(re.search(r"[a-z][A-Z]|\d|\.|-", word))


def mentions_value(text: str, values: tuple[str, ...]) -> bool:
    """Whether ``text`` names one of ``values`` (case-insensitive; English on word boundaries)."""
    low = text.lower()
    for value in values:
        v = value.lower().strip()
        if not v:
            continue
        if _CJK.search(v):
            if v in low:
                return True
        elif re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", low):
            return True
        elif " " in v and all(re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", low) for w in v.split()):
            return True
    return False


def named_only_as_old(text: str, word: str) -> bool:
    """Whether ``text`` names ``word`` only as a value it replaced ("moved from Kubernetes to
    Nomad", "instead of Jest", "不再用 Jest"): then the text is not about ``word``."""
    key = key_of(text)
    if key is None or not key.old or key.retraction:
        return False
    return mentions_value(" ".join(key.old), (word,)) and not mentions_value(" ".join(key.values), (word,))
