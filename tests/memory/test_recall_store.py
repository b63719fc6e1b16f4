"""Store contract for the recall statistics' read of the citation log (``recent_uses``), on
both backends (the ``backend`` fixture of tests/memory/conftest.py)."""

from __future__ import annotations

from gateway.store import Backend, Use
from tests.memory.test_store_contract import Factory, mem, run


def test_recent_uses_newest_first_by_user_and_conversation(backend: Factory) -> None:
    async def body(b: Backend) -> None:
        s = b.memories
        await s.insert([mem("a", "Tea"), mem("c", "Cake"), mem("s", "Shared", scope="shared")], None)
        await s.add_uses(
            [
                Use("t", "u", "a", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "u", "s", "conv-1", "chat_completions", "2026-01-01T00:00:00Z"),
                Use("t", "v", "s", "conv-1", "responses", "2026-01-01T00:00:01Z"),
                Use("t2", "u", "a", "conv-1", "chat_completions", "2026-01-01T00:00:02Z"),
            ]
        )
        await s.add_uses(
            [
                Use("t", "u", "c", "conv-2", "messages", "2026-01-02T00:00:00Z"),
                Use("t", "u", "a", None, "chat_completions", "2026-01-03T00:00:00Z"),
            ]
        )
        got = await s.recent_uses("t", "u", None, 10)
        assert [(u.memory_id, u.conversation_id) for u in got] == [
            ("a", None),
            ("c", "conv-2"),
            ("s", "conv-1"),
            ("a", "conv-1"),
        ]
        assert got[0] == Use("t", "u", "a", None, "chat_completions", "2026-01-03T00:00:00Z")
        assert [u.memory_id for u in await s.recent_uses("t", "u", None, 2)] == ["a", "c"]
        # one conversation only; keyed by tenant and user
        assert [u.memory_id for u in await s.recent_uses("t", "u", "conv-1", 10)] == ["s", "a"]
        assert [u.memory_id for u in await s.recent_uses("t", "v", "conv-1", 10)] == ["s"]
        assert [u.memory_id for u in await s.recent_uses("t2", "u", None, 10)] == ["a"]
        assert await s.recent_uses("t", "nobody", None, 10) == []

    run(backend, body)
