"""A fact said the other way round later ("我不吃香菜" then "我现在其实能吃香菜了") replaces the
old one whatever its key; a new workplace said as where the user goes to work ("去…上班") is the
employer; a forget finds a Chinese verb-object topic said with words between its parts ("养狗" in
"养了一只小狗"), keeps to the number it names, stores nothing beside it that names what it
forgot, and never disables the memory that replaced the forgotten one. A user's edit is never
replaced through what it no longer says."""

from __future__ import annotations

from gateway.learning.offline.keys import key_of
from gateway.learning.offline.replaced import flipped
from gateway.learning.steps.commands import mentions, parse_command, topic_words
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, log_entries, memories, say, wait_for
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.e2e.test_memory_api import user_client
from tests.fake_upstream import FakeUpstream
from tests.records import stored_memory


def test_the_same_predicate_negated_in_one_only_is_said_the_other_way() -> None:
    assert flipped("用户现在其实能吃香菜了。", "用户不吃香菜。")
    assert flipped("用户不再喝咖啡了。", "用户每天喝咖啡。") is False  # 每天 is more than a frame
    assert flipped("用户不喝咖啡了。", "用户喝咖啡。")
    assert flipped("The user eats meat again now.", "The user does not eat meat.")
    assert flipped("The user doesn't drink coffee anymore.", "The user drinks coffee.")
    # another thing, or the same polarity, is no flip
    assert not flipped("用户不吃辣。", "用户不吃香菜。")
    assert not flipped("用户吃辣。", "用户不吃香菜。")
    assert not flipped("The user likes tea.", "The user does not like coffee.")
    assert not flipped("The user drinks coffee.", "The user drinks coffee.")
    assert not flipped("用户不吃香菜。", "The user eats coriander.")


def test_where_the_user_goes_to_work_is_the_employer() -> None:
    key = key_of("用户下个月开始去小米上班。")
    assert key is not None and key.slot == "work.employer" and key.values == ("小米",)
    assert (key_of("用户在华为上班。") or key_of("x")) is not None
    # where anyone works is no employer
    commute = key_of("用户每天坐地铁去公司上班。")
    assert commute is None or commute.slot != "work.employer"


def test_a_chinese_topic_is_found_with_words_between_its_parts() -> None:
    dog = stored_memory(content="用户养了一只小狗叫旺财。")
    assert mentions(dog, {"养狗"})
    assert not mentions(stored_memory(content="用户养了一只猫，狗毛过敏。"), {"养狗"})  # across a clause: no
    command = parse_command("之前那个房租4200的旧数你删掉吧")
    assert command is not None and command.kind == "forget"
    assert {"房租", "4200"} <= topic_words(command.text) and not {"之前", "那个"} & topic_words(command.text)
    # a task that deletes an earlier thing is no forget
    assert parse_command("把之前那个函数删掉") is None


SEQUENCES = [
    Sequence(("我不吃香菜。", "我现在其实能吃香菜了。"), ("能吃香菜",), ("不吃香菜",)),
    Sequence(("I don't drink coffee.", "I drink coffee again now."), ("drinks coffee",), ("not drink coffee",)),
    Sequence(("我在华为上班。", "我下个月开始去小米上班。"), ("小米",), ("华为",)),
    # a different fact with the same words, not negated: both stay
    Sequence(("我不吃香菜。", "我不吃辣。"), ("香菜", "辣"), ()),
]
FORGETS = [
    Sequence(("我养了一只小狗叫旺财。", "帮我把之前说的养狗那条删了吧"), (), ("旺财",), named=False),
    # the number named is the one meant: the current value stays
    Sequence(
        ("我的房租每个月4200。", "我的房租涨到每个月4800了。", "之前那个房租4200的旧数你删掉吧"),
        ("4800",),
        ("4200",),
        named=False,
    ),
    # what is said beside the forget and names what it forgot is not kept again
    Sequence(("我养了一只小狗叫旺财。", "帮我把之前说的养狗那条删了吧，旺财送回老家了"), (), ("旺财",), named=False),
    # the memory that replaced the forgotten one stays
    Sequence(
        ("我的预算是每月5000。", "预算涨到每月6000了。", "之前那个预算5000的旧数你删掉吧"),
        ("6000",),
        ("5000",),
        named=False,
    ),
    Sequence(
        ("我们用飞书做项目管理。", "我们从飞书换成钉钉了。", "帮我把之前说的用飞书那条删了吧"),
        ("钉钉",),
        ("飞书",),
        named=False,
    ),
]


def test_changes_said_the_other_way_and_forgets_through_the_gateway(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = {**run_sequences(url, SEQUENCES, "o"), **run_sequences(url, FORGETS, "g")}
    assert not failures, failures


def test_an_edit_is_not_replaced_through_what_it_no_longer_says(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "ada")
        for n, (said, edit, later) in enumerate(
            [
                ("我在华为上班。", "用户喜欢爵士乐。", "我下个月开始去小米上班。"),
                ("我不吃香菜。", "用户喜欢古典音乐。", "我现在其实能吃香菜了。"),
            ]
        ):
            before = {m["id"] for m in memories(url, "ada")}
            say(url, "ada", said)
            wait_for(lambda n=n: len(log_entries(url)) == 2 * n + 1, timeout=60)  # type: ignore[misc]
            (first,) = [m for m in memories(url, "ada") if m["id"] not in before]
            c.patch(f"/api/memories/{first['id']}", json={"content": edit}).raise_for_status()
            say(url, "ada", later)
            wait_for(lambda n=n: len(log_entries(url)) == 2 * n + 2, timeout=60)  # type: ignore[misc]
            assert c.get(f"/api/memories/{first['id']}").json()["enabled"] is True, edit
