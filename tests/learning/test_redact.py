"""Identifiers out, the fact kept: "remember" statements each carrying one identifier, through
the real scrubber; names of relations; sensitive details about other people."""

from __future__ import annotations

import pytest

from gateway.learning.privacy.pii import PiiScrubber
from gateway.learning.privacy.redact import remove_identifiers
from gateway.learning.privacy.sensitive import third_party_sensitive
from gateway.learning.steps.commands import parse_command, remember_item

# (statement, the identifier, words the stored fact must still hold)
REMEMBER = [
    ("Remember: send the weekly report to anna@x.com on Fridays.", "anna@x.com", ["weekly report", "Friday"]),
    ("Remember that my dentist's number is +44 20 7946 0958 and she is in Camden.", "7946", ["dentist", "Camden"]),
    ("Remember: I pay the gym with card 4111 1111 1111 1111 every month.", "4111", ["gym", "month"]),
    ("Please remember our office server IP is 203.0.113.42 and we deploy from it every Tuesday.", "203.0", ["Tuesday"]),
    ("Remember: my salary goes to IBAN DE89 3704 0044 0532 0130 00 at N26.", "DE89", ["N26"]),
    ("Remember that I live at 221B Baker Street, London.", "Baker Street", ["London"]),
    ("Remember: my passport number is X12345678 and it expires in 2031.", "X12345678", ["passport", "2031"]),
    ("记住：我的手机号是13812345678，工作日白天别打电话。", "13812345678", ["工作日", "电话"]),
    ("记住我的邮箱 wang.lei@example.cn，我每周一看邮件。", "wang.lei", ["每周一", "邮件"]),
    ("请记住：我的身份证号是11010519491231002X，我是北京人。", "11010519491231002X", ["北京人"]),
    ("Remember that my SSN is 078-05-1120 and I file taxes in Ohio.", "078-05-1120", ["Ohio"]),
    (
        "Remember: the staging API key is sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c, we rotate it every quarter.",
        "4f9a8b",
        ["quarter"],
    ),
    ("Remember: my account number at Fidelity is 4457-8821-09, I invest there monthly.", "4457", ["Fidelity"]),
    ("记住：我家住在上海市浦东新区世纪大道100号，离公司很近。", "世纪大道100号", ["公司"]),
    ("Remember: call me on 555-867-5309 only after 6pm.", "867-5309", ["6pm"]),
    (
        "Remember that invoice INV-20931 is paid by our finance team, they always pay within 30 days.",
        "INV-20931",
        ["30 days"],
    ),
    # a second set, written apart from the first
    ("Remember my work email is j.smith@globex.io, I check it only in the mornings.", "globex.io", ["morning"]),
    ("Remember: our VPN gateway at 10.20.30.40 is only used by the ops team.", "10.20.30.40", ["ops team"]),
    (
        "Please remember the wifi password is Tr0ub4dor-3 and guests use the second floor network.",
        "Tr0ub4dor",
        ["guests"],
    ),
    ("Remember: I ship orders from 12 Elm Road in Leeds twice a week.", "12 Elm Road", ["twice a week"]),
    ("记住：我的银行卡号是6222021234567890123，工资每月十号到账。", "6222021234567890123", ["十号"]),
    ("请记住我的订单号是 A20231188，我在等一台新显示器。", "A20231188", ["显示器"]),
    # any numbered thing of the user's announces its value; "there" finds what issued it
    ("记住：我的车牌号是京A·3M8P2，周末我常开车去郊区。", "3M8P2", ["开车", "郊区"]),
    ("记住：我的工号是 GH20417，我在研发部上班。", "GH20417", ["研发部"]),
    ("Remember: my library card number is 22917734, I go there every Saturday.", "22917734", ["library", "Saturday"]),
    ("Note that my staff ID is ST-48812 - I work at the Leeds depot on night shifts.", "ST-48812", ["Leeds", "night"]),
    # "它" after the identifier's clause takes back what the identifier belonged to
    ("记住：办公室打印机的IP地址是 10.0.8.14，我用它打印合同。", "10.0.8.14", ["打印机", "合同"]),
    # an address that names its street type first; other ways to ask for a memory
    ("Keep this in mind: I rent at 3 Via della Spiga with two flatmates in Milan.", "Spiga", ["flatmates", "Milan"]),
    (
        "for future reference my IBAN is DE89 3704 0044 0532 0130 00. salary lands on the 25th and i pay rent from it",
        "DE89",
        ["salary", "25th"],
    ),
    ("记一下，我的手机号 139 1234 8876，以后给我推荐饭店别推辣的，我一点都吃不了辣。", "8876", ["辣"]),
]


