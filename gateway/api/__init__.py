"""The user memory API (``memories``), the operator API (``admin``), the console-link
operations (``console_links``) and their OpenAPI document (``openapi``).

This package file imports nothing, so its modules can import their neighbours
(``request_models``, ``response_models``) without importing each other back."""
