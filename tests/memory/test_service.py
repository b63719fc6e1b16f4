from __future__ import annotations

import contextlib
import sqlite3

import pytest

from gateway.memory import MemoryService, MemoryValidationError, NewMemory
from tests.memory.helpers import note, opened, run


async def _users(path: str) -> MemoryService:
    s = await opened(path, None)
    await s.add("t1", "alice", note("Alice likes tea", "Alice drinks green tea"), actor="alice")
    await s.add("t1", "bob", note("Bob likes coffee", "Bob drinks espresso"), actor="bob")
    await s.add("t2", "alice", note("Other tenant alice", "likes tea too"), actor="alice")
    await s.add(
        "t1",
        "",
        note("Company VPN", "Use the corporate VPN", "organizational", scope="shared"),
        actor="admin",
    )
    await s.add(
        "t1",
        "",
        note("Be concise", "Answers are short", "domain", scope="system", source="system"),
        actor="admin",
    )
    return s


def test_isolation_between_users_and_tenants(db_path: str) -> None:
    async def main() -> None:
        s = await _users(db_path)
        mine, total = await s.list("t1", "alice")
        assert total == 3
        assert {m.title for m in mine} == {"Alice likes tea", "Company VPN", "Be concise"}
        bob_mem = (await s.list("t1", "bob", personal_only=True))[0][0]
        assert await s.get("t1", "alice", bob_mem.id) is None
        assert await s.get("t2", "bob", bob_mem.id) is None
        assert await s.get("t1", "bob", bob_mem.id) is not None
        assert await s.update("t1", "alice", bob_mem.id, {"title": "hacked"}, actor="a") is None
        assert not await s.delete("t1", "alice", bob_mem.id, actor="alice")
        assert not await s.disable("t1", "alice", bob_mem.id, "x", actor="alice")
        assert not await s.delete("t2", "bob", bob_mem.id, actor="bob")
        assert [r.memory.title for r in await s.search("t1", "alice", "espresso")] == []
        assert [r.memory.title for r in await s.search("t1", "bob", "espresso")] == ["Bob likes coffee"]
        # other tenant sees neither t1's shared nor t1's alice
        t2, total2 = await s.list("t2", "alice")
        assert total2 == 1 and t2[0].title == "Other tenant alice"
        assert await s.search("t2", "alice", "corporate VPN") == []
        # shared/system visible to every user of the tenant, but not changeable
        shared = (await s.search("t1", "bob", "corporate VPN"))[0].memory
        assert shared.scope == "shared" and shared.user_id == ""
        assert await s.update("t1", "bob", shared.id, {"title": "x"}, actor="bob") is None
        assert not await s.delete("t1", "bob", shared.id, actor="bob")
        # no user: shared and system only
        assert {r.memory.title for r in await s.search("t1", None, "tea VPN concise")} == {
            "Company VPN",
            "Be concise",
        }
        assert await s.delete_all("t1", "alice", actor="alice") == 1
        assert await s.count_personal("t1", "bob") == 1
        assert await s.count_personal("t2", "alice") == 1
        await s.close()

    run(main())


