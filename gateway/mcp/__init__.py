"""The MCP server at ``/mcp``: the user's memory as tools for agents and IDE assistants."""

from __future__ import annotations

from gateway.mcp.caller import InjectionOptions
from gateway.mcp.endpoint import McpEndpoint

__all__ = ["InjectionOptions", "McpEndpoint"]
