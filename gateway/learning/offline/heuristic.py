"""The rule-based learner used with ``model: heuristic`` (English and Chinese, no LLM).

It reads the user's turn sentence by sentence and keeps durable self-disclosure: who the user
is, their team, stack, constraints, preferences, standing rules and plans. English sentences are
read off a dependency parse (``english``), Chinese ones clause by clause with jieba
(``chinese``); corrections ("no, it should be …", "不对，应该是 …") keep their own rule. Code
blocks and quoted passages (text the user wants edited) are removed first; questions, requests
for this turn, pleasantries and one-off details yield nothing; each sentence first passes the
precision gate (``gate.sentence_reason``), whose reason codes are kept for the learning log.
Each atomic statement becomes one memory phrased about the user ("The user deploys on
Fridays.", "用户不吃辣。") with its kind (fact, preference, relation, episode, rule) and the
profile ``slot`` it fills, if any; an episode's date is resolved from the conversation's time.
The assistant's answer is never a source of memories.

The score is derived from what was found, so a turn with at least one signal scores at least
0.6 and a turn without any scores below it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime

from gateway.learning.offline import chinese, english, english_elided, fragments, named, terse
from gateway.learning.offline.keys import derive_key
from gateway.learning.privacy import sensitive
from gateway.learning.steps import gate
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.scoring import ScoreResult, weighted_score

_CJK = re.compile(r"[\u3400-\u9fff]")
# sentence ends, and numbered points written on one line ("two things. 1) … 2) …")
# a title's full stop ("Dr. Lee", "Mrs. Brown") ends no sentence, an emoticon between two
# statements ("lost my charger :( now I use …") does
_SENTENCE_END = re.compile(
    r"(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)(?<!\bProf\.)(?<=[.!?])\s+|(?<=[。！？；;!?])(?=\S)|\s*\n+\s*"
    r"|\s+(?=\d\)\s)|\s+[:;]-?[()DPp/]+\s+"
)
_TECH = re.compile(
    r"\b(?:python|java|javascript|typescript|golang|go|rust|ruby|php|kotlin|swift|c\+\+|c#|\.net"
    r"|node(?:\.js)?|react|vue|angular|django|flask|fastapi|spring|rails|postgres(?:ql)?|mysql"
    r"|sqlite|mongodb|redis|kafka|rabbitmq|elasticsearch|docker|kubernetes|k8s|helm|terraform"
    r"|ansible|aws|gcp|azure|linux|ubuntu|git|github|gitlab|ci|cd|ci/cd|api|apis|sql|database"
    r"|backend|frontend|server|microservices?|graphql|grpc|rest|tabs|spaces|indentation|code"
    r"|editor|vim|neovim|emacs|vscode|ide|ts|js|pytest|type hints|linter|compiler|deploy\w*"
    r"|nginx|port|ports|cloud|llm|model|framework|library|repo|monorepo|branch|commit|pr|tests?)\b"
    r"|数据库|后端|前端|代码|服务器|接口|端口|框架|部署|架构|微服务|缩进|编辑器|测试|容器|集群|脚本|函数",
    re.IGNORECASE | re.ASCII,
)
_BUSINESS = re.compile(
    r"\b(?:customers?|clients?|orders?|sales|revenue|pricing|invoices?|refunds?|products?|market"
    r"|b2b|b2c|e-?commerce|retail|shop|store|contract|sla|billing|subscription)\b"
    r"|客户|订单|销售|营收|价格|发票|退款|产品|电商|业务|合同|账单|会员|门店",
    re.IGNORECASE | re.ASCII,
)
_TEAM = re.compile(
    r"\b(?:team|manager|lead|colleagues?|department|squad|org|reports? to|standups?|sprints?"
    r"|on-?call|engineers)\b|团队|经理|同事|部门|小组|组长|负责人|站会|迭代|值班",
    re.IGNORECASE | re.ASCII,
)
_LANGUAGE = re.compile(
    r"\b(?:chinese|english|mandarin|japanese|french|german|spanish|language)\b|中文|英文|英语|日语|语言",
    re.IGNORECASE | re.ASCII,
)
_STYLE = re.compile(
    r"\b(?:concise|short|brief|detailed|verbose|examples?|explanations?|answers?|replies|"
    r"responses?|tone|format\w*|markdown|bullet|emoji|style)\b|简洁|详细|简短|回答|回复|解释|风格|格式|例子",
    re.IGNORECASE | re.ASCII,
)
_ROLE_EN = re.compile(
    r"\b(?:developer|engineer|programmer|designer|manager|student|teacher|scientist|analyst"
    r"|architect|lead|founder|cto|ceo|admin|administrator|consultant|researcher|doctor|nurse"
    r"|lawyer|writer|marketer|accountant|owner|freelancer|devops|sre|intern|professor|pm)s?\b",
    re.IGNORECASE | re.ASCII,
)
_ROLE_ZH = re.compile(
    r"(?:工程师|开发|程序员|产品经理|设计师|学生|老师|教师|架构师|运维|测试|分析师|研究员|医生|律师"
    r"|经理|老板|创始人|负责人|站长|博主|会计|运营|主管|总监|实习生|教授|数据科学家)"
)


@dataclass(frozen=True)
class Signal:
    """A sentence recognised as durable: its kind and the rephrased memory."""

    kind: str  # fact | preference | relation | episode | rule | correction
    content: str
    title: str


# --- corrections (their own rule in both languages) ------------------------------------------

_EN_CORRECTION = re.compile(
    r"^(?:no|nope|wrong|not quite|incorrect|that's wrong|that is wrong|that's not right"
    r"|that is not right)\b[,.!:;\s-]*(?P<fix>(?:it|that|this|the \w+)?\s*(?:should|must|needs to"
    r"|has to) be\b.+)$",
    re.IGNORECASE,
)
_ZH_CORRECTION = re.compile(r"^(?:不对|错了|不是这样|不是的|你说错了|有误)[，,。!！\s]*(?P<fix>.+)$")
_ZH_SHOULD = re.compile(r"^(?:应该是|正确的是|实际上是|其实是)(?P<fix>.+)$")
_ZH_QUESTION = re.compile(r"[吗呢么]$|^(?:怎么|如何|为什么|什么|哪|请问|能不能|可不可以|是不是|有没有)")


def _clean(obj: str) -> str:
    return obj.strip().strip("\"'“”‘’").rstrip(" ,.;:!。，；：！").strip()


def _title(text: str) -> str:
    text = _clean(text)
    text = text[:1].upper() + text[1:]
    return text if len(text) <= 80 else text[:79].rstrip() + "…"


def _correction(s: str) -> Signal | None:
    s = s.strip().strip("\"'“”")
    if _CJK.search(s):
        m = _ZH_CORRECTION.match(s.rstrip("。！!.")) or _ZH_SHOULD.match(s.rstrip("。！!."))
        if m:
            fix = _clean(chinese._about_user(m.group("fix"), "用户的团队"))
            if len(fix) >= 3 and not _ZH_QUESTION.search(fix):
                return Signal("correction", f"用户纠正：{fix}。", _clean(f"纠正：{fix}")[:30])
        return None
    m = _EN_CORRECTION.match(s)
    if not m:
        return None
    fix = _clean(m.group("fix"))
    if len(fix.split()) < 3 or "?" in fix:
        return None
    return Signal("correction", f"Correction from the user: {fix}.", _title(f"Correction: {fix}"))


# --- preparing a turn ------------------------------------------------------------------------

_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_CODE_LINE = re.compile(
    r"^(?:[ \t]{4,}|\t)\S.*$|^\s*(?:class \w+[(:]|def \w+\(|import \w|from \S+ import |return\s+\S.*[;)]\s*$"
    r"|@\w+|[\w.]+\s*=\s*\S|[{}()\[\];]+\s*$|</?[a-z]\w*[^>]*>|#include|(?:func|fn) \w+\("
    r"|(?:public|private|static) (?:static |final )?[\w<>\[\]]+ \w+\s*[({=;]|(?:const|let|var) \w+\s*=)",
)
_QUOTED = re.compile(r"(?<![\w])(['‘“\"])(?=[^'’”\"\n]*\s[^'’”\"\n]*\s[^'’”\"\n]*\s)[^'’”\"\n]{12,}?['’”\"](?![\w])")
_QUOTED_ZH = re.compile(r"['‘“\"「『]([^'’”\"」』\n]{6,}?)['’”\"」』]")


def prepare(text: str) -> str:
    """The user's own prose: code blocks, code lines, pasted traces and logs, quoted passages
    (text to edit), other people's health or similar details, and asides of relief ("thank
    heavens") removed."""
    text = _FENCE.sub("\n", text)
    text, _ = gate.strip_pasted(text)
    text, _ = sensitive.without_third_party_details(text)
    lines = [line for line in text.splitlines() if not _CODE_LINE.match(line)]
    text = _QUOTED.sub("", "\n".join(lines))
    text = gate.EN_ASIDE.sub("", text)  # "…, thank heavens": relief said in passing
    text = named.named_in_next_sentence(text)
    return _QUOTED_ZH.sub(lambda m: "" if _CJK.search(m.group(1)) else m.group(0), text)


