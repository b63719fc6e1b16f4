"""Partitioned vector index: exact numpy search for small partitions, hnswlib for large ones.

A partition is one (tenant, owner) pair: a user's personal memories, or a tenant's shared
and system memories, so one user's search never scans another user's vectors. The index
holds only *enabled* memories; it is derived data, rebuilt from SQLite (the source of truth)
when its files are missing, stale (generation mismatch) or corrupt (checksum mismatch).

Methods are synchronous and guarded by one lock; the service calls them through the
single CPU thread (``_offload.run_cpu``), so hnswlib never sees an add concurrent with a
query. ``ef`` is not stored by hnswlib and is set again after every load.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

import hnswlib
import numpy as np

PartitionKey = tuple[str, str]
FORMAT_VERSION = 1


class VectorIndex(Protocol):
    """What the service needs from a vector index (seam for other backends)."""

    def add(self, key: PartitionKey, ids: list[str], vectors: np.ndarray) -> None: ...
    def remove(self, key: PartitionKey, ids: Iterable[str]) -> None: ...
    def search(self, key: PartitionKey, query: np.ndarray, k: int) -> list[tuple[str, float]]: ...
    def count(self) -> int: ...


class _Exact:
    """Rows in a growable float32 buffer; delete swaps the last row in."""

    def __init__(self, dim: int) -> None:
        self.ids: list[str] = []
        self.pos: dict[str, int] = {}
        self.vecs = np.zeros((8, dim), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, ids: list[str], vectors: np.ndarray) -> None:
        self.remove(i for i in ids if i in self.pos)
        n = len(self.ids)
        need = n + len(ids)
        if need > self.vecs.shape[0]:
            grown = np.zeros((max(need, self.vecs.shape[0] * 2), self.vecs.shape[1]), np.float32)
            grown[:n] = self.vecs[:n]
            self.vecs = grown
        self.vecs[n:need] = vectors
        for offset, mid in enumerate(ids):
            self.pos[mid] = n + offset
        self.ids.extend(ids)

    def remove(self, ids: Iterable[str]) -> None:
        for mid in list(ids):
            row = self.pos.pop(mid, None)
            if row is None:
                continue
            last = len(self.ids) - 1
            if row != last:
                moved = self.ids[last]
                self.vecs[row] = self.vecs[last]
                self.ids[row] = moved
                self.pos[moved] = row
            self.ids.pop()

    def search(self, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        n = len(self.ids)
        if n == 0 or k <= 0:
            return []
        scores = self.vecs[:n] @ query
        if k < n:
            top = np.argpartition(-scores, k - 1)[:k]
            top = top[np.argsort(-scores[top])]
        else:
            top = np.argsort(-scores)
        return [(self.ids[i], float(scores[i])) for i in top]

    def vectors(self) -> np.ndarray:
        return self.vecs[: len(self.ids)]


class _Hnsw:
    """hnswlib cosine index with string ids mapped to integer labels."""

    def __init__(self, dim: int, capacity: int, *, ef: int, m: int, ef_construction: int) -> None:
        self.dim = dim
        self.ef = ef
        self.index = hnswlib.Index(space="cosine", dim=dim)
        self.index.init_index(
            max_elements=max(capacity, 16),
            ef_construction=ef_construction,
            M=m,
            allow_replace_deleted=True,
        )
        self.index.set_ef(ef)
        self.labels: dict[int, str] = {}
        self.pos: dict[str, int] = {}
        self.next_label = 0

    def __len__(self) -> int:
        return len(self.pos)

    def add(self, ids: list[str], vectors: np.ndarray, threads: int = 1) -> None:
        self.remove(i for i in ids if i in self.pos)
        need = len(self.pos) + len(ids)
        if need > self.index.get_max_elements():
            self.index.resize_index(max(need, self.index.get_max_elements() * 2))
        labels = np.arange(self.next_label, self.next_label + len(ids), dtype=np.int64)
        self.next_label += len(ids)
        self.index.add_items(vectors, labels, num_threads=threads, replace_deleted=True)
        for label, mid in zip(labels.tolist(), ids, strict=True):
            self.labels[label] = mid
            self.pos[mid] = label

    def remove(self, ids: Iterable[str]) -> None:
        for mid in list(ids):
            label = self.pos.pop(mid, None)
            if label is not None:
                self.index.mark_deleted(label)
                del self.labels[label]

    def search(self, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        k = min(k, len(self.pos))
        if k <= 0:
            return []
        self.index.set_ef(max(self.ef, k))
        labels, dists = self.index.knn_query(query, k=k, num_threads=1)
        return [
            (self.labels[int(lb)], 1.0 - float(d))
            for lb, d in zip(labels[0], dists[0], strict=True)
            if int(lb) in self.labels
        ]


class PartitionedIndex:
    """Per-partition vector search; see the module docstring for guarantees."""

    def __init__(
        self,
        dim: int,
        *,
        ef: int = 128,
        hnsw_threshold: int = 2_000,
        m: int = 16,
        ef_construction: int = 200,
        build_threads: int = -1,
    ) -> None:
        self.dim = dim
        self.ef = ef
        self.hnsw_threshold = hnsw_threshold
        self.m = m
        self.ef_construction = ef_construction
        self.build_threads = build_threads
        self._parts: dict[PartitionKey, _Exact | _Hnsw] = {}
        self._lock = threading.Lock()

    # -- mutation ---------------------------------------------------------------------------
    def add(self, key: PartitionKey, ids: list[str], vectors: np.ndarray, threads: int = 1) -> None:
        """Insert or replace ``ids`` in partition ``key``."""
        if not ids:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(len(ids), self.dim)
        with self._lock:
            part = self._parts.get(key)
            if part is None:
                part = self._parts[key] = _Exact(self.dim)
            if isinstance(part, _Exact) and len(part) + len(ids) > self.hnsw_threshold:
                part = self._parts[key] = self._to_hnsw(part, len(ids))
            if isinstance(part, _Hnsw):
                part.add(ids, vectors, threads)
            else:
                part.add(ids, vectors)

    def _to_hnsw(self, exact: _Exact, extra: int) -> _Hnsw:
        hnsw = self._new_hnsw(len(exact) + extra)
        if len(exact):
            hnsw.add(list(exact.ids), exact.vectors(), self.build_threads)
        return hnsw

    def _new_hnsw(self, capacity: int) -> _Hnsw:
        return _Hnsw(self.dim, capacity, ef=self.ef, m=self.m, ef_construction=self.ef_construction)

    def remove(self, key: PartitionKey, ids: Iterable[str]) -> None:
        with self._lock:
            part = self._parts.get(key)
            if part is not None:
                part.remove(ids)

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()

    # -- queries ----------------------------------------------------------------------------
    def search(self, key: PartitionKey, query: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Top ``k`` (id, cosine) in partition ``key``, best first."""
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        with self._lock:
            part = self._parts.get(key)
            return part.search(q, k) if part is not None else []

    def count(self) -> int:
        with self._lock:
            return sum(len(p) for p in self._parts.values())

    def partition_size(self, key: PartitionKey) -> int:
        with self._lock:
            part = self._parts.get(key)
            return len(part) if part is not None else 0

    # -- persistence ------------------------------------------------------------------------
    def save(self, directory: Path, meta: dict[str, Any]) -> None:
        """Write all partitions plus a manifest (written last, atomically) under ``directory``."""
        tmp = directory.with_name(directory.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        with self._lock:
            files: dict[str, int] = {}
            hnsw_parts: list[dict[str, Any]] = []
            keys_t: list[str] = []
            keys_o: list[str] = []
            ids: list[str] = []
            vecs: list[np.ndarray] = []
            for n, (key, part) in enumerate(self._parts.items()):
                if isinstance(part, _Exact):
                    keys_t.extend([key[0]] * len(part))
                    keys_o.extend([key[1]] * len(part))
                    ids.extend(part.ids)
                    vecs.append(part.vectors())
                    continue
                name = f"hnsw_{n}"
                part.index.save_index(str(tmp / f"{name}.bin"))
                labels = sorted(part.labels)
                np.save(tmp / f"{name}.labels.npy", np.asarray(labels, dtype=np.int64))
                np.save(tmp / f"{name}.ids.npy", np.asarray([part.labels[x] for x in labels]))
                hnsw_parts.append(
                    {
                        "key": list(key),
                        "file": name,
                        "next_label": part.next_label,
                        "max_elements": part.index.get_max_elements(),
                    }
                )
            with open(tmp / "exact.npz", "wb") as fh:
                np.savez(
                    fh,
                    tenant=np.asarray(keys_t, dtype=str),
                    owner=np.asarray(keys_o, dtype=str),
                    ids=np.asarray(ids, dtype=str),
                    vecs=np.concatenate(vecs) if vecs else np.zeros((0, self.dim), np.float32),
                )
            count = sum(len(p) for p in self._parts.values())
        for path in sorted(tmp.iterdir()):
            files[path.name] = _crc(path)
        manifest = {
            "format": FORMAT_VERSION,
            "dim": self.dim,
            "count": count,
            "files": files,
            "hnsw": hnsw_parts,
            **meta,
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest))
        old = directory.with_name(directory.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if directory.exists():
            os.replace(directory, old)
        os.replace(tmp, directory)
        shutil.rmtree(old, ignore_errors=True)

    @staticmethod
    def saved_meta(directory: Path) -> dict[str, Any] | None:
        """The manifest of the files saved under ``directory``, None if there is none readable."""
        try:
            manifest = json.loads((directory / "manifest.json").read_text())
        except (OSError, ValueError):
            return None
        return manifest if isinstance(manifest, dict) else None

    def load(self, directory: Path, expect: dict[str, Any]) -> bool:
        """Load saved partitions if the manifest matches ``expect`` and every checksum
        verifies; return False (index left empty) otherwise."""
        try:
            manifest = json.loads((directory / "manifest.json").read_text())
            if manifest.get("format") != FORMAT_VERSION or manifest.get("dim") != self.dim:
                return False
            if any(manifest.get(k) != v for k, v in expect.items()):
                return False
            for name, crc in manifest["files"].items():
                if _crc(directory / name) != crc:
                    return False
            parts = self._read(directory, manifest)
        except (OSError, ValueError, KeyError, RuntimeError, TypeError, zlib.error):
            return False
        if sum(len(p) for p in parts.values()) != manifest["count"]:
            return False
        with self._lock:
            self._parts = parts
        return True

    def _read(self, directory: Path, manifest: dict[str, Any]) -> dict[PartitionKey, Any]:
        parts: dict[PartitionKey, _Exact | _Hnsw] = {}
        with np.load(directory / "exact.npz", allow_pickle=False) as data:
            tenants, owners, ids, vecs = data["tenant"], data["owner"], data["ids"], data["vecs"]
            order = np.lexsort((owners, tenants))
            start = 0
            while start < len(order):
                t, o = tenants[order[start]], owners[order[start]]
                end = start
                while end < len(order) and tenants[order[end]] == t and owners[order[end]] == o:
                    end += 1
                rows = order[start:end]
                part = _Exact(self.dim)
                part.add([str(x) for x in ids[rows]], vecs[rows])
                parts[(str(t), str(o))] = part
                start = end
        for info in manifest["hnsw"]:
            name = info["file"]
            hnsw = _Hnsw.__new__(_Hnsw)
            hnsw.dim, hnsw.ef = self.dim, self.ef
            hnsw.index = hnswlib.Index(space="cosine", dim=self.dim)
            hnsw.index.load_index(
                str(directory / f"{name}.bin"),
                max_elements=info["max_elements"],
                allow_replace_deleted=True,
            )
            hnsw.index.set_ef(self.ef)
            labels = np.load(directory / f"{name}.labels.npy").tolist()
            mids = [str(x) for x in np.load(directory / f"{name}.ids.npy")]
            hnsw.labels = dict(zip(labels, mids, strict=True))
            hnsw.pos = {m: lb for lb, m in hnsw.labels.items()}
            hnsw.next_label = info["next_label"]
            parts[(info["key"][0], info["key"][1])] = hnsw
        return parts

    def build(self, groups: dict[PartitionKey, tuple[list[str], np.ndarray]]) -> None:
        """Replace the whole index with ``groups`` (bulk rebuild from SQLite)."""
        parts: dict[PartitionKey, _Exact | _Hnsw] = {}
        for key, (ids, vecs) in groups.items():
            part: _Exact | _Hnsw
            if len(ids) > self.hnsw_threshold:
                part = self._new_hnsw(len(ids))
                part.add(ids, vecs, self.build_threads)
            else:
                part = _Exact(self.dim)
                part.add(ids, vecs)
            parts[key] = part
        with self._lock:
            self._parts = parts


def _crc(path: Path) -> int:
    crc = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            crc = zlib.crc32(chunk, crc)
    return crc
