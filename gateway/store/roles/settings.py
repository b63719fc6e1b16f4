"""Each user's stored settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..records import (
    SettingsRow,
)


class Settings(Protocol):
    """Each user's settings, and their copy between stores."""

    async def get_settings(self, tenant: str, user_id: str) -> dict[str, Any] | None: ...
    async def put_settings(self, tenant: str, user_id: str, settings: dict[str, Any]) -> None: ...
    async def all_settings(self) -> list[SettingsRow]: ...
    async def import_settings(self, rows: Sequence[SettingsRow]) -> int:
        """Write the users' settings this store lacks or holds older (by ``updated_at``, kept
        as given); answers how many were written."""
        ...
