"""Someone else's health or faith, however the person is named or the faith is called: a person
by surname and a familiar prefix or title ("老刘", "小王", "张姐", "李老师"), and the faiths said as
what someone is ("his grandmother is Jain", "she's a Mormon", "我同事是东正教徒"). The user's own
faith and health stay, and so does a surname that is only a name."""

from __future__ import annotations

import pytest

from gateway.learning.privacy.sensitive import third_party_sensitive, without_third_party_details

THIRD_PARTY = [
    "用户车队里老刘有高血压。",
    "小王最近查出糖尿病。",
    "张姐刚做完手术。",
    "李老师得了抑郁症。",
    "办公室的老陈在住院。",
    "楼下的赵阿姨坐轮椅。",
    "队里的小林有哮喘。",
    "周师傅上个月中风了。",
    "老黄信佛，不吃肉。",
    "孙总是穆斯林。",
    "Arjun's grandmother is Jain so no onion or garlic on her plate.",
    "My neighbour is a Mormon and doesn't drink coffee.",
    "Dev's parents are Jains.",
    "Her dad is Quaker.",
    "My colleague is a Jehovah's Witness.",
    "His uncle is Taoist.",
    "Priya's aunt is an evangelical Christian.",
    "我同事是东正教徒。",
    "我朋友信道教。",
    "我表哥是耆那教徒。",
]

STAY = [
    "The user is a Quaker.",
    "I'm Jain, so no onion or garlic for me.",
    "My colleague Rahul Jain is moving to Pune.",
    "老刘下周去成都出差。",
    "小王是我们车队最快的。",
    "我有高血压，医生让我少吃盐。",
    "李老师教我们数学。",
    "The user's friend Jain runs a bakery in Leeds.",
    "小区里的健身房周一关门。",
    "老板娘做的面很好吃。",
]


@pytest.mark.parametrize("text", THIRD_PARTY)
def test_someone_elses_health_or_faith_is_not_stored(text: str) -> None:
    assert third_party_sensitive(text) is not None


@pytest.mark.parametrize("text", STAY)
def test_the_users_own_and_a_plain_name_stay(text: str) -> None:
    assert third_party_sensitive(text) is None


def test_the_clause_goes_and_the_rest_stays() -> None:
    rest, removed = without_third_party_details("我骑捷安特，车队里老刘有高血压，我们周四练有氧。")
    assert removed == 1 and "高血压" not in rest and "捷安特" in rest
