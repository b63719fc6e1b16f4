"""Users' settings (``roles.settings.Settings``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ..records import Change, SettingsRow
from .base import SqlBase, iso

_UPSERT = (
    "INSERT INTO user_settings (tenant, user_id, settings, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (tenant, user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at"
)


class SqlSettings(SqlBase):
    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any] | None:
        rows = await self._query(
            "SELECT settings FROM user_settings WHERE tenant = ? AND user_id = ?", (tenant, user_id)
        )
        return dict(orjson.loads(rows[0][0])) if rows else None

    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> None:
        async with self._writer() as w:
            await w.execute(_UPSERT, (tenant, user_id, orjson.dumps(settings).decode(), iso()))
            w.changed(Change("settings", tenant, user_id))

    async def all_settings(self) -> list[SettingsRow]:
        rows = await self._query(
            "SELECT tenant, user_id, settings, updated_at FROM user_settings ORDER BY tenant, user_id"
        )
        return [SettingsRow(r[0], r[1], dict(orjson.loads(r[2])), r[3]) for r in rows]

    async def import_settings(self, rows: Sequence[SettingsRow]) -> int:
        written = 0
        async with self._writer() as w:
            for row in rows:
                changed = await w.execute(
                    f"{_UPSERT} WHERE user_settings.updated_at <= excluded.updated_at "
                    "AND user_settings.settings <> excluded.settings",
                    (row.tenant, row.user_id, orjson.dumps(row.settings).decode(), row.updated_at),
                )
                if changed > 0:
                    written += 1
                    w.changed(Change("settings", row.tenant, row.user_id))
        return written
