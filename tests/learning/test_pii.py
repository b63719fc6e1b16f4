from __future__ import annotations

import time
from typing import Any

import pytest

from gateway.learning.errors import PiiError
from gateway.learning.privacy.pii import PiiScrubber, Span, replace_spans, without_placeholders
from gateway.learning.privacy.pii_recognizers import cn_resident_id_valid

# (text, planted values, placeholders expected)
CORPUS: list[tuple[str, list[str], list[str]]] = [
    (
        "Hi, I'm John Smith. Email me at john.smith@example.com or call (212) 555-0199.",
        ["John Smith", "john.smith@example.com", "555-0199"],
        ["<PERSON>", "<EMAIL_ADDRESS>", "<PHONE_NUMBER>"],
    ),
    (
        "My card is 4111 1111 1111 1111 and the backup one 5500-0000-0000-0004.",
        ["4111 1111 1111 1111", "5500-0000-0000-0004"],
        ["<CREDIT_CARD>"],
    ),
    (
        "Wire it to GB82 WEST 1234 5698 7654 32 or DE89 3704 0044 0532 0130 00 please.",
        ["GB82 WEST 1234 5698 7654 32", "DE89 3704 0044 0532 0130 00"],
        ["<IBAN_CODE>"],
    ),
    (
        "The server IP is 192.168.10.25, the v6 one is 2001:db8::1 and fe80::1ff:fe23:4567:890a.",
        ["192.168.10.25", "2001:db8::1", "fe80::1ff:fe23:4567:890a"],
        ["<IP_ADDRESS>"],
    ),
    (
        "My SSN is 536-22-8154. Call +1-202-555-0147 or London +44 20 7946 0958.",
        ["536-22-8154", "202-555-0147", "7946 0958"],
        ["<US_SSN>", "<PHONE_NUMBER>"],
    ),
    (
        "我叫王小明，手机号是13812345678，身份证号11010519491231002X，邮箱是wang@example.cn。",
        ["13812345678", "11010519491231002X", "wang@example.cn"],
        ["<PHONE_NUMBER>", "<CN_RESIDENT_ID>", "<EMAIL_ADDRESS>", "邮箱是<EMAIL_ADDRESS>"],
    ),
    (
        "电话:+86 139 1234 5678，备用8613912345678，座机旁边的号码是15900001111。",
        ["139 1234 5678", "8613912345678", "15900001111"],
        ["电话:<PHONE_NUMBER>", "备用<PHONE_NUMBER>", "号码是<PHONE_NUMBER>。"],
    ),
    (
        "卡号4111111111111111，身份证440308199001011239，服务器10.0.0.1上跑着，另一个证310115198511204566。",
        ["4111111111111111", "440308199001011239", "10.0.0.1", "310115198511204566"],
        ["卡号<CREDIT_CARD>", "身份证<CN_RESIDENT_ID>", "服务器<IP_ADDRESS>上"],
    ),
    # a card number beside its card or bank is taken even when its check digit fails
    (
        "我的工资卡是招商银行 6214 8301 2297 5563，每个月10号发。My debit card is 5312 0098 7766 1234, "
        "my frequent flyer no. is KL 55120934.",
        ["6214 8301 2297 5563", "5312 0098 7766 1234", "55120934"],
        ["<ACCOUNT_NUMBER>"],
    ),
    (
        "联系人 lilei@corp.com；tel：１３８１２３４５６７８；Alice Johnson agreed.",
        ["lilei@corp.com", "１３８１２３４５６７８", "Alice Johnson"],
        ["<EMAIL_ADDRESS>", "<PHONE_NUMBER>", "<PERSON>"],
    ),
    (
        "我在网上开了个小店，微信号 yiling_jun88 有人问我就给。Ping me on telegram: @tom_k or Discord tomk#2210.",
        ["yiling_jun88", "@tom_k", "tomk#2210"],
        ["<ID_NUMBER>"],
    ),
]


@pytest.mark.parametrize(("text", "planted", "placeholders"), CORPUS)
def test_planted_values_are_replaced(
    scrubber: PiiScrubber, text: str, planted: list[str], placeholders: list[str]
) -> None:
    out = scrubber.scrub(text)
    for value in planted:
        assert value not in out, (value, out)
    for placeholder in placeholders:
        assert placeholder in out, (placeholder, out)


def test_invalid_chinese_id_checksum_is_kept(scrubber: PiiScrubber) -> None:
    assert not cn_resident_id_valid("110105194912310021")
    assert cn_resident_id_valid("11010519491231002x")
    # without a word announcing an ID, an invalid checksum is just a number ...
    assert "110105194912310021" in scrubber.scrub("流水110105194912310021。")
    # ... and after one it is an ID number all the same (what it announces is withheld)
    assert scrubber.scrub("假身份证110105194912310021。") == "假身份证<ID_NUMBER>。"


