"""Atomic, typed items: one fact per memory, its kind, episodes dated from the conversation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.llm.combined import combined_prompt, parse_combined
from gateway.learning.offline.heuristic import extract_items, rejections
from gateway.learning.steps.extraction import normalise_kind, parse_items

NOW = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)  # a Tuesday


def contents(text: str) -> list[tuple[str, str]]:
    return [(i.kind, i.content) for i in extract_items(text, now=NOW, max_items=10)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Our shop is a Vue + Go stack, Postgres, Redis, GitHub Actions.",
            [
                ("fact", "The user's shop is a Vue + Go stack."),
                ("fact", "The user's shop uses Postgres."),
                ("fact", "The user's shop uses Redis."),
                ("fact", "The user's shop uses GitHub Actions."),
            ],
        ),
        (
            "I speak Dutch, Spanish and a bit of Japanese.",
            [
                ("fact", "The user speaks Dutch."),
                ("fact", "The user speaks Spanish."),
                ("fact", "The user speaks a bit of Japanese."),
            ],
        ),
        (
            "I work as a data engineer at a logistics company, mostly in Scala.",
            [
                ("fact", "The user works as a data engineer at a logistics company."),
                ("fact", "The user works mostly in Scala."),
            ],
        ),
        (
            "我们组用 Python 和 Airflow，部署在腾讯云上。",
            [("fact", "用户的组用 Python 和 Airflow。"), ("fact", "用户的团队部署在腾讯云上。")],
        ),
    ],
)
def test_a_compound_statement_becomes_one_item_per_fact(text: str, expected: list[tuple[str, str]]) -> None:
    assert contents(text) == expected


def test_list_items_get_a_title_that_reads_as_one() -> None:
    titles = [i.title for i in extract_items("We're a Svelte shop, strict mode, pnpm, Vitest.", now=NOW)]
    assert titles[1:] == ["Uses strict mode", "Uses pnpm", "Uses Vitest"]


@pytest.mark.parametrize(
    "text",
    [
        "I write in British spelling throughout, colour, harbour and so on.",  # examples, not a list
        "I'm drafting a novel set in Cornwall, told in first person, past tense.",  # not all verbless
        "From now on, include type hints in Python code.",  # an adverbial lead, not a list
    ],
)
def test_commas_that_are_not_a_list_stay_one_item(text: str) -> None:
    assert len(extract_items(text, now=NOW)) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yesterday I took my puppy to the vet.", "On 2026-11-30 the user took their puppy to the vet."),
        ("Last Friday I ran my first half marathon.", "On 2026-11-27 the user ran their first half marathon."),
        ("Three days ago I got a promotion at work.", "On 2026-11-28 the user got a promotion at work."),
        (
            "I went to a pottery class yesterday and it was so relaxing.",
            "On 2026-11-30 the user went to a pottery class.",
        ),
        ("My laptop died last week.", "In the week of 2026-11-23 the user's laptop died."),
        ("前天我和老婆去看了演唱会。", "2026年11月29日，用户和老婆去看了演唱会。"),
        ("昨天我带狗去看了兽医。", "2026年11月30日，用户带狗去看了兽医。"),
    ],
)
def test_a_dated_event_is_an_episode_with_an_absolute_date(text: str, expected: str) -> None:
    assert contents(text) == [("episode", expected)]


@pytest.mark.parametrize(
    "text",
    [
        "I fixed the bug yesterday.",  # this turn's task
        "I was charged twice yesterday for my subscription.",  # a support errand
        "昨天我的订单还没到。",
    ],
)
def test_an_errand_or_a_task_is_no_episode(text: str) -> None:
    assert [i for i in extract_items(text, now=NOW) if i.kind == "episode"] == []


def test_without_the_conversation_time_no_episode_is_kept() -> None:
    assert extract_items("Yesterday I took my puppy to the vet.") == []


def test_a_change_stays_a_fact_so_it_can_replace_the_old_value() -> None:
    assert [i.kind for i in extract_items("上个月我搬到北京了。", now=NOW)] == ["fact"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "My son is called Leo, he plays football every Saturday.",
            [
                ("relation", "The user's son is called Leo."),
                ("relation", "The user's son plays football every Saturday."),
            ],
        ),
        ("Rex is our dog.", [("relation", "Rex is the user's dog.")]),
        (
            "我女儿叫小雨，今年上三年级。",
            [("relation", "用户的女儿叫小雨。"), ("relation", "用户的女儿今年上三年级。")],
        ),
    ],
)
def test_people_and_pets_in_the_users_life_are_relations(text: str, expected: list[tuple[str, str]]) -> None:
    assert contents(text) == expected


def test_preferences_and_rules_keep_their_kind() -> None:
    kinds = [i.kind for i in extract_items("I prefer dark roast coffee. Always reply in Portuguese.", now=NOW)]
    assert kinds == ["preference", "rule"]


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("Hey! How was your weekend?", ["small-talk", "question"]),
        ("I'm exhausted today. Thanks for listening!", ["momentary", "pleasantry"]),
        ("I'm sure you'll nail the interview.", ["about-assistant"]),
        ("Never mind, it's fine.", ["never-mind"]),
        ("```\nprint('hi')\n```\nCan you explain this?", ["pasted", "question"]),
    ],
)
def test_turned_down_sentences_say_why(text: str, codes: list[str]) -> None:
    assert extract_items(text, now=NOW) == []
    assert rejections(text, NOW) == codes


def test_the_llm_answer_is_parsed_with_its_kind() -> None:
    raw = (
        '[{"title": "Daughter", "content": "The user has a daughter born in 2021.", "kind": "relation", '
        '"category": "domain"}, {"title": "Vet", "content": "On 2026-11-30 the user took the dog to the vet.", '
        '"kind": "Episode", "category": "domain"}, {"title": "X", "content": "The user uses Nix.", '
        '"kind": "gizmo", "category": "technical"}, {"title": "Y", "content": "The user uses Bazel.", '
        '"category": "technical"}]'
    )
    assert [i.kind for i in parse_items(raw)] == ["relation", "episode", "fact", "fact"]
    assert normalise_kind("情节") == "episode" and normalise_kind(3) == "fact"


def test_the_combined_prompt_gives_the_conversation_time_and_asks_for_kinds() -> None:
    from gateway.store.prompts import default_prompt

    prompt = combined_prompt(default_prompt("scoring"), default_prompt("extraction"), "User: hi", [], NOW)
    assert "2026-12-01 (Tuesday)" in prompt
    for word in ("kind", "episode", "relation", "calendar date", "third-person"):
        assert word in prompt
    answer = (
        '{"dimensions": {"density": 0.9}, "items": [{"title": "t", "content": "The user rows.", '
        '"kind": "rule", "category": "domain"}]}'
    )
    _, items = parse_combined(answer, max_items=5, known=[])
    assert items[0].kind == "rule"
