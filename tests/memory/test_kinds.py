"""Memory kinds: the kind a memory stored without one gets, on both backends' migrations."""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import orjson
import pytest

from gateway.learning.options import LearningOptions
from gateway.memory import derive_kind
from gateway.store.backend import sqlite_backend
from gateway.store.sqlite.keywords import SQL_FUNCTIONS
from gateway.store.sqlite.schema import MIGRATIONS as SQLITE_MIGRATIONS

# (category, subcategory, title, content, tags) -> the kind an older row gets
OLD_ROWS: dict[str, tuple[tuple[str, str, str, str, object], str]] = {
    "m_rule": (("user_preference", "language", "Answer language", "Always answer in Chinese", []), "rule"),
    "m_rule_zh": (("user_preference", "style", "回答风格", "以后总是用中文回答", []), "rule"),
    "m_pref": (("user_preference", "food", "Tea", "The user likes green tea", []), "preference"),
    # "always" alone does not make a rule: a taste is not an instruction about answers
    "m_habit": (("user_preference", "food", "Tea", "The user always drinks tea", []), "preference"),
    "m_fact": (("technical", "", "Stack", "The team uses Go", []), "fact"),
    "m_tagged": (("technical", "", "Deploy rule", "Deploys go through staging", ["Rule"]), "rule"),
    "m_episode": (("domain", "", "Vet visit", "On 2026-11-30 Max saw the vet", ["x", "episode"]), "episode"),
    # tags trimmed alike on both backends; tags that are not a JSON array (an older row's scalar,
    # an entry that is no string) name no kind, and the migration goes on
    "m_padded": (("domain", "", "Dentist", "Saw the dentist", ["\tEpisode \n"]), "episode"),
    "m_mixed": (("domain", "", "Sister", "Ana is the user's sister", [1, None, "relation"]), "relation"),
    "m_scalar": (("user_preference", "food", "Tea", "Likes tea", "rule"), "preference"),
    "m_number": (("technical", "", "Stack", "Uses Go", 5), "fact"),
    "m_object": (("technical", "", "Stack", "Uses Rust", {"kind": "rule"}), "fact"),
}


def test_derive_kind_follows_tags_then_standing_wording_then_category() -> None:
    for (category, subcategory, title, content, tags), expected in OLD_ROWS.values():
        assert derive_kind(category, subcategory, title, content, tags) == expected, title
    assert derive_kind("user_preference", "style", "Tone", "Never uses bullet points", []) == "rule"
    assert derive_kind("business", "style", "Tone", "Always answer briefly", []) == "fact"


def _old_sqlite(path: str) -> None:
    """A database as memorelay wrote it before kinds (schema version 15), holding OLD_ROWS."""
    db = sqlite3.connect(path)
    for name, n_args, func in SQL_FUNCTIONS:
        db.create_function(name, n_args, func)
    for script in SQLITE_MIGRATIONS[:15]:
        db.executescript(script)
    db.execute("PRAGMA user_version = 15")
    for mid, ((category, subcategory, title, content, tags), _) in OLD_ROWS.items():
        db.execute(
            "INSERT INTO memories (id, tenant, user_id, scope, category, subcategory, title, content, tags, "
            "source, score, created_at, updated_at) VALUES (?, 't', 'u', 'personal', ?, ?, ?, ?, ?, 'auto', 1.0, "
            "'2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
            (mid, category, subcategory, title, content, orjson.dumps(tags).decode()),
        )
    db.commit()
    db.close()


def test_sqlite_migration_gives_older_rows_their_kind(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    _old_sqlite(path)

    async def main() -> dict[str, str]:
        backend = sqlite_backend(path)
        await backend.open()
        try:
            found = await backend.memories.fetch(list(OLD_ROWS))
            return {mid: m.kind for mid, m in found.items()}
        finally:
            await backend.close()

    assert asyncio.run(main()) == {mid: kind for mid, (_, kind) in OLD_ROWS.items()}


def test_postgres_migration_gives_older_rows_their_kind() -> None:
    try:
        postgres = importlib.import_module("gateway.store.postgres")
        schema = importlib.import_module("gateway.store.postgres.schema")
        pg = importlib.import_module("tests.pg")
        psycopg = importlib.import_module("psycopg")
    except ImportError as exc:
        pytest.skip(f"the PostgreSQL backend or tests/pg.py is not here: {exc}")
    url = pg.fresh_database_url()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE memorelay_migrations (version integer PRIMARY KEY, applied_at timestamptz)")
        for version, script in enumerate(schema.MIGRATIONS[:7], start=1):
            conn.execute(script.encode())
            conn.execute("INSERT INTO memorelay_migrations (version, applied_at) VALUES (%s, now())", (version,))
        for mid, ((category, subcategory, title, content, tags), _) in OLD_ROWS.items():
            conn.execute(
                "INSERT INTO memories (id, tenant, user_id, scope, category, subcategory, title, content, tags, "
                "source, score, created_at, updated_at) VALUES (%s, 't', 'u', 'personal', %s, %s, %s, %s, %s, "
                "'auto', 1.0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
                (mid, category, subcategory, title, content, orjson.dumps(tags).decode()),
            )

    async def main() -> dict[str, str]:
        backend = postgres.create_backend(SimpleNamespace(memory=SimpleNamespace(database=url)))
        await backend.open()
        try:
            found = await backend.memories.fetch(list(OLD_ROWS))
            return {mid: m.kind for mid, m in found.items()}
        finally:
            await backend.close()

    assert asyncio.run(main()) == {mid: kind for mid, (_, kind) in OLD_ROWS.items()}


def test_default_kind_caps_evict_nothing_the_per_user_cap_kept() -> None:
    # an upgrade makes every older memory a fact (or a preference): the default fact cap is the
    # per-user cap, whatever the operator set it to, so no upgrade evicts a memory it kept
    assert LearningOptions().max_per_kind == {
        "fact": 500,
        "preference": 200,
        "relation": 200,
        "episode": 200,
        "rule": 50,
    }
    assert LearningOptions(max_memories_per_user=2000).max_per_kind["fact"] == 2000
    assert LearningOptions(max_per_kind={"fact": 10}).max_per_kind == {"fact": 10}  # set: kept as set
    assert LearningOptions().episode_half_life_days == 30  # events fade faster than facts (90)
