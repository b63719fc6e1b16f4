"""A state of one moment is no memory, whatever word names it: a copular state of the user
("was a bit teary", "felt queasy") pinned to one day or one clock time is a mood or the body
of that moment, while an event of that day ("was promoted", "passed the test") or a state
with no time to it ("is vegetarian") stays; in Chinese, a clause whose subject is a part of
the user's body ("眼睛有点干", "胳膊都抬不起来了") says how the body feels now unless it says how
long it has been so ("一直", "长期"), and a hedged perception ("好像更活泼了") is a passing
impression. The feeling words are not listed: the shape of the statement decides."""

from __future__ import annotations

import pytest

from gateway.learning.steps.statement import checked

MOMENT_EN = [
    "On 2026-03-04 the user was a bit teary.",
    "On 2026-01-10 the user was really groggy.",
    "The user was wide awake at 4am.",
    "On 2026-02-14 the user was cranky.",
    "On 2026-02-02 the user felt queasy.",
    "The user was jittery at 11pm.",
    "On 2026-03-30 the user was so restless.",
    "On 2026-04-18 the user was super giddy.",
    "On 2026-04-20 the user seemed achy.",
    "On 2026-05-05 the user was totally frazzled.",
]

LASTING_EN = [
    "On 2026-03-04 the user was promoted to team lead.",
    "On 2026-01-10 the user was in Lisbon for a conference.",
    "The user is vegetarian.",
    "The user is allergic to cats.",
    "On 2026-02-02 the user passed their driving test.",
    "The user is left-handed.",
    "The user is afraid of heights.",
    "On 2026-04-18 the user got married.",
    "The user is retired.",
    "On 2026-05-05 the user was 40.",
    "In 2025 the user was self-employed.",
]

MOMENT_ZH = [
    "用户眼睛有点干。",
    "用户肩膀酸得要命。",
    "用户肚子咕咕叫。",
    "用户头昏昏沉沉的。",
    "用户胳膊都抬不起来了。",
    "用户后背全湿透了。",
    "用户脑袋一片空白。",
    "用户喉咙有点痛。",
    "用户的猫好像更活泼了。",
    "用户的多肉看起来更精神了。",
]

LASTING_ZH = [
    "用户的头发是自来卷。",
    "用户腰一直不好，每周做理疗。",
    "用户每天早上跑五公里。",
    "用户的猫三岁了。",
    "用户家离公司很近。",
    "用户手机是华为Mate 60。",
    "用户的手工皂在小红书上卖。",
    "用户的眼镜是800度的。",
    "用户的狗比以前胖了。",
    "用户手腕从小就容易脱臼，打球要戴护腕。",
]


@pytest.mark.parametrize("content", MOMENT_EN + MOMENT_ZH)
def test_a_state_of_the_moment_is_not_stored(content: str) -> None:
    assert checked(content, "fact")[1] is not None


@pytest.mark.parametrize("content", LASTING_EN + LASTING_ZH)
def test_a_lasting_state_or_an_event_stays(content: str) -> None:
    assert checked(content, "fact")[1] is None


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("用户在医院当护士，脚都站肿了。", "用户在医院当护士。"),
        ("用户的水温调到了26度，鱼好像更活跃了。", "用户的水温调到了26度。"),
        ("用户改学游泳了，膝盖有点疼。", "用户改学游泳了。"),
    ],
)
def test_the_clause_of_the_moment_goes_and_the_fact_stays(content: str, kept: str) -> None:
    assert checked(content, "fact") == (kept, None)


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("用户眼睛都睁不开了😵 不过还有个好消息……2026年3月2日用户通过了雅思考试。", "2026年3月2日用户通过了雅思考试。"),
        ("用户膝盖不太行，改练游泳了。", "用户改练游泳了。"),
        ("用户背的是 Deuter 的包。", "用户背的是 Deuter 的包。"),
    ],
)
def test_what_goes_on_after_the_clause_of_the_moment_stays(content: str, kept: str) -> None:
    assert checked(content, "fact") == (kept, None)


def test_a_clause_of_the_moment_with_only_someone_elses_words_after_it_goes() -> None:
    assert checked("用户腰有点酸，不过教练说练一阵就好了。", "fact")[1] == "momentary"


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("用户的瑜伽课调到周四晚上了，累死了。", "用户的瑜伽课调到周四晚上了。"),
        ("用户改用燕麦奶了，头有点晕。", "用户改用燕麦奶了。"),
        ("用户腿有点酸。", "用户腿有点酸。"),
    ],
)
def test_the_gate_reads_the_fact_without_the_mood_beside_it(content: str, kept: str) -> None:
    from gateway.learning.steps.extraction import KnowledgeItem
    from gateway.learning.steps.gate import item_reason
    from gateway.learning.steps.statement import without_passing

    out = without_passing(content, "fact")
    assert out == kept
    if out != content:
        assert item_reason(KnowledgeItem(title=out, content=out, category="personal")) is None


def test_an_exclamation_needs_its_own_word() -> None:
    assert checked("用户书法不学了，改学太极拳了。", "fact") == ("用户书法不学了，改学太极拳了。", None)


# a later clause about someone named, doing their own thing: not the user's fact
SOMEONE_ELSES = [
    ("用户的羽毛球改到每周六上午了，王磊周六要值班。", "用户的羽毛球改到每周六上午了。"),
    ("用户周末在家带娃，李娜最近在学日语。", "用户周末在家带娃。"),
    ("用户每天骑车上班，张伟负责接送孩子。", "用户每天骑车上班。"),
    ("用户搬到了杭州，周浩下班去健身。", "用户搬到了杭州。"),
    ("用户在学油画，陈静每周三练瑜伽。", "用户在学油画。"),
]
SOMEONE_NAMED_STAYS = [
    "用户的室友是王磊，用户每周五和他打球。",
    "用户和李娜一起开了一家花店。",
    "用户的搭档是张伟，张伟是设计师。",
    "用户在杭州工作，北京总部每月开一次会。",
    "用户每周三练瑜伽，周末去爬山。",
]


@pytest.mark.parametrize(("content", "kept"), SOMEONE_ELSES)
def test_a_later_clause_of_someone_elses_doing_goes(content: str, kept: str) -> None:
    assert checked(content, "fact") == (kept, None)


@pytest.mark.parametrize("content", SOMEONE_NAMED_STAYS)
def test_a_named_person_beside_the_users_fact_stays(content: str) -> None:
    assert checked(content, "fact")[0] == content


def test_a_common_noun_jieba_takes_for_a_name_is_no_one() -> None:
    assert (
        checked("用户的婚礼预算提到了30万，宾客现在是150人了。", "fact")[0]
        == "用户的婚礼预算提到了30万，宾客现在是150人了。"
    )
