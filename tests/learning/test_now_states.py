"""A past form with "now" ("got a gas smoker now", "I've got 6 developers now") states what holds
from now on, so the offline learner keeps it and it replaces the old value; a past form
without it is a past event and stays out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.offline import heuristic
from gateway.learning.offline.keys import derive_key
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("turn", "key"),
    [
        ("got a big pellet smoker now.", "owns.smoker"),
        ("I've got 6 developers now.", "team.size"),
        ("we hired two more so I've got 6 developers now.", "team.size"),
    ],
)
def test_a_past_form_with_now_is_a_lasting_state(turn: str, key: str) -> None:
    found = heuristic.signals(turn, NOW)
    assert [derive_key(s.content) for s in found] == [key], found


@pytest.mark.parametrize(
    "turn", ["I got a parking ticket.", "got a refund from the shop.", "got a flat tyre on the way in."]
)
def test_a_past_event_without_now_is_not_kept(turn: str) -> None:
    assert heuristic.signals(turn, NOW) == []


SEQUENCES = [
    Sequence(
        ("I've got a small electric smoker on the balcony.", "got a big pellet smoker now."),
        ("pellet",),
        ("electric",),
    ),
    Sequence(
        ("I manage a team of 4 developers.", "we hired two more so I've got 6 developers now."),
        ("6 developers",),
        ("4 developers",),
    ),
]


def test_a_state_said_with_now_replaces_the_old_one(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "n")
    assert not failures, failures


@pytest.mark.parametrize(
    ("turn", "kept"),
    [
        ("signed up for my first ultra, a 50k in the pyrenees in june.", "The user signed up for their first ultra"),
        ("I enrolled in a night course at the college.", "The user enrolled in a night course"),
    ],
)
def test_signing_up_is_a_place_held_from_now_on(turn: str, kept: str) -> None:
    found = heuristic.signals(turn, NOW)
    assert [s.kind for s in found] == ["fact"] and found[0].content.startswith(kept), found


def test_signing_a_paper_stays_an_event_of_its_day() -> None:
    found = heuristic.signals("I signed the lease yesterday.", NOW)
    assert [s.kind for s in found] == ["episode"], found
