from __future__ import annotations

import contextlib
import shutil
import sqlite3
from pathlib import Path

from gateway.memory import Embedder
from gateway.memory.embedders import LocalUSEEmbedder
from tests.memory.helpers import note, opened, run

QUERIES = ["what does the user drink", "我养了什么宠物", "programming language"]


async def _fill(path: str, embedder: Embedder) -> list[str]:
    s = await opened(path, embedder)
    made = await s.add_many(
        "t",
        "u",
        [
            note("Coffee", "The user drinks espresso"),
            note("Pet", "The user has a cat called Mochi"),
            note("Stack", "The user codes in Go and TypeScript", "technical"),
            note("Gone", "The user lives in Berlin"),
        ],
        actor="u",
    )
    await s.add(
        "t",
        "",
        note("Shared", "Company uses GitLab", "organizational", scope="shared"),
        actor="admin",
    )
    assert await s.delete("t", "u", made[3].id, actor="u")
    await s.close()
    return [m.id for m in made]


async def _results(path: str, embedder: Embedder) -> tuple[list[list[str]], str]:
    s = await opened(path, embedder)
    out = [[r.memory.id for r in await s.search("t", "u", q, limit=5)] for q in QUERIES]
    state = s.index_state
    await s.close()
    return out, state


def _index_dir(path: str) -> Path:
    return Path(path + ".index")


def test_restart_without_index_files_gives_same_results(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        ids = await _fill(db_path, use_embedder)
        assert (_index_dir(db_path) / "manifest.json").exists()
        first, state = await _results(db_path, use_embedder)
        assert state == "loaded"
        assert all(ids[3] not in r for r in first)
        shutil.rmtree(_index_dir(db_path))
        second, state = await _results(db_path, use_embedder)
        assert state == "rebuilt" and second == first

    run(main())


def test_crash_with_stale_or_corrupt_files_rebuilds(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        ids = await _fill(db_path, use_embedder)
        baseline, _ = await _results(db_path, use_embedder)
        # crash: change data and never call close(); the saved files are now stale
        s = await opened(db_path, use_embedder)
        assert await s.delete("t", "u", ids[0], actor="u")
        extra = await s.add("t", "u", note("Tea", "The user drinks jasmine tea"), actor="u")
        await s.store.close()  # the process dies: connections gone, no index save
        s.ready = False
        results, state = await _results(db_path, use_embedder)
        assert state == "rebuilt"
        flat = {i for r in results for i in r}
        assert ids[0] not in flat and ids[3] not in flat and extra.id in flat
        # corrupt a file but keep the manifest
        blob = _index_dir(db_path) / "exact.npz"
        blob.write_bytes(b"garbage" + blob.read_bytes()[7:])
        again, state = await _results(db_path, use_embedder)
        assert state == "rebuilt" and again == results
        (_index_dir(db_path) / "manifest.json").write_text("{not json")
        again, state = await _results(db_path, use_embedder)
        assert state == "rebuilt" and again == results
        assert baseline != results

    run(main())


def test_changed_embedder_triggers_reindex(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        await _fill(db_path, use_embedder)
        renamed = LocalUSEEmbedder()
        renamed.name = "another-model"
        results, state = await _results(db_path, renamed)
        assert state == "reindexed"
        s = await opened(db_path, renamed)
        with contextlib.closing(sqlite3.connect(db_path)) as db:
            rows = db.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchall()
        assert rows == [("another-model",)]
        assert s.index_state == "loaded"
        await s.close()
        assert results[0]

    run(main())


def test_keyword_only_then_embedder_embeds_missing(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        s = await opened(db_path, None)
        await s.add("t", "u", note("Pet", "The user has a cat called Mochi"), actor="u")
        assert await s.nearest("t", "u", "cat") == []
        await s.close()
        s = await opened(db_path, use_embedder)
        near = await s.nearest("t", "u", "the user owns a cat named Mochi", k=1)
        assert near and near[0][0].title == "Pet"
        await s.close()

    run(main())


def test_hnsw_partition_survives_restart(db_path: str, use_embedder: Embedder) -> None:
    async def main() -> None:
        s = await opened(db_path, use_embedder, hnsw_threshold=5)
        made = await s.add_many(
            "t",
            "u",
            [note(f"fact {i}", f"The user's favourite number is {i}") for i in range(12)]
            + [note("Pet", "The user has a cat called Mochi")],
            actor="u",
        )
        assert (await s.nearest("t", "u", "a cat named Mochi", k=1))[0][0].title == "Pet"
        assert await s.delete("t", "u", made[-1].id, actor="u")
        await s.close()
        assert any(p.name.endswith(".bin") for p in _index_dir(db_path).iterdir())
        s = await opened(db_path, use_embedder, hnsw_threshold=5)
        assert s.index_state == "loaded"
        near = await s.nearest("t", "u", "a cat named Mochi", k=3)
        assert made[-1].id not in {m.id for m, _ in near} and len(near) == 3
        again = await s.add("t", "u", note("Dog", "The user has a dog called Rex"), actor="u")
        assert (await s.nearest("t", "u", "a dog named Rex", k=1))[0][0].id == again.id
        await s.close()

    run(main())
