"""Facts said as fragments: clauses separated by spaces only, self-descriptions inside a question."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.offline.fragments import spaced_clauses
from gateway.learning.offline.heuristic import extract_items
from gateway.learning.privacy.sensitive import third_party_sensitive

NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)


def contents(text: str) -> list[str]:
    return [i.content for i in extract_items(text, now=NOW, max_items=10)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我是UI设计师 三年经验", "我是UI设计师，三年经验"),
        ("预算大概8 万以内 越快越好", "预算大概8，万以内，越快越好"),
        ("主力语言是 Rust 偶尔写 Python", "主力语言是 Rust 偶尔写 Python"),
        ("vue3 项目怎么升级", "vue3 项目怎么升级"),
        ("I live in Porto now", "I live in Porto now"),
    ],
)
def test_spaces_between_chinese_clauses_become_commas(text: str, expected: str) -> None:
    assert spaced_clauses(text) == expected


def test_a_space_separated_chinese_turn_ending_in_a_question_keeps_its_statements() -> None:
    found = contents("我在青岛做外贸 主要做东南亚市场 平时用 Excel 记账 这种情况要不要上ERP")
    assert any("青岛" in c and c.startswith("用户") for c in found)
    assert not any("ERP" in c for c in found)


def test_a_named_pet_gives_one_fact_per_clause() -> None:
    found = contents("我家狗叫豆豆 柯基 五岁了 一直吃冻干 最近总是挠耳朵 要紧吗")
    assert "用户家狗叫豆豆。" in found
    assert "用户的狗是柯基。" in found
    assert "用户的狗五岁了。" in found
    assert "用户的狗一直吃冻干。" in found
    assert not any("挠耳朵" in c for c in found)


@pytest.mark.parametrize(
    "text",
    [
        "老师好 这道题怎么做",
        "好的 那就这样吧",
        "今天好累 不想动",
        "这个菜多久能做好 要放几勺盐",
        "顺便问下 你们周末营业吗",
    ],
)
def test_spaced_small_talk_and_questions_give_nothing(text: str) -> None:
    assert contents(text) == []


def test_a_friends_health_said_in_passing_is_not_stored() -> None:
    found = contents("我闺蜜最近焦虑症挺严重的 周末想陪她出去走走 去哪儿好")
    assert [c for c in found if "焦虑" in c and not third_party_sensitive(c)] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to shellfish, can I still order the paella?", "The user is allergic to shellfish."),
        (
            "as a primary school teacher what apps would you suggest for homework?",
            "The user is a primary school teacher.",
        ),
        ("We live in Tromsø - is a heat pump worth it up here?", "The user lives in Tromsø."),
        ("so im diabetic, i dont do sugar at all", "The user is diabetic"),
        (
            "Background: nurse at a children's hospital in Bergen for 8 years, and I want to move into research.",
            "The user is a nurse at a children's hospital in Bergen for 8 years.",
        ),
    ],
)
def test_a_statement_said_with_a_question_or_in_passing_is_kept(text: str, expected: str) -> None:
    assert any(c.startswith(expected) for c in contents(text)), contents(text)


@pytest.mark.parametrize(
    "text",
    [
        "as a result, what should I do next?",
        "Is it normal for sourdough to smell like that?",
        "as an example, could you write a haiku about rain?",
        "Background: the meeting went long, can you summarise it?",
        "what if i dont finish the course, can i get a refund?",
    ],
)
def test_questions_without_a_self_description_give_nothing(text: str) -> None:
    assert contents(text) == []


def test_an_i_left_out_is_put_back() -> None:
    found = contents("studying Portuguese so I can move to Recife. signed the lease on a flat in Porto yesterday")
    assert any(c.startswith("The user is studying Portuguese") for c in found), found
    assert "On 2026-11-30 the user signed the lease on a flat in Porto." in found, found


def test_an_aside_with_an_identifier_leaves_the_fact_around_it() -> None:
    found = contents("I bill my clients every quarter (account is 4402 1188 9931, put it in the footer please).")
    assert any(c.startswith("The user bills their clients every quarter") for c in found), found
    assert not any("4402" in c for c in found)


@pytest.mark.parametrize(
    "text",
    [
        "baking brownies with my nephew this afternoon!",
        "procrastinating as usual lol",
        "living the dream haha",
        "Nothing new on my side.",
    ],
)
def test_what_the_user_is_doing_as_they_type_gives_nothing(text: str) -> None:
    assert contents(text) == []


def test_a_street_said_with_the_district_is_left_out() -> None:
    assert contents("我住杭州西湖区文三路附近 最近它总是叫 怎么办") == ["用户住杭州西湖区。"]
