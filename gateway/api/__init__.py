"""The user memory API and the operator API."""

from __future__ import annotations

from starlette.routing import BaseRoute


def memory_routes() -> list[BaseRoute]:
    return []


def admin_routes() -> list[BaseRoute]:
    return []
