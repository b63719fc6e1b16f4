"""One fact per memory: compound setup sentences split by attribute, each part with the key of
its attribute, and a change that keeps only its new value."""

from __future__ import annotations

import pytest

from gateway.learning.offline.atomic import split, split_item, without_old
from gateway.learning.offline.keys import key_of
from gateway.learning.steps.extraction import KnowledgeItem


def _keys(content: str) -> dict[str, str]:
    out = {}
    for _, part in split(content):
        key = key_of(part)
        assert key is not None, part
        out[key.slot] = part
    return out


def test_a_setup_sentence_becomes_one_memory_per_attribute() -> None:
    parts = _keys("The user's team is a Kotlin shop on Azure, MariaDB 11, builds run on CircleCI.")
    assert set(parts) == {"stack.language", "stack.hosting", "stack.database", "stack.ci"}
    assert "MariaDB 11" in parts["stack.database"]  # the version stays with its tool
    assert all(p.startswith("The user's team ") for p in parts.values())


def test_a_chinese_setup_sentence_is_split_the_same_way() -> None:
    parts = _keys("用户的团队后端用 Django + React，部署在腾讯云，还在做一个会员系统。")
    assert {"stack.backend", "stack.frontend", "stack.hosting", "work.project"} <= set(parts)
    assert "会员系统" in parts["work.project"]


def test_one_attribute_is_one_memory() -> None:
    text = "The user edits code in Emacs with a lot of custom packages."
    assert split(text) == [("", text)]
    # a sentence about a sport and a platform is not a setup list: "running on" names no sport
    assert len(split("The user's service is running on Kubernetes with Redis as a cache.")) == 2


def test_split_parts_keep_the_kind_and_drop_the_learners_verdict() -> None:
    item = KnowledgeItem(
        title="Stack",
        content="The user's team writes Ruby on Heroku with Postgres.",
        category="technical",
        kind="fact",
        updates="mem_1",
    )
    parts = split_item(item)
    assert len(parts) == 3
    assert all(p.kind == "fact" and p.updates is None and p.slot is None for p in parts)
    assert {p.title for p in parts} == {"Language: Ruby", "Hosting: Heroku", "Database: Postgres"}


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        ("The user dropped CircleCI, builds are on Buildkite now.", "CircleCI", "Buildkite"),
        ("The user's team moved away from Heroku; everything runs on Render now.", "Heroku", "Render"),
        ("用户以后都用中通寄，不用韵达了。", "韵达", "中通"),
    ],
)
def test_a_change_keeps_only_its_new_value(text: str, gone: str, kept: str) -> None:
    key = key_of(text)
    assert key is not None and key.change
    after = without_old(text, key)
    assert gone not in after and kept in after


def test_a_statement_that_names_no_old_value_is_left_alone() -> None:
    text = "The user's team now deploys on Fly.io, with two regions."
    key = key_of(text)
    assert key is not None
    assert without_old(text, key) == text