# --- public ---------------------------------------------------------------------------------


def signals(text: str, now: datetime | None = None) -> list[Signal]:
    """The durable statements of one user turn, in order (see the module docstring); ``now``,
    the conversation's time, dates its episodes (without it none are kept)."""
    return list(_read(text, now)[0])


def rejections(text: str, now: datetime | None = None) -> list[str]:
    """The reason codes (``gate``) of the sentences of a turn that were turned down."""
    return list(_read(text, now)[1])


_THANKS_LEAD = re.compile(
    r"^(?:thanks|thank you|cheers|great|ok(?:ay)?|cool|perfect|nice|got it)[,!.:;\s-]+(?=\w)", re.I
)


# "I'm based in Rotterdam so I'll fly out of RTM", "I'm a size 11, can you check …?": a
# statement about the user, then this turn's plan or question
_THEN_ASKS = re.compile(
    r",?\s+so\s+(?=(?:I'll|I will|I'm going to|we'll|we will)\b)"
    r"|,\s*(?=(?:can|could|would|will) you\b|(?:any|what|which|how|where) (?:ideas|tips|\w+ (?:do|should|can))\b)",
    re.I,
)


def _gated(sentence: str) -> tuple[str, str | None]:
    """The sentence without a leading "thanks," and the gate's reason to drop it, if any;
    a sentence turned down for its plan or question is judged again on the statement before."""
    rest = _THANKS_LEAD.sub("", sentence).strip()
    if rest != sentence and len(rest.split()) >= 3:
        sentence = rest
    reason = gate.sentence_reason(sentence)
    if reason in {"intention", "question"} and not _CJK.search(sentence):
        head = _THEN_ASKS.split(sentence, maxsplit=1)[0].strip().rstrip(",")
        if head == sentence:
            ahead = fragments.question_head if reason == "question" else fragments.intention_head
            head = ahead(sentence) or sentence
        if head != sentence and len(head.split()) >= 3 and gate.sentence_reason(head) is None:
            return head, None
    return sentence, reason


