"""The check on what the offline learner would store: a well-formed, specific statement about the
user (or the user's team, project, family or pets), and relative dates made absolute before it is
judged. A model's items and explicit commands are not judged as sentences."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gateway.learning.steps.extraction import KnowledgeItem
from gateway.learning.steps.gate import REASONS, item_reason
from gateway.learning.steps.statement import anchor_dates, checked, statement_reason
from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, HIGH, learner, learning, log_entries, memories, say, wait_for
from tests.fake_upstream import FakeUpstream


def _item(content: str, kind: str = "fact") -> KnowledgeItem:
    return KnowledgeItem(title="t", content=content, category="domain", kind=kind)


@pytest.mark.parametrize(
    ("content", "kind", "reason"),
    [
        ("Yeah, the user has not.", "fact", "ill-formed"),
        ("The user were happy to help out.", "fact", "ill-formed"),
        ("The user Plays the cello.", "fact", "ill-formed"),
        ("The user likes not the winter.", "preference", "ill-formed"),
        ("Tom fixed the fence, the user paid for the wood.", "fact", "other-subject"),
        ("The user met him at university.", "fact", "unresolved-reference"),
        ("Last month the user repainted the kitchen.", "fact", "unanchored-date"),
        ("The user believes kindness matters most.", "fact", "opinion"),
        ("The user will make some great memories.", "fact", "unspecific"),
        ("用户觉得人生苦短。", "fact", "opinion"),
        ("用户是认真的。", "fact", "unspecific"),
        ("在用户桌上睡觉。", "fact", "other-subject"),
        ("用户前年开始学钢琴。", "fact", "unanchored-date"),
        ("The assistant was really helpful.", "fact", "other-subject"),
        ("The weather was lovely in Porto.", "fact", "other-subject"),
        ("Sam's dog is called Rex.", "relation", "other-subject"),
        ("The user is in a weirdly good mood.", "fact", "unspecific"),
        ("The user's team has been so supportive.", "fact", "unspecific"),
    ],
)
def test_a_candidate_that_is_no_statement_about_the_user_is_turned_down(content: str, kind: str, reason: str) -> None:
    assert statement_reason(content, kind) == reason
    assert reason in REASONS


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        ("The user plays the cello in a community orchestra.", "fact"),
        ("The user's brother Tom lives in Glasgow.", "relation"),
        ("In May 2026 the user repainted the kitchen.", "episode"),
        ("The user is vegetarian.", "fact"),
        ("Only problem is time, the user works night shifts as a paramedic.", "fact"),
        ("用户在苏州当护士。", "fact"),
        ("用户的女儿小雨喜欢画画。", "relation"),
        ("用户养了一只黑猫，它叫煤球。", "fact"),
        # the user's team, project, family and pets are the user's context, not someone else
        ("The team builds with Bazel.", "fact"),
        ("Our repo uses pnpm workspaces.", "fact"),
        ("We deploy to Kubernetes on Fridays.", "fact"),
        ("The dog is called Biscuit.", "relation"),
        ("A bakery in Leeds hired the user.", "fact"),
        ("The user's cat is twelve.", "relation"),
        ("The user's sister is a nurse.", "relation"),
        ("The user uses PostgreSQL for everything.", "fact"),
        ("The user is passionate about veterans' rights.", "preference"),
    ],
)
def test_a_specific_statement_about_the_user_is_kept(content: str, kind: str) -> None:
    assert statement_reason(content, kind) is None
    assert item_reason(_item(content, kind)) is None


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("The user moved to Porto last month.", "The user moved to Porto in November 2026."),
        ("The user's rent went up as of this month.", "The user's rent went up as of December 2026."),
        ("The user started running about three years ago.", "The user started running in about 2023."),
        ("用户下个月开始在新公司上班。", "用户2027年1月开始在新公司上班。"),
        ("用户去年考了驾照。", "用户2025年考了驾照。"),
        (
            "The user is on call at the hospital this week.",
            "The user is on call at the hospital in the week of 2026-11-30.",
        ),
        ("用户这周在上海出差。", "用户2026-11-30那一周在上海出差。"),
    ],
)
def test_relative_dates_are_made_absolute_from_the_conversation_time(said: str, stored: str) -> None:
    now = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
    assert anchor_dates(said, now) == stored
    assert statement_reason(stored, "fact") is None


@pytest.mark.parametrize(
    ("rewrite", "stored"),
    [
        ("Okay, the user plays the cello in a quartet.", "The user plays the cello in a quartet."),
        (
            "Heads up, Jess and the user are getting two hens in June.",
            "Jess and the user are getting two hens in June.",
        ),
        ("Maria, the user moved to Leeds in 2024.", "The user moved to Leeds in 2024."),
    ],
)
def test_a_replys_opening_before_the_subject_is_dropped_not_the_statement(rewrite: str, stored: str) -> None:
    assert checked(rewrite, "fact") == (stored, None)
    assert checked("Nah, the user has not.", "fact") == ("Nah, the user has not.", "ill-formed")


def test_through_the_gateway_junk_is_logged_with_its_code_and_dates_are_absolute(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        time = {"X-Memorelay-Time": "2026-12-02T10:00:00Z"}
        say(url, "pia", "Nah, I haven't. I think family is everything. I moved to Porto last month.", headers=time)
        found = wait_for(lambda: memories(url, "pia"), timeout=90)
        say(url, "wen", "我觉得人生苦短。我去年考了驾照。", headers=time)
        found_zh = wait_for(lambda: memories(url, "wen"), timeout=90)
        entries = wait_for(lambda: len(log_entries(url)) >= 2 and log_entries(url), timeout=90)
    assert [m["content"] for m in found] == ["The user moved to Porto in November 2026."]
    assert [m["content"] for m in found_zh] == ["用户2025年考了驾照。"]
    codes = sorted(r.get("code") for e in entries for r in e["rejected"])
    assert codes == ["ill-formed", "opinion", "opinion"]


def test_a_models_items_and_a_remember_command_are_not_judged_as_sentences(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    items = [
        {"title": "Commute", "content": "Fine, the user always rides an e-bike to work.", "category": "domain"},
        {"title": "Build tool", "content": "Sam's team builds with Bazel.", "category": "technical"},
    ]
    fake.responder = learner(HIGH, items)
    with gateway(filters=learning(), auth={"admin_key": ADMIN}) as url:
        say(url, "lea", "Fine, I always ride an e-bike to work, and Sam's team builds with Bazel.")
        found = wait_for(lambda: len(memories(url, "lea")) == 2 and memories(url, "lea"), timeout=90)
    assert sorted(m["content"] for m in found) == [i["content"] for i in items]
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        # the same sentence said in passing is the offline learner's rewrite and is judged
        say(url, "max", "I think family is everything.")
        wait_for(lambda: log_entries(url), timeout=90)
        assert memories(url, "max") == []
        say(url, "max", "Remember: I think family is everything.")
        kept = wait_for(lambda: memories(url, "max"), timeout=90)
    assert [m["source"] for m in kept] == ["manual"]
