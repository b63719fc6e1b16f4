"""Chinese clauses that leave the user out: what the user is, has and does, said without "我".

People type about themselves without a subject ("深圳码农一枚，一周游三次泳", "阳台朝南，种了
番茄和薄荷", "白天在奶茶店兼职"). Such a clause is the user's when its predicate is one of a
lasting state or habit and it opens with that predicate, not with someone else: a stative verb
(住、做、当、养、种、有、用、坐、读、考、兼职 …), "在 <place> <verb>", a frequency (每周、天天、
一周三次), a place and a role ("深圳码农"), or an attribute of the user's home or body
("阳台朝南", "左膝盖有旧伤"). Whether it is a question, a request, a one-off or a plan is still
the clause reader's and the gate's to decide; this only says whose clause it is.
"""

from __future__ import annotations

import re

__all__ = ["elided_self"]

# words before the predicate that do not change whose it is: times, habits, adverbs
_LEAD = re.compile(
    r"^(?:(?:现在|目前|平时|平常|一般|白天|晚上|周末|工作日|每天|天天|每周|每个?月|每年|一直|常年|长期|基本上?"
    r"|还|也|都|只|就|主要|一般都|已经|从来)[，,\s]*)+"
)
# a stative or habitual verb the clause opens with
_STATIVE = re.compile(
    r"^(?:住(?:在)?(?!宿|院|店|酒店|民宿|一晚|几[天晚]|哪)|在[\u4e00-\u9fff]{1,8}(?:做|当|读|上班|上学|工作|兼职|打工|教|开)"
    r"|做(?!完|好|了个|个|一下)|当|养了?|种了?|有(?!没有|点|些|人|个问题|一?件事)|用(?!什么|哪)|坐|开(?:车|店|公司)"
    r"|读(?:研|博|大|高|初|书)|考研|备考|二战|兼职|自由职业|全职|在家办公|远程办公|不吃|不喝|不能吃|吃素|戒了?"
    r"|对[\u4e00-\u9fff]{1,6}过敏|过敏)"
)
# how often: "一周游三次泳", "每周游泳三次", "天天加班到十点"
_HABIT = re.compile(r"^(?:一周|每周|每天|天天|每个?月|一个?月|每年|每晚|每早)")
# the user's home or body, whose attribute the clause gives ("阳台朝南", "左膝盖有旧伤")
_OWNED = re.compile(
    r"^(?:新家|家里|老家)?(?:的)?(?:阳台|院子|花园|房子|卧室|客厅|厨房|露台|菜园|左|右)?"
    r"(?:阳台|院子|花园|房子|卧室|客厅|露台|菜园|膝盖|腰|肩膀?|颈椎|胃|肠胃|皮肤|眼睛|脚踝|手腕|腿)"
    r"(?:朝[东南西北]|有|是|不好|不太好)"
)
_PLACE_ROLE = re.compile(
    r"^[\u4e00-\u9fff]{2,4}(?:码农|程序员|工程师|设计师|老师|教师|医生|护士|会计|律师|学生|研究生|博士|宝妈|打工人|社畜"
    r"|产品经理|运营|销售|自由职业者)"
)
# someone else's clause or this moment's doings, whatever follows
_NOT_SELF = re.compile(
    r"^(?:刚|正在|在(?:吃|看|等|路上|忙|想|写|做饭)|有(?:没有|时候|点|些|道理|意思|空|个)|是不是|是(?:的|啊|吧|呀)|做梦)"
)
# done once, tried now, or done to the user by someone else: "用 iterator.remove 过了",
# "用 jsonb_path_ops 试试", "天天被开发追着问"
_DONE_ONCE = re.compile(r"(?:过了|试试|试一下|一下)$|被")


def elided_self(clause: str, places: set[str], opening: bool) -> str | None:
    """The clause said with the user as its subject left out ("在北京" for a turn that opens
    with "北京"), when a clause without a subject says what the user is, has or does
    habitually; else ``None``. ``places`` are the clause's place names (jieba ``ns``),
    ``opening`` whether it opens the turn (where a place alone is where the user is)."""
    c = clause.strip()
    if opening and c in places:
        return "在" + c
    if len(c) < 3 or _NOT_SELF.match(c) or _DONE_ONCE.search(c):
        return None
    if _HABIT.match(c) and len(c) >= 4:
        return c
    rest = _LEAD.sub("", c)
    if not rest or _NOT_SELF.match(rest):
        return None
    if _STATIVE.match(rest) or _OWNED.match(rest):
        return c
    if any(rest.startswith(p) for p in places) and _PLACE_ROLE.match(rest):
        return c
    return None
