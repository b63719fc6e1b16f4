"""A change that names the value it leaves ("ditched X", "no longer X", "not X anymore", "from X
to Y", "instead of X", "不学X了", "从X换成Y") replaces what the user said of X, whatever attribute
the old memory was keyed under, and the memory of the change states the new value only. A new
value said without naming an old one adds ("I also like sushi")."""

from __future__ import annotations

from gateway.learning.offline.keys import key_of
from gateway.learning.offline.replaced import current_part, holds, named_old
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream

SEQUENCES = [
    # the old memory's key comes from another frame than the change's
    Sequence(
        ("I do my workouts at home with a kettlebell.", "I joined a climbing gym, I no longer do workouts at home."),
        ("climbing gym",),
        ("workouts at home",),
    ),
    Sequence(
        ("Every evening I practise French on Babbel.", "I ditched Babbel, I take lessons with a tutor now."),
        ("tutor",),
        ("Babbel",),
    ),
    Sequence(("我每周末去游泳馆游泳。", "不去游泳馆了，现在改成在小区跑步。"), ("跑步",), ("游泳馆",)),
    Sequence(("我在学日语。", "不学日语了，现在改学韩语。"), ("韩语",), ("日语",)),
    Sequence(("我们用飞书做项目管理。", "我们从飞书换成钉钉了。"), ("钉钉",), ("飞书",)),
    # the change said with the "I" or "my" left out, as people type
    Sequence(("I sing in a choir on Wednesdays.", "quit the choir."), (), ("choir",), named=False),
    Sequence(("My rent is 1,500 a month.", "ugh rent went up to 1,750 as of this month."), ("1,750",), ("1,500",)),
    # the plan a user is on is one value, whatever else the sentence says
    Sequence(("We're a small studio on the Pro plan.", "We downgraded to Basic."), ("Basic",), ("Pro plan",)),
    # what the change left stays with it, and goes from the memory of the change
    Sequence(("我每周去泳池游泳。", "现在改成以跑步为主，泳池太远就不去了。"), ("跑步",), ("泳池",)),
    # nothing new: the value that is gone goes, and no memory says it again
    Sequence(("I use Notion for my notes.", "I no longer use Notion."), (), ("Notion",), named=False),
    # a new value said without naming an old one is another value, not a replacement
    Sequence(("I like pizza.", "I also like sushi."), ("pizza", "sushi"), ()),
    Sequence(("I live in Leeds.", "My left knee gets sore on long runs."), ("Leeds",), ()),
]


def test_a_change_naming_the_old_value_replaces_it_under_any_key(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "n")
    assert not failures, failures


def test_the_values_a_sentence_says_are_gone() -> None:
    assert named_old("The user moved from Cardiff to Newport.") == ("Cardiff",)
    assert named_old("The user uses Linear instead of Jira.") == ("Jira",)
    assert named_old("The user is not vegetarian anymore.") == ("vegetarian",)
    assert named_old("用户从顺丰换成了京东。") == ("顺丰",)
    assert named_old("用户飞书不续费了。") == ("飞书",)
    assert named_old("The user writes in Neovim now, not Emacs.") == ("Emacs",)
    # a place said along a route, a body part, another value: nothing is gone
    assert named_old("The user flies from Leeds to Tenerife.") == ()
    assert named_old("The user's left knee gets sore on long runs.") == ()
    assert named_old("The user also likes sushi.") == ()
    assert named_old("The user does not like coffee anymore.") == ()  # a changed taste is a new value


def test_the_memory_of_a_change_keeps_the_new_value_only() -> None:
    assert current_part("The user switched from Asana to Linear.", ("Asana",)) == "The user switched to Linear."
    assert current_part("New job, left the bank, the user is at an insurer now.", ("bank",)) == (
        "The user is at an insurer now."
    )
    assert current_part("The user ditched Babbel, the app was boring.", ("Babbel",)) is None
    assert current_part("The user writes in Neovim now, not Emacs.", ("Emacs",)) == "The user writes in Neovim now."
    assert holds("The user does gym sessions on Mondays.", ("monday gym sessions",))
    assert not holds("The user likes pizza.", ("sushi",))


def test_a_plan_is_the_one_the_user_is_on() -> None:
    assert (key := key_of("The user is on the Starter plan.")) is not None and key.slot == "account.plan"
    upgraded = key_of("The user upgraded to the premium tier.")
    assert upgraded is not None and upgraded.slot == "account.plan" and upgraded.change
    # servers upgraded, or a plan for the weekend, are no plan the user is on
    assert (key_of("The user's company upgraded its servers to 64 GB.") or key_of("x")) is None
    assert key_of("The user has a plan for the weekend.") is None
