"""Store contract for pinned (L1) memories and the citation log, on both backends (the
``backend`` fixture of tests/memory/conftest.py)."""

from __future__ import annotations

from dataclasses import replace

from gateway.store import Backend, Use
from tests.memory.test_store_contract import Factory, mem, run


def test_pinned_sees_own_and_tenant_rows_only(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert(
            [
                replace(mem("a", "Answer in Chinese", created="2026-01-02T00:00:00Z"), pinned=True),
                replace(mem("b", "Other user's rule", user="v"), pinned=True),
                replace(mem("c", "House style", scope="shared", created="2026-01-01T00:00:00Z"), pinned=True),
                replace(mem("d", "Other tenant", tenant="t2", scope="shared"), pinned=True),
                mem("e", "Not pinned"),
                replace(mem("f", "Disabled pin"), pinned=True, enabled=False),
            ],
            None,
        )
        assert [m.id for m in await s.pinned("t", "u")] == ["c", "a"]  # oldest first
        assert [m.id for m in await s.pinned("t", None)] == ["c"]
        assert (await s.fetch_one("a")) is not None and (await s.fetch_one("a")).pinned is True  # type: ignore[union-attr]
        assert await s.count_pinned("t", "u") == 2  # the disabled pin counts against the cap
        await s.write_fields("a", {"pinned": False})
        assert [m.id for m in await s.pinned("t", "u")] == ["c"]
        assert await s.count_pinned("t", "u") == 1

    run(backend, body)


def test_uses_are_logged_listed_counted_and_pruned(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("a", "Tea"), mem("s", "Shared", scope="shared")], None)
        await s.add_uses(
            [
                Use("t", "u", "a", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "u", "s", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "v", "s", None, "responses", "2026-03-01T00:00:00Z"),
                Use("t", "u", "a", "conv-2", "messages", "2026-03-02T00:00:00Z"),
            ]
        )
        data, total = await s.uses("a", "t", "u", limit=1, offset=0)
        assert total == 2
        assert data == [
            {
                "memory_id": "a",
                "user_id": "u",
                "conversation_id": "conv-2",
                "surface": "messages",
                "time": "2026-03-02T00:00:00Z",
            }
        ]
        assert (await s.uses("a", "t", "u", limit=5, offset=1))[0][0]["conversation_id"] == "conv-1"
        assert (await s.uses("s", "t", "u", limit=5, offset=0))[1] == 1  # own uses of a shared memory
        assert (await s.uses("s", "t", None, limit=5, offset=0))[1] == 2  # every user's
        assert (await s.uses("s", "t2", None, limit=5, offset=0))[1] == 0  # keyed by tenant
        assert await s.count_uses("t", "u") == 3
        after = await s.uses_after(0, 2)
        assert [u.conversation_id for _, u in after] == ["conv-1", "conv-1"]
        assert [u.surface for _, u in await s.uses_after(after[-1][0], 10)] == ["responses", "messages"]
        assert await s.prune_uses("2026-02-01T00:00:00Z") == 2
        assert await s.count_uses("t", "u") == 1
        await s.delete(["a"])  # a deleted memory leaves no uses behind
        assert await s.count_uses("t", "u") == 0

    run(backend, body)


def test_uses_move_with_their_user_to_another_tenant(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("a", "Tea"), mem("b", "Coffee", user="v")], None)
        await s.add_uses(
            [
                Use("t", "u", "a", None, "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "v", "b", None, "chat_completions", "2026-01-01T00:00:00Z"),
            ]
        )
        await s.move_tenant("t", "t2", "u")
        assert await s.count_uses("t2", "u") == 1 and await s.count_uses("t", "u") == 0
        assert await s.count_uses("t", "v") == 1

    run(backend, body)


def test_use_counts_answer_a_page_in_one_read(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("a", "Tea"), mem("s", "Shared", scope="shared"), mem("n", "Never used")], None)
        await s.add_uses(
            [
                Use("t", "u", "a", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "u", "a", "conv-2", "chat_completions", "2026-01-02T00:00:00Z"),
                Use("t", "u", "s", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "v", "s", None, "responses", "2026-01-03T00:00:00Z"),
                Use("t2", "u", "a", None, "responses", "2026-01-03T00:00:00Z"),  # another tenant's log
            ]
        )
        assert await s.use_counts("t", ["a", "s", "n", "gone"]) == {"a": 2, "s": 2, "n": 0, "gone": 0}
        assert await s.use_counts("t", ["s", "a"], "u") == {"s": 1, "a": 2}  # a user's own uses
        assert await s.use_counts("t", ["s"], "w") == {"s": 0}
        assert await s.use_counts("t2", ["a"]) == {"a": 1}
        assert await s.use_counts("t", []) == {}
        many = [f"x{i}" for i in range(1200)] + ["a"]  # past one statement's parameter chunk
        counts = await s.use_counts("t", many)
        assert len(counts) == 1201 and counts["a"] == 2 and sum(counts.values()) == 2

    run(backend, body)
