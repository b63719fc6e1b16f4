"""What a chat turn says in passing is no memory: a feeling said with its degree, an exclamation,
a speech act of this turn ("let me vent"), a bare reply, another party's doing over there, a
"don't note that", a duration or an age whose subject was dropped, this turn's next step or a
wished change, a reading of the moment, a plan with no date, a clause of the moment beside a
fact; and other people's health or faith, said of someone called by a surname or a faith not
listed before. The facts beside them are kept."""

from __future__ import annotations

import pytest

from gateway.learning.privacy.sensitive import third_party_sensitive, without_third_party_details
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.gate import REASONS, item_reason, sentence_reason
from gateway.learning.steps.statement import checked


def _item(content: str, kind: str = "fact") -> KnowledgeItem:
    return KnowledgeItem(title="t", content=content, category="domain", kind=kind)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        # a feeling said with its degree, or first
        ("用户气死😤。", "momentary"),
        ("用户吓死了。", "momentary"),
        ("用户笑死。", "momentary"),
        ("用户饿得要命。", "momentary"),
        ("用户累得不行了。", "momentary"),
        ("用户有点担心，她又不爱出门。", "momentary"),
        ("用户还在纠结。", "momentary"),
        # an exclamation before the point
        ("用户卧槽还有这种操作……行。", "small-talk"),
        ("用户天哪这也太贵了。", "small-talk"),
        ("用户我靠又涨价了。", "small-talk"),
        # a speech act of this turn
        ("用户顺便吐槽一下。", "small-talk"),
        ("用户跟你汇报一下。", "small-talk"),
        ("用户再问一下。", "small-talk"),
        ("用户分享一下哈。", "small-talk"),
        # a bare reply
        ("用户习惯了。", "small-talk"),
        ("用户早就习惯了。", "small-talk"),
        ("用户知道了。", "small-talk"),
        ("用户好多了。", "small-talk"),
        # another party's doing or asking, over there
        ("用户营地那边要实名预订。", "small-talk"),
        ("用户物业那边说下周停水。", "small-talk"),
        ("用户快递那边还没回复。", "small-talk"),
        ("用户俱乐部群里发了个通知。", "small-talk"),
        ("用户家长群里说明天停课。", "small-talk"),
        ("用户公司群里有人发了红包。", "small-talk"),
        # "don't note that"
        ("用户希望以后会变，不用记。", "about-assistant"),
        ("用户说的这个别记。", "about-assistant"),
        # a duration or an age whose subject was dropped
        ("用户练了两年多。", "fragment"),
        ("用户学了三年。", "fragment"),
        ("用户养了好几年了。", "fragment"),
        ("用户快两岁了。", "fragment"),
        ("用户才八个月。", "fragment"),
        ("用户已经五岁半了。", "fragment"),
        # this turn's next step, a wished change
        ("用户先要样品。", "intention"),
        ("用户先去问问房东。", "intention"),
        ("用户把豆子先分装了。", "intention"),
        ("用户回家还要遛狗。", "intention"),
        ("用户先辞职，去大理住一个月。", "intention"),
        ("用户先睡一觉。", "intention"),
        ("用户再商量。", "intention"),
        ("用户再看看吧。", "intention"),
        ("用户到时候再说。", "intention"),
        ("用户下班还得去取快递。", "intention"),
        ("用户周四想改成有氧课。", "intention"),
        ("用户打算把早会改到十点。", "intention"),
        # English: a mood, a reading of the moment, a plan with no date
        ("The user is in a bit of a meh mood.", "momentary"),
        ("The user is in a really rotten mood.", "momentary"),
        ("The user is at 24 clicks.", "momentary"),
        ("The user's chain is at 0.75 lol.", "momentary"),
        ("The user's phone battery is at 12%.", "momentary"),
        ("The user's tank is at about 30 litres.", "momentary"),
        ("The user will do the shuttle.", "intention"),
        ("Good idea, the user will stop in Portland for lunch.", "intention"),
        ("The user is going to grab the bus.", "intention"),
        ("The user is gonna repaint the fence.", "intention"),
    ],
)
def test_what_is_said_in_passing_is_not_a_memory(content: str, reason: str) -> None:
    assert item_reason(_item(content)) == reason
    assert reason in REASONS


