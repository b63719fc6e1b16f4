"""What a change leaves behind and what a fact carries with it: someone else's reason is cut
from the fact, a news header before a clause without "I" is no obstacle, a short Chinese
statement of change replaces the one it says the same thing of, and "I'm in <city> now"
replaces where the user was "up here in"."""

from __future__ import annotations

from gateway.learning.offline import replaced, same_topic
from gateway.learning.offline.heuristic import extract_items
from gateway.learning.privacy.sensitive import third_party_sensitive
from gateway.learning.steps.reasons import without_reasons
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, memories, say, wait_for
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream


def test_someone_elses_reason_is_cut_from_the_fact_and_the_users_own_stays() -> None:
    assert without_reasons("The user's choir moved to Thursdays because the church hall was double-booked.") == (
        "The user's choir moved to Thursdays."
    )
    assert without_reasons("用户住在女儿家附近，方便照看外孙。") == "用户住在女儿家附近。"
    assert without_reasons("用户的排练挪到周二了，因为活动中心要装修。") == "用户的排练挪到周二了。"
    assert without_reasons("The user lives in Leeds, the city is great.") == "The user lives in Leeds."
    # the user's own reason is a fact too; a title keeps having no full stop
    assert without_reasons("The user avoids gluten because they have coeliac disease.") == (
        "The user avoids gluten because they have coeliac disease."
    )
    assert without_reasons("用户不吃花生，因为用户对花生过敏。") == "用户不吃花生，因为用户对花生过敏。"
    assert without_reasons("Choir moved to Thursdays because the hall was booked") == "Choir moved to Thursdays"


def test_a_news_header_before_a_clause_without_i_and_a_move_over() -> None:
    kept = " ".join(item.content for item in extract_items("big news: moved to Cincinnati for a new job 🎉"))
    assert "Cincinnati" in kept
    kept = " ".join(item.content for item in extract_items("Update. Moved over to sabre, club's short of sabreurs."))
    assert "sabre" in kept and "moved club" not in kept


def test_a_third_partys_rash_said_in_cantonese_is_not_kept() -> None:
    assert third_party_sensitive("用户女儿乐乐两岁，佢有湿疹。") is not None
    assert third_party_sensitive("用户有湿疹。") is None  # the user's own


def test_a_short_chinese_change_replaces_what_it_says_the_same_thing_of() -> None:
    assert same_topic.replaces("现在用户演四凤了。", "用户在话剧社演繁漪。")
    assert same_topic.replaces("用户转长板了。", "用户玩短板。")
    assert same_topic.replaces("用户现在开小米SU7。", "用户开比亚迪。")
    # an addition, another pet, another thing altogether
    assert not same_topic.replaces("用户现在也会说日语了。", "用户会说英语。")
    assert not same_topic.replaces("用户现在养了一只猫叫咪咪。", "用户的狗叫豆豆。")
    assert not same_topic.replaces("用户现在在公司做行政。", "用户在话剧社演繁漪。")


SEQUENCES = [
    Sequence(("我在话剧社演繁漪。", "现在我演四凤了。"), ("四凤",), ("繁漪",)),
    Sequence(("我玩短板。", "我转长板了。"), ("长板",), ("短板",)),
    Sequence(
        ("I work at a bakery up here in Whitby.", "I'm in Scarborough now, a flat by the harbour."),
        ("Scarborough",),
        ("Whitby",),
    ),
]


def test_changes_said_around_another_value_replace_the_old_one(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "frame")
        say(url, "choir", "Our choir moved to Thursdays because the church hall was double-booked.")
        (memory,) = wait_for(lambda: memories(url, "choir"), timeout=60)
    assert not failures, failures
    assert "Thursdays" in memory["content"] and "double-booked" not in memory["content"]


def test_withdrawing_packing_in_and_cantonese_no_longer_say_what_is_gone() -> None:
    assert replaced.named_old("The user has withdrawn from the Cotswold Tea Circle.") == ("Cotswold Tea Circle",)
    assert replaced.named_old("The user packed in the busking.") == ("busking",)
    assert replaced.named_old("闲鱼用户已经冇再卖啦。") == ("闲鱼",)
