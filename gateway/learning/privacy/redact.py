"""Identifiers out, the fact kept: text with PII placeholders made into text without them.

The scrubber replaces an identifier by ``<EMAIL_ADDRESS>`` and the like; a memory must never
hold one, nor the gap it leaves ("send the weekly report to on Fridays"). ``remove_identifiers``
removes the phrase that carried the identifier, read off the parse:

* a phrase headed by a preposition goes whole ("to <EMAIL>", "with card <CARD>", "at <ADDRESS>"),
  and "lives at <ADDRESS>, London" keeps the town ("lives in London");
* a clause that only states the identifier goes ("my dentist's number is <PHONE>", "the API key
  is <KEY>"), and a pronoun of the next clause that pointed at it takes its subject back
  ("and she is in Camden" → "my dentist is in Camden"; "we rotate it" → "we rotate the API key");
* an identifier beside a noun goes alone ("invoice <NUMBER> is paid …" → "the invoice is paid …").

A sentence left without its complement ("the user's salary goes") goes too; "" means nothing
was left (``pii-only``). Chinese text is cut clause by clause: the placeholder and the words
naming it (手机号是、邮箱) go, and a clause left with nothing goes ("我家住在上海市<地址>" keeps
"我家住在上海市").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

PII_ONLY = "pii-only"  # the learning log's reason when nothing is left of an item
PLACEHOLDER = re.compile(r"#?<[A-Z][A-Z_]{2,}>")
_TOKEN = "Piiplaceholder"
_CJK = re.compile(r"[\u3400-\u9fff]")
# nouns that only name an identifier ("number", "e-mail"): dropped with it from a referent
_ID_NOUNS = {
    "number",
    "no",
    "num",
    "email",
    "e-mail",
    "mail",
    "address",
    "phone",
    "mobile",
    "cell",
    "ip",
    "iban",
    "ssn",
    "id",
    "code",
    "pin",
    "handle",
    "username",
    "login",
}
_PRONOUNS = {"it", "she", "he", "they", "them", "her", "him", "there"}
_COMPLEMENTS = {
    "dobj",
    "attr",
    "acomp",
    "prep",
    "xcomp",
    "ccomp",
    "oprd",
    "advmod",
    "npadvmod",
    "dative",
    "prt",
    "conj",
    "agent",
    "advcl",
}


# the label word before an identifier ("membership no. <ID>", "claim # <ID>"): it goes with it
_LABEL_BEFORE = re.compile(r"(?i:\s+(?:no\.|nr\.|ref\.?|#))\s*(?=#?<[A-Z][A-Z_]{2,}>)")
# an address line with its town, and its postcode after it ("at <ADDRESS>, Bath <ADDRESS>"): the
# street line and the postcode go, the town stays ("in Bath")
_ADDRESS_LINE = re.compile(
    r"\b(?P<prep>at|to|on|is)\s+<STREET_ADDRESS>,\s*(?P<town>(?:[A-Z][a-z]+\s+){0,2}[A-Z][a-z]+)\b"
    r"(?:\s+<STREET_ADDRESS>)?"
)
_LINE_PREP = {"at": "in", "on": "in", "is": "is in", "to": "to"}


def remove_identifiers(text: str) -> str:
    """``text`` without its placeholders and the phrases that carried them (module docstring)."""
    if not PLACEHOLDER.search(text):
        return text
    text = _LABEL_BEFORE.sub(" ", text)
    text = _ADDRESS_LINE.sub(lambda m: f"{_LINE_PREP[m.group('prep')]} {m.group('town')}", text)
    if not PLACEHOLDER.search(text):
        return text
    text = names_to_relations(text)
    if not PLACEHOLDER.search(text):
        return text
    if _CJK.search(text):
        return _remove_zh(text)
    out = _remove_en(text)
    if not out and (alone := _without_beside_noun(text)) != text:
        # the parse misread the noun the identifier numbers ("the warranty claim <ID> covers …"
        # read "claim" as the verb): without the identifier the sentence reads again
        return _remove_en(alone) if PLACEHOLDER.search(alone) else _finish(alone)
    return out


# an identifier between the noun it numbers and a verb ("claim <ID> covers"): it goes alone
_BESIDE_NOUN = re.compile(r"\b(?P<noun>[a-z]+)\s+<(?:ID_NUMBER|ACCOUNT_NUMBER)>(?=\s+[a-z])")
_FUNCTION_WORDS = {"is", "are", "was", "were", "be", "to", "at", "with", "for", "on", "in", "of", "and", "or"}
_FUNCTION_WORDS |= {"the", "a", "an", "my", "your", "our", "their", "his", "her", "by", "from", "as"}


def _without_beside_noun(text: str) -> str:
    # "passport number <ID> for the visa forms": "number" only names the identifier, nothing stays
    keep = _FUNCTION_WORDS | _ID_NOUNS
    return _BESIDE_NOUN.sub(lambda m: m.group(0) if m.group("noun") in keep else m.group("noun"), text)


def _finish(text: str) -> str:
    text = re.sub(r"\s{2,}", " ", text).strip()
    return text if text.endswith((".", "!", "?")) else text + "."


# --- names (``learning.pii.keep_names: false``) ---------------------------------------------

_P = r"<PERSON>"
_REL = (
    r"(?P<rel>(?:(?:little|baby|younger|older|eldest|youngest|new|best|old)\s+)?(?:daughter|son|child|kid|baby|sister"
    r"|brother|cousin|niece|nephew|grandmother|grandma|grandfather|grandpa|aunt|uncle|wife|husband|partner|spouse"
    r"|fianc\w*|girlfriend|boyfriend|mother|mom|mum|father|dad|dog|cat|puppy|kitten|rabbit|hamster|parrot|horse|pet"
    r"|colleague|coworker|co-worker|manager|boss|cofounder|co-founder|teammate|mentor|friend|neighbou?r|roommate))"
)
_WHOSE = r"(?:the user's|their|my|our|the user’s)"
_NAME_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # "<PERSON> is the user's daughter" / "the user's daughter is called <PERSON>" → "The user has a daughter."
    (re.compile(rf"{_P}\s+is\s+{_WHOSE}\s+{_REL}\b", re.I), "the user has a \\g<rel>"),
    (re.compile(rf"{_WHOSE}\s+{_REL}(?:'s name)?\s+is\s+(?:called\s+|named\s+)?{_P}", re.I), "the user has a \\g<rel>"),
    (
        re.compile(rf"\b(?P<head>(?:has|have|had|got|adopted)\s+an?\s+{_REL})\s*,?\s+(?:called|named)\s+{_P}", re.I),
        "\\g<head>",
    ),
    # "the user's daughter <PERSON>", "<PERSON>, the user's daughter," → the relation alone
    (re.compile(rf"(?P<head>{_WHOSE}\s+{_REL})\s*,?\s+{_P}(?:\s*,)?", re.I), "\\g<head>"),
    (re.compile(rf"{_P}\s*,\s*(?P<head>{_WHOSE}\s+{_REL})\s*,?", re.I), "\\g<head>"),
    # Chinese: "用户的女儿叫<PERSON>" → "用户有一个女儿"; "<PERSON>是用户的女儿" → the same
    (
        re.compile(
            rf"(?:用户|我)的?(?P<zrel>女儿|儿子|孩子|妻子|老婆|丈夫|老公|妈妈|爸爸|狗|猫|同事|朋友|经理|老板)(?:的名字)?(?:叫做?|名叫|是){_P}"
        ),
        "用户有一个\\g<zrel>",
    ),
    (re.compile(rf"{_P}是(?:用户|我)的(?P<zrel>[\u4e00-\u9fff]{{1,3}})"), "用户有一个\\g<zrel>"),
    (
        re.compile(
            rf"(?P<head>(?:用户|我)的?(?:女儿|儿子|孩子|妻子|老婆|丈夫|老公|妈妈|爸爸|狗|猫|同事|朋友|经理|老板)){_P}"
        ),
        "\\g<head>",
    ),
)


def names_to_relations(text: str) -> str:
    """Each ``<PERSON>`` replaced by the relation the sentence names ("<PERSON> is the user's
    daughter" → "the user has a daughter"); one with no relation is left to the phrase rules."""
    if _P not in text:
        return text
    for pattern, repl in _NAME_RULES:
        text = pattern.sub(repl, text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    return text[:1].upper() + text[1:]


# --- English ---------------------------------------------------------------------------------


def _remove_en(text: str) -> str:
    from gateway.learning.offline import english

    pipeline = english.nlp()
    with english._parse_lock:
        doc = pipeline(PLACEHOLDER.sub(_TOKEN, text))
    kept = [_sentence(sent) or _clauses_left(sent.text) for sent in doc.sents]
    out = " ".join(k for k in kept if k)
    if not out:
        return ""
    return out if out.endswith((".", "!", "?")) else out + "."


_JOINS = re.compile(r"\s*(?:,\s*(?:and|but|so)\s+|;\s*|,\s+|\s+(?:and|but|so)\s+)")


def _clauses_left(text: str) -> str:
    """When the parse gives nothing (it misreads a placeholder now and then): the clauses
    around the identifier's own, when they still read as a statement of three words or more."""
    parts = [p for p in _JOINS.split(text) if p and _TOKEN not in p]
    if len(parts) == len(_JOINS.split(text)):
        return ""
    rest = " and ".join(p.strip(" .") for p in parts if len(re.findall(r"[A-Za-z]+", p)) >= 3)
    return rest[:1].upper() + rest[1:] if rest else ""


def _sentence(sent: Span) -> str:
    if _TOKEN not in sent.text:
        return sent.text.strip()
    skip: set[int] = set()
    subst: dict[int, str] = {}
    for t in sent:
        if _TOKEN not in t.text or t.i in skip:
            continue
        unit = t
        while unit.dep_ in {"appos", "compound", "nummod", "nmod", "npadvmod"} and unit.head.i != unit.i:
            if unit.head.pos_ not in {"NOUN", "PROPN"} or unit.head.lower_ not in _ID_NOUNS | {"card"}:
                break
            unit = unit.head
        verb = unit.head
        if unit.dep_ in {"attr", "oprd", "acomp"} or (unit.dep_ == "dobj" and verb.lemma_ in {"be", "have"}):
            if not _drop_clause(sent, verb, skip, subst):
                return ""
        elif unit.dep_ == "nsubj" and verb.lemma_ == "be" and not (unit is t and _named_thing(t)):
            if not _drop_clause(sent, verb, skip, subst):
                return ""
        elif unit.dep_ == "pobj":
            _drop_phrase(unit, skip, subst)
        elif unit is t and _named_thing(t):
            # "invoice <NUMBER> is paid": the identifier goes, the thing stays
            skip.add(t.i)
            first = min(c.i for c in t.children if c.dep_ in {"compound", "amod"})
            if not any(c.dep_ in {"det", "poss"} for c in t.children):
                subst[first] = "the " + sent.doc[first].text.lower()
        elif unit is not t and unit.dep_ in {"nsubj", "nsubjpass", "dobj", "pobj"} and unit.lower_ not in _ID_NOUNS:
            # "invoice <NUMBER> is paid": the identifier goes, the thing stays
            skip.update(x.i for x in t.subtree)
            if not any(c.dep_ == "det" for c in unit.children) and unit.i == min(x.i for x in unit.subtree):
                subst[unit.i] = "the " + unit.text.lower()
        elif unit.dep_ in {"appos", "compound", "nummod", "npadvmod", "dep"}:
            skip.update(x.i for x in unit.subtree)
        elif unit.i == sent.root.i or (unit is t and unit.dep_ in {"nsubj", "nsubjpass"}):
            return ""  # the sentence was about the identifier itself, or it loses its subject
        else:
            skip.update(x.i for x in unit.subtree)
    if _broken(sent, skip):
        return ""
    return _render(sent, skip, subst)


def _named_thing(t: Token) -> bool:
    """The identifier follows the noun of the thing it numbers ("invoice <NUMBER>", "broadband
    account <NUMBER> is with Zen"): the thing stays when the identifier goes."""
    things = [c for c in t.children if c.dep_ in {"compound", "amod"} and _TOKEN not in c.text]
    # "my passport number <ID>": the noun before it only names the identifier
    return bool(things) and things[-1].lower_.rstrip(".") not in _ID_NOUNS


_AGREE = {"are": "is", "were": "was", "have": "has", "do": "does"}
# verbs that only say how to reach someone: without the address they say nothing
_CONTACT = {"reach", "contact", "call", "email", "e-mail", "text", "message", "ping", "phone", "write", "mail", "dm"}


def _drop_phrase(unit: Token, skip: set[int], subst: dict[int, str]) -> None:
    """Drop "to <EMAIL>", keeping a name inside the phrase: "goes to IBAN <X> at N26" → "goes
    to N26", "lives at <ADDRESS>, London" → "lives in London"."""
    prep = unit.head
    skip.update(x.i for x in prep.subtree)
    nested = [c for c in unit.children if c.dep_ == "prep" and any(g.pos_ == "PROPN" for g in c.subtree)]
    town = [c for c in unit.children if c.dep_ in {"npadvmod", "appos"} and c.pos_ == "PROPN" and _TOKEN not in c.text]
    if nested:
        skip.discard(prep.i)
        skip.difference_update(x.i for g in nested[0].children if g.dep_ == "pobj" for x in g.subtree)
    elif town:
        skip.discard(prep.i)
        skip.difference_update(x.i for x in town[0].subtree)
        if prep.lower_ in {"at", "on"}:
            subst[prep.i] = "in"


def _drop_clause(sent: Span, verb: Token, skip: set[int], subst: dict[int, str]) -> bool:
    """Drop the clause of ``verb`` that states an identifier; False when nothing else is left."""
    rest = [c for c in verb.children if c.dep_ in {"conj", "advcl", "parataxis"} and c.pos_ in {"VERB", "AUX"}]
    removed = {x.i for x in verb.subtree} - {x.i for r in rest for x in r.subtree}
    skip.update(removed)
    if not rest and verb.i == sent.root.i:
        return False
    if not rest:
        rest = [sent.root]
    subj = next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    referent = _referent(subj) if subj is not None else ""
    place = _place(subj) if subj is not None else ""
    for t in sent:
        if t.i in skip or t.lower_ not in _PRONOUNS:
            continue
        if t.lower_ == "there" and place:
            subst[t.i] = place
        elif t.lower_ == "there" and subj is not None and (issuer := _issuer(subj)):
            subst[t.i] = f"{'to' if t.head.lemma_.lower() in _MOTION else 'at'} {issuer}"
        elif t.lower_ != "there" and referent:
            subst[t.i] = referent
            if t.lower_ == "they":  # one referent: "they are on the Pro plan" → "… is on …"
                for v in (t.head, *[c for c in t.head.children if c.dep_ in {"aux", "auxpass"}]):
                    if v.lower_ in _AGREE:
                        subst[v.i] = _AGREE[v.lower_]
        break
    # the clause that stays leads the sentence: no "and" or comma before it
    first = min(x.i for r in rest for x in r.subtree if x.i not in skip)
    for t in sent:
        if t.i < first and t.dep_ in {"cc", "punct"} and t.i not in skip:
            skip.add(t.i)
    return True


def _referent(subj: Token) -> str:
    """What a pronoun pointed at: the subject without the identifier's own noun
    ("my dentist's number" → "my dentist", "our office server IP" → "our office server")."""
    if subj.lower_ not in _ID_NOUNS:
        words = [t for t in subj.subtree if _TOKEN not in t.text and t.dep_ != "prep" and t.head.dep_ != "prep"]
        return " ".join(t.text for t in words if not (t.i != subj.i and t.lower_ in _ID_NOUNS))
    owner = next((c for c in subj.children if c.dep_ == "poss"), None)
    if owner is not None and owner.pos_ != "PRON":
        return " ".join(t.text for t in owner.subtree if t.dep_ != "case")
    words = [t for t in subj.subtree if t.i < subj.i and t.dep_ in {"det", "poss", "compound", "amod"}]
    return " ".join(t.text for t in words)


_MOTION = {"go", "drive", "walk", "head", "come", "get", "travel", "commute", "run", "ride", "cycle", "fly", "move"}


def _issuer(subj: Token) -> str:
    """ "my library card number" → "my library": the thing that gave the number, where "there"
    points when no place is named (the first word of the noun's compound)."""
    chain = [t for t in subj.subtree if t.i < subj.i and t.dep_ == "compound" and _TOKEN not in t.text]
    if not chain or chain[0].lower_ in _ID_NOUNS or not chain[0].is_alpha:
        return ""
    owner = next((c for c in subj.children if c.dep_ in {"poss", "det"}), None)
    return f"{owner.text if owner is not None else 'the'} {chain[0].text}"


def _place(subj: Token) -> str:
    """ "my account number at Fidelity" → "at Fidelity" (what "there" pointed at)."""
    for c in subj.children:
        if c.dep_ == "prep" and any(g.pos_ == "PROPN" for g in c.subtree):
            return " ".join(t.text for t in c.subtree)
    return ""


def _broken(sent: Span, skip: set[int]) -> bool:
    """A verb that lost its complement and has none left ("the user's salary goes")."""
    root = sent.root
    if root.i in skip:  # its clause went: the clause that stays is judged
        kept = [c for c in root.children if c.dep_ in {"conj", "advcl", "parataxis"} and c.i not in skip]
        if not kept:
            return True
        root = kept[0]
    lost = [c for c in root.children if c.i in skip and c.dep_ in _COMPLEMENTS]
    left = [c for c in root.children if c.i not in skip and c.dep_ in _COMPLEMENTS - {"prt"}]
    if root.lemma_.lower() in _CONTACT and any(t.i in skip for t in root.subtree):
        # "reach the user at <EMAIL>": only a when or how ("only after 6pm") is left to say
        lost = lost or [root]
        left = [c for c in left if c.dep_ not in {"dobj", "dative"}]
    kept = [t for t in sent if t.i not in skip and t.is_alpha]
    if any(c.dep_ == "dobj" for c in lost) and not any(c.dep_ in {"dobj", "attr", "ccomp", "xcomp"} for c in left):
        return True  # "keep for the visa forms": the verb lost what it was done to
    return (bool(lost) and not left) or len(kept) < 3


def _render(sent: Span, skip: set[int], subst: dict[int, str]) -> str:
    out: list[str] = []
    for t in sent:
        if t.i in skip:
            continue
        word = subst.get(t.i, t.text)
        out.append(word + t.whitespace_)
    text = "".join(out)
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;:])\s*([,;:.!?])", r"\2", text)
    text = re.sub(r"^[\s,;:]+|[\s,;:]+$", "", text)
    text = re.sub(r"\s{2,}", " ", text).strip()
    if not text or not re.search(r"[A-Za-z]{2,}", text):
        return ""
    return text[:1].upper() + text[1:]


