"""How people actually type about themselves: a lower-case "i" in one long line, routines said
without "I", things picked up, stopping or resigning as a retraction, a forget said at the end
("…那件事别记了"), and the feelings and third-party details that must not become memories."""

from __future__ import annotations

from datetime import datetime

from gateway.learning.offline import replaced
from gateway.learning.offline.heuristic import extract_items, rejections
from gateway.learning.steps import gate
from gateway.learning.steps.commands import parse_command
from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.statement import anchor_dates, without_passing
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning
from tests.e2e.test_learning_keys import Sequence, run_sequences
from tests.fake_upstream import FakeUpstream


def _stored(text: str) -> list[str]:
    return [item.content for item in extract_items(text)]


def _reason(content: str) -> str | None:
    return gate.item_reason(KnowledgeItem(title=content, content=content, kind="fact", category="personal"))


def test_a_long_line_typed_with_a_lower_case_i_is_the_users_own_words() -> None:
    turn = (
        "ok so i finally cleared out the garage here in Leeds and it's a proper little workshop now, "
        "and i'm doing pretty much everything in white oak, it's been a lot of sawdust and a lot of "
        "coffee and my neighbours have been very patient with the noise. big project is a crib for my "
        "niece Maisie. i only get shop time on wednesday evenings because of the school run. "
        "anyway: what finish is actually safe for a baby's crib??"
    )
    assert "pasted" not in rejections(turn)
    kept = " ".join(_stored(turn))
    assert "Maisie" in kept and "wednesday evenings" in kept


def test_a_routine_on_a_weekday_is_no_one_off_and_no_date() -> None:
    assert _stored("I only get shop time on Wednesday evenings.") == [
        "The user only gets shop time on Wednesday evenings."
    ]
    assert _stored("I'm free on Wednesday.") == []  # one day
    now = datetime(2026, 4, 3)
    assert anchor_dates("The user trains on Wednesday evenings.", now) == "The user trains on Wednesday evenings."
    assert anchor_dates("The user went climbing on Wednesday.", now) == "The user went climbing on 2026-04-01."


def test_a_routine_said_without_i_is_the_users() -> None:
    assert _stored("surf before work, weekdays around 6am.") == ["The user surfs before work, weekdays around 6am."]
    assert _stored("swim every morning at the lido.") == ["The user swims every morning at the lido."]
    # a request to the assistant opens with a task, and a time is no list item
    assert _stored("fix the login page now.") == []
    assert _stored("I train at the club, Tuesdays and Thursdays.") == [
        "The user trains at the club, Tuesdays and Thursdays."
    ]


def test_something_named_the_user_picked_up_is_theirs_now() -> None:
    assert _stored("I picked up a second-hand Record Power bandsaw.") == [
        "The user picked up a second-hand Record Power bandsaw."
    ]
    assert _stored("I got an email from Amazon.") == []  # a message is an event


def test_quitting_or_resigning_names_what_is_gone() -> None:
    assert replaced.named_old("The user quits streaming.") == ("streaming",)
    assert replaced.named_old("The user has resigned from the Bath society.") == ("Bath society",)
    assert replaced.holds("The user streams their painting on Twitch.", ("streaming",))
    assert replaced.current_part("The user has resigned from the Bath society.", ("Bath society",)) is None


def test_a_forget_said_after_its_topic_in_chinese() -> None:
    command = parse_command("阿泽礼物那件事别记了…我们分手了。")
    assert command is not None and command.kind == "forget" and "阿泽" in command.text
    command = parse_command("我搬家了，以前的地址就别记了")
    assert command is not None and command.kind == "forget" and "地址" in command.text
    # what only speaks of the assistant's notes is no statement beside the forget
    command = parse_command("Could you please forget that I am in the choir? I prefer that it is not in your notes.")
    assert command is not None and command.text == "I am in the choir" and command.statement is None


def test_feelings_and_guesses_are_not_memories() -> None:
    assert _reason("The user fears the committee politics became tiresome.") == "momentary"
    assert _reason("用户天天心情超好。") == "momentary"
    assert _stored("吓死我了。") == []
    assert _reason("The user hopes to run a marathon.") is None  # an aim
    assert _reason("The user worries about her knees.") is None


