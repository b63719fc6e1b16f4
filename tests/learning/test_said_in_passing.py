"""Facts said in passing: with excitement, as numbered points, or a relation named in a
sentence about something else; the offline learner keeps them, and keeps out the rest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.offline.heuristic import extract_items
from gateway.learning.steps import gate
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, memories, say, wait_for
from tests.fake_upstream import FakeUpstream

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def contents(text: str) -> list[str]:
    return [i.content for i in extract_items(text, now=NOW, max_items=10)]


def test_excitement_does_not_turn_a_statement_into_a_pleasantry() -> None:
    kept = [i for i in extract_items("news: we bought our first place!!", now=NOW) if gate.item_reason(i) is None]
    assert [i.content for i in kept] == ["The user bought their first place."]
    assert [gate.item_reason(i) for i in extract_items("I'm in!", now=NOW)] == ["pleasantry"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my sister Priya dragged me, she's been doing them for ages", "The user's sister is called Priya."),
        ("Noodle, my greyhound. she's asleep upside down on the sofa", "The user's greyhound is called Noodle."),
        ("keeping it obviously. my twin brother Chidi wants one too", "The user's twin brother is called Chidi."),
    ],
)
def test_a_family_member_or_pet_named_in_passing_is_kept(text: str, expected: str) -> None:
    assert expected in contents(text), contents(text)


@pytest.mark.parametrize(
    "text",
    [
        "what if my sister Priya moved in?",
        "my friend Hollie came to cheer",
        "Haha, my cat just walked across the keyboard",
    ],
)
def test_a_name_in_a_hypothetical_or_a_friend_is_not_a_relation_kept(text: str) -> None:
    assert not any("is called" in c for c in contents(text)), contents(text)


def test_a_named_relation_is_stored(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "dev", "Noodle, my greyhound. she's asleep upside down on the sofa, legs in the air")
        found = wait_for(lambda: memories(url, "dev"))
        assert [m["content"] for m in found] == ["The user's greyhound is called Noodle."]


def test_numbered_points_on_one_line_are_read_one_by_one() -> None:
    text = (
        "two things. 1) pls forget my weight, i'll track it myself. "
        "2) joined a gym next to the office so not home workouts anymore"
    )
    assert contents(text) == ["The user joined a gym next to the office so not home workouts anymore."]
