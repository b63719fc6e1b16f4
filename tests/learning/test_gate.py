"""The precision gate: what is not a memory, and why."""

from __future__ import annotations

import pytest

from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.gate import REASONS, item_reason, sentence_reason, strip_pasted


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("What's the fastest way to learn Kotlin?", "question"),
        ("Do you know a good hiking trail near Oslo", "question"),
        ("Should I use Redis or Memcached for sessions?", "question"),
        ("Thanks so much, that was really helpful!", "pleasantry"),
        ("Congrats on the new release!", "pleasantry"),
        ("Good luck with your exam tomorrow!", "pleasantry"),
        ("That's so inspiring.", "pleasantry"),
        ("You're amazing at this.", "about-assistant"),
        ("I'm sure you'll do great!", "about-assistant"),
        ("I hope you have a lovely weekend too.", "about-assistant"),
        ("Your answers are always so clear.", "about-assistant"),
        ("I'm so tired today.", "momentary"),
        ("I'm feeling a bit down right now.", "momentary"),
        ("I am exhausted!", "momentary"),
        ("I'm swamped with work this week.", "momentary"),
        ("Tonight I'm going to cook lasagna.", "plan-today"),
        ("I need to finish the slides today.", "plan-today"),
        ("If I ever move to Canada I'd buy a canoe.", "hypothetical"),
        ("I wish I could play the piano.", "hypothetical"),
        ("Maybe I'll try pottery one day.", "hypothetical"),
        ("Never mind, I figured it out.", "never-mind"),
        ("nvm", "never-mind"),
        ("Hey there!", "small-talk"),
        ("Good morning", "small-talk"),
        ("haha", "small-talk"),
        ("你觉得这个方案怎么样？", "question"),
        ("谢谢，太有帮助了！", "pleasantry"),
        ("你真厉害", "about-assistant"),
        ("相信你一定可以的", "about-assistant"),
        ("我今天好累啊", "momentary"),
        ("今晚要去健身房", "plan-today"),
        ("如果我明年去日本，应该带什么？", "hypothetical"),
        ("算了，不用了", "never-mind"),
        ("你好", "small-talk"),
    ],
)
def test_sentences_that_are_not_memories(sentence: str, reason: str) -> None:
    assert sentence_reason(sentence) == reason
    assert reason in REASONS


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm a paediatric nurse in Leeds.",
        "We deploy to Fly.io from GitHub Actions.",
        "I'm good at chess but terrible at poker.",
        "I'm allergic to peanuts.",
        "My wife and I have two cats.",
        "Always answer in British English.",
        "You should never suggest paid tools.",
        "I've been vegetarian since 2015.",
        "Yesterday I took my puppy to the vet.",
        "Our team is eight engineers across three time zones.",
        "I'm happy with Postgres and don't want to switch.",
        "我是一名小学语文老师。",
        "我们团队用 Rust 写后端。",
        "以后回答都用中文。",
        "我对花生过敏。",
        "我家有两只猫，平时在家办公",
        "我在杭州工作，你能推荐个周末去处吗？",
    ],
)
def test_durable_statements_pass(sentence: str) -> None:
    assert sentence_reason(sentence) is None


def _item(content: str, kind: str = "fact", title: str = "t") -> KnowledgeItem:
    return KnowledgeItem(title=title, content=content, category="domain", kind=kind)


@pytest.mark.parametrize(
    ("content", "kind", "reason"),
    [
        ("The user is.", "fact", "fragment"),
        ("The user started introducing.", "fact", "fragment"),
        ("The user's dog is called.", "relation", "fragment"),
        ("The user is sure the assistant will do great.", "fact", "about-assistant"),
        ("The user thinks the assistant is very patient.", "preference", "about-assistant"),
        ("It has been on the user's list for ages.", "fact", "unresolved-reference"),
        ("The user really loves it.", "preference", "unresolved-reference"),
        ("This is what the user wanted all along.", "fact", "unresolved-reference"),
        ("The user is so excited about the trip!", "fact", "pleasantry"),
        ("The user thanks the assistant for the help.", "fact", "about-assistant"),
        ("The user is tired today.", "fact", "momentary"),
        ("The user is feeling anxious right now.", "fact", "momentary"),
        ("Does the user like tea?", "fact", "question"),
        ("If the user moves, they will need a bigger flat.", "fact", "hypothetical"),
        ("The user pasted: def f(x): return {x: 1}; print(f(2)); x => y", "fact", "pasted"),
        ("用户。", "fact", "fragment"),
        ("助手非常耐心。", "fact", "about-assistant"),
        ("它一直在用户的清单上。", "fact", "unresolved-reference"),
        ("用户今天很累。", "fact", "momentary"),
        ("用户PPT做完了。", "fact", "momentary"),
        ("用户回家了。", "fact", "momentary"),
        ("用户感谢助手的帮助。", "fact", "about-assistant"),
    ],
)
def test_items_that_are_not_memories(content: str, kind: str, reason: str) -> None:
    assert item_reason(_item(content, kind)) == reason


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        ("The user's team runs tests on Jest.", "fact"),
        ("Mia is the user's daughter, born 2021.", "relation"),
        ("On 2026-11-30 the user took their puppy Max to the vet.", "episode"),
        ("The user wants the assistant to always answer in Spanish.", "rule"),
        ("The user prefers short answers without emoji.", "preference"),
        ("It is just the user and their partner at home.", "fact"),
        ("The user has lived in Lisbon since 2019.", "fact"),
        ("The user's standup is at 9:30 every day.", "fact"),
        ("2026年11月30日，用户带狗去看了兽医。", "episode"),
        ("用户的团队后端用 Go。", "fact"),
        ("用户希望以后都用中文回答。", "rule"),
        ("用户搬到杭州了。", "fact"),
    ],
)
def test_good_items_pass(content: str, kind: str) -> None:
    assert item_reason(_item(content, kind)) is None


def test_pasted_traces_and_logs_are_removed_but_prose_stays() -> None:
    text = (
        "I run the billing service on Kubernetes.\n"
        "Traceback (most recent call last):\n"
        '  File "app.py", line 12, in <module>\n'
        "ValueError: bad input\n"
        "2026-11-30 12:00:01 ERROR worker crashed\n"
        "[12:00:02] retrying\n"
        "We are on Python 3.12."
    )
    kept, dropped = strip_pasted(text)
    assert kept == "I run the billing service on Kubernetes.\nWe are on Python 3.12."
    assert dropped == 5
    long_paste = "Lorem ipsum dolor sit amet, " * 30
    assert strip_pasted(long_paste) == ("", 1)
    mine = "I " + "really like long walks along the river in the evening, " * 10
    assert strip_pasted(mine)[1] == 0