def test_a_relations_poisoning_and_treatment_are_theirs() -> None:
    kept = _stored("我表哥上周吃了自己捡的菌子中毒，现在还住在ICU，肝功能很差。我老伴查出了糖尿病。我每天早上练字。")
    assert kept == ["用户每天早上练字。"]
    kept = _stored("My wife has had a hip replacement and her physio is in the mornings, so I write in the evenings.")
    assert all("hip" not in k and "physio" not in k for k in kept)


STOPPED = [
    Sequence(
        ("I stream my painting on Twitch every Sunday.", "quit streaming, it was eating every evening."),
        (),
        ("Twitch",),
        named=False,
    ),
    Sequence(
        (
            "I attend the Bath Calligraphy Society on the first Tuesday of the month.",
            "I have resigned from the Bath society.",
        ),
        (),
        ("Bath",),
        named=False,
    ),
]


MOVES = [
    Sequence(("我在上海自己做芝士，主要做马苏里拉。", "大新闻！我们全家搬去苏州啦"), ("苏州",), ("上海",)),
    Sequence(("I run a supper club in York.", "We've moved to Leeds."), ("Leeds",), ("York",)),
    # where the user comes from, and a relation's city, stay true after a move
    Sequence(("我是上海人。我的父母住在上海。", "我搬到成都了。"), ("上海人", "父母住在上海", "成都"), ()),
]


def test_a_move_replaces_what_put_the_user_in_the_old_city(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, MOVES, "mv")
    assert not failures, failures


def test_stopping_or_resigning_disables_the_memory(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        failures = run_sequences(url, STOPPED, "st")
    assert not failures, failures


def test_a_name_given_in_the_next_sentence_joins_who_it_names() -> None:
    turn = "we adopted a rescue greyhound yesterday!!! she's called Biscuit 🐕"
    kept = [i.content for i in extract_items(turn, now=datetime(2026, 2, 3))]
    assert kept == ["On 2026-02-02 the user adopted a rescue greyhound called Biscuit."]


def test_what_a_change_leaves_and_what_it_takes_up() -> None:
    said = "The user sold the Empacher, bought a Filippi."
    assert replaced.named_old(said) == ("Empacher",)
    assert replaced.current_part(said, ("Empacher",)) == "The user bought a Filippi."
    said = "用户没在幼儿园干了，现在去少年宫教折纸兴趣班。"
    assert replaced.named_old(said) == ("幼儿园",)
    assert replaced.current_part(said, ("幼儿园",)) == "用户现在去少年宫教折纸兴趣班。"


def test_chinese_clauses_end_at_an_emoji_after_a_latin_word_and_drop_someone_elses_reason() -> None:
    kept = _stored("不用 half dollar 了，现在用 morgan dollar 😎 驻场也挪到周六晚上了，周五老板要办 live。")
    assert [without_passing(k, "fact") for k in kept] == ["用户现在用 morgan dollar。", "用户驻场也挪到周六晚上了。"]
    assert without_passing("用户做了十二个菜，累得腰都直不起来了。", "fact") == "用户做了十二个菜。"


def test_casual_leftovers_are_not_memories() -> None:
    assert _reason("👋 sorry the user has been quiet.") == "small-talk"
    assert _reason("Now, where did the user pack the teapot...") == "question"
    assert _reason("Every week, the user thinks.") == "fragment"
    assert _reason("用户天天做。") == "fragment"
    assert _reason("用户游客挤来挤去。") == "small-talk"
    assert _reason("用户每天做瑜伽。") is None
    assert _stored("I have news: I've moved to Leeds.") == ["The user has moved to Leeds."]


def test_a_relations_city_is_theirs_not_the_users() -> None:
    from gateway.learning.offline.keys import key_of

    for said in ("用户的父母住在上海。", "The user's parents live in York."):
        key = key_of(said)
        assert key is not None and key.slot == "rel.parents.home.city" and key.subject.startswith("rel:")


def test_being_done_with_something_is_a_retraction_and_a_relations_medication_is_theirs() -> None:
    said = "The user is so done with halloumi lol."
    assert replaced.named_old(said) == ("halloumi lol",)
    assert replaced.holds("The user mostly makes halloumi.", ("halloumi lol",))
    assert replaced.current_part(said, ("halloumi lol",)) is None
    assert replaced.named_old("The user is over the moon about the new job.") == ()
    kept = _stored("my sister Jess comes to the range with me, and she's on new meds that make her dizzy.")
    assert kept and all("meds" not in k and "dizzy" not in k for k in kept)
    assert _reason("The user is an any good opener for a drunk saturday crowd.") == "question"
