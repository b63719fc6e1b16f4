"""Consolidation and reflection reports through the HTTP surface and the CLI, on both backends:
learned near-duplicates are merged, a cluster of small related facts becomes one summary that
injection then serves, the originals stay (disabled, naming the memory that holds their facts),
and the reports list what happened (user API, admin API, operator console, the user's page)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.conftest import GatewayFactory
from tests.console.helpers import browser_session, mint
from tests.console.test_operator_http import operator
from tests.e2e.test_injection import block_of, chat
from tests.e2e.test_learning import HIGH, LOW, is_learning_call, learner, learning, memories, say, wait_for
from tests.e2e.test_memory_api import ADMIN, add, admin_client, user_client
from tests.e2e.test_pinned import database
from tests.fake_upstream import FakeUpstream
from tests.test_cli import memorelay

TEA = [
    {"title": "Likes green tea", "content": "The user likes green tea.", "category": "user_preference"},
    {"title": "Enjoys green tea", "content": "The user enjoys green tea.", "category": "user_preference"},
]
DOG = [
    {"title": "Dog shoes", "content": "The user's dog chews shoes.", "category": "domain"},
    {"title": "Dog baths", "content": "The user's dog hates baths.", "category": "domain"},
    {"title": "Dog shedding", "content": "The user's dog sheds a lot.", "category": "domain"},
    {"title": "Dog snoring", "content": "The user's dog snores at night.", "category": "domain"},
]
# facts with a key (``slot``: pets.dog, profile.dog): a newer value replaces them, so they are
# never compressed into a summary, however close they are to the cluster
KEYED = [
    {"title": "Dog", "content": "The user has a dog.", "category": "domain"},
    {"title": "Dog breed", "content": "The user's dog is a beagle.", "category": "domain"},
]
LOCAL = {"embedding": {"provider": "local"}}


def _options(kind: str, **learning_options: Any) -> dict[str, Any]:
    options = {"max_items": 10, "consolidate_cluster_threshold": 0.45, **learning_options}
    return {"filters": learning(**options), "auth": {"admin_key": ADMIN}, "memory": {**LOCAL, **database(kind)}}


def _learn(url: str, fake: FakeUpstream, user: str, items: list[dict[str, str]]) -> dict[str, str]:
    fake.responder = learner(HIGH, items)
    say(
        url,
        user,
        "About me: I like green tea; my dog is a beagle, chews shoes, hates baths, sheds a lot and snores at night.",
    )
    found = wait_for(lambda: len(memories(url, user)) == len(items) and memories(url, user))
    assert all(m["source"] == "auto" for m in found)
    return {m["title"]: m["id"] for m in found}


def _all(url: str, user: str) -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in memories(url, user, include_disabled="true", limit=200)}


def _check_consolidated(url: str, fake: FakeUpstream, learned: dict[str, str], manual_id: str) -> dict[str, Any]:
    """The state after one round; answers the user's report."""
    everything = _all(url, "dana")
    tea = [everything[learned[t["title"]]] for t in TEA]
    (kept,) = [m for m in tea if m["enabled"]]
    (merged,) = [m for m in tea if not m["enabled"]]
    assert merged["disabled_reason"] == f"merged into {kept['id']}"
    dogs = [everything[learned[d["title"]]] for d in DOG]
    assert not any(m["enabled"] for m in dogs)
    reasons = {m["disabled_reason"] for m in dogs}
    assert len(reasons) == 1
    summary_id = reasons.pop().removeprefix("consolidated into ")
    summary = everything[summary_id]
    assert summary["enabled"] and summary["source"] == "auto" and summary["category"] == "domain"
    for fact in DOG:
        assert summary["content"].count(fact["content"]) == 1  # every fact kept, once
    assert everything[manual_id]["enabled"]  # a manual memory is never consolidated
    # injection serves the summary, never the disabled originals (and nothing is learned from the question)
    fake.responder = learner(LOW, [])
    question = "Why does my dog chew shoes and snore at night?"
    chat(url, "dana", [{"role": "user", "content": question}])
    sent = [r for r in fake.chats() if question in str(r.body) and not is_learning_call(r.body)]
    block = block_of(sent[-1].body["messages"])  # type: ignore[index]
    assert summary["content"] in block
    assert "chews shoes" not in block.replace(summary["content"], "")
    # the user's latest report lists the merge and the consolidation
    r = user_client(url, "dana").get("/api/memories/reflection")
    assert r.status_code == 200, r.text
    report: dict[str, Any] = r.json()
    assert report["kind"] == "user" and report["user_id"] == "dana"
    assert report["counts"]["merged"] == 1 and report["ids"]["merged"] == [merged["id"]]
    assert report["merges"] == [{"into": kept["id"], "ids": [merged["id"]]}]
    assert report["counts"]["consolidated"] == 4 and set(report["ids"]["consolidated"]) == set(
        learned[d["title"]] for d in DOG
    )
    assert report["ids"]["summaries"] == [summary_id]
    assert report["counts"]["learned"] == 6 and summary_id not in report["ids"]["learned"]
    return report


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_cli_merges_duplicates_compresses_a_cluster_and_reports_it(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path, kind: str
) -> None:
    options = _options(kind, consolidate_interval_h=0)
    with gateway(**options) as url:
        learned = _learn(url, fake, "dana", TEA + DOG)
        manual = add(user_client(url, "dana"), "Dog", "The user owns a dog.", category="domain")
        none = user_client(url, "dana").get("/api/memories/reflection")
        assert none.status_code == 404 and none.json()["error"]["code"] == "not_found"
    config = tmp_path / "cli.yaml"
    memory = {"database": str(tmp_path / "db" / "memorelay.db"), **options["memory"]}  # the gateway fixture's file
    config.write_text(yaml.safe_dump({"memory": memory, "filters": options["filters"]}))

    dry = memorelay("memories", "consolidate", "--config", str(config), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would change (dry run)" in dry.stdout and "merged 1 into 1, consolidated 4 into 1" in dry.stdout
    done = memorelay("memories", "consolidate", "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert "merged 1 into 1, consolidated 4 into 1 summaries" in done.stdout
    assert "2 reflection reports written" in done.stdout  # dana's and her tenant's
    printed = re.search(r"into (mem_[0-9a-f]+) \(", done.stdout)
    assert printed is not None

    with gateway(**options) as url:
        report = _check_consolidated(url, fake, learned, manual["id"])
        assert report["ids"]["summaries"] == [printed.group(1)]
        admin = admin_client(url)
        page = admin.get("/api/admin/reflections", params={"tenant": report["tenant"]}).json()
        assert page["total"] == 2 and {r["kind"] for r in page["data"]} == {"user", "tenant"}
        (tenant_report,) = [r for r in page["data"] if r["kind"] == "tenant"]
        assert tenant_report["users"] == 1 and tenant_report["counts"]["consolidated"] == 4
        for kind, expected in (("tenant", tenant_report), ("user", report)):
            only = admin.get("/api/admin/reflections", params={"kind": kind}).json()
            assert only["total"] == 1 and only["data"] == [expected]
        wrong = admin.get("/api/admin/reflections", params={"kind": "team"})
        assert wrong.status_code == 400 and wrong.json()["error"]["param"] == "kind"
        mine = admin.get("/api/admin/reflections", params={"user": "dana"}).json()
        assert mine["total"] == 1 and mine["data"][0] == report
        assert admin.get("/api/admin/reflections", params={"user": "nobody"}).json()["total"] == 0
        assert httpx.get(url + "/api/admin/reflections").status_code == 401
        # the operator console lists it; the user's own page says what was learned
        console, _ = operator(url)
        html = console.get("/console/reflections", params={"user": "dana"}).text
        assert f'data-reflection="{report["id"]}"' in html and 'data-kind="consolidated">4<' in html
        assert report["ids"]["summaries"][0] in html
        me, _ = browser_session(url, mint(url, "dana", key="sk-app"))
        mine_html = me.get("/me/").text
        assert 'id="reflection"' in mine_html and re.search(
            r'data-kind="consolidated"><dt>[^<]+<span class="count">4<', mine_html
        )
        for memory_id in report["ids"]["consolidated"]:  # each memory it counts, linked
            assert f'<a href="/me/memories/{memory_id}">' in mine_html
        # a second round finds nothing left to do
    again = memorelay("memories", "consolidate", "--config", str(config), "--user", "dana")
    assert again.returncode == 0 and "merged 0 into 0, consolidated 0 into 0" in again.stdout
    with gateway(**options) as url:
        # the reports are deleted with the user's data
        c = user_client(url, "dana")
        assert c.delete("/api/memories", params={"confirm": "true"}).status_code == 204
        assert c.get("/api/memories/reflection").status_code == 404
        assert admin_client(url).get("/api/admin/reflections", params={"user": "dana"}).json()["total"] == 0


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_periodic_round_consolidates_and_leaves_an_opted_out_user_alone(
    gateway: GatewayFactory, fake: FakeUpstream, kind: str
) -> None:
    options = _options(kind, consolidate_interval_h=0)
    with gateway(**options) as url:
        learned = _learn(url, fake, "dana", TEA + DOG)
        manual = add(user_client(url, "dana"), "Dog", "The user owns a dog.", category="domain")
        kept = _learn(url, fake, "omar", TEA)
        assert (
            user_client(url, "omar").put("/api/memories/settings", json={"learning_enabled": False}).status_code == 200
        )
    # a round every 1.8 s: the first one 1.8 s after start
    with gateway(
        **{**options, "filters": learning(**{**options["filters"][1]["learning"], "consolidate_interval_h": 0.0005})}
    ) as url:
        wait_for(lambda: user_client(url, "dana").get("/api/memories/reflection").status_code == 200, timeout=30)
        _check_consolidated(url, fake, learned, manual["id"])
        # learning off: consolidation is learning too, so omar's memory stays as it is; his report is written
        assert {m["id"] for m in memories(url, "omar")} == set(kept.values())
        report = wait_for(
            lambda: (r := user_client(url, "omar").get("/api/memories/reflection")).status_code == 200 and r.json()
        )
        assert report["counts"]["merged"] == 0 and report["counts"]["learned"] == 2


RULES_SUMMARY = "rules"  # the offline summary: every fact's sentence, once


@pytest.mark.parametrize(
    ("merged", "kept"),
    [
        ("The user's dog chews shoes, hates baths, sheds a lot and snores at night.", None),
        # the model dropped the snoring: the rules' summary, which keeps every fact, is used
        ("The user's dog chews shoes, hates baths and sheds a lot.", RULES_SUMMARY),
        # the model made up a number: refused too
        ("The user's dog chews 2 shoes a day, hates baths, sheds a lot and snores at night.", RULES_SUMMARY),
    ],
)
def test_the_learning_model_writes_the_summary_with_one_call_per_cluster(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path, upstream_url: str, merged: str, kept: str | None
) -> None:
    options = _options("sqlite", consolidate_interval_h=0, model="gpt-4o-mini")
    options["upstreams"] = {"default": {"api_key": "sk-upstream"}}  # a key of the gateway's own
    with gateway(**options) as url:
        learned = _learn(url, fake, "dana", DOG)
    learn = learner(HIGH, DOG)

    def respond(body: dict[str, Any]) -> str | None:
        if "You merge short facts" in body["messages"][-1]["content"]:
            return '```json\n{"title": "Dog", "content": "' + merged + '"}\n```'
        return learn(body)

    fake.responder = respond
    config = tmp_path / "cli.yaml"
    memory = {"database": str(tmp_path / "db" / "memorelay.db"), **options["memory"]}
    upstreams = {"default": {"api_base": upstream_url, "api_key": "sk-upstream"}}
    config.write_text(yaml.safe_dump({"memory": memory, "filters": options["filters"], "upstreams": upstreams}))
    done = memorelay("memories", "consolidate", "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert "summaries by llm:gpt-4o-mini" in done.stdout and "consolidated 4 into 1" in done.stdout
    calls = [r for r in fake.chats() if "You merge short facts" in str(r.body)]
    prompt = calls[0].body["messages"][-1]["content"]  # type: ignore[index]
    assert len(calls) == 1 and all(d["content"] in prompt for d in DOG)
    assert calls[0].headers["authorization"] == "Bearer sk-upstream"
    with gateway(**options) as url:
        (summary,) = memories(url, "dana")
        assert summary["id"] not in learned.values()
        if kept is None:
            assert summary["content"] == merged
        else:
            assert sorted(summary["content"].replace(". ", ".\n").splitlines()) == sorted(d["content"] for d in DOG)


def test_facts_with_a_key_are_left_out_of_a_cluster_summary(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    options = _options("sqlite", consolidate_interval_h=0)
    with gateway(**options) as url:
        learned = _learn(url, fake, "dana", DOG + KEYED)
        before = _all(url, "dana")
        assert all(before[learned[k["title"]]]["slot"] for k in KEYED)
        assert not any(before[learned[d["title"]]]["slot"] for d in DOG)
    done = memorelay("memories", "consolidate", "--config", str(_cli_config(tmp_path, options)))
    assert done.returncode == 0, done.stderr
    assert "consolidated 4 into 1" in done.stdout, done.stdout
    with gateway(**options) as url:
        everything = _all(url, "dana")
        for fact in KEYED:  # still there as itself, so a newer value can replace it
            m = everything[learned[fact["title"]]]
            assert m["enabled"] and m["disabled_reason"] is None and m["content"] == fact["content"]
        (summary,) = [m for m in everything.values() if m["id"] not in learned.values()]
        assert all(d["content"] in summary["content"] for d in DOG)
        assert not any(k["content"] in summary["content"] for k in KEYED)


ALLERGIES = [
    {"title": "Allergy", "content": f"The user is allergic to {nut}.", "category": "domain"}
    for nut in ("peanuts", "walnuts", "cashews")
]


def _cli_config(tmp_path: Path, options: dict[str, Any], **more: Any) -> Path:
    """A config for ``memorelay memories consolidate`` on the gateway fixture's SQLite file."""
    config = tmp_path / "cli.yaml"
    memory = {"database": str(tmp_path / "db" / "memorelay.db"), **options["memory"]}
    config.write_text(yaml.safe_dump({"memory": memory, "filters": options["filters"], **more}))
    return config


def test_facts_that_look_alike_but_differ_are_never_merged_away(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    # three allergies read alike to the embedder (cosine 0.90-0.95): none may be disabled as a
    # "merge"; the consolidation keeps each one, as itself or inside a summary
    options = _options("sqlite", consolidate_interval_h=0)
    with gateway(**options) as url:
        fake.responder = learner(HIGH, ALLERGIES)
        say(url, "ali", "I am allergic to peanuts, walnuts and cashews.")
        wait_for(lambda: len(memories(url, "ali")) == 3)
    done = memorelay("memories", "consolidate", "--config", str(_cli_config(tmp_path, options)))
    assert done.returncode == 0, done.stderr
    assert "merged 0 into 0" in done.stdout, done.stdout
    with gateway(**options) as url:
        everything = _all(url, "ali").values()
        assert not any((m["disabled_reason"] or "").startswith("merged into") for m in everything)
        active = " ".join(m["content"] for m in everything if m["enabled"])
        for fact in ALLERGIES:
            assert fact["content"] in active
        fake.responder = learner(LOW, [])
        question = "Which nuts should I avoid?"
        chat(url, "ali", [{"role": "user", "content": question}])
        sent = [r for r in fake.chats() if question in str(r.body) and not is_learning_call(r.body)]
        block = block_of(sent[-1].body["messages"])  # type: ignore[index]
        for nut in ("peanuts", "walnuts", "cashews"):
            assert f"allergic to {nut}" in block


def test_the_cli_writes_no_report_for_a_user_without_memories_and_refuses_empty_names(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    options = _options("sqlite", consolidate_interval_h=0)
    with gateway(**options) as url:
        add(user_client(url, "dana"), "Dog", "The user owns a dog.", category="domain")
    config = str(_cli_config(tmp_path, options))
    ghost = memorelay("memories", "consolidate", "--config", config, "--tenant", "nosuch", "--user", "ghost")
    assert ghost.returncode == 0, ghost.stderr
    assert "no memories for user 'ghost' in tenant 'nosuch'" in ghost.stdout
    assert "0 reflection reports written" in ghost.stdout
    for flags in (["--tenant", "", "--user", ""], ["--user", " "], ["--tenant", ""]):
        empty = memorelay("memories", "consolidate", "--config", config, *flags)
        assert empty.returncode == 2 and empty.stdout == ""
        assert len(empty.stderr.strip().splitlines()) == 1 and "must not be empty" in empty.stderr
    with gateway(**options) as url:
        page = admin_client(url).get("/api/admin/reflections").json()
        assert page["total"] == 0, page


def test_one_failing_user_does_not_stop_the_round(gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path) -> None:
    options = _options("sqlite", consolidate_interval_h=0)
    with gateway(**options) as url:
        learned = _learn(url, fake, "dana", TEA + DOG)
        for user in ("abe", "zoe"):  # before and after dana
            c = user_client(url, user)
            add(c, "Secret", f"The user {user} keeps a secret diary.", category="domain")
            assert c.put("/api/memories/settings", json={"learning_enabled": True}).status_code == 200
    # abe's and zoe's settings rows are damaged (not JSON): their passes fail, dana's goes on
    with sqlite3.connect(tmp_path / "db" / "memorelay.db") as db:
        db.execute("UPDATE user_settings SET settings = '{' WHERE user_id IN ('abe', 'zoe')")
    done = memorelay("memories", "consolidate", "--config", str(_cli_config(tmp_path, options)))
    assert done.returncode == 1, done.stderr
    assert "merged 1 into 1, consolidated 4 into 1 summaries" in done.stdout
    assert "/abe: failed" in done.stdout and "/zoe: failed" in done.stdout and "2 users failed" in done.stdout
    assert "'abe'" in done.stderr and "secret diary" not in done.stderr
    assert "2 reflection reports written" in done.stdout  # dana's and her tenant's
    with gateway(**options) as url:
        everything = _all(url, "dana")
        assert not any(everything[i]["enabled"] for i in (learned[d["title"]] for d in DOG))
        assert user_client(url, "dana").get("/api/memories/reflection").status_code == 200
        assert user_client(url, "abe").get("/api/memories/reflection").status_code == 404


def test_the_memory_holding_the_facts_counts_the_originals_uses(
    gateway: GatewayFactory, fake: FakeUpstream, tmp_path: Path
) -> None:
    options = _options("sqlite", consolidate_interval_h=0)
    with gateway(**options) as url:
        learned = _learn(url, fake, "dana", TEA + DOG)
        fake.responder = learner(LOW, [])
        for _ in range(2):
            chat(
                url,
                "dana",
                [{"role": "user", "content": "Which green tea suits me, and why does my dog chew shoes and shed?"}],
            )
        before = {m["id"]: m["uses"] for m in memories(url, "dana", limit=100)}
        tea, dog = sum(before[learned[t["title"]]] for t in TEA), sum(before[learned[d["title"]]] for d in DOG)
        assert tea >= 2 and dog >= 2, before
    done = memorelay("memories", "consolidate", "--config", str(_cli_config(tmp_path, options)))
    assert done.returncode == 0, done.stderr
    with gateway(**options) as url:
        active = {m["id"]: m for m in memories(url, "dana", limit=100)}
        (kept,) = [m for m in active.values() if m["id"] in {learned[t["title"]] for t in TEA}]
        (summary,) = [m for m in active.values() if m["id"] not in learned.values()]
        assert kept["uses"] == tea and summary["uses"] == dog
        c = user_client(url, "dana")
        assert c.get(f"/api/memories/{summary['id']}/uses").json()["total"] == dog
        assert sum(m["uses"] for m in memories(url, "dana", limit=100, include_disabled="true")) == tea + dog
