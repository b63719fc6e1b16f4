"""What the offline learner must never store, read the way a learning job reads a user's turn:
the steering check, an explicit command, then each extracted item with its identifiers removed
and the precision gate's reason, if any. Moods and states of the moment, other people's health,
a relative's remark, a farewell, a change that names nothing, "together" with nobody, an
unnamed "it came in when I copied", a gift's budget, a request's opening, and the facts beside
them that are kept."""

from __future__ import annotations

from gateway.learning.offline import atomic, heuristic
from gateway.learning.privacy.redact import remove_identifiers
from gateway.learning.steps import gate
from gateway.learning.steps.commands import parse_command
from gateway.learning.steps.poisoning import without_steering


def stored(text: str) -> list[str]:
    """The contents a learning job of the offline learner would store from ``text``."""
    rest, _ = without_steering(text)
    if not rest or parse_command(rest) is not None:
        return []
    kept = []
    for item in heuristic.extract_items(rest):
        for part in atomic.split_item(item):
            part.content = remove_identifiers(part.content)
            if part.content and gate.item_reason(part) is None:
                kept.append(part.content)
    return kept


def rejected(text: str) -> list[str | None]:
    """The gate's reason for each item the learner extracts from ``text``."""
    return [gate.item_reason(part) for item in heuristic.extract_items(text) for part in atomic.split_item(item)]


def test_a_mood_or_a_feeling_is_not_stored() -> None:
    assert stored("evening! I'm in a weirdly good mood") == []
    assert stored("羡慕，那我去睡了") == []
    assert rejected("羡慕，那我去睡了") == ["momentary"]


def test_the_bodys_state_after_a_shift_is_not_stored() -> None:
    assert stored("6 hrs on the espresso machine at the cafe, my wrists are dead") == []
    assert stored("much better, my hands are greasy but my brain is happy") == []


def test_a_farewell_leaves_what_the_user_is_doing_now_and_nothing_is_stored() -> None:
    assert stored("哈哈好 我去洗澡了 拜拜") == []
    assert not any("快乐" in s for s in stored("好 我们再商量 五一快乐！"))


def test_a_cousins_health_is_not_stored_nor_the_budget_of_a_gift_for_him() -> None:
    text = (
        "想问个事，我表哥最近抑郁症挺严重的，在吃药，他以前也喜欢拍照，我想送他一台入门相机让他多出门走走，"
        "预算三千左右，有推荐吗？"
    )
    assert stored(text) == []


def test_what_someone_else_told_the_user_is_not_stored() -> None:
    text = "小宇班上一个同学的妈妈跟我说,她家孩子有抑郁倾向,在看心理医生,希望小宇多跟他玩。"
    assert stored(text) == []
    assert stored("都有哈哈,我二姨还问我土木是不是修马路的") == []


def test_a_pets_allergy_is_a_fact_not_a_persons_health() -> None:
    text = "We have two dogs — Biscuit, a beagle, and Nova — Biscuit is allergic to chicken so he's on a lamb kibble."
    assert any("allergic to chicken" in s for s in stored(text))
    assert stored("My colleague Dan is allergic to penicillin.") == []


def test_a_title_does_not_end_the_sentence() -> None:
    assert "The user's vet is Dr. Hale at Riverside Vets." in stored("Our vet is Dr. Hale at Riverside Vets.")


def test_an_update_announced_and_a_change_that_names_nothing_are_not_stored() -> None:
    kept = stored("更新一下情况:我换工作了,现在在一家宠物医院做前台。")
    assert kept and all("更新" not in s for s in kept)
    assert "用户换工作了。" not in kept


def test_together_with_nobody_and_an_unnamed_it_are_not_stored() -> None:
    kept = stored("我用索尼A7C2，女朋友叫小雨，她也拍，我们经常一起出去。")
    assert kept and all("一起" not in s for s in kept)
    assert stored("？？我复制的时候带进来的，奇怪") == []
    assert stored("哈哈那算了 我就问问") == []


def test_an_exaggerated_complaint_goes_and_the_job_stays() -> None:
    assert stored("我在杭州做UI设计师,天天被产品改需求改到怀疑人生") == ["用户在杭州做UI设计师。"]


def test_the_details_after_a_quick_question_are_this_turns_request() -> None:
    assert stored("quick one, 3 days in lisbon in march, we land friday 9am leave monday night. what do we do") == []


def test_a_forget_with_its_topic_before_the_verb_is_a_forget() -> None:
    command = parse_command("之前说我在豆瓣标记读书那个，你忘掉吧，我把豆瓣账号注销了。以后用什么记录好一点？")
    assert command is not None and command.kind == "forget"
    assert "豆瓣" in command.text


def test_each_clause_turned_down_carries_a_reason_code() -> None:
    gift = heuristic.rejections("我表哥最近抑郁症挺严重的，我想送他一台入门相机，预算三千左右，有推荐吗？")
    assert "third-party-sensitive" in gift and "plan-today" in gift
    assert "small-talk" in heuristic.rejections("同学的妈妈跟我说,她家孩子在看心理医生,希望我们多陪陪他")
    assert heuristic.rejections("我在杭州做UI设计师,天天被产品改需求改到怀疑人生") == ["momentary"]
    assert all(code in gate.REASONS for code in gift if code != "third-party-sensitive")


def test_a_worry_a_near_miss_and_a_bare_frequency_are_not_stored() -> None:
    assert stored("就怕老师问我数据集哪来的") == []
    assert stored("我感觉我胖了五斤") == []
    assert stored("I nearly dropped the binoculars.") == []
    assert not any("两次" in s for s in stored("好吧。我晚上用谷电,一周两次左右"))
