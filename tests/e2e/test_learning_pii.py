"""Sensitive data without broken facts, end to end with the offline learner: identifiers leave
a remembered fact, not the fact itself; a remember of nothing but an identifier is answered
``pii-only``; other people's health details are not stored; names of relations are kept, or
replaced by the relation."""

from __future__ import annotations

import httpx

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, log_entries, memories, say, wait_for
from tests.fake_upstream import FakeUpstream
from tests.waits import HTTP_TIMEOUT_S


def warm(url: str) -> str:
    """``url`` once nothing is loading any more: the header note of a remember is decided within a
    few seconds of scrubbing, and Presidio loads in its own process after the gateway is ready."""
    wait_for(lambda: not httpx.get(url + "/readyz", timeout=HTTP_TIMEOUT_S).json().get("warming"))
    return url


def test_a_remembered_fact_keeps_its_words_and_loses_its_identifier(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        warm(url)
        headers = say(url, "ann", "Remember: send the weekly report to anna@x.com on Fridays.")
        assert headers["x-memorelay-learning"] == "queued; note=identifiers-removed"
        (memory,) = wait_for(lambda: memories(url, "ann"), timeout=60)
        assert "weekly report" in memory["content"] and "Friday" in memory["content"]
        stored = f"{memory['title']} {memory['content']}"
        assert "anna@x.com" not in stored and "<" not in stored and " to on " not in stored
        headers = say(url, "ann", "记住我的邮箱 wang.lei@example.cn，我每周一看邮件。")
        assert headers["x-memorelay-learning"] == "queued; note=identifiers-removed"
        wait_for(lambda: len(memories(url, "ann")) == 2, timeout=60)
        texts = " ".join(m["content"] for m in memories(url, "ann"))
        assert "每周一" in texts and "wang.lei" not in texts
        # a plain remember says nothing more than before
        assert say(url, "ann", "Remember: I prefer short answers.")["x-memorelay-learning"] == "queued"


def test_a_remember_of_nothing_but_an_identifier_is_skipped_as_pii_only(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        warm(url)
        headers = say(url, "bob", "Remember my phone number: +1 415 555 0100.")
        assert headers["x-memorelay-learning"] == "skipped; reason=pii-only"
        say(url, "bob", "I live in Leeds.")
        (entry,) = wait_for(lambda: log_entries(url), timeout=60)  # only the second turn was queued
        assert entry["added"]
        assert ["Leeds" in m["content"] for m in memories(url, "bob")] == [True]


def test_an_identifier_alone_in_a_learned_item_is_logged_pii_only(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    items = [{"title": "Contact", "content": "The user's email is jane@example.org.", "category": "domain"}]
    from tests.e2e.test_learning import HIGH, learner

    fake.responder = learner(HIGH, items)
    with gateway(filters=learning(), auth={"admin_key": ADMIN}) as url:
        say(url, "cat", "My email is jane@example.org, please note it.")
        (entry,) = wait_for(lambda: log_entries(url), timeout=60)
        assert [r["reason"] for r in entry["rejected"]] == ["pii-only"]
        assert memories(url, "cat") == []


def test_other_peoples_health_is_not_stored_and_the_users_own_is(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "dan", "My colleague has cancer.")
        say(url, "dan", "我妈妈有糖尿病。")
        say(url, "dan", "I'm allergic to peanuts.")
        wait_for(lambda: len(log_entries(url)) == 3, timeout=60)
        texts = [m["content"] for m in memories(url, "dan")]
        assert texts == ["The user is allergic to peanuts."], texts
        reasons = [r["reason"] for e in log_entries(url) for r in e["rejected"]]
        assert reasons.count("third-party-sensitive") == 2, reasons


def test_names_of_relations_are_kept(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "eli", "My daughter is called Mia.")
        (memory,) = wait_for(lambda: memories(url, "eli"), timeout=60)
        assert memory["content"] == "The user's daughter is called Mia." and memory["slot"] == "family.daughter"


def test_names_can_be_replaced_by_the_relation(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic", pii={"keep_names": False}), auth={"admin_key": ADMIN}) as url:
        say(url, "fay", "Remember: my daughter is called Mia.")
        (memory,) = wait_for(lambda: memories(url, "fay"), timeout=60)
        assert memory["content"] == "The user has a daughter.", memory["content"]


def test_a_cousins_health_and_the_gift_for_him_are_not_stored(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "gil", "我表哥最近抑郁症挺严重的，在吃药，我想送他一台入门相机，预算三千左右，有推荐吗？")
        say(url, "gil", "我在杭州做UI设计师。")
        wait_for(lambda: len(log_entries(url)) == 2, timeout=60)
        texts = [m["content"] for m in memories(url, "gil")]
        assert texts == ["用户在杭州做UI设计师。"], texts
        reasons = [r["reason"] for e in log_entries(url) for r in e["rejected"]]
        assert "third-party-sensitive" in reasons, reasons


def test_a_remembered_identifier_leaves_what_it_belonged_to(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        warm(url)
        say(url, "hal", "帮我记住：家里NAS的地址是 192.168.31.25，我用它备份所有RAW照片。")
        say(url, "hal", "Keep this in mind - I live at 14 Rue des Martyrs with my partner Élodie, we're in Paris")
        wait_for(lambda: len(memories(url, "hal")) == 2, timeout=60)
        stored = " ".join(f"{m['title']} {m['content']}" for m in memories(url, "hal"))
        assert "NAS" in stored and "RAW" in stored and "Élodie" in stored, stored
        assert "192.168" not in stored and "Martyrs" not in stored and "它" not in stored, stored
