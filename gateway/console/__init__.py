"""The memory console: ``/me/`` for end users, ``/console/`` for operators, and the
console-link endpoints that let an app (or an operator) open ``/me/`` for a user.

The routes are in ``routes``; this package file imports nothing, so the pages can import
their neighbours (``actions``, ``queries``) without importing the routes that import them."""
