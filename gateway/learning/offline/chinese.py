"""Chinese self-disclosure by clause (the offline learner, SPEC section 4).

A Chinese sentence is a chain of comma-separated clauses that often drop their subject and mix
durable facts with this turn's task ("我们是一家做跨境电商的小公司，技术就三个人，后端用 Go" /
"老板让我这周五之前把 bug 修掉"). Each clause is judged on its own:

* dropped: questions (吗、呢、怎么、还是…好), requests for this turn (帮我、看看、改一下),
  pleasantries and farewells (谢谢、好的、拜拜、五一快乐), one-offs (今天、这周五之前、这句), reported speech
  (编辑说…; after "…跟我说，" the rest of the sentence), a gift's budget, an exaggerated complaint (改到怀疑人生),
  clauses with a PII placeholder, a street address, a long digit string, or a person's name
  (jieba's ``nr`` tag: "原户主是我父亲张建国");
* a clause that opens with the user (我、我们、我家) or with a standing rule or preference
  (以后、一律、不要、喜欢、预算 …) starts a new memory; a subject-less clause that follows
  ("技术就三个人", "部署在阿里云上") continues the current one.

Each memory is rewritten about the user (我 → 用户, 我们公司 → 用户的公司, 别 → 不要 after
"用户希望"). Segmentation and name tags come from jieba (pip-installed with its dictionary).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gateway.learning.offline import changed_value, dates
from gateway.learning.offline.chinese_elided import elided_self
from gateway.learning.offline.slots import topic_slot

_jieba_lock = threading.Lock()
_cut_lock = threading.Lock()
_posseg: Any = None


def _pseg() -> Any:
    global _posseg
    with _jieba_lock:
        if _posseg is None:
            import logging

            import jieba
            import jieba.posseg

            jieba.setLogLevel(logging.WARNING)
            jieba.initialize()
            _posseg = jieba.posseg
        return _posseg


@dataclass(frozen=True)
class Statement:
    kind: str  # fact | preference | relation | episode | rule
    content: str
    title: str


# a clause ends at a comma, and at a tilde or "另外 / 而且" after a finished one ("跳槽去字节了～
# 而且搬到杭州啦"): each is read, and stored, on its own
_CLAUSE_SPLIT = re.compile(
    r"[，,；;：:～~]|(?<=[了啦呢])\s*(?=另外|而且|并且|此外)"
    # an emoji or a space between two clauses ("考过B类执照了🎉🎉 我在深圳"): casual writing's comma
    r"|(?<=[\u4e00-\u9fff])(?:\s*[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\uFE0F]+\s*|\s+)(?=[\u4e00-\u9fff])"
    # … also after a Latin word ("现在用 morgan dollar 😎 驻场也挪到…")
    r"|(?<=[A-Za-z0-9])\s*[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\uFE0F]+\s*(?=[\u4e00-\u9fff])"
)
_QUESTION = re.compile(
    r"[吗呢么？?]$|怎么|如何|为什么|为啥|什么|哪里|哪个|哪些|哪儿|多少|几[个月天点]|是否|能不能|可不可以|要不要"
    r"|会不会|有没有|好不好|行不行|对不对|还是.{0,12}好|算.{0,6}了吗|多久|多长时间|咋|啥(?!的)"
)
_REQUEST = re.compile(
    r"^(?:请|麻烦|帮我|帮忙|请帮我|给我|你能|你可以|可以帮|能帮|推荐|看看|帮我看看|改一下|改成|改得|写一|翻译"
    r"|那帮我|再帮|试试)"
)
_PLEASANTRY = re.compile(
    r"^(?:你好|您好|谢谢|多谢|感谢|好的|好吧|好|嗯|哦|明白了?|了解|收到|哈哈+|嘿嘿|不错|这个好|很好|太好了|没问题|辛苦了?"
    r"|ok|OK|行|对|是的|可以|原来如此|懂了|知道了|很有帮助"
    # a farewell or a season's greeting to the other party ("拜拜", "晚安", "五一快乐")
    r"|拜拜|再见|晚安|回头聊|下次聊|先这样|[\u4e00-\u9fff]{0,4}快乐)[啊呀啦了的！!。.~～]*$"
)
_TRIVIAL = re.compile(
    r"^(?:我|用户)?(?:就|只是|随便|先)?(?:试试|看看|想想|再看看|考虑一下|知道了|明白了|懂了|试一下|问问|问一下)[吧了。]*$"
)
_ONE_OFF = re.compile(
    r"今天|今晚|明天|昨天|前天|刚才|刚刚|这周[一二三四五六日天]?之?前?|本周|下周|这次|这一次|这句|这段|这篇|这个|那个"
    r"|这里|上面|下面|以下|工单|报修|订单号|bug|BUG|老板让|让我|之前把|那我|周末去|马上|现在就|一会儿"
    r"|断断续续|坏了|登不上|充不进|打不开|出问题|报错|又是|订了|预订了"
)
# a time, a day or an amount moved: "课改到周日下午了", "目标下调到30本", "考试推迟到6月"
_MOVED_TO = re.compile(
    r"改到|改为|调到|调成|调为|调整到|调整为|[上下]调到|推迟到|推到|提前到|挪到|延期到|延到|升到|升级到"
)
_CHANGE = re.compile(
    r"搬到|搬去|搬家|换成|换到|迁到|迁移到|改用|改成|开始(?:吃|用|学|做|写)|不再|从.{1,12}(?:迁|换|改|转)"
    r"|扩到|扩大到|增加到|涨到|降到|减到|变成"
    r"|" + _MOVED_TO.pattern
)
_REPORTED = re.compile(
    r"^(?:那是|这是|那只是|这只是)|^(?:编辑|老板|领导|老师|医生|朋友|同事|客户|他|她|他们|她们)(?:说|觉得|认为|让|要求|建议)"
)
# "…的妈妈跟我说，…": what follows in the sentence is someone else's words, not the user's
_REPORT_OPENS = re.compile(
    r"(?:跟|和|对|给)(?:我|我们)(?:说|讲|提)(?:过|了)?$|告诉(?:过|了)?(?:我|我们)$|听(?:说|[他她]们?说)$"
)
# a gift for someone else: its budget is this errand's, not the user's
_GIFT = re.compile(r"(?:想|要|打算|准备)(?:给[^，,。]{1,6})?送|礼物|(?:想|要|打算|准备)给(?:他|她)(?:们)?买")
_WHEN_ONLY = re.compile(r"^[\d一二三四五六七八九十]+月[\d一二三四五六七八九十]+[号日][^，,]{0,8}$")
# "酒店帮我看看…": a request whose object comes first
_TOPIC_REQUEST = re.compile(r"^[\u4e00-\u9fff]{1,4}(?:帮我|给我|帮忙|麻烦)")
_PREAMBLE = re.compile(
    r"^(?:跟|和|给|向)(?:你|您)(?:同步|说|讲|汇报|更新|报告|交代)一?下"
    r"|^(?:顺便|另外|还有|再)?(?:问|说|提|补充|更新|同步|汇报|报告|交代)一?下(?:情况|近况|进度|最新情况)?$"
    r"|^(?:我)?(?:想|要|再)?(?:问|请教|咨询)(?:你)?(?:个|一个|一件)事儿?$"
)
# a greeting to the other party at the start ("老师好", "大家好"), a suggestion or a decision of
# this turn ("就选室内的吧", "你删了吧")
_GREETING = re.compile(r"^(?:老师|大家|医生|教练|师傅|各位|亲|哈喽|嗨|早上|下午|晚上)好[啊呀！!]*$")
_SUGGESTION = re.compile(r"吧$")
_ADDRESS = re.compile(r"[\u4e00-\u9fff]{1,10}(?:路|街|大道|巷|弄)\s*\d+\s*号|\d+\s*(?:栋|幢|单元|室|号楼)")
_LONG_DIGITS = re.compile(r"\d[\d\s-]{6,}\d")
_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]{2,}>")
_FIRST = re.compile(r"^(?:我|我们|咱们|咱|我家|我们家|我自己)")
_RULE_LEAD = re.compile(
    r"^(?:以后|今后|从现在(?:开始|起)|之后都|往后|一律|每次|总是|永远|务必|始终|千万|一定要|必须|不要|别|也别|也不要|都不要"
    r"|不能|记得)"
)
_PREF_LEAD = re.compile(r"^(?:喜欢|更喜欢|不喜欢|讨厌|偏好|习惯|希望|想要|最好|不吃|不喝|只用|只能|只坐|不坐|预算)")
_PLAN_LEAD = re.compile(
    r"^(?:五一|十一|国庆|春节|过年|清明|端午|中秋|元旦|寒假|暑假|明年|今年|年底|下个月|下半年|\d{1,2}月|[一二三四五六七八九十]{1,2}月)"
    r".{0,6}(?:想|打算|准备|计划|要去|去)"
)
_CONSTRAINT = re.compile(r"一定要|必须|需要|不能|只能|预算|不超过|以内|左右")
_FAMILY = re.compile(r"老公|老婆|丈夫|妻子|孩子|宝宝|儿子|女儿|爸妈|父母|两口子|一家|家人|老伴|猫|狗")
_WORK = re.compile(r"公司|团队|项目|产品|系统|后端|前端|代码|服务|部署|技术|业务|客户|组")
_KIN_WORDS = (
    "(?:女儿|儿子|孩子|宝宝|丈夫|妻子|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外婆|外公|同事|老板|领导|朋友|室友|对象"
    "|男朋友|女朋友)"
)
_KIN = (
    ("我妈", "用户的母亲"),
    ("我爸", "用户的父亲"),
    ("我老公", "用户的丈夫"),
    ("我老婆", "用户的妻子"),
    ("我老伴", "用户的老伴"),
    ("爸妈", "父母"),
)


# the commonest surnames (about 85 % of the population): jieba's ``nr`` alone also tags
# ordinary words ("养蜂"), so a name must start with one of these
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔"
    "钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧阳司马上官诸葛"
)


# characters of institutions, subjects and places, not of given names ("高中语文", "王府井")
_NOT_GIVEN = re.compile(r"[中语文数理化史地学公司市省区县路街科技业网店馆院校部局厅组会队系班年月日天时期性度府井站场]")


def person_names(text: str) -> list[str]:
    """Chinese person names in ``text`` (jieba ``nr`` words of 2–4 characters with a common surname)."""
    return [
        w.word
        for w in _cut(text)
        if w.flag == "nr"
        and 2 <= len(w.word) <= 4
        and w.word[0] in _SURNAMES
        and re.fullmatch(r"[\u4e00-\u9fff]+", w.word)
        and not _NOT_GIVEN.search(w.word[1:])
    ]


def _cut(text: str) -> list[Any]:
    pseg = _pseg()
    with _cut_lock:
        return list(pseg.cut(text))


def words(text: str) -> list[str]:
    """jieba's segmentation of ``text``."""
    return [w.word for w in _cut(text)]