# a sentence turned down as these says nothing as a fact, not even who is who
_NOT_SAID_AS_FACT = {"hypothetical", "never-mind", "pasted", "about-assistant"}
_SUPPOSED = re.compile(r"^(?:what if|if|suppose|imagine|say|let's say)\b", re.I)


@functools.lru_cache(maxsize=256)  # scoring and extraction read the same turn
def _read(text: str, now: datetime | None) -> tuple[tuple[Signal, ...], tuple[str, ...]]:
    prepared = prepare(text)
    pasted = ("pasted",) if gate.strip_pasted(_FENCE.sub("\n", text))[1] or _FENCE.search(text) else ()
    # parts of a sentence that leave the user out ("accountant in lagos, still have 18k of
    # student loans left") are read as sentences of their own, with the user put back
    sentences = [
        part for s in split_sentences(prepared) for part in english_elided.clauses(fragments.casual_english(s))
    ]
    found: list[list[Signal]] = [[] for _ in sentences]
    rejected: list[str] = list(pasted)
    if sensitive.without_third_party_details(text)[1]:
        rejected.append(sensitive.REASON)
    english_at: list[int] = []
    chinese_at: list[int] = []
    relations: dict[int, list[tuple[str, str]]] = {}
    for i, raw in enumerate(sentences):
        raw = fragments.self_header(fragments.casual_english(fragments.spaced_clauses(raw)))
        raw = fragments.dropped_subject(fragments.without_asides(raw))
        correction = _correction(raw)
        sentence, reason = _gated(raw)
        sentences[i] = sentence
        if reason not in _NOT_SAID_AS_FACT and not _CJK.search(raw) and not _SUPPOSED.match(raw):
            relations[i] = named.named_relations(raw)
        if correction is not None:
            found[i].append(correction)
        elif reason is not None:
            rejected.append(reason)
        elif _CJK.search(sentence):
            chinese_at.append(i)
        else:
            english_at.append(i)
    if english_at:
        for i, sts in zip(english_at, english.analyse([sentences[i] for i in english_at], text, now), strict=True):
            # said too tersely for the parse ("Four backend engineers incl. me."): the terse
            # reading replaces what the parse made of it when that names no attribute
            terse_read = terse.read(sentences[i]) if not sts or not any(derive_key(st.content) for st in sts) else []
            if terse_read:
                found[i] = [Signal(kind, content, _title(content)) for kind, content in terse_read]
            else:
                found[i].extend(Signal(st.kind, st.content, st.title) for st in sts)
    for i, pairs in relations.items():
        # a signal the gate turns down ("… flatmate Sam is hosting a party tonight") keeps no name
        kept = [
            s for s in found[i] if gate.item_reason(KnowledgeItem(s.title, s.content, "domain", kind=s.kind)) is None
        ]
        for rel, name in pairs:  # "my sister Priya dragged me": the sister stays when the outing goes
            if not any(name in signal.content for signal in kept):
                content = f"The user's {rel} is called {name}."
                found[i].append(Signal("relation", content, _title(f"{rel} {name}")))
    if chinese_at:
        for i, zh in zip(
            chinese_at, chinese.analyse([sentences[i] for i in chinese_at], text, now, rejected), strict=True
        ):
            found[i].extend(Signal(st.kind, st.content, st.title) for st in zh)
    return tuple(signal for group in found for signal in group), tuple(rejected)


