from __future__ import annotations

import numpy as np
import pytest

from gateway.memory import Embedder, build_embedder
from gateway.memory.embedders import LiteLLMEmbedder, LocalUSEEmbedder
from tests.memory.helpers import run


def test_build_embedder_variants() -> None:
    assert build_embedder({"provider": "none"}) is None
    assert isinstance(build_embedder({"provider": "local"}), LocalUSEEmbedder)
    remote = build_embedder({"provider": "litellm", "model": "text-embedding-3-small"})
    assert isinstance(remote, LiteLLMEmbedder) and remote.name == "litellm:text-embedding-3-small"
    with pytest.raises(ValueError, match="model"):
        build_embedder({"provider": "litellm"})
    with pytest.raises(ValueError, match="provider"):
        build_embedder({"provider": "magic"})


def test_local_embedder_shape_norm_cache_and_languages(use_embedder: Embedder) -> None:
    async def main() -> None:
        texts = ["I like drinking coffee", "我喜欢喝咖啡", "The weather is cold today"]
        vecs = await use_embedder.embed(texts)
        assert vecs.shape == (3, use_embedder.dim) and vecs.dtype == np.float32
        assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
        assert vecs[0] @ vecs[1] > 0.6 > vecs[0] @ vecs[2]  # translation close, unrelated far
        again = await use_embedder.embed([texts[1], texts[1]])
        assert np.array_equal(again[0], vecs[1]) and np.array_equal(again[1], vecs[1])
        assert (await use_embedder.embed([])).shape == (0, use_embedder.dim)

    run(main())
