"""The user memory API and the operator API."""

from __future__ import annotations

from gateway.api.admin import admin_routes
from gateway.api.memories import memory_routes

__all__ = ["admin_routes", "memory_routes"]