def tagged(text: str) -> list[tuple[str, str]]:
    """jieba's segmentation of ``text`` with each word's part of speech (``ns``: a place name)."""
    return [(w.word, w.flag) for w in _cut(text)]


def _has_name(clause: str) -> bool:
    return bool(person_names(clause))


# a complaint said as an exaggeration: "改需求改到怀疑人生", "改稿改到吐"
_HYPERBOLE = re.compile(
    r"(?:到|得)(?:怀疑人生|崩溃|想哭|吐|想吐|想死|头秃|秃头|发疯|抓狂|麻木|想辞职)了?$|(?:到|得)(?:做梦|梦里|睡觉)都"
    r"|^[\u4e00-\u9fff]{1,2}成狗了?$"  # "累成狗", "哭成狗": how much, not a fact
)


def _dropped(clause: str) -> bool:
    c = clause.strip()
    if len(c) < 2 or _PLEASANTRY.match(c) or _TRIVIAL.match(c) or _HYPERBOLE.search(c):
        return True
    if _QUESTION.search(c) or _REPORTED.match(c):
        return True
    if (_REQUEST.match(_strip_lead(c)) or _TOPIC_REQUEST.match(c)) and not _RULE_LEAD.search(c):
        return True
    if _ONE_OFF.search(c) and not _CHANGE.search(c):
        return True
    if re.match(r"^我(?:要|想|得)(?:给|办|问|咨询|查|买|退|换|改|订|取消|投诉|申请)", c):
        return True  # this turn's errand
    if _GREETING.match(c) or (_SUGGESTION.search(c) and not _RULE_LEAD.search(_strip_lead(c))):
        return True
    if _PREAMBLE.match(c) or re.match(r"^.{0,4}(?:你好|您好)$", c) or _WHEN_ONLY.match(c):
        return True  # "跟你同步一下", "教练你好"
    if _PLACEHOLDER.search(c) or _ADDRESS.search(c) or _LONG_DIGITS.search(c):
        return True
    return _has_name(c)


