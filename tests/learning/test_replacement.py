"""Replacement by key through a running gateway with the offline learner, in the wordings people
use for a change ("moved off X to Y", "ditched X … Y now", "不用X了", "已经下线"), when the old
value was one part of a compound sentence, and for retractions and forgets after a change."""

from __future__ import annotations

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream

SEQUENCES = [
    # one attribute of a compound setup sentence changes; the others stay
    Sequence(
        (
            "We're a Ruby shop on Heroku, Postgres for data, CI on CircleCI.",
            "We moved off Heroku to Render last month.",
        ),
        ("Render", "Ruby", "Postgres", "CircleCI"),
        ("Heroku",),
    ),
    Sequence(
        ("我们数据库是 MySQL，后端用 Go。", "我们改用 PostgreSQL 了，MySQL 已经下线。"),
        ("PostgreSQL", "Go"),
        ("MySQL",),
    ),
    # the memory of a change does not say the old value again
    Sequence(("We use CircleCI.", "We ditched CircleCI, builds run on Buildkite now."), ("Buildkite",), ("CircleCI",)),
    Sequence(("我们发货用韵达。", "我们以后都用中通，不用韵达了。"), ("中通",), ("韵达",)),
    # a count said in a few words
    Sequence(("We're six engineers.", "Team grew, we're ten engineers now."), ("ten",), ("six",)),
    # stopped, without a new value
    Sequence(("I play badminton on Thursdays.", "I've stopped going to badminton."), (), ("badminton",), named=False),
    Sequence(("我们团队在做一个会员小程序。", "我们已经不做小程序了。"), (), ("小程序",), named=False),
    # forget after a change keeps the replacement
    Sequence(
        (
            "We use CircleCI.",
            "We ditched CircleCI, builds run on Buildkite now.",
            "Do me a favour and forget everything about CircleCI.",
        ),
        ("Buildkite",),
        ("CircleCI",),
        named=False,
    ),
]


def test_changes_replace_the_old_value_structurally(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "r")
    assert not failures, failures