@pytest.mark.parametrize(("statement", "identifier", "words"), REMEMBER)
def test_a_remembered_fact_loses_its_identifier_and_keeps_the_rest(
    scrubber: PiiScrubber, statement: str, identifier: str, words: list[str]
) -> None:
    command = parse_command(statement)
    assert command is not None and command.kind == "remember"
    item = remember_item(scrubber.scrub(command.text, keep_names=True))
    assert item is not None, statement
    stored = f"{item.title}\n{item.content}"
    assert identifier.lower() not in stored.lower() and "<" not in stored, stored
    for word in words:
        assert word.lower() in item.content.lower(), (word, item.content)
    assert not item.content.rstrip(".。").endswith((" to", " at", " is", " on", " with")), item.content


@pytest.mark.parametrize(
    "statement",
    [
        "Remember my email: anna@example.com",
        "Remember that my phone number is +1 415 555 0100.",
        "记住我的手机号13812345678",
        "Remember: my IBAN is GB82 WEST 1234 5698 7654 32.",
        "Remember this key: ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    ],
)
def test_nothing_is_left_of_an_identifier_alone(scrubber: PiiScrubber, statement: str) -> None:
    command = parse_command(statement)
    assert command is not None
    assert remember_item(scrubber.scrub(command.text, keep_names=True)) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<PERSON> is the user's daughter.", "The user has a daughter."),
        ("The user's daughter is called <PERSON>.", "The user has a daughter."),
        ("The user's daughter <PERSON> turned five.", "The user's daughter turned five."),
        ("The user has a dog named <PERSON>.", "The user has a dog."),
        ("The user's manager <PERSON> approves their leave.", "The user's manager approves their leave."),
        ("用户的女儿叫<PERSON>。", "用户有一个女儿。"),
        ("<PERSON> reviews the user's code.", ""),  # no relation to name it by: never a gap
    ],
)
def test_names_become_the_relation(text: str, expected: str) -> None:
    assert remove_identifiers(text) == expected


def test_names_are_kept_by_default_and_scrubbed_on_request(scrubber: PiiScrubber) -> None:
    text = "My daughter Mia Thompson just turned five."
    assert "Mia Thompson" in scrubber.scrub(text, keep_names=True)
    assert remove_identifiers(scrubber.scrub(text)) == "My daughter just turned five."


@pytest.mark.parametrize(
    "text",
    [
        "The user's colleague has cancer.",
        "用户的妈妈有糖尿病。",
        "The user's brother is gay.",
        "The user's mother, who was diagnosed with dementia, lives with them.",
        "Tom from the user's team is in hospital.",
        "用户的同事信佛。",
        "The user's daughter is allergic to peanuts.",
        "用户的表姐最近在看心理医生。",
        "The user's aunt gets a bit anxious and sees a psychiatrist.",
    ],
)
def test_third_party_sensitive_details_are_rejected(text: str) -> None:
    assert third_party_sensitive(text) == "third-party-sensitive"


@pytest.mark.parametrize(
    "text",
    [
        "The user is allergic to peanuts.",
        "The user is vegetarian.",
        "The user has type 1 diabetes and carries insulin.",
        "用户对花生过敏。",
        "The user's sister is a nurse in Leeds.",
        "The user's team ships on Fridays.",
        "The user's beagle Biscuit is allergic to chicken and eats a lamb kibble.",
    ],
)
def test_the_users_own_details_and_harmless_ones_stay(text: str) -> None:
    assert third_party_sensitive(text) is None


@pytest.mark.parametrize(
    "text", ["记住：我的显卡型号是RTX4090，玩游戏用。", "Remember: my favourite number is 1234567, it's lucky."]
)
def test_a_model_number_or_a_plain_number_is_no_identifier(scrubber: PiiScrubber, text: str) -> None:
    assert "<" not in scrubber.scrub(text, keep_names=True)
