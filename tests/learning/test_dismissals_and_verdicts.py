"""Two things said in passing, whatever words carry them: a dismissal after an interjection
("oh never mind, …", "哦算了，…") takes back what the turn asked, and a trailing exclamation
about something else ("…，那个App广告太多了") is a verdict of the moment beside the fact."""

from __future__ import annotations

import pytest

from gateway.learning.steps.gate import sentence_reason
from gateway.learning.steps.statement import checked

DISMISSALS = [
    "oh never mind, found it in the manual.",
    "ah forget it, I sorted it out myself.",
    "ok scratch that, it works now.",
    "well, ignore that, wrong window.",
    "hmm nvm, my mistake.",
    "哦算了，我自己查到了。",
    "啊不用了，已经好了。",
    "嗯当我没说，搞定了。",
    "好吧算了，下次再问。",
    "哎没事了，找到原因了。",
]

NOT_DISMISSALS = [
    "oh and I never mind driving at night.",
    "ok so I switched to a standing desk.",
    "well I moved to Leeds in May.",
    "我算了一下，每个月房贷4800。",
    "哦对了，我家狗叫豆豆。",
]


@pytest.mark.parametrize("sentence", DISMISSALS)
def test_a_dismissal_after_an_interjection_is_no_memory(sentence: str) -> None:
    assert sentence_reason(sentence) == "never-mind"


@pytest.mark.parametrize("sentence", NOT_DISMISSALS)
def test_an_interjection_before_a_statement_is_no_dismissal(sentence: str) -> None:
    assert sentence_reason(sentence) != "never-mind"


VERDICTS = [
    ("用户的笔记软件换成了Obsidian，印象笔记太卡了。", "用户的笔记软件换成了Obsidian。"),
    ("用户改用美团买菜，盒马运费太贵了。", "用户改用美团买菜。"),
    ("用户换了一家健身房，原来那家人太多了。", "用户换了一家健身房。"),
    ("用户现在骑车上班，地铁太挤了。", "用户现在骑车上班。"),
    ("用户的浏览器换成了Firefox，Chrome太吃内存了。", "用户的浏览器换成了Firefox。"),
    ("用户改喝燕麦奶，牛奶喝了胀气真难受啊。", "用户改喝燕麦奶。"),
    ("用户把网盘换成了阿里云盘，百度网盘限速太狠了。", "用户把网盘换成了阿里云盘。"),
    ("用户搬到了浦东，通勤太远了。", "用户搬到了浦东。"),
    ("用户换了新的理发店，之前那家太难约了。", "用户换了新的理发店。"),
    ("用户改用iPad记账，手机屏幕太小了。", "用户改用iPad记账。"),
]

LASTING = [
    "用户的公司太远，所以每天开车。",
    "用户家的猫太胖，在减肥。",
    "用户住在成都，离公司很近。",
    "用户的房子是两室一厅，有个小阳台。",
    "用户每周六上午上钢琴课，老师很严格。",
]


@pytest.mark.parametrize(("content", "kept"), VERDICTS)
def test_a_trailing_exclamation_goes_and_the_fact_stays(content: str, kept: str) -> None:
    assert checked(content, "fact")[0] == kept


@pytest.mark.parametrize("content", LASTING)
def test_a_clause_without_the_exclamation_stays(content: str) -> None:
    assert checked(content, "fact")[0] == content
