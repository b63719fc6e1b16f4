"""What the user is, has and does, said without the subject ("深圳码农一枚，一周游三次泳"): the
offline learner keeps it as the user's, and keeps out what is someone else's or of the moment."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.offline.heuristic import extract_items
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, memories, say, wait_for
from tests.fake_upstream import FakeUpstream

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def contents(text: str) -> list[str]:
    return [i.content for i in extract_items(text, now=NOW, max_items=10)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("深圳码农一枚，天天加班到十点。想问问怎么练核心", ["用户深圳码农一枚。", "用户天天加班到十点。"]),
        ("北京，阳台朝南，种了番茄和薄荷。草莓用什么土", ["用户在北京。", "用户阳台朝南。", "用户种了番茄和薄荷。"]),
        ("白天在奶茶店兼职，英语还行", ["用户白天在奶茶店兼职。"]),
        ("左膝盖有旧伤，所以跑不了步", ["用户左膝盖有旧伤，跑不了步。"]),
    ],
)
def test_a_chinese_clause_without_a_subject_is_the_users_state(text: str, expected: list[str]) -> None:
    found = contents(text)
    assert all(e in found for e in expected), found


@pytest.mark.parametrize(
    "text",
    [
        "刚打完球，浑身是汗",  # this moment
        "用 jsonb_path_ops 试试",  # a try of this turn
        "住宿尽量亲子房",  # a stay, not where the user lives
        "有一组用书法笔触做的无衬线字体，太绝了",  # something seen
        "天天被开发追着问需求",  # someone else's doing
    ],
)
def test_a_moment_a_try_or_something_seen_is_not_the_users_state(text: str) -> None:
    assert contents(text) == []


def test_what_follows_a_relation_or_the_team_stays_theirs() -> None:
    team = contents("我们组五个人，做的是物流调度系统")
    assert not any(c.startswith("用户做") for c in team), team
    daughter = contents("我女儿六岁，在读一年级")
    assert not any(c.startswith("用户在读") for c in daughter), daughter


def test_a_state_said_without_a_subject_is_stored_and_injected(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "chen", "深圳码农一枚，一周游三次泳，白天在奶茶店兼职。想问问怎么练核心")
        found = wait_for(lambda: len(memories(url, "chen")) >= 3 and memories(url, "chen"))
        text = " ".join(m["content"] for m in found)
        assert "深圳码农" in text and "奶茶店兼职" in text and "游三次泳" in text
        assert "核心" not in text
        say(url, "chen", "奶茶店兼职的时候怎么安排训练")
        assert "奶茶店兼职" in str(fake.last_chat().body)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "freelance ux designer in austin, income is all over the place",
            ["The user is a freelance ux designer in austin."],
        ),
        ("still have like 18k of student loans left", ["The user still has like 18k of student loans left."]),
        ("both veggie so somewhere thats not a nightmare for food pls", ["The user is both veggie."]),
        ("34M, accountant in lagos so desk all day", ["The user is an accountant in lagos."]),
        ("lactose intolerant if that matters for diet stuff", ["The user is lactose intolerant."]),
        ("weakest at ethics and fixed income, quant is fine", ["The user is weakest at ethics and fixed income."]),
        ("allergic to peanuts, can I still make this?", ["The user is allergic to peanuts."]),
        ("Current base is €62k.", ["The user's current base is €62k."]),
    ],
)
def test_an_english_part_without_the_i_is_the_users(text: str, expected: list[str]) -> None:
    found = contents(text)
    assert all(e in found for e in expected), found


@pytest.mark.parametrize(
    "text",
    [
        "have a look at this",  # a request
        "morning coach, quick one",  # a greeting with a name
        "living the dream lol",  # an idiom
        "probably a very bad lawyer",  # a hedge
        "vegan parmesan is a crime",  # a subject of its own
        "what about vegan options, any ideas?",  # a question
        "just curious",  # of this moment
        "traffic in lagos after that is insane",  # no amount of the user's
    ],
)
def test_a_request_a_greeting_or_a_hedge_is_not_the_users(text: str) -> None:
    assert contents(text) == []


def test_a_sentence_that_opens_with_the_user_is_read_as_written() -> None:
    found = contents("I'm 29, software tester in Toronto, just opened a TFSA at Wealthsimple.")
    assert found == ["The user is 29, software tester in Toronto, just opened a TFSA at Wealthsimple."], found


def test_english_parts_without_the_i_are_stored(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "jamal", "34M, accountant in lagos so desk all day. lactose intolerant if that matters for diet stuff")
        found = wait_for(lambda: len(memories(url, "jamal")) >= 2 and memories(url, "jamal"))
        text = " ".join(m["content"] for m in found)
        assert "The user is an accountant in lagos." in text and "The user is lactose intolerant." in text
        assert "if that matters" not in text