def test_crud_audit_and_pagination(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        made = [await s.add("t", "u", note(f"note {i}", f"content {i}"), actor="u") for i in range(7)]
        page, total = await s.list("t", "u", limit=3, offset=0)
        assert total == 7 and [m.title for m in page] == ["note 6", "note 5", "note 4"]
        page, _ = await s.list("t", "u", limit=3, offset=6)
        assert [m.title for m in page] == ["note 0"]
        changed = await s.update("t", "u", made[0].id, {"content": "new body", "tags": ["a"]}, actor="u")
        assert changed is not None and changed.content == "new body" and changed.tags == ["a"]
        assert await s.disable("t", "u", made[1].id, "superseded by mem_x", actor="learning")
        got = await s.get("t", "u", made[1].id)
        assert got is not None and not got.enabled and got.disabled_reason == "superseded by mem_x"
        assert (await s.list("t", "u"))[1] == 6
        assert (await s.list("t", "u", include_disabled=True))[1] == 7
        assert await s.delete("t", "u", made[2].id, actor="u")
        assert await s.get("t", "u", made[2].id) is None
        await s.touch([made[3].id, made[3].id])
        touched = await s.get("t", "u", made[3].id)
        assert touched is not None and touched.access_count == 2 and touched.last_access_at
        log, n = await s.audit_log(tenant="t")
        assert n == 7 + 3 and [e.action for e in log[:3]] == ["delete", "disable", "update"]
        assert log[0].memory_id == made[2].id and log[0].actor == "u"
        stats = await s.stats("t", "u")
        assert stats.total == 6 and stats.enabled == 5
        assert stats.by_category == {"user_preference": 6}
        assert await s.get_settings("t", "u") == {"learning_enabled": True}
        assert await s.put_settings("t", "u", {"learning_enabled": False}) == {"learning_enabled": False}
        assert (await s.get_settings("t", "u"))["learning_enabled"] is False
        with pytest.raises(MemoryValidationError, match="learning_enabled"):
            await s.put_settings("t", "u", {"learning_enabled": "no"})
        assert made[0].to_json().keys() >= {"id", "tags", "score", "last_access_at"}
        await s.close()

    run(main())


@pytest.mark.parametrize(
    ("item", "field"),
    [
        (NewMemory("", "c", "technical"), "title"),
        (NewMemory("a\nb", "c", "technical"), "title"),
        (NewMemory("t" * 201, "c", "technical"), "title"),
        (NewMemory("t", "c" * 8001, "technical"), "content"),
        (NewMemory("t", "c", "misc"), "category"),
        (NewMemory("t", "c", "technical", tags=["x"] * 0 + [f"t{i}" for i in range(21)]), "tags"),
        (NewMemory("t", "c", "technical", tags=["x" * 51]), "tags"),
        (NewMemory("t", "c", "technical", scope="global"), "scope"),
        (NewMemory("t", "c", "technical", source="robot"), "source"),
        (NewMemory("t", "c", "technical", score=1.5), "score"),
    ],
)
def test_validation_names_the_field(db_path: str, item: NewMemory, field: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        try:
            with pytest.raises(MemoryValidationError, match=field):
                await s.add("t", "u", item, actor="u")
            m = await s.add("t", "u", note("ok"), actor="u")
            with pytest.raises(MemoryValidationError, match="owner"):
                await s.update("t", "u", m.id, {"owner": "x"}, actor="u")
            with pytest.raises(MemoryValidationError, match="user_id"):
                await s.add("t", "", note("no owner"), actor="u")
        finally:
            await s.close()

    run(main())


def test_admin_promote_evict_expire(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        _auto = [await s.add("t", "u", note(f"auto {i}", score=i / 10, source="auto"), actor="l") for i in range(5)]
        manual = await s.add("t", "u", note("manual keeps"), actor="u")
        assert await s.evict_lowest("t", "u", 3, actor="system") == 3
        left = {m.title for m in (await s.list("t", "u", include_disabled=True))[0]}
        assert left == {"auto 3", "auto 4", "manual keeps"}
        assert await s.evict_lowest("t", "u", 0, actor="system") == 2
        assert await s.count_personal("t", "u") == 1
        # a learning job's new memory is spared even when it scores lowest
        newest = await s.add("t", "u", note("just said", score=0.01, source="auto"), actor="l")
        kept = await s.add("t", "u", note("said before", score=0.9, source="auto"), actor="l")
        assert await s.evict_lowest("t", "u", 2, actor="learning", protect=[newest.id]) == 1
        assert {m.id for m in (await s.list("t", "u"))[0]} == {newest.id, manual.id}
        assert kept.id not in {m.id for m in (await s.list("t", "u", include_disabled=True))[0]}
        await s.delete("t", "u", newest.id, actor="u")
        promoted = await s.promote(manual.id, actor="admin")
        assert promoted is not None and promoted.scope == "shared" and promoted.user_id == ""
        other = await s.search("t", "someone-else", "manual keeps")
        assert [r.memory.id for r in other] == [manual.id]
        entry = (await s.audit_log(limit=1))[0][0]
        assert entry.action == "promote" and entry.user_id == "u"
        users = await s.list_users(None)
        assert users == [] or all(u["user_id"] != "u" for u in users)
        stats = await s.admin_stats("t")
        assert stats.by_scope == {"shared": 1}
        assert await s.admin_update(manual.id, {"score": 0.5}, actor="admin") is not None
        assert await s.expire(0, actor="system") == 0  # nothing auto left
        await s.add("t", "v", note("old auto", source="auto"), actor="l")
        with contextlib.closing(sqlite3.connect(db_path)) as db, db:
            db.execute(
                "UPDATE memories SET created_at = '2000-01-01T00:00:00Z', "
                "updated_at = '2000-01-01T00:00:00Z' WHERE user_id = 'v'"
            )
        assert (await s.admin_stats(None)).learned_per_day == {"2000-01-01": 1}
        assert await s.expire(365, actor="system") == 1
        assert await s.admin_delete(manual.id, actor="admin")
        assert await s.admin_get(manual.id) is None
        await s.close()

    run(main())


def test_a_supersede_disables_only_what_the_user_left_as_it_was(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        tea = await s.add("t1", "alice", note("Tea", "Alice drinks green tea"), actor="learning")
        cat = await s.add("t1", "alice", note("Cat", "Alice has a cat"), actor="learning")
        bob = await s.add("t1", "bob", note("Bob", "Bob drinks tea"), actor="learning")
        # the learner has read tea and cat; the user edits cat before the learner writes
        await s.update("t1", "alice", cat.id, {"content": "Alice has two cats"}, actor="alice")
        new, replaced = await s.supersede(
            "t1", "alice", note("Oolong", "Alice drinks oolong now"), [tea, cat, bob], "changed", actor="learning"
        )
        assert replaced == [tea.id]
        old = await s.get("t1", "alice", tea.id)
        assert old is not None and not old.enabled and old.disabled_reason == f"superseded by {new.id} (changed)"
        edited = await s.get("t1", "alice", cat.id)
        assert edited is not None and edited.enabled and edited.content == "Alice has two cats"
        other = await s.get("t1", "bob", bob.id)
        assert other is not None and other.enabled  # never another user's
        entries, _ = await s.audit_log(tenant="t1", limit=3)
        assert {(e.memory_id, e.action) for e in entries[:2]} == {(new.id, "create"), (tea.id, "disable")}
        await s.close()

    run(main())
