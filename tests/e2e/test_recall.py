"""Multi-path recall (``memory.recall``) through HTTP with the openai SDK and the fake upstream:
fatigue rotates equally relevant memories over a conversation, popularity breaks a tie; judged
by the memory block the upstream received."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest

from gateway.config import ConfigError, config_from_dict
from tests.conftest import GatewayFactory
from tests.e2e.test_injection import block_of, chat, injection
from tests.e2e.test_memory_api import add, user_client
from tests.e2e.test_pinned import RULE, database
from tests.fake_upstream import FakeUpstream
from tests.waits import wait_for

# eight memories a tea question finds equally relevant (same words but one, same length)
TEAS = ["oolong", "sencha", "assam", "rooibos", "darjeeling", "pu-erh", "matcha", "chamomile"]
QUESTION = [{"role": "user", "content": "Which tea should I buy?"}]


def teas_sent(fake: FakeUpstream) -> frozenset[str]:
    block = block_of(fake.last_chat().body["messages"])  # type: ignore[index]
    return frozenset(t for t in TEAS if f"drinks {t} tea" in block)


def conversation(url: str, user: str, fake: FakeUpstream, turns: int, conv: str | None) -> list[frozenset[str]]:
    headers = {"X-Memorelay-Conversation": conv} if conv else None
    out = []
    for _ in range(turns):
        raw = chat(url, user, QUESTION, headers=headers)
        assert raw.headers["x-memorelay-memories"] == "3"  # the pinned rule + top_k 2
        out.append(teas_sent(fake))
    return out


def add_teas(url: str, user: str) -> None:
    c = user_client(url, user)
    for t in TEAS:
        add(c, "Tea", f"The user drinks {t} tea.")
    add(c, "Language", RULE, pinned=True)


def recall(**weights: Any) -> dict[str, Any]:
    return {"recall": weights}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_fatigue_rotates_memories_over_a_conversation(gateway: GatewayFactory, fake: FakeUpstream, kind: str) -> None:
    with gateway(filters=injection(top_k=2), memory=database(kind)) as url:
        add_teas(url, "alice")
        turns = conversation(url, "alice", fake, 10, "conv-1")
        for k in range(9):
            assert len(turns[k]) == 2
            # what turn k injected is not in turn k+1's slots: six equally relevant ones were not injected
            assert not turns[k] & turns[k + 1], (k, turns)
        assert len(set().union(*turns)) > 2 * 2  # more distinct memories than two turns' worth
        # the pinned rule is on every turn, untouched by fatigue
        assert RULE in block_of(fake.last_chat().body["messages"])  # type: ignore[index]

        # without a conversation id: no fatigue, the same memories every turn (as before recall)
        add_teas(url, "bob")
        plain = conversation(url, "bob", fake, 10, None)
        assert len(set(plain)) == 1 and len(plain[0]) == 2


def test_fatigue_weight_zero_turns_it_off(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=injection(top_k=2), memory=recall(fatigue_weight=0)) as url:
        add_teas(url, "carol")
        turns = conversation(url, "carol", fake, 10, "conv-1")
        assert len(set(turns)) == 1 and len(turns[0]) == 2


@pytest.mark.parametrize("popularity", [0.1, 0.0])
def test_popularity_breaks_a_tie_between_equally_relevant_memories(
    gateway: GatewayFactory, fake: FakeUpstream, popularity: float
) -> None:
    # recency off: the cited memory's fresher access time would otherwise break the tie too
    with gateway(filters=injection(top_k=1), memory=recall(popularity_weight=popularity, recency_weight=0)) as url:
        c = user_client(url, "dora")
        add(c, "Tea", "The user drinks oolong tea.")
        add(c, "Tea", "The user drinks sencha tea.")
        chat(url, "dora", QUESTION)
        first = block_of(fake.last_chat().body["messages"])  # type: ignore[index]
        winner, other = ("oolong", "sencha") if "oolong" in first else ("sencha", "oolong")
        assert other not in first
        # the other one is cited three times (questions only it answers in full)
        for _ in range(3):
            chat(url, "dora", [{"role": "user", "content": f"Is {other} tea good for me?"}])
            assert other in block_of(fake.last_chat().body["messages"])  # type: ignore[index]
        chat(url, "dora", QUESTION)
        block = block_of(fake.last_chat().body["messages"])  # type: ignore[index]
        assert (other if popularity > 0 else winner) in block


@pytest.mark.parametrize(
    ("recall_block", "key"),
    [
        ({"fatigue_weight": -0.1}, "memory.recall.fatigue_weight"),
        ({"popularity_weight": 2}, "memory.recall.popularity_weight"),
        ({"fatigue_turns": 0}, "memory.recall.fatigue_turns"),
        ({"recency_half_life_days": 0}, "memory.recall.recency_half_life_days"),
        ({"fatigue": 1}, "memory.recall.fatigue"),
    ],
)
def test_bad_recall_settings_are_config_errors(recall_block: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as raised:
        config_from_dict({"memory": {"recall": recall_block}}, source="m.yaml")
    assert str(raised.value).startswith("m.yaml: ") and key in str(raised.value)
    # the defaults load, and reach the service
    assert config_from_dict({"memory": {"recall": {}}}).memory.recall.fatigue_turns == 3


def _uses_logged(pg_url: str, conversation: str) -> int:
    """How many memory uses of ``conversation`` the database's citation log holds."""
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT COUNT(*) FROM memory_uses WHERE conversation_id = %s", (conversation,)).fetchone()
    return int(row[0]) if row else 0


def test_fatigue_follows_a_conversation_to_another_replica(
    gateway: GatewayFactory, fake: FakeUpstream, pg_url: str
) -> None:
    options = {"filters": injection(top_k=2), "memory": {"database": pg_url}}
    with gateway(**options) as a, gateway(**options) as b:
        add_teas(a, "erin")
        t1, t2 = conversation(a, "erin", fake, 2, "conv-hop")
        assert not t1 & t2
        # the citation log reaches the database (buffered, written every second): both turns'
        # rows, three memories each (the pinned rule and top_k 2)
        wait_for(lambda: _uses_logged(pg_url, "conv-hop") >= 2 * 3)
        # B has not served this conversation: it reads the last turns in the background while
        # answering this turn, and applies them from its next turn
        t3 = conversation(b, "erin", fake, 1, "conv-hop")[0]
        time.sleep(0.3)
        t4 = conversation(b, "erin", fake, 1, "conv-hop")[0]
        # what A injected two turns ago is still tired on B, as is B's own last turn
        assert not t4 & t2, (t1, t2, t3, t4)
        assert not t4 & t3, (t1, t2, t3, t4)