def detect(sentence: str) -> Signal | None:
    """The durable statement of ``sentence``; ``None`` for questions and chit-chat, and when it
    holds several (then what the user asked to remember is better kept in their own words)."""
    found = signals(sentence)
    return found[0] if len(found) == 1 else None


def split_sentences(text: str) -> list[str]:
    """Split on sentence ends (keeping decimals like ``3.11``) and on newlines."""
    parts = [piece for p in _SENTENCE_END.split(text) if p for piece in _at_emoji(p)]
    parts = [re.sub(r"^\d\)\s+", "", p) for p in parts if p]
    return [p.strip(" -*•\t") for p in parts if p and p.strip(" -*•\t")]


# an emoji between two English statements: where the first one ends
_EMOJI_BREAK = re.compile(r"(?<=\w)\s*[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\uFE0F]+\s+(?=[A-Za-z])")


def _at_emoji(sentence: str) -> list[str]:
    """``sentence`` cut where an emoji ends a statement of three words or more and a statement
    of two or more follows ("I sold my road bike 😅 my knees kept complaining"); "my team 💪
    ships on Fridays" has no statement before its emoji."""
    out: list[str] = []
    start = 0
    for m in _EMOJI_BREAK.finditer(sentence):
        left, right = sentence[start : m.start()], sentence[m.end() :]
        if len(re.findall(r"[A-Za-z']+", left)) >= 3 and len(re.findall(r"[A-Za-z']+", right)) >= 2:
            out.append(left)
            start = m.end()
    out.append(sentence[start:])
    return out


