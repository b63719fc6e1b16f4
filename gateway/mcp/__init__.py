"""The MCP server at ``/mcp``: the user's memory as tools for agents and IDE assistants.

``endpoint.McpEndpoint`` is what the app mounts; this package file imports nothing, so the
tools can import their neighbours (``arguments``) without importing the endpoint back."""
