from __future__ import annotations

import asyncio

from gateway.store.keyword_index import KeywordQuery
from gateway.store.term_stats import TermStats

ROWS = {"": 100_000, "team": 47_000, "billing": 2_700, "deployed": 20_000}


def test_common_words_are_pruned_with_counts_asked_once_per_ttl() -> None:
    asked: list[str] = []

    async def count(word: str) -> int:
        asked.append(word)
        return ROWS[word]

    async def scenario() -> None:
        terms = TermStats(ttl_s=300.0)
        query = KeywordQuery(words=["team", "billing", "deployed"], grams=["咖啡"])
        pruned = await terms.pruned(query, count)
        assert pruned.words == ["billing"] and pruned.grams == ["咖啡"]
        assert (await terms.pruned(query, count)).words == ["billing"]
        assert sorted(asked) == ["", "billing", "deployed", "team"]  # the second query hit the cache
        one = KeywordQuery(words=["team"])
        assert await terms.pruned(one, count) == one  # one word is never pruned

    asyncio.run(scenario())


def test_a_small_store_counts_only_its_rows() -> None:
    asked: list[str] = []

    async def count(word: str) -> int:
        asked.append(word)
        return 600 if word == "" else 500

    async def scenario() -> None:
        query = KeywordQuery(words=["team", "billing"])
        assert (await TermStats(ttl_s=0.0).pruned(query, count)).words == ["team", "billing"]
        assert asked == [""]

    asyncio.run(scenario())
