"""A PostgreSQL outage under traffic: chats are answered at once (learning skipped with
``store-unavailable``, injection failing open), and every chat answered ``queued`` is learned
once the database is back."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import memories, say, wait_for
from tests.e2e.test_memory_api import add, user_client
from tests.security.tcp_fault import TcpFault, relayed
from tests.waits import scaled

OUTAGE_S = 4.0


def _chat(url: str, user: str, code: str, *, stream: bool) -> tuple[float, str]:
    started = time.monotonic()
    headers = say(url, user, f"Remember: the code word is {code}.", stream=stream)
    return time.monotonic() - started, str(headers["x-memorelay-learning"])


def _learned_codes(url: str, user: str) -> set[str]:
    return {word.strip(".") for m in memories(url, user) for word in m["content"].split() if word.startswith("cw")}


@pytest.mark.parametrize("fault", ["pause", "cut"])
def test_a_database_outage_never_holds_a_chat_and_loses_no_queued_job(
    gateway: GatewayFactory, pg_url: str, fault: str
) -> None:
    with relayed(pg_url) as (database, relay):
        # injection with its own 200 ms deadline: failing open within it is what this test is about
        filters = [{"memory_injection": {}}, {"learning": {"workers": 1, "model": "heuristic"}}]
        options: dict[str, Any] = {"memory": {"database": database}, "filters": filters}
        with gateway(**options) as url:
            add(user_client(url, "ada"), "Pet", "Ada has a parrot named Kiwi.")
            queued: set[str] = set()
            elapsed, header = _chat(url, "ada", "cw0", stream=False)
            assert header == "queued"
            queued.add("cw0")
            wait_for(lambda: "cw0" in _learned_codes(url, "ada"), timeout=60)

            _break(relay, fault)
            answers: list[tuple[float, str]] = []
            started, i = time.monotonic(), 0
            while time.monotonic() - started < OUTAGE_S:
                i += 1
                code = f"cw{i}"
                elapsed, header = _chat(url, "ada", code, stream=i % 2 == 0)
                answers.append((elapsed, header))
                if header == "queued":
                    queued.add(code)
            # a user this replica has not seen yet: its settings are not cached either
            answers.append(_chat(url, "newcomer", "cwnew", stream=False))
            slowest = max(elapsed for elapsed, _ in answers)
            # 1 s on an idle machine; a machine busy with other processes stretches every wall time
            assert slowest < scaled(1.0), f"a chat took {slowest:.2f} s during the outage"
            # within a second of the outage the store counts as away: from then on nothing is queued
            assert all(h == "skipped; reason=store-unavailable" for _, h in answers[-4:]), answers
            metrics = httpx.get(url + "/metrics").text
            assert 'memorelay_learning_skipped_total{reason="store-unavailable"}' in metrics

            _heal(relay, fault)
            # back: chats are queued again, and every chat answered "queued" is learned
            code_after = "cwafter"

            def queued_again() -> bool:
                return _chat(url, "ada", code_after, stream=False)[1] == "queued"

            wait_for(queued_again, timeout=60)
            queued.add(code_after)
            wait_for(lambda: queued <= _learned_codes(url, "ada"), timeout=90)


def _break(relay: TcpFault, fault: str) -> None:
    if fault == "pause":
        relay.pause()
    else:
        relay.cut()


def _heal(relay: TcpFault, fault: str) -> None:
    if fault == "pause":
        relay.resume()
    else:
        relay.restore()
