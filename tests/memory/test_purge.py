"""A deleted memory's text lingers nowhere: not in the database, the WAL, the keyword indexes
or the audit log (``gateway/memory/_purge.py``, migration 5)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gateway.store.sqlite.schema import MIGRATIONS
from tests.memory.helpers import note, opened, run

PII = ("13812345678", "110101199003070018", "4111111111111111")


def raw_hits(database: str) -> dict[str, list[str]]:
    """PII strings found in the raw bytes of the database, its -wal and its -shm file."""
    found: dict[str, list[str]] = {}
    for suffix in ("", "-wal", "-shm"):
        path = Path(database + suffix)
        if path.exists():
            data = path.read_bytes()
            hits = [p for p in PII if p.encode() in data]
            if hits:
                found[path.name] = hits
    return found


def test_deleted_memory_text_leaves_the_database_and_the_audit_log(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        kept = await s.add("t", "u", note("Keeps", "nothing secret here"), actor="u")
        m = await s.add("t", "u", note("Phone 13812345678", "ID 110101199003070018"), actor="u")
        await s.update("t", "u", m.id, {"content": "card 4111111111111111"}, actor="u")
        other = await s.add("t", "v", note("Mine 13812345678", "other user"), actor="v")
        await s.delete("t", "u", m.id, actor="u")
        await s.delete_all("t", "v", actor="v")
        log, _ = await s.audit_log(tenant="t")
        text = str([e for e in log if e.memory_id in (m.id, other.id)])
        assert not [p for p in PII if p in text], text
        assert [e.action for e in log if e.memory_id == m.id] == ["delete", "update", "create"]
        assert {"fields": ["content"]} in [e.before for e in log if e.memory_id == m.id]
        assert "nothing secret here" not in text and kept.id not in text
        await s.close()
        assert raw_hits(db_path) == {}

    run(main())


def test_migration_scrubs_audit_entries_of_already_deleted_memories(tmp_path: Path) -> None:
    database = str(tmp_path / "old.db")
    db = sqlite3.connect(database)
    for script in MIGRATIONS[:4]:  # a database from before the migration, with functions stubbed
        db.create_function("memorelay_part", 3, lambda *a: "p")
        db.create_function("memorelay_cjk", 1, lambda a: "")
        db.executescript(script)
    db.execute("PRAGMA user_version = 4")
    db.execute(
        "INSERT INTO audit_log (time, actor, action, memory_id, before, after) VALUES "
        "('t', 'u', 'delete', 'mem_gone', '{\"title\": \"Phone 13812345678\"}', NULL)"
    )
    db.commit()
    db.close()

    async def main() -> None:
        s = await opened(database, None)
        log, _ = await s.audit_log()
        assert log[0].before == {"fields": ["title"]}
        await s.close()

    run(main())
    assert raw_hits(database) == {}
