"""The key of a memory's sentence: subject and attribute from the parse, never from a word list
of slots (a tool's name decides only where the frame says nothing, as in "uses X")."""

from __future__ import annotations

import pytest

from gateway.learning.offline.keys import derive_key, key_of, named_only_as_old


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # where the app runs: the frame decides, and Nomad is no city
        ("The user's team deploys on Kubernetes.", "stack.hosting"),
        ("The user moved from Kubernetes to Nomad.", "stack.hosting"),
        ("The user's team now deploys on Nomad instead.", "stack.hosting"),
        ("The user's app is hosted on Heroku.", "stack.hosting"),
        ("The user's app runs on a single Hetzner box.", "stack.hosting"),
        ("The user's team moved the app onto Fly.io last month.", "stack.hosting"),
        ("The user migrated to GCP.", "stack.hosting"),
        ("The user ships to Coolify.", "stack.hosting"),
        # home: "live in", "moved to" a place
        ("The user lives in Munich now.", "home.city"),
        ("The user moved to Lisbon last year.", "home.city"),
        ("The user is based in Lyon.", "home.city"),
        ("The user's family lives in Osaka.", "home.city"),
        # a relation's facts have the relation as subject
        ("The user's sister lives in Munich.", "rel.sister.home.city"),
        ("The user's daughter Mia turned five.", "rel.mia.age"),
        ("Mia is the user's daughter.", "family.daughter"),
        ("The user's daughter is called Mia.", "family.daughter"),
        ("The user has a dog named Rex.", "pets.dog"),
        # tools, by what they are when the verb says nothing
        ("The user's team uses Jest.", "stack.tests"),
        ("No longer on Jest: Vitest now.", "stack.tests"),
        ("The user's test runner is Vitest.", "stack.tests"),
        ("The user's database is MySQL.", "stack.database"),
        ("The user's team writes the frontend in Svelte.", "stack.frontend"),
        ("The user edits code in Neovim.", "stack.editor"),
        ("The user's CI is GitHub Actions.", "stack.ci"),
        # work, languages, tastes
        ("The user works at Acme as a data engineer.", "work.employer"),
        ("The user is a data engineer.", "work.role"),
        ("The user joined Globex last month.", "work.employer"),
        ("The user speaks French and German.", "lang.spoken"),
        ("The user likes coffee.", "taste.coffee"),
        ("The user does not like coffee anymore.", "taste.coffee"),
        ("The user is allergic to peanuts.", "health.allergies"),
        # the attributes a sentence names by their own word
        ("The user prefers tabs over spaces.", "code.indentation"),
        ("The user is vegetarian.", "diet"),
        ("The user's team has 8 engineers.", "team.size"),
        # Chinese clause patterns
        ("用户改用 PostgreSQL 了。", "stack.database"),
        ("用户住在杭州。", "home.city"),
        ("用户上个月搬到北京了。", "home.city"),
        ("用户的团队部署在阿里云上。", "stack.hosting"),
        ("用户的团队从 MySQL 迁到了 PostgreSQL。", "stack.database"),
        ("用户不再用 Jest 了。", "stack.tests"),
        ("用户在阿里巴巴工作。", "work.employer"),
        ("用户的妈妈住在杭州。", "rel.mother.home.city"),
        ("用户女儿叫小美。", "family.daughter"),
        ("用户会说日语。", "lang.spoken"),
        ("用户喜欢喝咖啡。", "taste.咖啡"),
        ("用户对花生过敏。", "health.allergies"),
        ("用户吃素。", "diet"),
        # nothing to key
        ("The user is tired of meetings that could have been an e-mail.", None),
        ("用户觉得这个方案不错。", None),
    ],
)
def test_derive_key(text: str, key: str | None) -> None:
    assert derive_key(text) == key


@pytest.mark.parametrize(
    ("text", "change", "retraction", "multi"),
    [
        ("The user moved from Kubernetes to Nomad.", True, False, False),
        ("The user's team now deploys on Nomad instead.", True, False, False),
        ("The user's team deploys on Kubernetes.", False, False, False),
        ("The user no longer uses Jest.", False, True, False),
        ("The user stopped playing tennis.", False, True, True),
        ("用户不再用 Jest 了。", False, True, False),
        ("用户改用 PostgreSQL 了。", True, False, False),
        ("The user speaks German.", False, False, True),
    ],
)
def test_what_a_sentence_says_of_its_value(text: str, change: bool, retraction: bool, multi: bool) -> None:
    key = key_of(text)
    assert key is not None
    assert (key.change, key.retraction, key.multi) == (change, retraction, multi)


def test_old_values_are_not_what_a_memory_is_about() -> None:
    key = key_of("The user's team migrated from Kubernetes to Nomad.")
    assert key is not None and key.values == ("nomad",) and key.old == ("kubernetes",)
    assert named_only_as_old("The user's team migrated from Kubernetes to Nomad.", "Kubernetes")
    assert not named_only_as_old("The user's team migrated from Kubernetes to Nomad.", "Nomad")
    assert not named_only_as_old("The user's team deploys on Kubernetes.", "Kubernetes")
