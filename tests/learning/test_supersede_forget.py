"""Changes and forgets said the way people say them: a request to forget in the middle of a
message or asked as a question, a topic that names the attribute rather than its value ("where
I live", "我住哪"), a value that ends without a new one ("no longer vegetarian"), and one that
is replaced in the same breath ("not vegan anymore, pescatarian now"); then, through a running
gateway with the offline learner, the old memory disabled and the new one active."""

from __future__ import annotations

import pytest

from gateway.learning.offline.keys import key_of
from gateway.learning.steps.commands import mentions, parse_command, topic_words
from gateway.store.records import Memory
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream
from tests.records import stored_memory


@pytest.mark.parametrize(
    ("text", "topic", "statement"),
    [
        ("before I ask - could you forget where I live? no need to keep that", "where I live", None),
        ("Can you forget the thing about the gym?", "the gym", None),
        ("scratch what I said about my knee, it healed months ago", "my knee", None),
        ("We moved to Porto. Also please forget where I live.", "where I live", "We moved to Porto."),
        ("could you delete what I told you about my old car? it got sold", "my old car", None),
        ("别记我住哪了", "我住哪", None),
        ("Forget that I said I drive a Golf, it is my sister's car.", "I drive a Golf", "it is my sister's car."),
        ("我们换了新的牙医。另外把我住哪儿的信息删掉吧 不想存这个。", "我住哪儿", "我们换了新的牙医。"),
        ("之前存的苏州那条你删了吧 我现在住在无锡。", "苏州", "我现在住在无锡。"),
    ],
)
def test_a_request_to_forget_anywhere_in_the_message(text: str, topic: str, statement: str | None) -> None:
    command = parse_command(text)
    assert command is not None and command.kind == "forget"
    assert command.text == topic
    if statement is None:
        assert command.statement is None  # what only speaks of the storing is no fact
    else:
        assert command.statement == statement


@pytest.mark.parametrize(
    "text",
    [
        "Please delete the second paragraph.",
        "Can you remove the header from this page?",
        "I always forget my umbrella.",
        "Ok, forget it. Let's look at the next one.",
        "把第二段删掉",
        "don't forget to water the plants",
        "How do I make the browser forget a password?",
    ],
)
def test_tasks_and_sayings_are_no_forget_requests(text: str) -> None:
    assert parse_command(text) is None


def _memory(content: str, slot: str | None) -> Memory:
    return stored_memory(subcategory="general", title=content, content=content, slot=slot)


def test_a_topic_naming_the_attribute_finds_its_key() -> None:
    words = topic_words("where I live")
    assert words == {"slot:home.city", "slot:team.city"}
    assert mentions(_memory("The user lives in Leeds.", "home.city"), words)
    # a memory that says several things is found by the key of the clause that says it
    compound = _memory("The user is a nurse, their flat in Leeds is small.", "work.role")
    assert mentions(compound, words)
    assert not mentions(_memory("The user works as a nurse.", "work.role"), words)
    assert topic_words("我住哪") == {"slot:home.city", "slot:team.city"}
    # a topic that names a value too is found by that value, not by the whole attribute
    assert topic_words("my old job at Initech") == {"initech"}


@pytest.mark.parametrize(
    ("text", "slot", "change", "retraction", "old"),
    [
        ("The user is no longer vegetarian.", "diet", False, True, ()),
        ("用户不再吃素了。", "diet", False, True, ()),
        ("The user is not vegan anymore, eats fish now so pescatarian.", "diet", True, False, ("vegan",)),
        ("The user switched to night shifts.", "work.schedule", True, False, ()),
        ("The user works day shifts.", "work.schedule", False, False, ()),
        ("Actually the budget is more like 2k now.", "trip.budget", True, False, ()),
        ("The user has a small garden at their house in Porto.", "home.city", False, False, ()),
        ("The user got a gas grill now.", "owns.grill", True, False, ()),
        ("The user has switched to learning Korean.", "lang.learning", True, False, ()),
        ("The kids renamed the cat Luna.", "pets.cat", True, False, ()),
    ],
)
def test_keys_of_changes_said_without_a_frame(
    text: str, slot: str, change: bool, retraction: bool, old: tuple[str, ...]
) -> None:
    key = key_of(text)
    assert key is not None and key.slot == slot
    assert (key.change, key.retraction) == (change, retraction)
    assert key.old == old


def test_a_value_used_instead_of_one_no_longer_used_replaces_it() -> None:
    key = key_of("以后快递都用中通吧，不用韵达了。")
    assert key is not None and key.slot == "shop.courier"
    assert (key.values, key.old, key.change) == (("中通",), ("韵达",), True)


SEQUENCES = [
    Sequence(("I live in Leeds.", "we moved to Porto last month"), ("Porto",), ("Leeds",)),
    Sequence(("I live in Leeds.", "forget where I live"), (), ("Leeds",), named=False),
    Sequence(
        ("I'm vegetarian and I live in Leeds.", "quick one - can you forget where I live? don't want that kept"),
        (),
        ("Leeds",),
        named=False,
    ),
    Sequence(("I work day shifts at the hospital.", "I switched to night shifts."), ("night",), ("day shifts",)),
    Sequence(("我住在成都。", "另外把成都那条删掉吧"), (), ("成都",), named=False),
    Sequence(("I have a charcoal grill in the garden.", "I have a gas grill now."), ("gas",), ("charcoal",)),
]


def test_changes_and_forgets_through_the_gateway(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, SEQUENCES, "sf")
    assert not failures, failures