# --- Chinese ---------------------------------------------------------------------------------

_ZH_NAMING = re.compile(
    r"(?:的)?(?:手机号码?|手机|电话号码?|电话|联系方式|邮箱地址|邮箱|电子邮件|邮件地址|身份证号码?|身份证|护照号码?|护照"
    r"|银行卡号?|卡号|账号|账户|订单号|发票号|地址|住址|IP地址?|密码|密钥)(?:是|为|：|:)?\s*$"
)
# a head that is a clause of its own, not the thing an identifier belongs to
_ZH_NOT_OWNER = re.compile(r"[是在有把被给叫说]|[你他她它]")
# a person as the subject that opens a clause ("她住在无锡", "而且他在读研"), not "他们"
_ZH_PERSON_SUBJECT = re.compile(r"\s*(?:而且|并且|但是?|现在|目前)?\s*([他她])(?![们])")
_ZH_EMPTY = re.compile(r"^(?:我|我的|我们|我们的|用户|用户的|请|记住|另外|还有|和|及|或)*$")


def _remove_zh(text: str) -> str:
    parts = re.split(r"([，,；;。！!？?])", text)
    kept: list[str] = []
    referent = ""  # what the identifier belonged to ("家里NAS的地址是<IP>"), for an "它" after it
    for k in range(0, len(parts), 2):
        clause, sep = parts[k], parts[k + 1] if k + 1 < len(parts) else ""
        if PLACEHOLDER.search(clause):
            before = PLACEHOLDER.split(clause)
            named = _ZH_NAMING.search(before[0])
            head = _ZH_NAMING.sub("", before[0]).strip()
            tail = "".join(before[1:]).strip()
            clause = (head + tail).strip()
            if _ZH_EMPTY.match(clause) or len(_CJK.findall(clause)) < 3:
                owner = re.sub(r"^(?:我的|我们的|我|用户的|用户)", "", head)
                if len(owner) == 1:  # "我妈": a one-character relation keeps whose it is
                    owner = head
                referent = (
                    owner if named and not tail and 2 <= len(owner) <= 10 and not _ZH_NOT_OWNER.search(owner) else ""
                )
                continue
        elif referent and "它" in clause:
            clause = clause.replace("它", referent, 1)  # "我用它备份照片" → "我用家里NAS备份照片"
        elif referent and (person := _ZH_PERSON_SUBJECT.match(clause)):
            # "我妈的手机号是<PHONE>，她住在无锡" → "我妈住在无锡": the person the number was of
            clause = clause[: person.start(1)] + referent + clause[person.end(1) :]
        referent = ""
        if clause.strip():
            kept.append(clause.strip() + sep)
    out = "".join(kept).strip().lstrip("，,；;")
    if out and out[-1] in "，,；;":
        out = out[:-1] + "。"
    return out if _CJK.search(out) else ""