TECHNICAL = [
    "We migrated from MySQL to PostgreSQL 16 and use Python 3.11, Django, FastAPI, Kubernetes, "
    "Redis and React. Docker and Grafana and Git.",
    "std::cout << x; Vec::new(); version 1.2.3, port 5432, on 2024-05-01 at 10:30:00.",
    "我们用 PostgreSQL 和 Go，部署在 Kubernetes 上，缓存用 Redis 7。",
    "The user prefers tabs over spaces and answers in Chinese.",
    "WeChat is easier than Telegram for my family, and the QQ group is where the club posts.",
]


@pytest.mark.parametrize("text", TECHNICAL)
def test_technical_text_survives(scrubber: PiiScrubber, text: str) -> None:
    assert scrubber.scrub(text) == text


def test_placeholders_are_not_redetected(scrubber: PiiScrubber) -> None:
    text = "<PERSON> said <EMAIL_ADDRESS>, <PHONE_NUMBER> and <CN_RESIDENT_ID>."
    assert scrubber.scrub(text) == text
    once = scrubber.scrub(CORPUS[0][0])
    assert scrubber.scrub(once) == once


def test_empty_text(scrubber: PiiScrubber) -> None:
    assert scrubber.scrub("") == ""


class _BrokenAnalyzer:
    def analyze(self, text: str, language: str, entities: list[str] | None = None) -> list[Any]:
        raise RuntimeError("spaCy exploded")


class _BadOffsets:
    def analyze(self, text: str, language: str, entities: list[str] | None = None) -> list[Any]:
        class R:
            entity_type, start, end, score = "EMAIL_ADDRESS", 0, len(text) + 5, 1.0

        return [R()]


def test_fails_closed_when_analyzer_errors() -> None:
    with pytest.raises(PiiError):
        PiiScrubber(analyzer=_BrokenAnalyzer()).scrub("mail me at a@b.com")
    with pytest.raises(PiiError):
        PiiScrubber(analyzer=_BadOffsets()).scrub("mail me at a@b.com")


def test_fails_closed_before_start() -> None:
    with pytest.raises(PiiError):
        PiiScrubber().scrub("mail me at a@b.com")


def test_replace_spans() -> None:
    assert replace_spans("ab cd ef", [Span(3, 5, "X", 1.0)]) == "ab <X> ef"


def test_latency_per_kb(scrubber: PiiScrubber) -> None:
    text = " ".join(t for t, _, _ in CORPUS) + " " + " ".join(TECHNICAL)
    while len(text.encode()) < 1024:
        text += " " + text
    kb = len(text.encode()) / 1024
    runs = 5
    start = time.perf_counter()
    for _ in range(runs):
        scrubber.scrub(text)
    per_kb_ms = (time.perf_counter() - start) / runs / kb * 1000
    print(f"pii scrub: {per_kb_ms:.1f} ms per KB ({kb:.1f} KB mixed text)")
    assert per_kb_ms < 1000


@pytest.mark.parametrize(
    "text",
    [
        "The user works in Jupyter inside VS Code.",
        "We ship metrics to Datadog and errors to Sentry.",
        "json please",
        "We use Java 21 with Spring Boot and Kafka for events.",
        "We've decided to target Nintendo Switch first.",
        "我们用 Datadog 做监控。",
        "公司最近换成了 Spring Boot。",
    ],
)
def test_product_names_are_not_people(scrubber: PiiScrubber, text: str) -> None:
    assert scrubber.scrub(text) == text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Please ask Maria Garcia before merging.", "Maria Garcia"),
        ("原户主是我父亲张建国。", "张建国"),
        ("这个需求是陈静提的。", "陈静"),
        ("请联系Linda Williams确认一下。", "Linda Williams"),
    ],
)
def test_person_names_are_scrubbed(scrubber: PiiScrubber, text: str, name: str) -> None:
    out = scrubber.scrub(text)
    assert name not in out and "<PERSON>" in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The user is on the Pro plan.", "The user is on the Pro plan."),
        ("Their email is <EMAIL_ADDRESS>, and they are on the Pro plan.", "and they are on the Pro plan."),
        ("Reach the user at <EMAIL_ADDRESS> or <PHONE_NUMBER>.", ""),
        ("用户白天上班。联系电话 <PHONE_NUMBER>。", "用户白天上班。"),
    ],
)
def test_without_placeholders(text: str, expected: str) -> None:
    assert without_placeholders(text) == expected
