"""Access counts are never lost: buffered while the database is locked, written at shutdown
(``gateway/memory/_access.py``)."""

from __future__ import annotations

import sqlite3
import threading

from tests.memory.helpers import note, opened, run


def test_access_counts_survive_a_locked_database(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None, busy_timeout_ms=20)
        made = [await s.add("t", "u", note(f"fact {i}"), actor="u") for i in range(3)]
        other = sqlite3.connect(db_path, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # another writer holds the lock past busy_timeout
        try:
            for _ in range(50):
                await s.touch([m.id for m in made])
        finally:
            other.commit()
            other.close()
        await s.touch([made[0].id])
        await s.close()
        again = await opened(db_path, None)
        counts = [(await again.get("t", "u", m.id)).access_count for m in made]  # type: ignore[union-attr]
        assert counts == [51, 50, 50]

    run(main())


def test_access_counts_buffered_at_shutdown_are_written(db_path: str) -> None:
    async def main() -> None:
        s = await opened(db_path, None, busy_timeout_ms=20)
        m = await s.add("t", "u", note("fact"), actor="u")
        other = sqlite3.connect(db_path, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        for _ in range(5):
            await s.touch([m.id])
        threading.Timer(0.5, other.commit).start()
        await s.close()  # waits out the lock, then writes the buffered counts
        other.close()
        again = await opened(db_path, None)
        assert (await again.get("t", "u", m.id)).access_count == 5  # type: ignore[union-attr]

    run(main())