def _about_user(text: str, we_is: str) -> str:
    for old, new in _KIN:
        text = text.replace(old, new)
    text = re.sub(r"我们(?:的)?(?=公司|团队|项目|产品|系统|部门|客户|业务|组|家)", "用户的", text)
    text = text.replace("用户的家", "用户家")
    text = re.sub(r"咱们|我们", we_is, text)
    text = re.sub(r"我(?=" + _KIN_WORDS + ")", "用户的", text)
    text = text.replace("我的", "用户的").replace("我自己", "用户自己").replace("我", "用户")
    text = text.replace("用户一家一家", "用户一家")
    return text.replace("你们", "服务方").replace("你", "助手")


def _we_phrase(turn: str) -> str:
    if _WORK.search(turn):
        return "用户的团队"
    if _FAMILY.search(turn):
        return "用户一家"
    return "用户"


def _strip_lead(clause: str) -> str:
    return re.sub(
        r"^(?:另外|还有|而且|并且|其实|对了|顺便说一下|说明一下|补充一下|平时|然后|所以|不过|但是?|也|那)+", "", clause
    )


_RELATION = re.compile(
    r"^(?:我|我们|我家|我的)(?:的)?(?:老公|老婆|丈夫|妻子|孩子|宝宝|儿子|女儿|爸爸|妈妈|父亲|母亲|爸|妈|哥哥|姐姐|弟弟|妹妹"
    r"|爷爷|奶奶|外婆|外公|猫|狗|小狗|小猫|同事|老板|领导|朋友|室友|对象|男朋友|女朋友)"
)
# an event of this turn's errand, not of the user's life
_ERRAND_ZH = re.compile(r"订单|快递|退款|扣费|工单|账号|密码|登录|bug|BUG|报错|代码|脚本|部署|上线|发票|付款")


