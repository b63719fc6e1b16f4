"""The rule-based learner used with ``model: heuristic`` (English and Chinese, no LLM).

It reads the user's turn sentence by sentence and looks for the signals of seed 002:
stated preferences ("I prefer …", "我喜欢 …"), standing rules ("always …", "from now on …",
"以后都 …"), corrections ("no, it should be …", "不对，应该是 …") and facts about the user's
stack, team or business ("we use …", "our company …", "我们公司 …", "我是一名 …"). Each
matched sentence becomes one memory phrased about the user ("The user prefers tabs over
spaces."); questions and chit-chat yield nothing. The assistant's answer is only used as a
hint of depth, never as a source of memories.

The score is derived from what was found, so a turn with at least one signal scores at least
0.6 and a turn without any scores below it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gateway.learning.extraction import KnowledgeItem
from gateway.learning.scoring import ScoreResult, weighted_score

_CJK = re.compile(r"[\u3400-\u9fff]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|[。！？!?；;\n]+")
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

    kind: str  # preference | rule | correction | fact
    content: str
    title: str


# --- English --------------------------------------------------------------------------------

_PRONOUNS_EN = (
    (r"\bi am\b|\bi'm\b", "they are"),
    (r"\bwe are\b|\bwe're\b", "they are"),
    (r"\bi\b|\bwe\b", "they"),
    (r"\bmy\b|\bour\b", "their"),
    (r"\bme\b|\bus\b", "them"),
    (r"\bmine\b|\bours\b", "theirs"),
    (r"\bmyself\b|\bourselves\b", "themselves"),
)

_EN_PREF_VERBS = {
    "prefer": "prefers",
    "like": "likes",
    "love": "loves",
    "enjoy": "enjoys",
    "want": "wants",
    "hate": "dislikes",
    "dislike": "dislikes",
    "can't stand": "dislikes",
    "cannot stand": "dislikes",
    "don't like": "does not like",
    "do not like": "does not like",
    "don't want": "does not want",
    "do not want": "does not want",
    "would rather": "would rather",
    "'d rather": "would rather",
}
_EN_PREF = re.compile(
    r"^(?:(?:and|but|also|so|honestly|personally)[, ]+)*(?:i|we)\s*(?:really\s+|strongly\s+|"
    r"generally\s+|usually\s+|much\s+|definitely\s+|always\s+|also\s+)*(?P<verb>prefer|like|love"
    r"|enjoy|want|hate|dislike|can't stand|cannot stand|don't like|do not like|don't want"
    r"|do not want|would rather|'d rather)\s+(?P<obj>.+)$",
    re.IGNORECASE,
)
_EN_FAVOURITE = re.compile(r"^my\s+fav(?:ou?)rite\s+(?P<what>[\w\s-]{1,40}?)\s+is\s+(?P<obj>.+)$", re.I)
_EN_RULE = re.compile(
    r"^(?:please[, ]+)?(?:(?:from now on|going forward|in (?:the )?future|for all future"
    r" answers|in every answer)[, ]+(?:please[, ]+)?(?:you\s+(?:should|must)\s+)?(?P<a>.+)"
    r"|(?:you\s+should\s+|you\s+must\s+)?(?P<b>(?:always|never|don't ever|do not ever)\s+.+))$",
    re.IGNORECASE,
)
_EN_CORRECTION = re.compile(
    r"^(?:no|nope|wrong|not quite|incorrect|that's wrong|that is wrong|that's not right"
    r"|that is not right)\b[,.!:;\s-]*(?P<fix>(?:it|that|this|the \w+)?\s*(?:should|must|needs to"
    r"|has to) be\b.+|.+)$",
    re.IGNORECASE,
)
_EN_ACTUALLY = re.compile(r"^(?:actually|in fact|fyi|for the record|to clarify)[,:]?\s+(?P<rest>.+)$", re.I)
_EN_WE = re.compile(
    r"^(?:at work\s+|here\s+)?(?P<who>we|our team|my team|our company|my company|our org"
    r"|our startup)\s+(?P<rest>(?:mostly\s+|mainly\s+|currently\s+|now\s+|also\s+|only\s+)*"
    r"(?:use|run|deploy|build|host|write|store|sell|ship|develop|work with|rely on|are using"
    r"|are building|have|are|is|uses|runs|deploys|builds|hosts|sells|has|develops|relies on)\b.+)$",
    re.IGNORECASE,
)
_EN_OUR = re.compile(
    r"^(?P<who>our|my)\s+(?P<thing>(?:[\w+#.-]+\s+){0,2}?(?:stack|backend|frontend|database|db"
    r"|api|app|service|product|project|codebase|repo|team|company|startup|infra|infrastructure"
    r"|editor|ide|os|laptop|shell|language|ci|pipeline|cluster|server|servers|customers"
    r"|clients|business|deadline|release|office|manager|boss|lead))\s+(?P<rest>(?:is|are|was|uses"
    r"|runs|has|have|lives|sits|relies|depends|ships|needs|must|should|will)\b.+)$",
    re.IGNORECASE,
)
_EN_I_FACT = re.compile(
    r"^(?:i|i'm|i am)\s+(?P<rest>(?:work(?:ing)?\s+(?:at|for|as|on|in|with)|use|am using|'m using"
    r"|using|code in|program in|write|develop|build|maintain|run|manage|lead)\b.+)$",
    re.IGNORECASE,
)
_EN_I_AM = re.compile(r"^(?:i'm|i am)\s+(?P<rest>(?:a|an|the)\s+.+)$", re.IGNORECASE)
_EN_QUESTION = re.compile(
    r"^(?:what|why|how|when|where|who|which|can|could|would|will|should|do|does|did|is|are"
    r"|was|were|may|might|shall)\b",
    re.IGNORECASE,
)

_AND_VERB = re.compile(
    r"(\b(?:and|but|or)\s+)(use|run|deploy|build|host|write|store|sell|ship|develop|have|are"
    r"|keep|test|need|want|prefer|like)\b",
    re.IGNORECASE,
)
_VERB_3RD = {"are": "is", "have": "has", "do": "does", "were": "was", "'re": "is"}


def about_user_en(text: str) -> str:
    for pattern, repl in _PRONOUNS_EN:
        text = re.sub(pattern, repl, text, flags=re.IGNORECASE)
    return text


def _third_person(rest: str) -> str:
    """``use Go`` → ``uses Go``, ``are building`` → ``is building`` (first word only)."""
    first, _, tail = rest.partition(" ")
    low = first.lower()
    if low in _VERB_3RD:
        first = _VERB_3RD[low]
    elif not low.endswith("s") and low.isalpha():
        first = first + ("es" if low.endswith(("sh", "ch", "x", "o")) else "s")
    tail = _AND_VERB.sub(lambda m: m.group(1) + _third_person(m.group(2)), tail)
    return f"{first} {tail}".strip()


def _clean(obj: str) -> str:
    return obj.strip().strip("\"'“”‘’").rstrip(" ,.;:!。，；：！").strip()


def _title(text: str) -> str:
    text = _clean(text)
    text = text[:1].upper() + text[1:]
    return text if len(text) <= 80 else text[:79].rstrip() + "…"


def _sentence(text: str) -> str:
    text = _clean(text)
    text = text[:1].upper() + text[1:]
    return text + "."


def _en_preference(s: str) -> Signal | None:
    m = _EN_FAVOURITE.match(s)
    if m:
        what, obj = m.group("what").strip(), _clean(about_user_en(m.group("obj")))
        return Signal("preference", f"The user's favourite {what} is {obj}.", f"Favourite {what}: {obj}")
    m = _EN_PREF.match(s)
    if not m:
        return None
    verb = _EN_PREF_VERBS[m.group("verb").lower()]
    obj = _clean(about_user_en(m.group("obj")))
    if not obj or re.fullmatch(r"(?:it|that|this|them|you|to)", obj, re.I):
        return None
    return Signal("preference", _sentence(f"The user {verb} {obj}"), _title(f"{verb} {obj}"))


def _en_rule(s: str) -> Signal | None:
    m = _EN_RULE.match(s)
    if not m:
        return None
    rule = _clean(m.group("a") or m.group("b") or "")
    if len(rule.split()) < 2:
        return None
    rule = about_user_en(rule)
    rule = rule[:1].lower() + rule[1:]
    return Signal("rule", _sentence(f"The user wants the assistant to {rule}"), _title(rule))


def _en_correction(s: str) -> Signal | None:
    m = _EN_CORRECTION.match(s)
    if not m or not re.search(r"\b(?:should|must|needs to|has to) be\b|\bis\b|\buse\b", m.group("fix")):
        return None
    fix = _clean(about_user_en(m.group("fix")))
    if len(fix.split()) < 3:
        return None
    return Signal("correction", _sentence(f"Correction from the user: {fix}"), _title(f"Correction: {fix}"))


def _en_fact(s: str) -> Signal | None:
    m = _EN_WE.match(s)
    if m:
        who = m.group("who").lower()
        subject = "The user's team" if who in ("we", "our team", "my team") else "The user's company"
        if who in ("our org", "our startup"):
            subject = "The user's " + who.split()[1]
        rest = _clean(about_user_en(_third_person(m.group("rest"))))
        return Signal("fact", _sentence(f"{subject} {rest}"), _title(f"{subject[11:]} {rest}"))
    m = _EN_OUR.match(s)
    if m:
        thing = m.group("thing").strip()
        rest = _clean(about_user_en(m.group("rest")))
        return Signal("fact", _sentence(f"The user's {thing} {rest}"), _title(f"{thing} {rest}"))
    m = _EN_I_FACT.match(s)
    if m:
        rest = re.sub(r"^(?:am using|'m using|using)\b", "uses", m.group("rest"), flags=re.I)
        rest = re.sub(r"^working\b", "works", rest, flags=re.I)
        rest = _clean(about_user_en(_third_person(rest)))
        return Signal("fact", _sentence(f"The user {rest}"), _title(rest))
    m = _EN_I_AM.match(s)
    if m and _ROLE_EN.search(m.group("rest")):
        rest = _clean(about_user_en(m.group("rest")))
        return Signal("fact", _sentence(f"The user is {rest}"), _title(f"Is {rest}"))
    return None


# --- Chinese --------------------------------------------------------------------------------

_ZH_LEAD = r"^(?:另外|还有|而且|并且|其实|对了|顺便说一下|说明一下|补充一下)?[，,、\s]*"
_ZH_PREF_NEG = re.compile(
    _ZH_LEAD + r"我(?:个人)?(?:很|非常|特别|真的)?(?:(?:不太|不怎么|很不|不)(?P<verb>喜欢|习惯|想要|想用|"
    r"希望|想|用)|(?P<hate>讨厌|反感))(?P<obj>.+)$"
)
_ZH_PREF = re.compile(
    _ZH_LEAD + r"我(?:个人)?(?:比较|更|很|非常|特别|一直|通常|还是|真的)*"
    r"(?P<verb>喜欢|偏好|偏爱|爱用|习惯用|习惯|倾向于|希望|想要|更愿意)(?P<obj>.+)$"
)
_ZH_RULE = re.compile(
    r"^(?:请你?|麻烦你?)?(?P<lead>以后|今后|从现在(?:开始|起)|之后|往后)[，,\s]*"
    r"(?:请你?|你)?(?P<rule>.+)$"
)
_ZH_RULE2 = re.compile(
    r"^(?:请你?|麻烦你?|你)?(?P<rule>(?:每次都|每次|总是|永远不要|永远|一律|务必|始终|"
    r"不要再|别再|千万不要|一定要)\S.*)$"
)
_ZH_CORRECTION = re.compile(r"^(?:不对|错了|不是这样|不是的|你说错了|有误)[，,。!！\s]*(?P<fix>.+)$")
_ZH_SHOULD = re.compile(r"^(?:应该是|正确的是|实际上是|其实是)(?P<fix>.+)$")
_ZH_WE = re.compile(
    _ZH_LEAD + r"我们(?P<who>公司|团队|项目|组|部门|这边|产品|系统)?(?:现在|目前|主要|一直|都)*"
    r"(?P<verb>用|使用|采用|在用|基于|部署在|跑在|是做|做|卖|负责|开发|有)(?P<rest>.+)$"
)
_ZH_OUR = re.compile(
    _ZH_LEAD + r"我们(?:的)?(?P<thing>公司|团队|项目|产品|系统|后端|前端|数据库|客户|业务"
    r"|服务器|技术栈|代码库|架构)(?P<rest>(?:是|在|有|用|主要|的|使用|采用|部署|需要|要求|一般).+)$"
)
_ZH_I_AM = re.compile(_ZH_LEAD + r"我是(?P<rest>.+)$")
_ZH_I_DO = re.compile(_ZH_LEAD + r"我(?:现在|目前|主要|平时|一般)*(?P<verb>在|用|使用|负责|从事|做)(?P<rest>.+)$")
_ZH_QUESTION = re.compile(r"[吗呢么]$|^(?:怎么|如何|为什么|什么|哪|请问|能不能|可不可以|是不是|有没有)")


def about_user_zh(text: str) -> str:
    text = re.sub(r"我们(?:的)?(?=公司|团队|项目|产品|系统|部门|客户|业务)", "用户的", text)
    text = re.sub(r"我们", "用户的团队", text)
    text = text.replace("我的", "用户的").replace("我", "用户")
    return text.replace("你", "助手")


def _zh_title(text: str) -> str:
    text = _clean(text)
    return text if len(text) <= 30 else text[:29] + "…"


def _zh_signal(s: str) -> Signal | None:
    m = _ZH_CORRECTION.match(s) or _ZH_SHOULD.match(s)
    if m:
        fix = _clean(about_user_zh(m.group("fix")))
        if len(fix) >= 3 and not _ZH_QUESTION.search(fix):
            return Signal("correction", f"用户纠正：{fix}。", _zh_title(f"纠正：{fix}"))
    m = _ZH_RULE.match(s) or _ZH_RULE2.match(s)
    if m:
        lead = m.groupdict().get("lead") or ""
        rule = _clean(about_user_zh(m.group("rule")))
        if len(rule) >= 2:
            return Signal("rule", f"用户希望{lead}{rule}。", _zh_title(f"{lead}{rule}"))
    m = _ZH_PREF_NEG.match(s)
    if m and len(_clean(m.group("obj"))) >= 1:
        obj = _clean(about_user_zh(m.group("obj")))
        verb = "不喜欢" if m.group("hate") or m.group("verb") == "喜欢" else f"不{m.group('verb')}"
        return Signal("preference", f"用户{verb}{obj}。", _zh_title(f"{verb}{obj}"))
    m = _ZH_PREF.match(s)
    if m:
        obj = _clean(about_user_zh(m.group("obj")))
        if len(obj) >= 1:
            verb = m.group("verb")
            verb = "更喜欢" if "更" in s[: m.start("verb")] and verb == "喜欢" else verb
            return Signal("preference", f"用户{verb}{obj}。", _zh_title(f"{verb}{obj}"))
    return _zh_fact(s)


def _zh_fact(s: str) -> Signal | None:
    m = _ZH_OUR.match(s)
    if m:
        rest = _clean(about_user_zh(m.group("rest")))
        return Signal("fact", f"用户的{m.group('thing')}{rest}。", _zh_title(f"{m.group('thing')}{rest}"))
    m = _ZH_WE.match(s)
    if m:
        who = m.group("who") or "团队"
        who = "团队" if who in ("这边", "组") else who
        verb = {"用": "使用", "在用": "使用"}.get(m.group("verb"), m.group("verb"))
        rest = _clean(about_user_zh(m.group("rest")))
        rest = f" {rest}" if rest[:1].isascii() else rest
        return Signal("fact", f"用户的{who}{verb}{rest}。", _zh_title(f"{who}{verb}{rest}"))
    m = _ZH_I_AM.match(s)
    if m and _ROLE_ZH.search(m.group("rest")):
        rest = _clean(m.group("rest"))
        return Signal("fact", f"用户是{rest}。", _zh_title(f"是{rest}"))
    m = _ZH_I_DO.match(s)
    if m and (m.group("verb") != "在" or re.search(r"工作|上班|任职|负责", m.group("rest"))):
        verb = {"用": "使用"}.get(m.group("verb"), m.group("verb"))
        rest = _clean(about_user_zh(m.group("rest")))
        return Signal("fact", f"用户{verb}{rest}。", _zh_title(f"{verb}{rest}"))
    return None


# --- public ---------------------------------------------------------------------------------

_EN_RULES: tuple[Callable[[str], Signal | None], ...] = (
    _en_correction,
    _en_rule,
    _en_preference,
    _en_fact,
)


def detect(sentence: str) -> Signal | None:
    """Recognise one sentence as a durable signal; ``None`` for questions and chit-chat."""
    s = sentence.strip().strip("\"'“”")
    if len(s) < 4 or s.endswith(("?", "？")):
        return None
    if _CJK.search(s):
        return None if _ZH_QUESTION.search(s.rstrip("。！!.")) else _zh_signal(s.rstrip("。！!.;；"))
    m = _EN_ACTUALLY.match(s)
    if m:
        s = m.group("rest")
    if _EN_QUESTION.match(s):
        return None
    for rule in _EN_RULES:
        signal = rule(s)
        if signal is not None:
            return signal
    return None


def split_sentences(text: str) -> list[str]:
    """Split on sentence ends (keeping decimals like ``3.11``) and on newlines."""
    parts = _SENTENCE_END.split(text)
    return [p.strip(" -*•\t") for p in parts if p and p.strip(" -*•\t")]


def categorise(kind: str, text: str) -> tuple[str, str]:
    """Pick ``(category, subcategory)`` for a signal from its kind and its words."""
    tech = bool(_TECH.search(text))
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
    )


def extract_items(user_text: str, assistant_text: str = "", *, max_items: int = 5) -> list[KnowledgeItem]:
    """One item per signalling sentence of the user's turn, at most ``max_items``."""
    items: list[KnowledgeItem] = []
    seen: set[str] = set()
    for sentence in split_sentences(user_text):
        signal = detect(sentence)
        if signal is None or signal.content.lower() in seen:
            continue
        seen.add(signal.content.lower())
        items.append(to_item(signal))
        if len(items) >= max_items:
            break
    return items


def score_turn(user_text: str, assistant_text: str = "") -> ScoreResult:
    """Score a turn from its signals: at least 0.6 with one signal, below 0.6 without."""
    signals = [s for s in (detect(x) for x in split_sentences(user_text)) if s is not None]
    tech = bool(_TECH.search(user_text) or _BUSINESS.search(user_text))
    length = len(user_text) + len(assistant_text) // 4
    if signals:
        kinds = sorted({s.kind for s in signals})
        explicit = any(k in ("preference", "rule", "correction") for k in kinds)
        dims = {
            "density": min(1.0, 0.7 + 0.1 * (len(signals) - 1)),
            "clarity": 0.9 if explicit else 0.8,
            "depth": round(0.4 + min(0.4, length / 1000), 4),
            "relevance": 0.9 if tech else 0.7,
            "novelty": 0.7,
        }
        reason = f"{len(signals)} signal(s): {', '.join(kinds)}"
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
