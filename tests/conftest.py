from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from gateway.app import create_app
from gateway.config import config_from_dict
from gateway.http.forwarded import proxy_options
from gateway.http.server_protocol import http_protocol
from tests.fake_upstream import FakeUpstream
from tests.pg import fresh_database_url
from tests.servers import serve_in_thread

# property tests: no per-example deadline (the CI machine is shared and noisy) and no
# example database left in the work tree
settings.register_profile("memorelay", deadline=None, database=None)
settings.load_profile("memorelay")


@pytest.fixture
def pg_url() -> str:
    """A new, empty PostgreSQL database for this test (see tests/pg.py)."""
    return fresh_database_url()


@pytest.fixture(scope="session")
def fake_upstream_server() -> Iterator[tuple[FakeUpstream, str]]:
    fake = FakeUpstream()
    with serve_in_thread(fake.app()) as url:
        yield fake, url


@pytest.fixture
def fake(fake_upstream_server: tuple[FakeUpstream, str]) -> FakeUpstream:
    fake_upstream_server[0].reset()
    return fake_upstream_server[0]


@pytest.fixture
def upstream_url(fake_upstream_server: tuple[FakeUpstream, str]) -> str:
    return fake_upstream_server[1] + "/v1"


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


GatewayFactory = Callable[..., AbstractContextManager[str]]


@pytest.fixture(scope="session")
def encoder_cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One fast copy of the local encoder for the session's gateways (``gateway.memory.model_cache``):
    each then loads it in ~0.1 s instead of inflating the package's weights again (~1 s of CPU)."""
    return str(tmp_path_factory.mktemp("encoder-cache"))


@pytest.fixture
def gateway(upstream_url: str, tmp_path: Path, encoder_cache: str) -> GatewayFactory:
    """``with gateway(filters=[...], auth={...}) as url:`` runs a real gateway on loopback."""

    @contextmanager
    def start(**overrides: Any) -> Iterator[str]:
        raw = merge(
            {
                "upstreams": {"default": {"api_base": upstream_url}},
                "memory": {
                    "database": str(tmp_path / "db" / "memorelay.db"),
                    "embedding": {"provider": "none"},
                },
                "filters": [],
            },
            overrides,
        )
        embedding = raw["memory"]["embedding"]
        if embedding.get("provider") == "local" and "cache_folder" not in embedding:
            raw["memory"]["embedding"] = {**embedding, "cache_folder": encoder_cache}
        config = config_from_dict(raw)
        server = config.server
        with serve_in_thread(create_app(config), http=http_protocol(server), **proxy_options(server)) as url:
            yield url

    return start


# The longest files, measured (seconds of one worker): with ``--dist loadfile`` each file runs
# whole on one worker, and one of these handed out last keeps that worker busy while the other
# sits idle, so they are handed out first (longest first).
LONGEST_FILES = (
    "tests/e2e/test_learning.py",  # ~96 s
    "tests/e2e/test_postgres_replicas.py",  # ~76 s
    "tests/test_cli.py",  # ~71 s
    "tests/e2e/test_consolidation.py",  # ~69 s
    "tests/console/test_browser_pages.py",  # ~43 s
    "tests/e2e/test_durability.py",  # ~34 s
    "tests/e2e/test_backup.py",  # ~32 s
    "tests/e2e/test_learning_keys.py",  # ~31 s
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONGEST_FILES)))  # stable