def _kind(text: str) -> str:
    if _RULE_LEAD.search(text) or "以后" in text:
        return "rule"
    if re.search(r"喜欢|讨厌|偏好|习惯|希望|更愿意|不吃|不喝", text):
        return "preference"
    if _RELATION.match(_strip_lead(text)):
        return "relation"
    return "fact"


def _episode(clause: str, now: datetime | None, we_is: str) -> Statement | None:
    """A dated event in the user's life ("昨天我带狗去看了兽医" → "2026年11月30日，用户带狗去看了兽医。")."""
    if now is None or _ERRAND_ZH.search(clause) or _PLACEHOLDER.search(clause) or _CHANGE.search(clause):
        return None  # a change ("上个月搬到北京了") is kept for its new state, a fact
    when = dates.find_chinese(clause, now)
    if when is None or not re.search(r"了|过", clause[when.end :]) or "我" not in clause:
        return None
    rest = (clause[: when.start] + clause[when.end :]).strip("，, ")
    rest = re.sub(r"^(?:的时候|时)", "", rest)
    if len(rest) < 4 or _QUESTION.search(rest) or rest.startswith(("要", "想", "打算", "准备")) or _has_name(rest):
        return None
    body = _about_user(rest, we_is).rstrip("。！!.，, ")
    content = f"{when.chinese()}，{body}。"
    return Statement("episode", content, f"{when.day.isoformat()}：{_title(body + '。')}"[:30])


_OPENING_GREETING = re.compile(r"^(?:你好|您好|嗨|哈喽|hi|hello|hey)+[呀啊哇吖]?[～~！!，,\s]+(?=\S)", re.I)
_FROM_OLD = re.compile(r"从\s*[^，,。从]{1,20}?\s*(?=(?:整体|全部|都|全都)?(?:迁|换|改|转|搬|跳槽|辞职|离职))")


_STREET = re.compile(r"(?<=[区市县镇])[\u4e00-\u9fff]{1,6}?(?:路|街|大道|巷|弄|胡同)(?:那边|附近|一带|旁边|这边)?")