def categorise(kind: str, text: str) -> tuple[str, str]:
    """Pick ``(category, subcategory)`` for a signal from its kind and its words."""
    tech = bool(_TECH.search(text))
    if kind == "relation":
        return "domain", "relation"
    if kind == "episode":
        return "domain", "episode"
    if kind in ("preference", "rule"):
        if _LANGUAGE.search(text):
            return "user_preference", "language"
        if _STYLE.search(text):
            return "user_preference", "style"
        if tech:
            return "user_preference", "tool"
        return "user_preference", "topic"
    if kind == "correction":
        return ("technical", "issue") if tech else ("domain", "correction")
    if _ROLE_EN.search(text) or _ROLE_ZH.search(text):
        return "organizational", "role"
    if _TEAM.search(text) and not tech:
        return "organizational", "team"
    if tech:
        return "technical", "stack"
    if _BUSINESS.search(text):
        return "business", "product"
    return "domain", "general"


def _tags(kind: str, text: str) -> list[str]:
    tags = [kind]
    for m in _TECH.finditer(text):
        tag = m.group(0).lower()
        if tag not in tags and tag not in ("code", "tests", "test"):
            tags.append(tag)
    return tags[:6]


def to_item(signal: Signal) -> KnowledgeItem:
    """Turn a signal into a knowledge item with category, subcategory and tags."""
    category, subcategory = categorise(signal.kind, signal.content)
    return KnowledgeItem(
        title=signal.title,
        content=signal.content,
        category=category,
        subcategory=subcategory,
        tags=_tags(signal.kind, signal.content),
        kind="fact" if signal.kind == "correction" else signal.kind,
        slot=None if signal.kind == "episode" else derive_key(signal.content),
    )


_FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll)\b|\b(?:[Mm]y|[Mm]ine|[Ww]e|[Ww]e're|[Ww]e've|[Oo]ur|[Oo]urs|us|me)\b|我|咱"
)
_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|in future|remember|forget|stop|avoid)\b"
    r"|以后|今后|一律|每次|总是|永远|不要|别再|记住|忘记|一定要|必须|预算|不吃|喜欢|希望|打算",
    re.IGNORECASE,
)


def worth_learning(user_text: str) -> bool:
    """The cheap pre-check before an LLM learner is asked anything: does the user's turn say
    something in the first person, or state a standing rule, outside questions? Regular
    expressions only (no parse); it errs on the side of asking."""
    for sentence in split_sentences(prepare(user_text)):
        s = sentence.strip()
        if not s or s.endswith(("?", "？")):
            continue
        if _FIRST_PERSON.search(s) or _STANDING.search(s):
            return True
    return False


def extract_items(
    user_text: str, assistant_text: str = "", *, max_items: int = 5, now: datetime | None = None
) -> list[KnowledgeItem]:
    """One item per atomic statement of the user's turn, at most ``max_items``."""
    items: list[KnowledgeItem] = []
    seen: set[str] = set()
    for signal in signals(user_text, now):
        if signal.content.lower() in seen:
            continue
        seen.add(signal.content.lower())
        items.append(to_item(signal))
        if len(items) >= max_items:
            break
    return items


def score_turn(user_text: str, assistant_text: str = "", now: datetime | None = None) -> ScoreResult:
    """Score a turn from its signals: at least 0.6 with one signal, below 0.6 without."""
    found = signals(user_text, now)
    tech = bool(_TECH.search(user_text) or _BUSINESS.search(user_text))
    length = len(user_text) + len(assistant_text) // 4
    if found:
        kinds = sorted({s.kind for s in found})
        explicit = any(k in ("preference", "rule", "correction") for k in kinds)
        dims = {
            "density": min(1.0, 0.7 + 0.1 * (len(found) - 1)),
            "clarity": 0.9 if explicit else 0.8,
            "depth": round(0.4 + min(0.4, length / 1000), 4),
            "relevance": 0.9 if tech else 0.7,
            "novelty": 0.7,
        }
        reason = f"{len(found)} signal(s): {', '.join(kinds)}"
    else:
        question = user_text.strip().endswith(("?", "？")) or bool(_ZH_QUESTION.search(user_text))
        dims = {
            "density": 0.3 if tech else 0.1,
            "clarity": 0.2 if question else 0.3,
            "depth": round(min(0.5, length / 1000), 4),
            "relevance": 0.4 if tech else 0.1,
            "novelty": 0.2,
        }
        reason = "no durable signal (question or chit-chat)"
    return ScoreResult(weighted_score(dims), dims, reason)
