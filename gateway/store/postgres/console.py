"""``PostgresConsoleStore``: console sessions and revoked console links shared by every replica
(``store.ConsoleStore``; tables: ``schema.MIGRATIONS`` 2), with the shared statements
(``gateway.store.sql.console``).

A session started on one replica is read by the others with one primary-key lookup per
request; nothing is cached, so a logout committed on one replica is seen by the next request
on any other. Expiry times are unix seconds from the replica that wrote them (sessions last
hours: clocks kept by NTP agree well enough).
"""

from __future__ import annotations

from ..sql.console import SqlConsole
from .connection import OnDatabase


class PostgresConsoleStore(OnDatabase, SqlConsole):
    """See ``store.ConsoleStore``. ``database`` is a URL (own pool) or a shared ``Database``."""
