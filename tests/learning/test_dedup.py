from __future__ import annotations

import pytest

from gateway.learning.steps.dedup import classify, compare, normalise


def test_normalise() -> None:
    assert normalise("Ｈｅｌｌｏ，  World！") == "hello world"
    assert normalise("用户 喜欢 简洁 的回答。") == "用户喜欢简洁的回答"
    assert normalise("The user's  team.") == "the user's team"


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("The user prefers tabs over spaces.", "the user prefers tabs over spaces"),
        ("User prefers concise answers", "The user really prefers concise answers."),
        ("The user's team deploys on Fridays.", "The user's team usually deploys on Fridays."),
        ("The user likes concise answers.", "The user prefers concise answers."),
        ("用户喜欢简洁的回答。", "用户喜欢简洁的回答"),
        ("用户的团队有５个人", "用户的团队有5个人"),
        ("用户每天写代码", "用户每天都写代码"),
        ("用户喜欢 Python", "用户偏好 Python"),
    ],
)
def test_duplicate(new: str, old: str) -> None:
    assert classify(new, old) == "duplicate", compare(new, old)


@pytest.mark.parametrize(
    ("new", "old", "reason"),
    [
        ("The user's team uses PostgreSQL 16.", "The user's team uses PostgreSQL 15.", "numbers"),
        ("The deadline is May 3", "The deadline is June 3", "numbers"),
        ("The user likes Python.", "The user doesn't like Python.", "negation"),
        ("The user never uses semicolons.", "The user uses semicolons.", "negation"),
        ("The user likes Python.", "The user dislikes Python.", "preference"),
        ("The user prefers tabs over spaces.", "The user prefers spaces over tabs.", "order"),
        ("The user uses Python.", "The user uses Go.", "content"),
        (
            "The user prefers dark mode in the editor",
            "The user prefers light mode in the editor",
            "content",
        ),
        ("Alice leads the platform team.", "Bob leads the platform team.", "content"),
        ("用户的团队有5个人", "用户的团队有6个人", "numbers"),
        ("用户喜欢简洁的回答。", "用户不喜欢简洁的回答。", "negation"),
        ("用户喜欢简洁的回答", "用户讨厌简洁的回答", "preference"),
        ("用户更喜欢 Vim 而不是 VS Code", "用户更喜欢 VS Code 而不是 Vim", "order"),
        ("用户的项目经理是老王", "用户的项目经理是老李", "content"),
        (
            "The user prefers concise answers with code examples.",
            "The user prefers concise answers.",
            "content",
        ),
    ],
)
def test_supersede(new: str, old: str, reason: str) -> None:
    verdict, why = compare(new, old)
    assert verdict == "supersede"
    assert reason in why
