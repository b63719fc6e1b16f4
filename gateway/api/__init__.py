"""The user memory API, the operator API and their OpenAPI document."""

from __future__ import annotations

from gateway.api.admin import admin_routes
from gateway.api.memories import memory_routes
from gateway.api.openapi import openapi_routes

__all__ = ["admin_routes", "memory_routes", "openapi_routes"]
