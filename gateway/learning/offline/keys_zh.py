"""Keys of Chinese sentences, read by clause patterns (the parse is English-only).

The sentence is cut with jieba and read clause by clause: 住在/搬到 → ``home.city``, 部署在 →
``stack.hosting``, 改用/换成 + a tool → that tool's attribute (``lexicon``), 女儿叫… →
``family.daughter``, 在…工作 → ``work.employer``, 当/做 + a job → ``work.role``, 在做/不做…了 →
``work.project``. A sentence whose one clause states a value and another retracts a value of
the same attribute ("以后都用京东，不用顺丰了") is a change with that old value. The ``Key`` and
what it means are ``keys``'.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from gateway.learning.offline import lexicon
from gateway.learning.offline.key_record import RELATIONS, Key, join_key

_ZH_ROLES = {
    "女儿": "daughter",
    "儿子": "son",
    "孩子": "child",
    "老婆": "wife",
    "妻子": "wife",
    "太太": "wife",
    "老公": "husband",
    "丈夫": "husband",
    "先生": "husband",
    "妈妈": "mother",
    "母亲": "mother",
    "爸爸": "father",
    "父亲": "father",
    "父母": "parents",
    "爸妈": "parents",
    "老伴": "spouse",
    "爱人": "spouse",
    "表哥": "cousin",
    "表姐": "cousin",
    "哥哥": "brother",
    "弟弟": "brother",
    "姐姐": "sister",
    "妹妹": "sister",
    "狗": "dog",
    "小狗": "dog",
    "猫": "cat",
    "小猫": "cat",
    "同事": "colleague",
    "经理": "manager",
    "老板": "boss",
    "领导": "boss",
    "朋友": "friend",
}
_ZH_RETRACT = re.compile(r"不再|不用.{0,12}了|没再|不.{0,6}了$|戒了|停用|停了|停掉|放弃了?|已经不|下线|弃用|淘汰了")
_ZH_CHANGE = re.compile(
    r"改用|换成|换到|换用|改成|迁到|迁移到|搬到|搬去|转到|切换到|现在用|现在改|从.{1,20}(?:到|换|迁|改)"
    r"|扩到|扩大到|增加到|涨到|降到|减到|变成"
    r"|(?<![旋运好])转(?=\s*[A-Za-z])"  # "转Go了": what the user switched to, named
)
_ZH_HOME = re.compile(
    r"(?:家住在?|住在|住|定居在?|居住在|生活在|现居|常住|搬到|搬去|搬家到)了?(?P<v>[^\s，,。；;了的]{2,12})"
)
# "我在成都，家里四口人": a clause that is only where the user is, a place name (jieba ``ns``)
_ZH_AT_PLACE = re.compile(r"^(?:用户|我)(?:们|一家)?(?:现在|目前)?在(?P<v>[\u4e00-\u9fff]{2,6})(?=[，,。；;]|$)")
_ZH_DEPLOY = re.compile(r"(?:部署在|部署到|跑在|托管在|放在|迁到|迁移到|上了)(?P<v>[^，,。；;]{2,24})")
_ZH_USE = re.compile(r"(?:改用|换成|换到|换用|采用|使用|在用|选用|切换到|转到|用的是|用)(?P<v>[^，,。；;]{1,30})")
# "在腾讯上班", and where a new job is: "下个月开始去前海上班", "转到字节工作"
# where anyone works: no employer of the user's ("每天坐地铁去公司上班")
_ZH_ANY_WORKPLACE = frozenset("公司 单位 办公室 家 家里 学校 这里 那里 这边 那边 现场 工地".split())
_ZH_WORK = re.compile(r"(?:在|去|到)(?P<v>[^\s，,。；;去到]{2,16}?)(?:工作|上班|任职|实习)")
# what the user or their team builds: several at once, "不做…了" retracts one
_ZH_PROJECT = re.compile(
    r"(?:还在做|正在做|在做|已经不做|不再做|不做|做的是|负责)(?:一个|一款|个)?(?P<v>[^，,。；;了的]{2,16})"
)
_ZH_ROLE = re.compile(
    r"(?:用户|我)是(?:一名|一个|一位|个|名)?(?P<v>[^\s，,。；;]{1,10}?(?:工程师|经理|设计师|老师|学生|医生|律师|程序员|架构师|分析师|研究员|会计|创始人|开发))"
)
# "在一家公司当UI设计师", "去游戏公司做视觉设计": the job, whatever the company
_ZH_JOB = re.compile(
    r"(?:当|担任|做)(?:一名|一个|个)?(?P<v>[^\s，,。；;]{0,8}?(?:设计师|工程师|经理|老师|程序员|架构师|分析师|会计|护士"
    r"|医生|律师|视觉设计|交互设计|设计|开发|运营|产品|销售|编辑|记者))(?![\u4e00-\u9fff]{0,2}(?:稿|图|方案))"
)
_ZH_TASTE = re.compile(r"(?P<neg>不)?(?:喜欢|爱喝|爱吃|爱|讨厌|偏爱|喜爱|偏好)(?P<v>[^\s，,。；;了的]{1,10})")
_ZH_LANG = re.compile(r"(?:会说|会讲|说|讲)(?P<v>[\u4e00-\u9fff]{1,4}[语话文])")
_ZH_ALLERGY = re.compile(r"对(?P<v>[^\s，,。；;]{1,10})过敏")
_ZH_NAME = re.compile(
    r"(?P<role>"
    + "|".join(sorted(_ZH_ROLES, key=len, reverse=True))
    + r")(?:的名字)?(?:叫做?|名叫|是)(?P<v>[^\s，,。；;]{1,8})"
)
_ZH_HAVE = re.compile(
    r"有(?:一|两|三|四|\d)?(?:个|只|条|位)?(?P<role>" + "|".join(sorted(_ZH_ROLES, key=len, reverse=True)) + ")"
)
_ZH_AGE = re.compile(r"(?P<v>[\d一二两三四五六七八九十]+)\s*岁")
_ZH_TRAILING = re.compile(r"(?:上|里|中|了|啦|吧|呢|来|去|平台|上面|服务器)+$")


def retracts_zh(text: str) -> bool:
    """ "不再吃素了", "现在不喝咖啡了": a value ends without a new one (``keys._retracts``)."""
    return bool(_ZH_RETRACT.search(text)) and not re.search(r"改用|换成|改成|改为|而是", text)


def changes_zh(text: str) -> bool:
    """ "已经搬到杭州了", "预算改成两万": a new value (``keys._changes``)."""
    return bool(_ZH_CHANGE.search(text) or re.search(r"已经|现在|不再|改为", text))


def key_zh(text: str) -> Key | None:
    """The key of a Chinese ``text``: that of its first sentence that names an attribute."""
    for clause in re.split(r"[。！？!?；;\n]", text):
        clause = clause.strip()
        if clause:
            key = _sentence_zh(clause)
            if key is not None:
                return key
    return None


def _sentence_zh(sentence: str) -> Key | None:
    """A sentence whose one part states a value and another retracts a value of the same
    attribute ("以后都用京东，不用顺丰了") is a change, the retracted value its old one."""
    whole = _clause_zh(sentence)
    parts = [p.strip() for p in re.split(r"[，,]", sentence) if p.strip()]
    if len(parts) < 2:
        return whole
    keys = [k for k in (_clause_zh(p) for p in parts) if k is not None]
    stated = [k for k in keys if not k.retraction]
    gone = [k for k in keys if k.retraction]
    if stated and gone:
        new = stated[0]
        old = tuple(v for k in gone if k.slot == new.slot for v in k.values if v not in new.values)
        if old:
            return Key(new.slot, new.multi, new.values, new.old + old, True, False, new.subject)
    if gone and not stated:
        # "以后快递都用京东，不用顺丰了": what is used instead takes the attribute of what is not
        ended = gone[0]
        for part in parts:
            use = re.search(r"(?:改用|换成|换用|改成|都用|就用|只用|用(?!户))(?P<v>[^，,。；;]{1,12})", part)
            if use is None or _ZH_RETRACT.search(part):
                continue
            value = _zh_value(use.group("v"))
            if value and value.lower() not in ended.values:
                return Key(ended.slot, ended.multi, (value.lower(),), ended.values, True, False, ended.subject)
    return whole


def _zh_value(raw: str) -> str:
    value = re.split(r"[，,。；;、]|的时候|之后|以后|来|去", raw.strip().lstrip("了").strip(), maxsplit=1)[0].strip()
    return _ZH_TRAILING.sub("", value).strip() or value


def _clause_zh(clause: str) -> Key | None:
    from gateway.learning.offline import chinese

    words = chinese.words(clause)
    retraction = bool(_ZH_RETRACT.search(clause)) and not re.search(r"现在|改用|换成|而是", clause)
    change = not retraction and bool(_ZH_CHANGE.search(clause))
    old = tuple(m.group(1).strip().lower() for m in re.finditer(r"从([^，,。到]{1,20}?)(?:迁|换|改|转|到)", clause))

    def make(slot: str, values: list[str], multi: bool = False, subject: str = "user") -> Key:
        vals = tuple(v.lower() for v in values if v and v.lower() not in old) or tuple(v.lower() for v in values)
        return Key(slot, multi, vals, old, change, retraction, subject)

    name = _ZH_NAME.search(clause)
    if name and not clause.startswith(name.group("v")):
        role = _ZH_ROLES[name.group("role")]
        group, multi = RELATIONS[role]
        return make(f"{group}.{role}", [name.group("v")], multi)
    role_word = next((w for w in words if w in _ZH_ROLES), None)
    age = _ZH_AGE.search(clause)
    if role_word and age:
        return make(join_key("rel", _ZH_ROLES[role_word], "age"), [age.group("v")], subject=f"rel:{role_word}")
    if role_word and re.match(rf"^(?:用户|我)?的?{role_word}", clause):
        # a clause about the user's relation ("用户的妈妈住在杭州"): its own subject
        inner = _clause_zh_user(clause, words, make)
        if inner is not None:
            return Key(
                join_key("rel", _ZH_ROLES[role_word], *inner.slot.split(".")),
                inner.multi,
                inner.values,
                inner.old,
                inner.change,
                inner.retraction,
                f"rel:{role_word}",
            )
        return None
    have = _ZH_HAVE.search(clause)
    if have:
        role = _ZH_ROLES[have.group("role")]
        group, multi = RELATIONS[role]
        return make(f"{group}.{role}", [role], multi)
    return _clause_zh_user(clause, words, make)


def _place_first(text: str) -> bool:
    from gateway.learning.offline import chinese

    cut = chinese.tagged(text)
    return bool(cut) and cut[0][1] == "ns"


def _clause_zh_user(clause: str, words: list[str], make: Callable[..., Key]) -> Key | None:
    deploy = _ZH_DEPLOY.search(clause)
    if deploy:
        value = _zh_value(deploy.group("v"))
        cls = lexicon.class_of(value)
        return make(cls if cls and cls != lexicon.HOSTING else lexicon.HOSTING, [value])
    home = _ZH_HOME.search(clause)
    if home and not ("搬" in home.group(0) and lexicon.class_of(home.group("v"))):
        return make("home.city", [_zh_value(home.group("v"))])
    where = _ZH_AT_PLACE.match(clause)
    if where and _place_first(where.group("v")):
        return make("home.city", [where.group("v")])
    work = _ZH_WORK.search(clause)
    employer = work.group("v").lstrip("了") if work else ""
    if work and employer not in _ZH_ANY_WORKPLACE:
        return make("work.employer", [employer])
    project = _ZH_PROJECT.search(clause)
    if project and not lexicon.tools_in(project.group("v")):
        return make("work.project", [_zh_value(project.group("v"))], True)
    role = _ZH_ROLE.search(clause) or _ZH_JOB.search(clause)
    if role:
        return make("work.role", [role.group("v")])
    lang = _ZH_LANG.search(clause)
    if lang:
        return make("lang.spoken", [lang.group("v")], True)
    allergy = _ZH_ALLERGY.search(clause)
    if allergy:
        return make("health.allergies", [allergy.group("v")], True)
    for m in _ZH_USE.finditer(clause):
        # "用" must be a word of its own (jieba), never the 用 of 用户
        verb = m.group(0)[: len(m.group(0)) - len(m.group("v"))]
        if verb == "用" and "用" not in words:
            continue
        value = _zh_value(m.group("v"))
        cls = lexicon.class_of(value)
        if cls is not None:
            return make(cls, [lexicon.tools_in(value)[0][0]], cls in lexicon.MULTI_CLASSES)
    taste = _ZH_TASTE.search(clause)
    if taste:
        value = re.sub(r"^(?:喝|吃|看|听|玩|去|用)", "", _zh_value(taste.group("v"))) or _zh_value(taste.group("v"))
        return make(join_key("taste", value), [value])
    tools = lexicon.tools_in(clause)
    classes = {cls for _, cls in tools}
    if len(classes) == 1:
        (cls,) = classes
        return replace(make(cls, [tools[-1][0]], cls in lexicon.MULTI_CLASSES), weak=True)
    return _generic_zh(clause, make)


# "用户的教练是王指导" / "用户的教练换成刘教练了": the noun the user's clause opens with is the
# attribute, whatever it is; "用户有30箱蜂" / "用户今年扩到45箱了": what is counted, by its measure word
_ZH_OWN_NOUN = re.compile(
    r"^(?:用户|我)的?(?P<n>[\u4e00-\u9fff]{1,4}?)(?:现在|目前|也|都|已经|又)*"
    r"(?:是|叫|换成了?|改成了?|变成了?|换到了?|改为|调到|调成|改到)(?P<v>[^，,。；;]{1,16})"
)
_ZH_OWN_COUNT = re.compile(
    r"^(?:用户|我)(?:现在|目前|今年|已经|一共|总共)*(?:有|养了?|扩到|扩大到|增加到|减到|降到|涨到)了?"
    r"(?P<v>[\d.]+|[零一二两三四五六七八九十百千]+)\s*(?P<u>箱|群|只|头|盆|棵|株|辆|台|匹|条|个)"
)


def _generic_zh(clause: str, make: Callable[..., Key]) -> Key | None:
    from gateway.learning.offline import chinese

    own = _ZH_OWN_NOUN.match(clause)
    if own and all(flag.startswith("n") or flag == "vn" for _, flag in chinese.tagged(own.group("n"))):
        return make(join_key("profile", own.group("n")), [_zh_value(own.group("v"))])
    count = _ZH_OWN_COUNT.match(clause)
    if count:
        return make(join_key("owns", count.group("u")), [count.group("v") + count.group("u")])
    return None
