"""Consolidation planning and summaries, without a gateway: which memories take part, which one a
merge keeps, and what a summary holds (the HTTP and CLI path: tests/e2e/test_consolidation.py)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import numpy as np
import pytest

from gateway.learning.errors import RetryableError
from gateway.learning.llm.completers import ModelAnswer
from gateway.learning.upkeep.consolidation import ConsolidationSettings, plan, summary_memory
from gateway.learning.upkeep.summaries import LLMSummary, RuleSummary, missing, parse_summary
from gateway.memory import Memory
from gateway.store import PartitionRows
from tests.records import stored_memory


def mem(
    mid: str, content: str, *, category: str = "domain", updated: str = "2026-01-01T00:00:00Z", **more: object
) -> Memory:
    fields = {"id": mid, "category": category, "title": mid, "content": content}
    return stored_memory(**fields, created_at=updated, updated_at=updated, **more)


def rows(memories: list[Memory], vectors: list[list[float]]) -> PartitionRows:
    return PartitionRows(memories, np.asarray(vectors, dtype=np.float32))


SETTINGS = ConsolidationSettings(merge_threshold=0.95, cluster_threshold=0.7, min_cluster=3)
SAME = [1.0, 0.0, 0.0]
NEAR = [0.99, 0.05, 0.0]  # cosine ~0.999 to SAME
RELATED = [0.8, 0.6, 0.0]  # cosine 0.8 to SAME: a cluster, not a merge
RELATED2 = [0.8, 0.0, 0.6]


def test_duplicates_keep_the_strongest_and_a_changed_fact_is_not_merged() -> None:
    strong = mem("strong", "The user likes green tea.", score=0.9)
    weak = mem("weak", "The user really likes green tea.", score=0.5, updated="2026-02-01T00:00:00Z")
    found = plan(rows([weak, strong], [NEAR, SAME]), SETTINGS, set())
    assert [(m.kept.id, [x.id for x in m.merged]) for m in found.merges] == [("strong", ["weak"])]
    old = mem("old", "The user's team has 8 engineers.", score=0.9, category="organizational")
    new = mem(
        "new", "The user's team has 12 engineers.", score=0.5, category="organizational", updated="2026-03-01T00:00:00Z"
    )
    found = plan(rows([old, new], [SAME, NEAR]), SETTINGS, set())
    assert found.merges == []  # a changed fact is not merged: superseding is the learner's decision
    # only the duplicates of the kept memory go into it; a look-alike that differs stays
    third = mem("third", "The user is allergic to walnuts.", score=0.4)
    first = mem("first", "The user is allergic to peanuts.", score=0.9)
    again = mem("again", "The user is really allergic to peanuts.", score=0.3)
    found = plan(rows([third, first, again], [NEAR, SAME, NEAR]), SETTINGS, set())
    assert [(m.kept.id, [x.id for x in m.merged]) for m in found.merges] == [("first", ["again"])]


def test_a_summary_keeps_the_kind_of_its_members() -> None:
    members = [mem(m, f"The user has relation {m}.", kind="relation") for m in ("a", "b", "c")]
    (cluster,) = plan(rows(members, [SAME, RELATED, RELATED2]), SETTINGS, set()).clusters
    summary = summary_memory(cluster, "Relations", "The user has relations a, b and c.", "2026-01-02T00:00:00Z")
    assert summary.kind == "relation"


def test_pinned_manual_protected_slotted_and_other_category_memories_stay_out() -> None:
    members = [mem("a", "The user has a dog."), mem("b", "The dog is a beagle."), mem("c", "The dog is 3.")]
    vectors = [SAME, RELATED, RELATED2]
    found = plan(rows(members, vectors), SETTINGS, set())
    assert [[m.id for m in c] for c in found.clusters] == [["a", "b", "c"]]
    for changed in (
        replace(members[2], pinned=True),
        replace(members[2], source="manual"),
        replace(members[2], slot="pet.age"),
        replace(members[2], category="technical"),
        replace(members[2], kind="episode"),  # a summary never mixes kinds
        replace(members[2], content="x" * (SETTINGS.small_chars + 1)),  # not a small fact
    ):
        assert plan(rows([*members[:2], changed], vectors), SETTINGS, set()).clusters == []
    assert plan(rows(members, vectors), SETTINGS, {"c"}).clusters == []  # named by a pending review
    assert plan(PartitionRows(members, None), SETTINGS, set()).clusters == []  # no embeddings


def test_the_rules_keep_every_clause_once_and_leave_out_a_member_that_does_not_fit() -> None:
    members = [
        mem("a", "The user has a dog. The dog is a beagle."),
        mem("b", "the dog is a beagle!\nThe user walks the dog every morning"),
        mem("c", "The dog is 3; it sleeps a lot."),
    ]
    summary = asyncio.run(RuleSummary().summarise(members, 800))
    assert summary.content == (
        "The user has a dog. The dog is a beagle. The user walks the dog every morning. The dog is 3; it sleeps a lot."
    )
    assert [m.id for m in summary.members] == ["a", "b", "c"] and summary.title == "a"
    short = asyncio.run(RuleSummary().summarise(members, 75))
    assert [m.id for m in short.members] == ["a", "c"] and "morning" not in short.content


class Scripted:
    def __init__(self, answer: str | Exception) -> None:
        self.answer = answer
        self.prompts: list[str] = []

    async def complete(self, model: str, prompt: str) -> ModelAnswer:
        self.prompts.append(prompt)
        if isinstance(self.answer, Exception):
            raise self.answer
        return ModelAnswer(self.answer)


@pytest.mark.parametrize(
    "answer",
    [RetryableError("upstream 503"), "Sure! Here is the summary.", '{"title": "Dog", "content": ""}', '["Dog"]'],
)
def test_the_model_summary_falls_back_to_the_rules(answer: str | Exception) -> None:
    members = [mem("a", "The user has a dog."), mem("b", "The dog is a beagle."), mem("c", "The dog is 3.")]
    completer = Scripted(answer)
    summariser = LLMSummary("gpt-4o-mini", completer)
    summary = asyncio.run(summariser.summarise(members, 800))
    assert len(completer.prompts) == 1 and "The dog is a beagle." in completer.prompts[0]
    assert summary.content == "The user has a dog. The dog is a beagle. The dog is 3." and summariser.fallbacks == 1


def test_the_model_summary_is_used_when_it_is_the_asked_for_json() -> None:
    members = [mem("a", "The user has a dog."), mem("b", "The dog is a beagle."), mem("c", "The dog is 3.")]
    answer = '```json\n{"title": "Dog", "content": "The user has a dog, a 3-year-old beagle."}\n```'
    summary = asyncio.run(LLMSummary("m", Scripted(answer)).summarise(members, 800))
    assert (summary.title, summary.content, len(summary.members)) == (
        "Dog",
        "The user has a dog, a 3-year-old beagle.",
        3,
    )
    with pytest.raises(ValueError):
        parse_summary('{"title": "Two\\nlines", "content": "x"}', 800)
    with pytest.raises(ValueError):  # max_chars is the cap
        parse_summary('{"title": "Long", "content": "' + "x" * 801 + '"}', 800)
    assert parse_summary('{"title": "Long", "content": "' + "x" * 800 + '"}', 800)[1] == "x" * 800


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("The user has a beagle.", "fact 1 loses 1 of its 1 content words"),  # a fact dropped
        ("The user has a dog, a beagle.", "fact 3 loses 1 of its numbers"),  # a number dropped
        ("The user has a dog, a 3-year-old beagle, and 2 cats.", "adds 1 numbers of its own"),  # a number made up
        ("The user has a dog, a 3-year-old beagle; lives in Paris near the Seine river", "adds 7 content words"),
    ],
)
def test_a_model_summary_that_loses_or_invents_a_fact_is_refused(content: str, why: str) -> None:
    members = [mem("a", "The user has a dog."), mem("b", "The dog is a beagle."), mem("c", "The dog is 3.")]
    assert missing(members, content).startswith(why)
    summariser = LLMSummary("m", Scripted('{"title": "Dog", "content": "' + content + '"}'))
    summary = asyncio.run(summariser.summarise(members, 800))
    assert summary.content == "The user has a dog. The dog is a beagle. The dog is 3." and summariser.fallbacks == 1
    assert missing(members, summary.content) == ""
