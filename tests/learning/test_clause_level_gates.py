"""A durable fact is not lost for the way its sentence opens or ends: a greeting with a
particle before it ("你好呀～"), a habit said with a frequency adverb ("周末经常去…"), a place
whose name ends like a medical term ("Tacoma"), or a consequence tacked on with "so it …"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.offline import atomic
from gateway.learning.offline.heuristic import extract_items
from gateway.learning.privacy import sensitive
from gateway.learning.steps import gate
from gateway.learning.steps.statement import checked

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def kept(text: str) -> list[str]:
    """What the offline learner would store of ``text`` (item gate and statement check)."""
    out: list[str] = []
    for item in extract_items(text, now=NOW, max_items=10):
        for part in atomic.split_item(item):
            if gate.item_reason(part) is None:
                content, code = checked(part.content, part.kind)
                if code is None:
                    out.append(content)
    return out


@pytest.mark.parametrize(
    "text",
    [
        "你好呀～我在杭州做产品经理",
        "哈喽呀，我在深圳开了一家花店",
        "嗨嗨～我养了一只柯基叫豆豆",
        "你好啊，我是一名小学语文老师",
        "您好呀！我在成都做会计",
        "哈喽哈喽，我每天骑车上班",
    ],
)
def test_a_greeting_with_a_particle_is_only_the_opening(text: str) -> None:
    assert gate.sentence_reason(text) is None
    assert kept(text), text


@pytest.mark.parametrize(
    "text",
    [
        "我周末经常去西湖边跑步",
        "我周末常常去郊区钓鱼",
        "我晚上通常去健身房练一个小时",
        "我每个周末都去爬山",
        "我周末基本都在家做饭",
        "我下午往往去图书馆看书",
    ],
)
def test_a_habit_said_with_a_frequency_adverb_is_lasting(text: str) -> None:
    assert kept(text), text


@pytest.mark.parametrize("text", ["我周末去西湖边跑步了", "我今晚去健身房", "我下周去杭州出差"])
def test_a_one_off_on_a_day_is_still_momentary(text: str) -> None:
    assert not kept(text), kept(text)


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("we're getting married at a ranch near Paloma Lake", "Paloma"),
        ("my sister lives in Oklahoma City", "Oklahoma"),
        ("my brother moved to Tacoma last year", "Tacoma"),
        ("my parents retired to Pomona", "Pomona"),
        ("my friend runs a bakery in Verona", "Verona"),
    ],
)
def test_a_place_named_like_a_condition_is_no_health_detail(text: str, place: str) -> None:
    assert sensitive.without_third_party_details(text) == (text, 0)


@pytest.mark.parametrize(
    "text",
    [
        "my mom has osteoporosis",
        "my dad was diagnosed with a melanoma",
        "my wife has arthritis",
        "她妈妈有关节炎",
    ],
)
def test_a_condition_named_by_its_ending_is_still_a_health_detail(text: str) -> None:
    assert sensitive.without_third_party_details(text)[1] == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I commute 12 km each way every day so it gets worn out fast.",
            "The user commutes 12 km each way every day.",
        ),
        ("I work nights at the hospital so it is hard to sleep.", "The user works nights at the hospital."),
        ("I run a small bakery in Leeds so that keeps me busy.", "The user runs a small bakery in Leeds."),
        ("I swim three times a week so it helps my back.", "The user swims three times a week."),
        ("I keep bees in the garden so they need checking.", "The user keeps bees in the garden."),
        ("We live on a houseboat so it gets cold in winter.", "The user lives on a houseboat."),
    ],
)
def test_a_consequence_about_it_is_cut_and_the_fact_kept(text: str, expected: str) -> None:
    assert expected in kept(text), kept(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("发布会改到3月20号了", "用户的发布会改到3月20号了。"),
        ("婚礼推迟到10月3日了", "用户的婚礼推迟到10月3日了。"),
        ("复诊挪到3月8号了", "用户的复诊挪到3月8号了。"),
        ("水温调到 88 度了", "用户的水温调到 88 度了。"),
        ("通勤距离降到 8 公里了", "用户的通勤距离降到 8 公里了。"),
        ("咖啡豆量调到 18 克了", "用户的咖啡豆量调到 18 克了。"),
    ],
)
def test_a_subjectless_change_to_a_date_or_a_measure_is_the_users(text: str, expected: str) -> None:
    assert expected in kept(text), kept(text)


def test_a_moved_measure_replaces_the_one_it_moves_and_a_date_no_other_event() -> None:
    from gateway.learning.offline import changed_value

    assert changed_value.replaces("用户的水温调到 88 度了。", "用户手冲水温是 92 度。")
    assert not changed_value.replaces("用户的水温调到 88 度了。", "用户手冲水温是 88 度。")
    assert not changed_value.replaces("用户的女儿3月3号过生日，现在天天游泳。", "用户3月20日开始学游泳。")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I brew with a moka pot.", "The user brews with a moka pot."),
        ("I brew kombucha at home.", "The user brews kombucha at home."),
        ("We brew beer in the garage.", "The user brews beer in the garage."),
    ],
)
def test_a_present_habit_the_tagger_reads_as_past_is_kept(text: str, expected: str) -> None:
    assert expected in kept(text), kept(text)


def test_a_past_spelt_as_the_base_form_stays_a_past() -> None:
    assert not kept("I cut my finger.")
