"""The local encoder's fast-loading copy: written by the first load, used by the next ones,
and never trusted when it does not reproduce the package's embeddings."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from gateway.memory.model_cache import _STATE, load_use

TEXTS = ["I like drinking coffee", "我喜欢喝咖啡", "Die Katze heißt Mimi und ist 3 Jahre alt."]


def _from_copy(model: Any) -> bool:
    """Whether the model's embedding table is read from the copy's file (memory-mapped)."""
    return isinstance(model._backend.table.base, np.memmap)


def _copies(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.name.startswith("usem3-"))


def test_first_load_writes_a_copy_the_next_loads_use_with_the_same_vectors(tmp_path: Path) -> None:
    cold = load_use(1, str(tmp_path))
    assert not _from_copy(cold)
    [copy] = _copies(tmp_path)
    assert (copy / _STATE).is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".partial-")]

    started = time.process_time()
    warm = load_use(1, str(tmp_path))
    loaded_in = time.process_time() - started
    assert _from_copy(warm)
    assert np.abs(np.asarray(warm.encode(TEXTS)) - np.asarray(cold.encode(TEXTS))).max() <= 1e-5
    assert loaded_in < 0.5  # the package's own load takes about 0.9 s of CPU


def test_a_copy_that_does_not_reproduce_the_probe_is_replaced(tmp_path: Path) -> None:
    package = np.asarray(load_use(1, None).encode(TEXTS))
    load_use(1, str(tmp_path))
    [copy] = _copies(tmp_path)
    # as if the weights had changed under the copy
    np.save(copy / "lo.npy", np.zeros_like(np.load(copy / "lo.npy")))

    model = load_use(1, str(tmp_path))
    assert not _from_copy(model)  # the package's loader, with the package's vectors ...
    assert np.abs(np.asarray(model.encode(TEXTS)) - package).max() <= 1e-5
    again = load_use(1, str(tmp_path))  # ... which wrote a good copy in place of the bad one
    assert _from_copy(again)
    assert np.abs(np.asarray(again.encode(TEXTS)) - package).max() <= 1e-5


def test_an_unreadable_copy_falls_back_and_no_folder_means_no_copy(tmp_path: Path) -> None:
    load_use(1, str(tmp_path))
    [copy] = _copies(tmp_path)
    (copy / _STATE).write_bytes(b"not marshal")
    model = load_use(1, str(tmp_path))
    assert not _from_copy(model)
    assert np.asarray(model.encode(TEXTS)).shape == (3, 512)
    assert _from_copy(load_use(1, str(tmp_path)))

    assert not _from_copy(load_use(1, None))
