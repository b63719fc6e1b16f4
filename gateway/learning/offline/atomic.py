"""One fact per memory: a compound setup sentence split by the attribute each part fills.

"We're a Go shop on GCP, Postgres 16, deploy with Argo CD" names four attributes of the team's
setup (language, hosting, database, deploy tool). Kept as one memory, none of them can be
replaced on its own: a later "we moved from GCP to AWS" has the key ``stack.hosting`` and the
compound memory has whichever key its parse happened to find. So a sentence that names tools of
two or more setup attributes (``lexicon``) becomes one memory per attribute, each phrased so
that its own parse gives that attribute's key ("The user's team runs on GCP."), and the parts
that name no tool stay together as one more memory when they still read as a statement.

``without_old`` is the other half of replacing by key: a memory that states a change keeps only
the new value ("ditched Jenkins, CI is on GitLab CI now" → "The user's CI is on GitLab CI now"),
so the replaced value is not injected again through the memory that replaced it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from gateway.learning.offline import lexicon
from gateway.learning.offline.key_record import Key
from gateway.learning.offline.keys import mentions_value
from gateway.learning.steps.extraction import KnowledgeItem

_CJK = re.compile(r"[\u3400-\u9fff]")
_SUBJECT_EN = re.compile(r"^(?:The user's (?:team|company|startup)|The user)\b", re.I)
_SUBJECT_ZH = re.compile(r"^(?:用户的(?:团队|公司|组)|用户一家|用户)")
_VERSION = re.compile(r"\s?v?\d+(?:\.\d+)*\b(?!\s*(?:%|people|engineers|人|个))")
_SEGMENTS_EN = re.compile(r"\s*(?:[,;]|\s\+\s|\band\b|\s[—–-]\s)\s*")
_SEGMENTS_ZH = re.compile(r"\s*(?:[，,；;、+＋]|以及|还有)\s*")

# attribute → (English predicate, Chinese predicate, English title, Chinese title)
_PHRASES: dict[str, tuple[str, str, str, str]] = {
    "stack.language": ("writes code in {x}", "用 {x} 开发", "Language", "编程语言"),
    lexicon.HOSTING: ("runs on {x}", "的服务部署在 {x}", "Hosting", "部署平台"),
    "stack.database": ("uses {x} as its database", "的数据库是 {x}", "Database", "数据库"),
    "stack.ci": ("runs CI on {x}", "用 {x} 做持续集成", "CI", "持续集成"),
    "stack.tests": ("runs tests with {x}", "用 {x} 跑测试", "Tests", "测试"),
    "stack.e2e_tests": ("runs end-to-end tests with {x}", "用 {x} 做端到端测试", "End-to-end tests", "端到端测试"),
    "stack.frontend": ("builds the frontend with {x}", "的前端用 {x}", "Frontend", "前端"),
    "stack.backend": ("builds the backend with {x}", "的后端用 {x}", "Backend", "后端"),
    "stack.deploy": ("deploys with {x}", "用 {x} 部署", "Deploys", "部署工具"),
    "stack.editor": ("edits code in {x}", "用 {x} 写代码", "Editor", "编辑器"),
    "stack.package_manager": ("manages packages with {x}", "用 {x} 管理依赖", "Packages", "包管理"),
    "stack.build": ("builds with {x}", "用 {x} 构建", "Build tool", "构建工具"),
    "tools.bookkeeping": ("does their bookkeeping in {x}", "用 {x} 记账", "Bookkeeping", "记账"),
    "shop.courier": ("wants deliveries sent with {x}", "希望用 {x} 配送", "Courier", "快递"),
}


def split_item(item: KnowledgeItem) -> list[KnowledgeItem]:
    """``item`` as one item per setup attribute it names (module docstring); itself otherwise."""
    if item.kind not in {"fact", "preference"}:
        return [item]
    parts = split(item.content)
    if len(parts) == 1:
        return [item]
    # the learner's verdict on a memory it was shown was about the whole sentence: the parts are judged by key
    return [
        replace(item, title=title, content=content, tags=list(item.tags), slot=None, same_as=None, updates=None)
        for title, content in parts
    ]


def split(content: str) -> list[tuple[str, str]]:
    """(title, content) per attribute of a compound setup sentence; ``[("", content)]`` when
    it names fewer than two."""
    classes = {cls for _, cls in lexicon.tools_in(content) if cls.startswith("stack.")}
    if len(classes) < 2:
        return [("", content)]
    zh = bool(_CJK.search(content))
    subject_match = (_SUBJECT_ZH if zh else _SUBJECT_EN).match(content)
    subject = subject_match.group(0) if subject_match else ("用户" if zh else "The user")
    body = content[len(subject_match.group(0)) :] if subject_match else content
    body = body.strip().rstrip("。.!！")
    named: dict[str, list[str]] = {}
    rest: list[str] = []
    for segment in (_SEGMENTS_ZH if zh else _SEGMENTS_EN).split(body):
        segment = segment.strip()
        found = _named(segment)
        for name, cls in found:
            named.setdefault(cls, [])
            if name not in named[cls]:
                named[cls].append(name)
        if not found and _reads_alone(segment, zh):
            rest.append(segment)
    out = [_phrase(subject, cls, names, zh) for cls, names in named.items()]
    if rest:
        joined = ("，" if zh else ", ").join(rest)
        text = f"{subject}{joined}。" if zh else f"{subject} {joined}."
        out.append((_short(joined), text))
    return out


def _named(segment: str) -> list[tuple[str, str]]:
    """The tools a segment names as written, with a version that follows ("Postgres 16")."""
    out: list[tuple[str, str]] = []
    low = segment.lower()
    for name, cls in lexicon.tools_in(segment):
        at = low.find(name.lower())
        if at < 0:
            continue
        written = segment[at : at + len(name)]
        version = _VERSION.match(segment, at + len(name))
        out.append((written + (version.group(0) if version else ""), cls))
    return out


def _reads_alone(segment: str, zh: bool) -> bool:
    """A part without a tool is kept when it is a statement, not a fragment of a list."""
    if zh:
        return len(re.sub(r"[^\u3400-\u9fff]", "", segment)) >= 4 and bool(re.search(r"[做是有在用]", segment))
    words = segment.split()
    return len(words) >= 3 and words[0].lower().endswith("s") and words[0].lower() not in {"its", "this", "his"}


def _phrase(subject: str, cls: str, names: list[str], zh: bool) -> tuple[str, str]:
    label = cls.split(".")[-1].replace("_", " ").capitalize()
    en, cn, title_en, title_zh = _PHRASES.get(cls, ("uses {x}", "用 {x}", label, ""))
    if zh:
        value = "、".join(names)
        cjk = bool(_CJK.match(value))
        text = subject + (cn.replace(" {x}", "{x}").replace("{x} ", "{x}") if cjk else cn).format(x=value)
        return f"{title_zh or title_en}：{value}", text.rstrip() + "。"
    value = " and ".join(names)
    return f"{title_en}: {value}", f"{subject} {en.format(x=value)}."


def phrase_of(cls: str, names: list[str], subject: str = "The user") -> str:
    """The English sentence that states ``names`` as the value of attribute ``cls``."""
    return _phrase(subject, cls, names, False)[1]


def _short(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if len(text) <= 60 else text[:59].rstrip() + "…"


# --- a change keeps only its new value ---------------------------------------------------------

_CLAUSES_EN = re.compile(r"(?<=[,;])\s+|\s+[—–]\s+|\s+-\s+")
_GONE_EN = re.compile(
    r"\b(?:ditched|dropped|left|quit|stopped using|got rid of|retired|moved off|moved away from|no longer"
    r"|not\b.*\b(?:any ?more|any longer)|no more|not on)\b",
    re.I,
)
_CLAUSES_ZH = re.compile(r"(?<=[，,；;])")
_GONE_ZH = re.compile(r"不再|不用|不要|停用|下线|弃用|淘汰|放弃|已经不|换掉|不.{0,6}了$")


def without_old(content: str, key: Key) -> str:
    """The change ``content`` states, without the clauses that only say the old value is gone
    (module docstring); ``content`` itself when nothing would be left."""
    zh = bool(_CJK.search(content))
    end = "。" if zh else "."
    if not zh:
        content = _drop_from_phrases(content, key)
    clauses = [c for c in (_CLAUSES_ZH if zh else _CLAUSES_EN).split(content.strip().rstrip("。.")) if c.strip()]
    if len(clauses) < 2:
        return content
    kept = [c for c in clauses if not _only_old(c, key, zh)]
    if not kept or len(kept) == len(clauses):
        return content
    text = "".join(kept) if zh else " ".join(c.strip() for c in kept)
    text = text.strip().rstrip("，,；;").strip()
    if zh and not _SUBJECT_ZH.match(text):
        text = "用户" + text
    elif not zh and not _SUBJECT_EN.match(text):
        head = kept[0].strip().rstrip(",;")
        names = [name for name, cls in _named(head) if cls == key.slot]
        if len(head.split()) < 4 and names:  # "Xero now": the attribute's own sentence
            return _phrase("The user", key.slot, names, zh)[1]
        lower = text[:1].lower() if text[1:2].islower() else text[:1]  # "CI" stays "CI"
        text = "The user's " + lower + text[1:]
    return text + end


def _drop_from_phrases(content: str, key: Key) -> str:
    """ "moved off Heroku to Render" → "moved to Render": the phrase naming the value left."""
    for name, cls in lexicon.tools_in(content):
        if cls != key.slot or mentions_value(name, key.values):
            continue
        phrase = re.compile(
            rf"\s+(?:off(?: of)?|away from|from|instead of|rather than)\s+(?:the\s+)?{re.escape(name)}\b", re.I
        )
        content = phrase.sub("", content)
    return content


def _only_old(clause: str, key: Key, zh: bool) -> bool:
    new = key.values
    if new and mentions_value(clause, new):
        return False
    if key.old and mentions_value(clause, key.old):
        return True
    if not (_GONE_ZH if zh else _GONE_EN).search(clause.strip().rstrip("，,；;")):
        return False
    # "ditched Jenkins": gone, and it names a value of the same attribute that is not the new one
    return any(cls == key.slot for _, cls in lexicon.tools_in(clause))
