"""``SQLiteConsoleStore``: console sessions and revoked console links in the SQLite file
(``store.ConsoleStore``; tables: ``schema.MIGRATIONS`` 9). Sessions survive a restart.

The statements are the shared ones (``gateway.store.sql.console``), on the store's own
connection to the file (WAL allows it): every statement runs with its commit under ``_lock``,
writes wait out ``database is locked`` and mark ``health`` on a full or failing disk
(``connection.SerialConnection``).
"""

from __future__ import annotations

from ..sql.base import SQLITE
from ..sql.console import SqlConsole
from .connection import SerialConnection


class SQLiteConsoleStore(SerialConnection, SqlConsole):
    name = "console store"
    dialect = SQLITE
