"""An emoji between two English statements ends the first: "I sold the bike 😅 my knees kept
complaining" is two sentences, each judged on its own (the second's "they" or aside no longer
rides along with the first's fact)."""

from __future__ import annotations

import pytest

from gateway.learning.offline.heuristic import split_sentences

SPLIT = [
    ("I sold my road bike 😅 my knees kept complaining", ["I sold my road bike", "my knees kept complaining"]),
    (
        "we don't have the hamster anymore 🥲 it escaped twice",
        ["we don't have the hamster anymore", "it escaped twice"],
    ),
    ("I passed the exam 🎉 so relieved", ["I passed the exam", "so relieved"]),
    ("I moved to Leeds 🙌 the flat is tiny though", ["I moved to Leeds", "the flat is tiny though"]),
    ("I gave up coffee ☕ it was wrecking my sleep", ["I gave up coffee", "it was wrecking my sleep"]),
    ("I started a new job 😬 they seem nice", ["I started a new job", "they seem nice"]),
    ("I switched to Linux 🐧 never going back", ["I switched to Linux", "never going back"]),
    ("my sister had twins 👶👶 they're adorable", ["my sister had twins", "they're adorable"]),
    ("I finished the marathon 🏃 legs are dead", ["I finished the marathon", "legs are dead"]),
    ("I got a cat 🐱 she hates the vacuum", ["I got a cat", "she hates the vacuum"]),
]

WHOLE = [
    "I love my new bike 😍",
    "🎉 I passed the exam",
    "手心全是汗😂 还有一个好消息",
    "I rate it 5/5 ⭐",
    "my team 💪 ships on Fridays",
]


@pytest.mark.parametrize(("text", "parts"), SPLIT)
def test_an_emoji_between_statements_ends_the_first(text: str, parts: list[str]) -> None:
    assert split_sentences(text) == parts


@pytest.mark.parametrize("text", WHOLE)
def test_an_emoji_at_an_end_or_before_chinese_splits_nothing(text: str) -> None:
    assert len(split_sentences(text)) == 1
