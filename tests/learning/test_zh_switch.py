"""Chinese changes the offline learner reads: "从X转Y" keeps only the new value in the memory
and still replaces the old one, and a clause that is only where the user is ("我在苏州") is
their city, so a later move replaces it."""

from __future__ import annotations

import pytest

from gateway.learning.offline.keys import derive_key, key_of
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("用户在苏州，做饭多。", "home.city"),
        ("我在武汉。", "home.city"),
        ("用户在加班。", None),
        ("用户在公司。", None),
    ],
)
def test_a_clause_that_is_only_a_place_is_the_users_city(text: str, slot: str | None) -> None:
    assert derive_key(text) == slot


def test_switching_to_a_named_value_is_a_change() -> None:
    key = key_of("用户也得转Rust了。")
    assert key is not None and key.change and key.values == ("rust",)


SEQUENCES = [
    Sequence(("我在苏州 平时做饭多", "我们上个月搬到南京了 离公司近"), ("南京",), ("苏州",)),
    Sequence(("我是Python后端 三年经验", "换了新组 组里都是Rust 我也得从Python转Rust了"), ("Rust",), ("Python",)),
]


def test_a_chinese_switch_replaces_the_old_value(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "z")
    assert not failures, failures
