"""Identifier kinds read by shape or by the thing they open or name: an access code (a door,
gate, lock, locker or alarm code, however the sentence says it opens), a vehicle plate (a
Chinese plate by its shape, any plate by the word before it), and what a Chinese pronoun
pointed at once the identifier's clause went ("我妈的手机号是…，她住在无锡" keeps "我妈")."""

from __future__ import annotations

import pytest

from gateway.learning.privacy.pii import PiiScrubber
from gateway.learning.privacy.redact import remove_identifiers

ACCESS_CODES = [
    ("The gate code for my parents' house is 5519, I visit them on Sundays.", "5519"),
    ("My garage door opens with 7734*, that's where the kayak lives.", "7734"),
    ("The office alarm code is 0912 and I'm the one who locks up on Fridays.", "0912"),
    ("My gym locker combination is 14-32-07.", "14-32-07"),
    ("Punch in 2580# at the side entrance of my building.", "2580"),
    ("The keypad on my shed takes 1947, the mower is in there.", "1947"),
    ("My bike lock combo is 3391.", "3391"),
    ("The safe in my closet unlocks with 660921.", "660921"),
    ("The building's front door code: 8842B.", "8842B"),
    ("the storage cage downstairs opens with 4417# and I keep the tent there.", "4417"),
    ("我家单元门的门禁是 3721#，快递放门口就行。", "3721"),
    ("储物柜用 4521 开，里面放着我的球拍。", "4521"),
    ("车库门输入 8890* 就能开。", "8890"),
    ("保险箱的开锁码是 201309。", "201309"),
    ("我家门锁是 7788#，阿姨每周三来打扫。", "7788"),
    ("公司门禁码 5566，我一般八点到。", "5566"),
    ("自行车密码锁是 319，车停在楼下。", "319"),
    ("按 2468# 就能进单元门。", "2468"),
    ("健身房柜子的组合是 12-08-33。", "12-08-33"),
    ("地下室的门用 0703 打开，我的帐篷放在那里。", "0703"),
]

PLATES = [
    ("我的车牌是粤B·7K2M9，车是白色的。", "7K2M9"),
    ("老婆的车是沪A 3H5L1，停在二号车位。", "3H5L1"),
    ("车牌京N8P2Q7，新能源的。", "8P2Q7"),
    ("我的新车挂的是浙A·D12345。", "D12345"),
    ("川A88K21 那台是我爸的。", "88K21"),
    ("My car's plate is KJ19 ZXP, it's a grey Golf.", "KJ19 ZXP"),
    ("my licence plate: 7ABC123 in case you need it", "7ABC123"),
    ("The registration number is LD68 HTV.", "LD68 HTV"),
    ("Our van's number plate reads AB12 CDE.", "AB12 CDE"),
    ("车牌号码为苏E·5M7T9。", "5M7T9"),
]

# numbers beside the same words that open nothing and name no vehicle
LOOK_ALIKES = [
    "My gym opens at 6 and closes at 22 on weekdays.",
    "The lock on my shed broke in 2023.",
    "The code review took 2 hours.",
    "My bike lock cost 45 dollars.",
    "The museum opens with 3 new galleries this year.",
    "我家楼下的门禁坏了 3 天。",
    "储物柜有 20 个。",
    "门锁是 2023 年换的。",
    "我买了 2 个密码锁。",
    "我的车是 2019 年买的比亚迪。",
    "粤A区的房价涨了。",
    "The registration opens in 2026.",
]


@pytest.mark.parametrize(("text", "value"), ACCESS_CODES + PLATES)
def test_the_value_is_scrubbed(scrubber: PiiScrubber, text: str, value: str) -> None:
    assert value not in scrubber.scrub(text)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_number_that_opens_nothing_stays(scrubber: PiiScrubber, text: str) -> None:
    assert scrubber.scrub(text) == text


KIN = [
    ("我妈的手机号是 13918765402，她一个人住在无锡。", "无锡", "妈"),
    ("我爸的电话是 13912345678，他每天早上去公园打太极。", "太极", "爸"),
    ("我哥的邮箱是 ge.li@example.com，他在深圳做程序员。", "深圳", "哥"),
    ("我姐的手机号是 138 0000 1111，她下个月生孩子。", "生孩子", "姐"),
    ("我弟的邮箱 di88@qq.com，他在读研。", "读研", "弟"),
    ("我奶奶的电话是 13611112222，她住在苏州。", "苏州", "奶奶"),
    ("我老板的手机是 13712345678，他下周出差。", "出差", "老板"),
    ("我女儿的邮箱是 xiao.mei@163.com，她今年上初一。", "初一", "女儿"),
    ("我舅舅的手机号是 13500001234，他开了一家面馆。", "面馆", "舅舅"),
    ("我朋友的邮箱是 pal@example.org，他在杭州上班。", "杭州", "朋友"),
]


@pytest.mark.parametrize(("text", "place", "who"), KIN)
def test_a_pronoun_keeps_the_person_the_identifier_belonged_to(
    scrubber: PiiScrubber, text: str, place: str, who: str
) -> None:
    out = remove_identifiers(scrubber.scrub(text))
    assert place in out and who in out, out
