from __future__ import annotations

from pathlib import Path

import numpy as np

from gateway.store.vector_index import PartitionedIndex


def _vecs(n: int, dim: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    out: np.ndarray = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def test_exact_and_hnsw_partitions(tmp_path: Path) -> None:
    dim = 16
    index = PartitionedIndex(dim, hnsw_threshold=50)
    small, big = _vecs(20, dim, 1), _vecs(120, dim, 2)
    index.add(("t", "a"), [f"a{i}" for i in range(20)], small)
    for start in range(0, 120, 30):  # crosses the threshold: converts to hnswlib
        index.add(("t", "b"), [f"b{i}" for i in range(start, start + 30)], big[start : start + 30])
    assert index.partition_size(("t", "a")) == 20 and index.partition_size(("t", "b")) == 120
    assert index.search(("t", "a"), small[3], 1)[0][0] == "a3"
    assert index.search(("t", "b"), big[77], 1)[0][0] == "b77"
    assert all(h.startswith("a") for h, _ in index.search(("t", "a"), big[0], 20))
    assert index.search(("t", "nobody"), small[0], 5) == []
    index.remove(("t", "a"), ["a3"])
    index.remove(("t", "b"), ["b77"])
    assert "a3" not in {h for h, _ in index.search(("t", "a"), small[3], 20)}
    assert "b77" not in {h for h, _ in index.search(("t", "b"), big[77], 10)}
    index.add(("t", "a"), ["a4"], big[:1])  # replace a vector
    assert index.search(("t", "a"), big[0], 1)[0][0] == "a4"
    assert index.count() == 138
    index.save(tmp_path / "idx", {"generation": 3})
    loaded = PartitionedIndex(dim, hnsw_threshold=50)
    assert not loaded.load(tmp_path / "idx", {"generation": 4})
    assert loaded.load(tmp_path / "idx", {"generation": 3})
    assert loaded.count() == 138
    assert "b77" not in {h for h, _ in loaded.search(("t", "b"), big[77], 10)}
    assert loaded.search(("t", "b"), big[5], 1)[0][0] == "b5"
    loaded.add(("t", "b"), ["b_new"], small[:1])
    assert loaded.search(("t", "b"), small[0], 1)[0][0] == "b_new"


def test_exports() -> None:
    import gateway.memory as memory

    assert set(memory.__all__) >= {
        "MemoryService",
        "Memory",
        "ScoredMemory",
        "NewMemory",
        "MemoryValidationError",
        "Embedder",
        "build_embedder",
        "count_tokens",
        "fit_to_budget",
        "render_block",
        "strip_block",
        "MEMORY_BLOCK_START",
        "MEMORY_BLOCK_END",
    }
    assert memory.build_embedder({"provider": "none"}) is None