def _render(clauses: list[str], we_is: str) -> str:
    first = _strip_lead(clauses[0])
    body = _FROM_OLD.sub("", "，".join([first, *clauses[1:]]))  # a change keeps only the new value
    body = _STREET.sub("", body)  # "住北京朝阳区望京西路那边": the district is the fact, the street an address
    if _FIRST.match(first) or first.startswith("我"):
        text = _about_user(body, we_is)
    elif re.match(r"^(?:不要|别|也别|千万别|一定要|务必|以后|今后|从现在|一律|每次|总是|永远|始终|最好|记得)", first):
        text = "用户希望" + _about_user(re.sub(r"^(?:也别|千万别|别)", "不要", body), we_is)
    elif first.startswith("预算"):
        text = "用户的" + _about_user(body, we_is)
    elif re.search(r"一定要|必须|需要", first):
        text = "用户的要求：" + _about_user(body, we_is)
    elif "我" in first:
        text = _about_user(body, we_is)
    else:
        text = "用户" + _about_user(body, we_is)
    text = re.sub(r"^用户用户", "用户", text)
    return text.rstrip("。！!.，, ") + "。"


def _title(content: str) -> str:
    text = content.rstrip("。")
    text = re.sub(r"^用户(?:的|希望)?", "", text) or text
    return text if len(text) <= 30 else text[:29] + "…"


def analyse(
    sentences: list[str], turn: str, now: datetime | None = None, rejected: list[str] | None = None
) -> list[list[Statement]]:
    """Per sentence of one user turn: the memories it holds, one atomic fact each, rewritten
    about the user; ``now`` (the conversation's time) dates its episodes. The gate's reason codes
    (``gate.REASONS``) of the clauses turned down as someone else's words, a gift's budget or an
    exaggeration are added to ``rejected``."""
    turned_down = rejected if rejected is not None else []
    we_is = _we_phrase(turn)
    turn_first = "我" in turn or "咱" in turn
    out: list[list[Statement]] = []
    for sentence_at, sentence in enumerate(sentences):
        s = sentence.strip().rstrip("。！!.;；")
        s = _OPENING_GREETING.sub("", s)  # "你好～我是…": the greeting, then the point
        groups: list[list[str]] = []
        current: list[str] | None = None
        episodes: list[Statement] = []
        sentence_first = bool(_FIRST.match(_strip_lead(s))) or "我" in s
        after_drop = False  # a subject-less clause after a dropped one goes on about that one
        clauses = _CLAUSE_SPLIT.split(s)
        gift = bool(_GIFT.search(s))
        for i, raw in enumerate(clauses):
            clause = raw.strip()
            if _REPORT_OPENS.search(clause):
                turned_down.append("small-talk")
                break  # the rest of the sentence is what someone else said
            if gift and clause.startswith("预算"):
                turned_down.append("plan-today")
                current = None
                continue
            if _HYPERBOLE.search(clause):
                turned_down.append("momentary")
            episode = _episode(clause, now, we_is) if clause else None
            if episode is not None:
                episodes.append(episode)
                current = None
                continue
            if not clause or _dropped(clause):
                current = None if clause and not _PLEASANTRY.match(clause) else current
                after_drop = after_drop or (
                    bool(clause) and current is None and not _GREETING.match(clause) and not _has_name(clause)
                )
                continue
            lead = _strip_lead(clause)
            opens = bool(
                _FIRST.match(lead)
                or _RULE_LEAD.match(lead)
                or _PREF_LEAD.match(lead)
                or _PLAN_LEAD.match(lead)
                or (lead.startswith("我") is False and "我" in lead[:6])
            )
            if (
                not opens
                and current is None
                and _changed_attribute(lead)
                and (turn_first or topic_slot(lead) or changed_value.values(lead))
            ):
                # "团队也扩到十二个人了", "新书换成都市题材了", "考试改到6月了": a change to
                # something of the user's (a day, a month, a time or a count, said in their turn)
                clause, opens = _owned_change(lead), True
            elif not opens and current is None and turn_first and _ALSO_HAVE.match(clause):
                # "还有三十年的房贷": the user has it too
                clause, opens = "我" + clause, True
            elif (
                not opens
                and current is None
                and _PARTED.match(lead)
                and (turn_first or any(_CHANGE.search(c) for c in clauses[i + 1 :]))
            ):
                # "索尼出掉了": something of the user's is gone (the store replaces what named it)
                clause, opens = ("我的" + lead if "我" not in lead else lead), True
            elif not opens and current is None and turn_first and _own_named_thing(lead):
                # "电台是 Icom IC-705": in a turn about the user, a thing of theirs and its make
                clause, opens = "我的" + lead, True
            elif not opens and current is None and _SUBJECTLESS_CHANGE.match(lead):
                clause, opens = "我" + lead, True
            elif not opens and current is None and turn_first and _HABIT_LEAD.match(lead):
                # "现在每月定投指数基金两千块" in a turn about the user: their own routine
                clause, opens = "我" + lead, True
            elif not opens and not _about_others(current) and (said := _elided(lead, clauses, i, sentence_at)):
                # "深圳码农一枚，一周游三次泳": the user's own state or habit, said without "我"
                clause, opens = "我" + said, True
            if opens or current is None:
                if not opens and not (sentence_first or _CONSTRAINT.search(clause)):
                    continue
                if not opens and after_drop and not _CONSTRAINT.search(clause):
                    continue
                after_drop = False
                current = [clause]
                groups.append(current)
            else:
                current.append(clause)
        statements = list(episodes)
        for group in groups:
            for content, kind in _atomic(group, we_is):
                if len(re.sub(r"[^\w]", "", content)) >= 4:
                    statements.append(Statement(kind, content, _title(content)))
        out.append(statements)
    return out