@pytest.mark.parametrize(
    "content",
    [
        "用户每天下午四点遛狗。",
        "用户习惯用机械键盘。",
        "用户在一家物业公司上班。",
        "用户练了两年多钢琴。",
        "用户的女儿快两岁了。",
        "用户先后在北京和上海工作过。",
        "用户先天性近视。",
        "用户再婚了，现在住在苏州。",
        "用户把早会改到了十点。",
        "用户每周四上有氧课。",
        "用户的狗叫豆包。",
        "The user is at Google.",
        "The user's team is at 12 engineers.",
        "The user will start at Stripe in March.",
        "The user is going to Lisbon every summer.",
        "The user is in a band called The Owls.",
        "The user has a standing desk.",
    ],
)
def test_facts_of_the_same_shapes_are_kept(content: str) -> None:
    reason = item_reason(_item(content))
    if reason is None:
        reason = checked(content, "fact")[1]
    assert reason is None, content


def test_a_plan_of_ours_is_turned_down_as_a_sentence() -> None:
    assert sentence_reason("yeah we'll do the shuttle") == "intention"
    assert sentence_reason("We're going to take the ferry back.") == "intention"
    assert sentence_reason("so we're going to Lisbon now, not Valencia") is None  # a move, not a plan


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("用户在成都华西医院当护士，刚下夜班，累得不行。", "用户在成都华西医院当护士。"),
        ("用户在一家游戏公司做行政，今天加班，头都大了。", "用户在一家游戏公司做行政，今天加班。"),
        ("用户的预算提到25万，宾客现在是120人了（亲戚太多了没办法）。", "用户的预算提到25万，宾客现在是120人了。"),
        ("用户养了一只橘猫，刚到家，饿死了。", "用户养了一只橘猫。"),
        ("用户是中学老师，有点累。", "用户是中学老师。"),
    ],
)
def test_a_clause_of_the_moment_beside_a_fact_goes_and_the_fact_stays(content: str, kept: str) -> None:
    assert checked(content, "fact")[0] == kept


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        ("The user is doing a half marathon in may.", "The user is doing a half marathon in May."),
        ("The user moves to Leeds in mid-june.", "The user moves to Leeds in mid-June."),
        ("The user has been vegan since march.", "The user has been vegan since March."),
        ("The user may move to Leeds.", "The user may move to Leeds."),
    ],
)
def test_a_month_typed_in_lower_case_is_written_as_a_name(content: str, kept: str) -> None:
    assert checked(content, "fact")[0] == kept


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("The user's family wants the party to be small and close to her place.", "unresolved-reference"),
        ("The user needs two vegan starters for his table.", "unresolved-reference"),
        ("The user keeps the spare keys in her drawer at work.", "unresolved-reference"),
        ("The user's sister lives in Leeds with her husband.", None),
        ("The user's dog Biscuit sleeps in his basket by the stove.", None),
        ("The user's landlord wants his rent on the first of the month.", None),
    ],
)
def test_he_or_she_needs_a_person_named_before(content: str, reason: str | None) -> None:
    assert checked(content, "fact")[1] == reason


def test_a_rewrite_that_opens_with_a_feeling_is_turned_down() -> None:
    assert checked("用户有点紧张，明天面试。", "fact")[1] == "momentary"
    assert checked("用户累得不行，还要加班。", "fact")[1] == "momentary"


@pytest.mark.parametrize(
    "text",
    [
        "用户车队里老刘有高血压，最近不太敢拉高强度。",
        "小王最近查出血糖偏高。",
        "用户的母亲最近血糖有点高。",
        "队友胆固醇高，不能吃太油。",
        "老陈尿酸一直降不下来。",
        "Arjun's grandmother is Jain so no onion or garlic on her plate.",
        "My colleague Priya is Mormon.",
        "Her dad is a devout Baptist.",
        "My neighbour is Quaker and does not drink.",
    ],
)
def test_someone_elses_health_or_faith_is_not_stored(text: str) -> None:
    assert third_party_sensitive(text) is not None


def test_the_clause_with_someone_elses_health_goes_and_the_plan_stays() -> None:
    text, removed = without_third_party_details("车队里老刘有高血压，我们周四改成有氧课")
    assert removed == 1
    assert "高血压" not in text and "有氧课" in text
    text, _ = without_third_party_details("我爸血糖偏高，最近不太敢吃甜的，我家周末改吃杂粮")
    assert text == "我家周末改吃杂粮"
    text, _ = without_third_party_details("小王查出了胆结石，一直在家休养，我替他值班")
    assert text == "我替他值班"


@pytest.mark.parametrize(
    "text",
    [
        "用户的血压一直偏低。",
        "用户每周和老刘骑车。",
        "The user is Jain and eats no onion.",
        "The user visited a temple in Kyoto.",
    ],
)
def test_the_users_own_health_or_faith_and_a_friend_without_one_are_kept(text: str) -> None:
    assert third_party_sensitive(text) is None
