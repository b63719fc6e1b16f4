from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from gateway.config import user_cache_folder
from gateway.memory import Embedder, build_embedder
from gateway.store import Backend
from gateway.store.backend import sqlite_backend


@pytest.fixture(scope="session")
def use_embedder() -> Embedder:
    """The real local USE embedder, built and warmed once per session (from the user's cache
    folder, as the gateway loads it)."""
    embedder = build_embedder({"provider": "local", "cache_folder": user_cache_folder(os.environ)})
    assert embedder is not None
    asyncio.run(embedder.embed(["warm up"]))
    return embedder


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "memorelay.db")


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Backend]:
    """A factory of (unopened) backends on one fresh database: call it twice for two replicas."""
    if request.param == "sqlite":
        path = str(tmp_path / "memorelay.db")
        return lambda: sqlite_backend(path)
    try:
        postgres = importlib.import_module("gateway.store.postgres")
        pg = importlib.import_module("tests.pg")
    except ImportError as exc:
        pytest.skip(f"the PostgreSQL backend or tests/pg.py is not here: {exc}")
    url = pg.fresh_database_url()
    # create_backend reads only config.memory.database
    config = SimpleNamespace(memory=SimpleNamespace(database=url))
    return lambda: cast(Backend, postgres.create_backend(config))