def _about_others(group: list[str] | None) -> bool:
    """The memory being read is about someone or something else in the user's life, which a
    following clause without a subject goes on about ("我女儿六岁，在读一年级", "我们组五个人，
    做的是物流调度系统")."""
    if not group:
        return False
    lead = _strip_lead(group[0])
    return bool(
        _RELATION.match(lead)
        or _NAMED_RELATION.match(lead)
        or re.match(r"^我(?:妈|爸|老公|老婆|老伴)|^(?:我们|咱们|咱|我家)", lead)
        or re.match(r"^我的?(?:公司|团队|项目|产品|系统|部门|组)", lead)
    )


# "…，太绝了": an exclamation about what the clause before described, something seen, not owned
_EXCLAIMED = re.compile(r"^(?:太|真|好|超)[\u4e00-\u9fff]{1,4}(?:了|啊|呀|吧)+$")


def _elided(clause: str, clauses: list[str], at: int, sentence_at: int) -> str | None:
    if at + 1 < len(clauses) and _EXCLAIMED.match(clauses[at + 1].strip().rstrip("！!~～")):
        return None
    places = {w for w, flag in tagged(clause) if flag == "ns"}
    return elided_self(clause, places, opening=at == 0 and sentence_at == 0)


def _atomic(group: list[str], we_is: str) -> list[tuple[str, str]]:
    """One memory per clause of a group: the head as it reads, each following clause with the
    head's subject ("我们是做电商的小公司，后端用 Go" → "用户的团队是做电商的小公司。", "用户的团队后端用 Go。")."""
    head = _render([group[0]], we_is)
    out = [(head, _kind(group[0]))]
    lead = _strip_lead(group[0])
    subject = "用户"
    if m := re.match(r"^(?:我|我们|咱们)(?:的)?(公司|团队|项目|产品|系统|部门|家)", lead):
        subject = "用户" + ("" if m.group(1) == "家" else "的") + m.group(1)
    elif re.match(r"^(?:我们|咱们)", lead):
        subject = we_is
    named = _NAMED_RELATION.match(lead)
    if named is not None:
        # "我家猫叫团子，英短蓝猫，三岁了": the pet or relation, then what it is, one fact each
        subject, kind = "用户的" + named.group("who"), "relation"
    elif _RELATION.match(lead) or re.match(r"^我(?:妈|爸|老公|老婆|老伴)", lead):
        return [(_render(group, we_is), _kind("，".join(group)))]  # about a relation: said together
    changed = bool(_CHANGE.search(group[0]))
    for prev, clause in zip(group, group[1:], strict=False):
        body = _FROM_OLD.sub("", _about_user(_strip_lead(clause), we_is))
        if changed and _OLD_HALF.match(_strip_lead(clause)):
            # "现在改成跑步，泳池就不去了": what the change left stays with it (the store
            # replaces what named it), not a fact of its own
            text, kind = out[-1]
            out[-1] = (text.rstrip("。") + "，" + body.rstrip("。！!.，, ") + "。", kind)
            continue  # a change keeps only the new value
        shape = _predicate_shape(clause) if named is not None else ""
        if _RECENT.match(clause.strip()):
            # "最近总是挠耳朵", "最近天天改稿": how things are these days, not what the fact is
            continue
        if body.startswith("用户") or _RULE_LEAD.match(body):
            out.append((_render([clause], we_is), _kind(clause)))
        elif named is not None and shape:
            verb = "是" if shape == "noun" else ""
            out.append((subject + verb + body.rstrip("。！!.，, ") + "。", kind))
        elif _topic_first(_strip_lead(clause)):  # "后端用 Go", "技术就三个人": an attribute of its own
            out.append((subject + body.rstrip("。！!.，, ") + "。", _kind(clause)))
        elif (
            subject == "用户"
            and _SUBJECTLESS_MOVE.match(body)
            and not _GONE_CLAUSE.search(_strip_lead(prev))
            and not re.match(r"^(?:所以|因为|结果|于是|因此)", clause.strip())  # a consequence stays with its cause
        ):
            # "跳槽去字节了，而且搬到杭州啦": a second change is a fact of its own, kept apart so
            # that each can be replaced on its own ("不学日语了，现在改学韩语" stays one: the new
            # value replaces the old one it names)
            out.append((subject + body.rstrip("。！!.，, ") + "。", _kind(clause)))
        elif re.match(r"^(?:最近|这几天|这两天)?(?:它|它们)", clause):
            continue  # "最近它掉毛特别厉害": about something else, not the user
        else:  # "爬不了太多山", "但从没开过车": it goes on about the clause before
            text, kind = out[-1]
            out[-1] = (text.rstrip("。") + "，" + body.rstrip("。！!.，, ") + "。", kind)
    return out


