"""Replacement by key, end to end with the offline learner: changes in many wordings supersede,
attributes with several values add, "no longer" disables, "forget X" keeps what replaced X,
and an edited memory is never superseded through the key it no longer says."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.conftest import GatewayFactory
from tests.e2e.test_learning import ADMIN, learning, log_entries, memories, say, wait_for
from tests.e2e.test_memory_api import user_client
from tests.fake_upstream import FakeUpstream


@dataclass(frozen=True)
class Sequence:
    """Turns said in order; then ``active`` words must each be in an active memory, ``gone``
    words in none, and every disabled memory must name the memory that replaced it when
    ``named`` (a supersede, not a retraction or a forget)."""

    turns: tuple[str, ...]
    active: tuple[str, ...]
    gone: tuple[str, ...]
    named: bool = True


CHANGES = [
    Sequence(("We deploy on Kubernetes.", "We moved from Kubernetes to Nomad."), ("Nomad",), ("Kubernetes",)),
    Sequence(("Our app is hosted on Heroku.", "We now deploy on Render instead."), ("Render",), ("Heroku",)),
    Sequence(("We use MySQL.", "我们改用 PostgreSQL 了。"), ("PostgreSQL",), ("MySQL",)),
    Sequence(("I live in Berlin.", "I live in Munich now."), ("Munich",), ("Berlin",)),
    Sequence(("我住在杭州。", "我上个月搬到北京了。"), ("北京",), ("杭州",)),
    Sequence(("We use Jest for tests.", "We switched from Jest to Vitest."), ("Vitest",), ("Jest",)),
    Sequence(("Our database is MySQL.", "We use PostgreSQL now."), ("PostgreSQL",), ("MySQL",)),
    Sequence(("I work at Acme.", "I joined Globex last month."), ("Globex",), ("Acme",)),
    Sequence(("We run everything on AWS.", "We migrated to GCP."), ("GCP",), ("AWS",)),
    Sequence(("我们部署在阿里云上。", "我们迁到腾讯云了。"), ("腾讯云",), ("阿里云",)),
    Sequence(("I moved to Lisbon last year.", "I live in Porto now."), ("Porto",), ("Lisbon",)),
    Sequence(("I like coffee.", "I don't like coffee anymore."), ("not like coffee",), ("The user likes coffee",)),
    # the old value is named only in the change ("from X to Y", a Latin name inside Chinese, sold)
    Sequence(
        ("I edit photos in Darktable.", "I moved from Darktable to RawTherapee."), ("RawTherapee",), ("Darktable",)
    ),
    Sequence(("我们用Notion记笔记。", "我们不用Notion了，现在换成Obsidian。"), ("Obsidian",), ("Notion",)),
    Sequence(("我用佳能R6拍照。", "佳能出掉了，现在改用富士X-T5。"), ("富士",), ("佳能",)),
    # only the new value is said: another day, time or count on the same topic replaces the old one
    Sequence(
        ("Our standup is every Monday morning.", "The standup got moved, it's on Thursdays now."),
        ("Thursday",),
        ("Monday",),
    ),
    Sequence(("我每周二晚上上瑜伽课。", "瑜伽课改到周四晚上了。"), ("周四",), ("周二",)),
    Sequence(("I keep 12 chickens in the garden.", "I keep 20 chickens now."), ("20",), ("12",)),
    # Nomad is where the app runs, not where the user lives
    Sequence(("I live in Berlin.", "We moved from Kubernetes to Nomad."), ("Berlin", "Nomad"), ()),
    # a relation's facts are not the user's
    Sequence(("I live in Berlin.", "My sister lives in Munich."), ("Berlin", "Munich"), ()),
    # attributes with several values add
    Sequence(("I speak French.", "I speak German."), ("French", "German"), ()),
    Sequence(("I'm allergic to peanuts.", "I'm also allergic to shellfish."), ("peanuts", "shellfish"), ()),
    Sequence(("I have a cat.", "My daughter is called Mia."), ("cat", "Mia"), ()),
    # "no longer" disables without a new value
    Sequence(("We use Jest.", "We no longer use Jest."), (), ("Jest",), named=False),
    Sequence(("我们用 Jest 做测试。", "我们不再用 Jest 了。"), (), ("Jest",), named=False),
    Sequence(("I play tennis.", "I stopped playing tennis."), (), ("tennis",), named=False),
]
FORGETS = [
    Sequence(
        ("We deploy on Kubernetes.", "We moved from Kubernetes to Nomad.", "Forget what I said about Kubernetes."),
        ("Nomad",),
        ("Kubernetes",),
        named=False,
    ),
    Sequence(
        ("We use Jest for tests.", "We switched from Jest to Vitest.", "忘记我说的Jest"),
        ("Vitest",),
        ("Jest",),
        named=False,
    ),
    Sequence(
        ("I live in Berlin.", "I speak French.", "Please forget what I said about Berlin."),
        ("French",),
        ("Berlin",),
        named=False,
    ),
    Sequence(("我住在杭州。", "我喜欢喝咖啡。", "忘记我说的杭州"), ("咖啡",), ("杭州",), named=False),
]


def _check(url: str, user: str, seq: Sequence) -> str | None:
    """What is wrong after ``seq`` (None when all is right)."""
    active = " | ".join(m["content"] for m in memories(url, user))
    every = memories(url, user, include_disabled="true")
    ids = {m["id"] for m in every}
    for word in seq.active:
        if word.lower() not in active.lower():
            return f"{word!r} not active: {active}"
    for word in seq.gone:
        if word.lower() in active.lower():
            return f"{word!r} still active: {active}"
    if seq.named:
        for m in every:
            if not m["enabled"] and not any(i in (m["disabled_reason"] or "") for i in ids):
                return f"disabled without naming its replacement: {m['disabled_reason']}"
    return None


def jobs_of(url: str, user: str) -> list[dict[str, Any]]:
    r = httpx.get(url + "/api/admin/learning-log", params={"limit": 200}, headers={"authorization": f"Bearer {ADMIN}"})
    return [e for e in r.json()["data"] if e["user_id"] == user]


def run_sequences(url: str, sequences: list[Sequence], prefix: str) -> dict[str, str]:
    failures: dict[str, str] = {}
    for k, seq in enumerate(sequences):
        user = f"{prefix}{k}"
        for n, turn in enumerate(seq.turns, 1):
            say(url, user, turn)
            wait_for(lambda n=n, user=user: len(jobs_of(url, user)) >= n, timeout=60)  # type: ignore[misc]
        problem = _check(url, user, seq)
        if problem is not None:
            every = memories(url, user, include_disabled="true")
            failures[" → ".join(seq.turns)] = f"{problem} {[(m['content'], m['disabled_reason']) for m in every]}"
    return failures


def test_changes_supersede_by_key_and_forget_keeps_the_replacement(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        changes = run_sequences(url, CHANGES, "c")
        forgets = run_sequences(url, FORGETS, "f")
    print(
        f"\nchanges {len(CHANGES) - len(changes)}/{len(CHANGES)}, forgets {len(FORGETS) - len(forgets)}/{len(FORGETS)}"
    )
    assert not changes and not forgets, {**changes, **forgets}


def test_a_superseded_memory_names_its_replacement_and_the_key_is_shown(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic", review="queue"), auth={"admin_key": ADMIN}) as url:
        say(url, "kim", "We deploy on Kubernetes.")
        (first,) = wait_for(lambda: memories(url, "kim"), timeout=60)
        assert first["slot"] == "stack.hosting"
        say(url, "kim", "We moved from Kubernetes to Nomad.")
        wait_for(lambda: len(log_entries(url)) == 2, timeout=60)
        # a new value for a key is explicit: it applies at once, even with the review queue on
        (active,) = memories(url, "kim")
        assert "Nomad" in active["content"] and active["slot"] == "stack.hosting"
        old = user_client(url, "kim").get(f"/api/memories/{first['id']}").json()
        assert old["enabled"] is False and active["id"] in old["disabled_reason"]
        assert "stack.hosting" in old["disabled_reason"]


def test_an_edited_memory_is_not_superseded_through_its_old_key(gateway: GatewayFactory, fake: FakeUpstream) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        say(url, "eve", "I live in Berlin.")
        (home,) = wait_for(lambda: memories(url, "eve"), timeout=60)
        assert home["slot"] == "home.city"
        c = user_client(url, "eve")
        edited = c.patch(f"/api/memories/{home['id']}", json={"content": "The user likes jazz."}).json()
        assert edited["slot"] != "home.city"
        say(url, "eve", "I live in Munich now.")
        wait_for(lambda: len(log_entries(url)) == 2, timeout=60)
        texts = {m["content"]: m["enabled"] for m in memories(url, "eve", include_disabled="true")}
        assert texts.get("The user likes jazz.") is True, texts
        assert any("Munich" in t for t in texts), texts
        # an edit that says a key again takes it: the next change supersedes it
        c.patch(f"/api/memories/{home['id']}", json={"content": "The user lives in Hamburg."})
        assert c.get(f"/api/memories/{home['id']}").json()["slot"] == "home.city"


def test_a_manual_memory_gets_its_key_and_is_replaced_by_a_learned_change(
    gateway: GatewayFactory, fake: FakeUpstream
) -> None:
    with gateway(filters=learning(model="heuristic"), auth={"admin_key": ADMIN}) as url:
        c = user_client(url, "max")
        made = c.post(
            "/api/memories", json={"title": "Home", "content": "The user lives in Vienna.", "category": "domain"}
        ).json()
        assert made["slot"] == "home.city"
        say(url, "max", "I moved to Graz.")
        wait_for(lambda: len(log_entries(url)) == 1, timeout=60)
        assert c.get(f"/api/memories/{made['id']}").json()["enabled"] is False


@pytest.mark.parametrize("review", ["auto", "queue"])
def test_a_retraction_is_logged_as_disabled(gateway: GatewayFactory, fake: FakeUpstream, review: str) -> None:
    with gateway(filters=learning(model="heuristic", review=review), auth={"admin_key": ADMIN}) as url:
        say(url, "ola", "We use Jest.")
        (jest,) = wait_for(lambda: memories(url, "ola"), timeout=60)
        say(url, "ola", "We no longer use Jest.")
        entries: list[dict[str, Any]] = wait_for(lambda: len(log_entries(url)) == 2 and log_entries(url), timeout=60)
        assert entries[0]["disabled"] == [jest["id"]] and entries[0]["added"] == []
        assert memories(url, "ola") == []
