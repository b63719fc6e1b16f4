"""A statement of several facts is stored as one memory per fact, so that each can be replaced on
its own: English clauses that each have the user as subject are cut apart, Chinese clauses at
commas, tildes and 另外/而且; the noun a Chinese clause of the user's opens with is its attribute."""

from __future__ import annotations

from gateway.learning.offline.heuristic import extract_items
from gateway.learning.offline.keys import key_of
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream


def _stored(text: str) -> list[str]:
    return [item.content for item in extract_items(text)]


def test_coordinated_clauses_of_the_user_are_memories_of_their_own() -> None:
    kept = _stored(
        "I've got about 400 games in the library, we're open Wednesday to Sunday, and there are two part-timers."
    )
    assert kept == [
        "The user has got about 400 games in the library.",
        "The user is open Wednesday to Sunday, and there are two part-timers.",  # no subject of the user's
    ]
    assert _stored("I'm retired, I was a postmistress for 31 years in Burlington.") == [
        "The user is retired.",
        "The user was a postmistress for 31 years in Burlington.",
    ]


def test_a_relations_reason_for_a_change_is_not_kept_with_it() -> None:
    kept = _stored("update: I switched inspections to Sunday afternoons, my daughter has swimming on Saturdays now.")
    assert kept == ["The user switched inspections to Sunday afternoons."]


def test_clauses_that_belong_together_stay_together() -> None:
    # what is gone stays with what is new, so that the new memory names the one it replaces
    assert len(_stored("I joined a climbing gym, I no longer do workouts at home.")) == 1
    # a clause about what the one before names, and a view said with the user
    assert len(_stored("We have two dogs — Biscuit, a beagle, and Nova — Biscuit is allergic to chicken.")) == 1
    assert _stored("Public transport is fine for me, I never rent a car.") == [
        "Public transport is fine for the user, the user never rents a car."
    ]
    # a clause that says nothing without the one before
    assert len(_stored("anyway I celebrated by going bouldering, I go like three times a week")) == 1


def test_chinese_changes_after_a_tilde_or_erqie_are_memories_of_their_own() -> None:
    assert _stored("我跳槽去字节了～ 而且搬到杭州啦") == ["用户跳槽去字节了。", "用户搬到杭州啦。"]
    kept = _stored("编织小组调到周五晚上了～ 另外我换成了 2.5mm 的钩针")
    assert len(kept) == 2 and "2.5mm" not in kept[0] and "周五" not in kept[1]
    # a consequence stays with its cause, a change with the old value it names
    assert len(_stored("我换了工作，所以遛狗时间改成七点半了。")) == 1
    assert len(_stored("不学日语了，现在改学韩语。")) == 1


def test_a_past_tense_of_the_user_is_what_holds_now_in_a_turn_that_says_something_changed() -> None:
    turn = "update on me: not freelancing anymore, I took a full-time PMO role at a hospital group in Leeds."
    assert any("PMO role" in s for s in _stored(turn))
    assert _stored("I took a full-time PMO role at a hospital group in Leeds.") == []  # a past event


def test_an_emoji_or_a_space_ends_a_chinese_clause() -> None:
    kept = _stored("终于考过B类执照了🎉🎉 我在深圳，平时主要玩 FT8。")
    assert "用户在深圳，主要玩 FT8。" in kept and all("🎉" not in s for s in kept)
    assert len(_stored("我们公司现在改用钉钉了 我们团队扩到12个人了")) == 2


def test_how_things_are_these_days_is_not_kept_with_a_fact() -> None:
    assert _stored("哭成狗🥹 对了我在成都做UI设计师，最近天天改稿") == ["用户在成都做UI设计师。"]


def test_a_things_make_said_without_a_subject_is_the_users_in_their_turn() -> None:
    assert "用户的电台是 Icom IC-705，背着去梧桐山特别方便。" in _stored(
        "我在深圳玩无线电。电台是 Icom IC-705，背着去梧桐山特别方便。"
    )
    assert _stored("我最近在学做饭。天气是 sunny 的。") == ["用户最近在学做饭。"]  # no make or model


def test_relief_said_in_passing_is_no_thanks() -> None:
    kept = _stored("I direct for the Larkfield Players, and Colm is my stage manager, thank heavens.")
    assert any("Colm" in s for s in kept) and all("heavens" not in s for s in kept)


def test_a_chinese_attribute_is_the_noun_the_users_clause_opens_with() -> None:
    old, new = key_of("用户的教练是王指导。"), key_of("用户的教练换成刘教练了。")
    assert old is not None and new is not None and old.slot == new.slot and new.change
    had, has = key_of("用户有30箱蜂。"), key_of("用户今年扩到45箱了。")
    assert had is not None and has is not None and had.slot == has.slot  # counted by 箱
    assert key_of("用户的工作很忙。") is None  # a state, no value


SEQUENCES = [
    Sequence(
        (
            "I inspect the hives every Saturday morning.",
            "I switched inspections to Sunday afternoons, my daughter has swimming on Saturdays now.",
        ),
        ("Sunday",),
        ("Saturday",),
    ),
    Sequence(("我的教练是王指导。", "新学期教练换成刘教练了，拼车还是我来排。"), ("刘教练",), ("王指导",)),
    Sequence(("我有30箱蜂。", "今年扩到45箱了。"), ("45",), ("30",)),
    Sequence(("我住在北京。", "我跳槽去字节了～ 而且搬到杭州啦"), ("杭州",), ("北京",)),
    # the coach, said without a key the reader knows: the same thing, something else said of it
    Sequence(("My coach at the gym is called Pedro.", "I've got Aiyana as my coach now."), ("Aiyana",), ("Pedro",)),
    # a forget of two words means the memory saying both, not every memory saying one
    Sequence(
        (
            "Our two hives are in Dorset.",
            "I keep Carniolan bees in the hives.",
            "Please forget what I told you about the hives being in Dorset.",
        ),
        ("Carniolan",),
        ("Dorset",),
        named=False,
    ),
]


def test_one_fact_of_a_compound_statement_is_replaced_on_its_own(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "cc")
    assert not failures, failures
