"""Identifiers read by their shape, whatever thing they number: a code after a label word
("no.", "#", "ref", "编号", "单号"), a serial that alternates letters and digits, a letter
prefix with a long digit run ("GD20260113"), a long digit run in groups, a hardware address,
a key-like string, and a street address by its postcode or after the words that introduce one.
The identifier goes and the fact stays. Dates, times, amounts with units, versions, years,
prices and model names look alike and stay."""

from __future__ import annotations

import re

import pytest

from gateway.learning.privacy.pii import PiiScrubber
from gateway.learning.privacy.redact import remove_identifiers

# (text, the identifier, a word of the fact that must stay)
LABELLED = [
    ("My gym membership no. 55120A expires in June.", "55120A", "June"),
    ("The warranty claim # W-77812 covers the dishwasher.", "77812", "dishwasher"),
    ("Our broadband account ref 30049182 is with Zen.", "30049182", "Zen"),
    ("The parcel's tracking code is 1Z999AA10123456784, it's a new desk chair.", "1Z999AA10123456784", "chair"),
    ("My library card number: 2290-1145-88.", "2290-1145-88", ""),
    ("我的工单编号是 GD20260113，报修的是空调。", "GD20260113", "空调"),
    ("快递单号 SF1402937765，寄的是给我妈的茶叶。", "SF1402937765", "茶叶"),
    ("我的会员编号 VIP8830219，在盒马买菜。", "8830219", "盒马"),
    ("保修单号：BX-2026-00417，冰箱是海尔的。", "00417", "海尔"),
    ("我的学号是 20231145，在读研一。", "20231145", "研一"),
]

SHAPES = [
    ("My laptop's serial is C02XK1JHJGH5 and it's a 2019 MacBook Pro.", "C02XK1JHJGH5", "MacBook"),
    ("The router's MAC is 3C:52:82:1A:9F:0D, I set it up in the study.", "3C:52:82:1A:9F:0D", "study"),
    ("I wrote INV20931 on the invoice for the Hamburg client.", "INV20931", "Hamburg"),
    ("my webhook secret tok_8fJ2kLq9ZxW3mN7p goes in the env file", "tok_8fJ2kLq9ZxW3mN7p", ""),
    ("The deploy token is Xk9fQ2mLp7RtW4zN8vB3cH6s, the CI reads it.", "Xk9fQ2mLp7RtW4zN8vB3cH6s", "CI"),
    ("I pay the rent to 4457 8821 0931 22 every month.", "4457 8821 0931 22", "rent"),
    ("我家路由器的 MAC 是 A4-5E-60-C1-22-9B。", "A4-5E-60-C1-22-9B", ""),
    ("我的设备序列号 SN7F3K9Q2M8，是去年买的扫地机。", "SN7F3K9Q2M8", "扫地机"),
    ("我的社保号 3201 0419 8803 12，在南京交的。", "3201 0419 8803 12", "南京"),
    ("打印机机身上写着 HP5CG8421XZ，放在书房。", "HP5CG8421XZ", "书房"),
    # letters among many digits; a grouped IBAN or National Insurance number, valid or mistyped
    ("我的潜水证编号是 PADI 2107AB3391，明年考救援潜水员。", "2107AB3391", "救援潜水员"),
    ("The supplier in Lyon is paid to FR12 K030 6909 6061 0000 0117 243 monthly.", "6909 6061", "Lyon"),
    ("My National Insurance number is QQ 12 34 56 C, I'm self-employed now.", "34 56", "self-employed"),
]

ADDRESSES = [
    ("The new place is 14 Cotham Vale, Bristol BS6 6HR.", "Cotham Vale", ""),
    ("We live at 7 Larkhill Rise, Bath BA1 2QT and love it.", "Larkhill", "Bath"),
    ("I'm moving to 22 Alder Mews, Leeds LS6 2AB in May.", "Alder Mews", "May"),
    ("Our office postcode is EC1V 9HX.", "EC1V 9HX", ""),
    ("send it to 3 Quarry Bank, York YO10 5DD please", "Quarry Bank", ""),
    ("新地址是杭州市西湖区文三路188号5栋1201，下个月搬。", "1201", "杭州"),
    ("我住在朝阳区建国路88号3单元502。", "502", "朝阳区"),
    ("公司在南山区科技园路12号8楼805室。", "805", "南山区"),
    ("My flat is 5 Elm Grove, Cardiff CF24 3AA, second floor.", "Elm Grove", "Cardiff"),
    ("The studio's at 41 Kings Parade, Cambridge CB2 1SJ.", "Kings Parade", "Cambridge"),
]

LOOK_ALIKES = [
    "The conference is on 2026-03-14 at 09:30 in Berlin.",
    "My salary went up to 1,250,000 yen this year.",
    "We upgraded the app to v1.2.3 and then v2.10.0.",
    "I bought an RTX 4090 and an iPhone 15 Pro in 2024.",
    "My headphones are Sony WH-1000XM4 and my CPU is an i7-12700K.",
    "The bike has a Shimano 105 2x11 groupset and 160mm rotors.",
    "I filed a 1099-NEC and we're on the EV2-A rate, about 12,900 kWh a year.",
    "The flight is on 14/03/2026 and costs £249.99.",
    "Op.9 No.2 is the nocturne I'm practising.",
    "The tank holds 120 litres at 1.025 salinity and 25.5 degrees.",
    "我在2026年3月14日买了华为Mate 60，花了5999元。",
    "每月10号发工资，一个月12000块。",
    "我住在3号楼，坐5号线上班。",
    "版本号是 3.11.4，型号是 B550M。",
    "我们家在杭州，每天走8000步，体重65公斤。",
    "The meeting runs 10:00-11:30 and the budget is $38k.",
    "I run a Ryzen 7 7800X3D with 32GB DDR5-6000.",
    "We expect about 160 guests on 3 October 2026.",
    "The room is 4.2 x 3.6 m and the ceiling is 2.4 m.",
    "My 5K time is 24:31 and I ran 1:58:12 for the half.",
]


@pytest.mark.parametrize(("text", "value", "fact"), LABELLED + SHAPES + ADDRESSES)
def test_the_identifier_goes_and_the_fact_stays(scrubber: PiiScrubber, text: str, value: str, fact: str) -> None:
    scrubbed = scrubber.scrub(text, keep_names=True)
    pieces = [p for p in re.split(r"[\s:-]+", value) if len(p) >= 3]  # no group of it is left either
    assert not any(p in scrubbed for p in pieces), scrubbed
    out = remove_identifiers(scrubbed)
    assert not any(p in out for p in pieces), out
    assert fact in out, out


# what is left of an identifier-only request: nothing, not the words around the identifier
ONLY_IDENTIFIER = [
    "Please keep my passport number X7741920 for the visa forms",
    "记一下，我的社保卡号是 1102 3847 5566，办退税的时候可能要用",
    "my NHS number is 943 476 5919 for the GP forms",
]


@pytest.mark.parametrize("text", ONLY_IDENTIFIER)
def test_an_identifier_only_request_keeps_no_part_of_it(scrubber: PiiScrubber, text: str) -> None:
    out = remove_identifiers(scrubber.scrub(text, keep_names=True))
    assert not re.search(r"\d{3}", out), out
    assert "number for" not in out, out


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_dates_amounts_versions_and_models_stay(scrubber: PiiScrubber, text: str) -> None:
    assert scrubber.scrub(text, keep_names=True) == text