# a clause that only says something ended ("泳池太远就不去了", "飞书不续费了")
_OLD_HALF = re.compile(r"^[^，,；;]{1,10}?(?:已经|也|就)?不(?:再)?[\u4e00-\u9fff]{0,3}了$")
_NAMED_RELATION = re.compile(
    r"^(?:我家|我们家|我的|我)的?(?P<who>猫|狗|小猫|小狗|猫咪|狗狗|女儿|儿子|孩子|宝宝|老公|老婆|丈夫|妻子)(?:叫|名叫|名字叫)"
)
# a clause that goes on about the one before it rather than saying something of its own
_GOES_ON = re.compile(r"^(?:但|但是|不过|可是|所以|因为|而且|并且|也|还|就|才|都|不|没|从没|别|只是|然后|结果)")
_RECENT = re.compile(r"^(?:最近|这几天|这两天|这阵子|今天|刚才|刚刚|刚)")
_NOUN_FLAGS = {"n", "nz", "ng", "nr", "ns", "nt", "nw", "j", "a", "an", "eng", "b"}


def _predicate_shape(clause: str) -> str:
    """What a subject-less clause is, said of the relation before it: "verb" ("一直吃皇家的猫粮"),
    "count" ("三岁了"), "noun" ("英短蓝猫"), or "" when it goes on about the clause before
    ("但从没开过车") or is none of these."""
    c = clause.strip()
    if len(c) < 2 or _GOES_ON.match(c):
        return ""
    cut = [w for w in _cut(c) if w.word.strip()]
    if not cut:
        return ""
    flags = [w.flag for w in cut]
    if flags[0] in {"m", "t"} and not any(f.startswith("v") for f in flags[1:]):
        return "count"
    if all(f in _NOUN_FLAGS for f in flags):
        return "noun"
    lead = next((f for f in flags if f not in {"d", "t"}), "")
    return "verb" if lead in {"v", "p", "vn"} and len(c) >= 3 else ""


