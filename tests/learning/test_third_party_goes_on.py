"""A Chinese clause with no subject of its own goes on about the one before it: after a clause
that tells someone else's health or faith, the next clause that opens with a time, an adverb or
a verb ("周日要去…", "每天要打…") is still theirs, whatever it names, and goes with it. A clause
with its own subject ("我每周回家…", "所以我们只能…") is the user's and stays."""

from __future__ import annotations

import pytest

from gateway.learning.privacy.sensitive import without_third_party_details

THEIRS = [
    ("我室友是穆斯林，每天要做五次礼拜。", "礼拜"),
    ("我表姐有糖尿病，每天要打胰岛素。", "胰岛素"),
    ("同事小张怀孕了，下个月开始休产假。", "产假"),
    ("我爸有高血压，每天早上吃一片降压的。", "一片"),
    ("邻居王阿姨信佛，初一十五都去庙里烧香。", "烧香"),
    ("我婆婆做过心脏手术，走路很慢。", "走路"),
    ("我哥有抑郁症，周二周四去医院复诊。", "复诊"),
    ("我闺蜜是基督徒，周日去做弥撒。", "弥撒"),
    ("我老公有痛风，晚上不能喝啤酒。", "啤酒"),
    ("我朋友得了乳腺癌，在浙一住着。", "浙一"),
]

MINE = [
    ("我妈有糖尿病，我每周回家陪她两次。", "我每周回家"),
    ("同事老李是基督徒，所以我们只能周六聚。", "我们只能周六聚"),
    ("我爸有高血压，我每天给他做低盐菜。", "低盐菜"),
    ("我邻居信佛，我周末去爬山。", "爬山"),
    ("我爸有高血压，周末我带他去公园。", "公园"),
    ("我姐姐在住院，周末我去陪护。", "陪护"),
    ("我表哥有哮喘，下周我们一起去三亚。", "三亚"),
    ("朋友得了抑郁症，我最近在学心理学。", "心理学"),
    ("我室友是穆斯林，周末我们一起做饭。", "做饭"),
    ("我奶奶中风了，现在由我照顾。", "由我照顾"),
]


@pytest.mark.parametrize(("text", "theirs"), THEIRS)
def test_a_clause_without_its_own_subject_goes_with_the_third_party(text: str, theirs: str) -> None:
    out, removed = without_third_party_details(text)
    assert theirs not in out, out
    assert removed >= 1


@pytest.mark.parametrize(("text", "mine"), MINE)
def test_a_clause_with_its_own_subject_stays(text: str, mine: str) -> None:
    out, _ = without_third_party_details(text)
    assert mine in out, out


# someone else's standing "on" something ("on chemo", "on parole", "on benefits"): a treatment, a
# sentence or a benefit of theirs, whatever the word; and a clause that goes on with "he" or "she"
THEIRS_EN = [
    ("My uncle is on chemo so he sleeps most afternoons.", ["chemo", "sleeps"]),
    ("My neighbour Dot is on oxygen, she rarely leaves the flat.", ["oxygen", "leaves"]),
    ("My brother-in-law is on parole and he can't leave the state.", ["parole", "leave the state"]),
    ("My dad is on blood thinners so he bruises easily.", ["thinners", "bruises"]),
    ("Our landlord is on dialysis three times a week.", ["dialysis"]),
    ("My colleague Ravi is on antidepressants and he's been quieter lately.", ["antidepressants", "quieter"]),
    ("My cousin is on insulin now.", ["insulin"]),
    ("My friend Lena is on benefits, she's been looking for work for a year.", ["benefits", "looking for work"]),
    ("My flatmate was on probation last year.", ["probation"]),
    ("My grandad is on morphine, he mostly sleeps.", ["morphine", "sleeps"]),
]

MINE_EN = [
    ("My wife is on the school board and I coach the under-10s.", "I coach the under-10s"),
    ("My brother is on holiday in Spain, so I'm feeding his cat.", "I'm feeding his cat"),
    ("My dad is on dialysis, so I moved back home in March.", "I moved back home in March"),
    ("My colleague is on leave and I'm covering her accounts.", "I'm covering her accounts"),
    ("I'm on insulin and I check my levels before runs.", "I'm on insulin"),
    ("I'm on nights this month.", "I'm on nights"),
    ("My team is on Slack and we deploy on Fridays.", "My team is on Slack"),
    ("My partner is on the rota for Saturdays, so we go hiking on Sundays.", "we go hiking on Sundays"),
    ("My son is on the swim team and trains twice a week.", "My son is on the swim team"),
    ("My mum is on Facebook, so I post the baby photos there.", "I post the baby photos there"),
]


@pytest.mark.parametrize(("text", "theirs"), THEIRS_EN)
def test_someone_elses_standing_and_what_goes_on_with_he_or_she_go(text: str, theirs: list[str]) -> None:
    out, removed = without_third_party_details(text)
    assert not any(t in out for t in theirs), out
    assert removed >= 1


@pytest.mark.parametrize(("text", "mine"), MINE_EN)
def test_the_users_own_clauses_and_others_memberships_stay(text: str, mine: str) -> None:
    out, _ = without_third_party_details(text)
    assert mine in out, out
