"""The ``memorelay`` commands: ``main`` (serve, check-config, healthcheck …), the ``memories``
commands (``gateway.cli.memory``) and backup/restore (``gateway.cli.backup``).

``main`` is re-exported so that ``gateway.cli:main``, the entry point scripts installed
before the commands became a package were written against, keeps working.
"""

from __future__ import annotations

from gateway.cli.main import main

__all__ = ["main"]