# a change said with the subject dropped ("现在改成以跑步为主", "不学日语了"): in the user's
# own turn it is theirs
_SUBJECTLESS_CHANGE = re.compile(
    r"^(?:现在|目前|已经|最近|后来)*(?:都|也|就)?(?:改成|改用|换成|换了|改学|改考|改吃|改喝|改去|改做|改到|改为|不再"
    r"|不(?:用|学|考|吃|喝|去|做|玩|练|住)[\u4e00-\u9fffA-Za-z0-9 ]{2,8}了$)"
)
# a clause that says a value is gone ("不学日语了", "佳能出掉了", "不再收勃艮第了"): the change after it
# names what replaced it, and stays with it
_GONE_CLAUSE = re.compile(
    r"不再|^(?:我们|我)?(?:的)?(?:现在|已经|也)?不[\u4e00-\u9fffA-Za-z0-9+. -]{1,12}了$|(?:卖|出|退|扔|转手)掉?了$"
)
# a subject-less clause that opens with a change or a move ("搬到杭州啦", "换成 2.5mm 的钩针了",
# "值班调到周三晚上"): what the user changed
_MOVE_FIRST = re.compile(
    r"^(?:现在|目前|也|又|都|还)*(?:搬到|搬去|换成|换到|改用|改成|改到|改为|改收|改学|改去|调到|调成|跳槽|转到|扩到|升到|降到|涨到)"
)
_SUBJECTLESS_MOVE = re.compile(
    _MOVE_FIRST.pattern + r"|^[\u4e00-\u9fff]{1,4}?(?:也|都)?(?:改到|改成|改在|调到|换成|变成|挪到|扩到|推迟到|提前到)"
)
_PARTED = re.compile(r"^[\u4e00-\u9fffA-Za-z0-9]{2,8}?(?:我|我们)?(?:已经|也|都)?(?:卖|出|退|扔|转手|送人)掉?了$")
_ALSO_HAVE = re.compile(r"^还有(?!.{0,4}(?:问题|一件事|个事|一点|就是|吗|没有))[^，,。]{2,12}$")
_HABIT_LEAD = re.compile(r"^(?:现在|目前|平时|一般)?每(?:天|周|个?月|年)(?!都想)[\u4e00-\u9fff]")


# a thing, then the make or model it is: "电台是 Icom IC-705", "打印机用的是 Bambu X1C"
_NAMED_THING = re.compile(
    r"^(?P<thing>[\u4e00-\u9fff]{1,4}?)(?:是|用的是|用的|叫)\s*(?P<v>[A-Za-z][\w\-]*(?:\s+[A-Za-z0-9][\w\-]*)*)"
)


def _own_named_thing(lead: str) -> bool:
    """A clause naming the make or model of a thing, the thing a noun (``_NAMED_THING``)."""
    m = _NAMED_THING.match(lead)
    if m is None or not re.search(r"[A-Z0-9]", m.group("v")):  # a make or a model, not "sunny"
        return False
    return all(flag.startswith("n") for _, flag in tagged(m.group("thing")))


_WHEN_LEAD = re.compile(r"^(?:今年|现在|目前|最近|如今|这学期|新学期|这个月|下个月|明年)")


def _owned_change(lead: str) -> str:
    """ "今年扩到45箱了" → "我今年扩到45箱了", "教练换成刘教练了" → "我的教练换成刘教练了": the
    user's own change, a time word leading it kept out of the possessive."""
    when = _WHEN_LEAD.match(lead)
    rest = lead[when.end() :] if when else lead
    if _MOVE_FIRST.match(rest):
        return "我" + lead
    return "我的" + rest if when and rest else "我的" + lead


def _changed_attribute(clause: str) -> bool:
    """A clause that opens with its topic and says it changed ("健身改成每周三次了")."""
    m = _CHANGE.search(clause)
    if m is None or _QUESTION.search(clause) or _REQUEST.match(clause):
        return False
    if _MOVED_TO.match(clause, m.start()) and not changed_value.values(clause[m.end() :]):
        return False  # "改稿改到吐": no day, time or amount it moved to
    topic = clause[: m.start()].rstrip("也都已经就又还")
    return 1 <= len(topic) <= 8 and not re.search(r"[你我他她它把帮给请让这那]", topic)


def _topic_first(clause: str) -> bool:
    """The clause opens with a noun, its topic ("后端用 Go"), not with a verb or a preposition."""
    cut = _cut(clause)
    return bool(cut) and cut[0].flag in {"n", "nz", "vn", "eng", "nt", "nw"} and len(cut) > 1
