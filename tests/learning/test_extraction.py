from __future__ import annotations

import pytest

from gateway.learning.errors import MalformedOutput
from gateway.learning.steps.extraction import CATEGORIES, KnowledgeItem, find_json, parse_items

ITEM = (
    '{"title": "Prefers tabs", "content": "The user prefers tabs.", '
    '"category": "user_preference", "subcategory": "style", "tags": ["editor", "style"]}'
)


@pytest.mark.parametrize(
    "raw",
    [
        f"[{ITEM}]",
        f'{{"items": [{ITEM}]}}',
        f"```json\n[{ITEM}]\n```",
        f"Sure, here are the items:\n[{ITEM}]\nLet me know!",
        f"[{ITEM},]",
        ITEM,
    ],
)
def test_variants(raw: str) -> None:
    assert parse_items(raw) == [
        KnowledgeItem(
            "Prefers tabs",
            "The user prefers tabs.",
            "user_preference",
            "style",
            ["editor", "style"],
        )
    ]


def test_empty_answers() -> None:
    assert parse_items("[]") == []
    assert parse_items('{"items": []}') == []
    assert parse_items("Nothing durable here: []") == []


@pytest.mark.parametrize("raw", ["", "No knowledge in this conversation.", '{"foo": 1}', "[broken"])
def test_garbage_is_malformed(raw: str) -> None:
    with pytest.raises(MalformedOutput):
        parse_items(raw)


def test_validation_and_synonyms() -> None:
    long_content, long_tag = "c" * 2500, "t" * 80
    raw = f"""[
      {{"title": "Uses Go", "content": "The user's team uses Go.", "category": "Tech",
        "tags": "go, backend"}},
      {{"title": "x", "content": "y", "category": "astrology"}},
      {{"content": "The user's company sells B2B software.", "category": "业务"}},
      {{"title": "no content or category"}},
      "just a string",
      {{"title": "Line one\\nline two", "content": "{long_content}", "category": "Organization",
        "subcategory": "Team Structure", "tags": ["ok", "{long_tag}", 3, "ok"]}}
    ]"""
    items = parse_items(raw)
    assert [i.category for i in items] == ["technical", "business", "organizational"]
    assert items[0].tags == ["go", "backend"]
    assert items[1].title == "The user's company sells B2B software."
    assert items[2].title == "Line one"
    assert len(items[2].content) == 2000
    assert items[2].subcategory == "team_structure"
    assert items[2].tags == ["ok", "3"]
    assert all(i.category in CATEGORIES for i in items)


def test_max_items_and_long_title() -> None:
    many = "[" + ",".join(ITEM for _ in range(8)) + "]"
    assert len(parse_items(many)) == 5
    assert len(parse_items(many, max_items=2)) == 2
    title = "t" * 300
    long = f'[{{"title": "{title}", "content": "c", "category": "domain"}}]'
    assert len(parse_items(long)[0].title) == 200


def test_find_json_prefers_fenced_block() -> None:
    assert find_json('ignore {"a": 1}\n```json\n{"b": 2}\n```') == {"b": 2}


def test_a_known_slot_is_kept_and_an_unknown_one_dropped() -> None:
    raw = (
        '[{"title": "Lives in Beijing", "content": "The user lives in Beijing.", "category": "domain",'
        ' "slot": "home.city"}, {"title": "Likes jazz", "content": "The user likes jazz.",'
        ' "category": "user_preference", "slot": "music.genre"}]'
    )
    assert [i.slot for i in parse_items(raw)] == ["home.city", None]
