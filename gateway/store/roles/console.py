"""Console sessions and revoked console links."""

from __future__ import annotations

from typing import Protocol

from ..records import (
    ConsoleSession,
)


class ConsoleStore(Protocol):
    """Console sessions and revoked console links, shared by every replica on the database
    (a session started on one replica works on all; a logout on one ends it on all). Every
    read goes to the database (a primary-key lookup): nothing is cached, so no replica can
    serve a session another one has ended. Expired rows are never answered and are removed
    by ``purge_expired``."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def add_session(self, session: ConsoleSession) -> None: ...
    async def session(self, key: str, now: float) -> ConsoleSession | None:
        """The session stored under ``key`` unless it expired by ``now``."""
        ...

    async def end_session(self, key: str) -> ConsoleSession | None:
        """Delete the session; answers what it was (None when there was none)."""
        ...

    async def revoke_link(self, nonce: str, expires: float) -> None:
        """Refuse the link ``nonce`` until ``expires`` (when it dies anyway) and end every
        session it started, in one transaction."""
        ...

    async def link_revoked(self, nonce: str) -> bool: ...
    async def purge_expired(self, now: float) -> int:
        """Remove sessions and revocations expired by ``now``; answers the rows removed."""
        ...

    async def link_seed(self, candidate: str) -> str:
        """The random seed of the console-link key shared by every replica (used when
        ``console.secret`` is empty on a shared database): the stored one, or ``candidate``
        stored now when there is none (replicas racing here all get the first one stored)."""
        ...
