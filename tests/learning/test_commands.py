from __future__ import annotations

import pytest

from gateway.learning.steps.commands import Command, item_from_remember, parse_command


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("remember: I prefer dark mode", Command("remember", "I prefer dark mode")),
        ("Remember that we deploy on Fridays.", Command("remember", "we deploy on Fridays.")),
        ("please remember my dog is called Rex", Command("remember", "my dog is called Rex")),
        (
            "Could you remember: our API is versioned by date",
            Command("remember", "our API is versioned by date"),
        ),
        ("记住：我喜欢简洁的回答", Command("remember", "我喜欢简洁的回答")),
        ("记住我们公司周五不发版", Command("remember", "我们公司周五不发版")),
        ("请记住我们用 MySQL", Command("remember", "我们用 MySQL")),
        ("forget about my dog", Command("forget", "my dog")),
        ("Forget that I use Windows", Command("forget", "I use Windows")),
        ("forget: the staging URL", Command("forget", "the staging URL")),
        ("忘记我喜欢Vim", Command("forget", "我喜欢Vim")),
        ("忘掉：我们用 Oracle", Command("forget", "我们用 Oracle")),
        ("不要记我的生日", Command("forget", "我的生日")),
        ("请不要记住我的住址", Command("forget", "我的住址")),
        ("Forget what I said about zsh on macOS", Command("forget", "zsh on macOS")),
        (
            "Forget the Steam Deck thing, we target Nintendo Switch first.",
            Command("forget", "Steam Deck", "we target Nintendo Switch first."),
        ),
        ("别记我吃素的事了，我现在开始吃鱼了。", Command("forget", "我吃素", "我现在开始吃鱼了。")),
    ],
)
def test_commands(text: str, expected: Command) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "do you remember what I said?",
        "remember when we talked about Go?",
        "Remember when we met",
        "forget it",
        "I remember: it was blue",
        "记住了吗？",
        "忘记密码怎么办",
        "我忘记密码了",
        "How do I make git forget a file?",
        "",
    ],
)
def test_not_commands(text: str) -> None:
    assert parse_command(text) is None


def test_item_from_remember() -> None:
    pref = item_from_remember("I prefer dark mode")
    assert (pref.category, pref.title, pref.content) == (
        "user_preference",
        "Prefers dark mode",
        "The user prefers dark mode.",
    )
    tech = item_from_remember("we deploy with Docker on Fridays")
    assert tech.category == "technical"
    assert "remember" in tech.tags
    other = item_from_remember("my dog is called Rex")
    assert (other.category, other.content) == ("domain", "The user's dog is called Rex.")
    zh = item_from_remember("我们公司周五不发版")
    assert zh.content == "用户的公司周五不发版。"
    assert len(zh.title) <= 30
    zh_pref = item_from_remember("我喜欢简洁的回答")
    assert (zh_pref.category, zh_pref.content) == ("user_preference", "用户喜欢简洁的回答。")
