from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gateway.memory import Embedder, build_embedder


@pytest.fixture(scope="session")
def use_embedder() -> Embedder:
    """The real local USE embedder, built and warmed once per session."""
    embedder = build_embedder({"provider": "local"})
    assert embedder is not None
    asyncio.run(embedder.embed(["warm up"]))
    return embedder


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "memorelay.db")
