"""Browser sessions of the console: a random id in an HttpOnly, SameSite=Strict cookie.

Sessions live in the store (``ConsoleStore``: the SQLite file, or the PostgreSQL database
every replica shares), so a session started on one replica works on every other and a
logout on one ends it on all; every request reads its session there (a primary-key lookup),
nothing is cached. The store keeps only a hash of the cookie value: reading the database
does not let anyone ride a session.

The CSRF token every change must send back is not stored: it is
``HMAC-SHA256(cookie value, "memorelay console csrf")``, so every replica derives the same
token from the cookie without a shared secret, a page's token does not reveal the cookie, and
the stored hash (a different function of the cookie) does not give the token either.

A user session is bound to exactly one tenant and user; an operator session to the admin key.
Since sessions outlive the process, a session's store key also mixes in the credential that
vouched for it (``bound_to``: ``auth.admin_key`` for operators, ``console.secret`` for users):
changing that credential ends those sessions, as a restart did when they lived in memory.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from gateway.console.links import LinkClaims
from gateway.store import ConsoleSession, ConsoleStore

_MAX_COOKIE = 200  # our ids are 43 characters; anything much longer is not one of ours
PURGE_EVERY_S = 60.0


def session_key(session_id: str, bound_to: str = "") -> str:
    """What the store keeps of a session id (hex SHA-256, never the id itself)."""
    data = b"memorelay console session\0" + bound_to.encode() + b"\0" + session_id.encode()
    return hashlib.sha256(data).hexdigest()


def csrf_token(session_id: str) -> str:
    mac = hmac.new(session_id.encode(), b"memorelay console csrf", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


@dataclass(frozen=True, slots=True)
class Session:
    id: str  # the cookie value: only ever in the browser's cookie and this request
    kind: str  # "user" | "operator"
    tenant: str
    user: str
    expires: float
    link: LinkClaims | None = None

    @property
    def csrf(self) -> str:
        return csrf_token(self.id)

    def csrf_ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.csrf.encode(), str(given).encode())


class SessionStore:
    def __init__(self, store: ConsoleStore, ttl_s: float, *, bound_to: str = "") -> None:
        self.store = store
        self.ttl_s = ttl_s
        self.bound_to = bound_to
        self._purged_at = 0.0  # monotonic time of this process's last purge of expired rows

    async def create(self, kind: str, tenant: str = "", user: str = "", link: LinkClaims | None = None) -> Session:
        now = time.time()
        await self._purge_now_and_then(now)
        session = Session(secrets.token_urlsafe(32), kind, tenant, user, now + self.ttl_s, link)
        await self.store.add_session(
            ConsoleSession(
                key=session_key(session.id, self.bound_to),
                kind=kind,
                tenant=tenant,
                user_id=user,
                expires=session.expires,
                link_nonce=None if link is None else link.nonce,
                link_expires=None if link is None else link.expires,
            )
        )
        return session

    async def get(self, session_id: str | None, kind: str) -> Session | None:
        if not session_id or len(session_id) > _MAX_COOKIE:
            return None
        stored = await self.store.session(session_key(session_id, self.bound_to), time.time())
        if stored is None or stored.kind != kind:
            return None
        link = None
        if stored.link_nonce is not None and stored.link_expires is not None:
            link = LinkClaims(stored.tenant, stored.user_id, stored.link_expires, stored.link_nonce)
        return Session(session_id, stored.kind, stored.tenant, stored.user_id, stored.expires, link)

    async def drop(self, session_id: str) -> None:
        """End the session with this cookie value (if any), on every replica."""
        if session_id and len(session_id) <= _MAX_COOKIE:
            await self.store.end_session(session_key(session_id, self.bound_to))

    async def end(self, session: Session) -> None:
        """Sign out: end the session and revoke the link that started it (with every other
        session that link started), on every replica."""
        if session.link is not None:
            await self.store.revoke_link(session.link.nonce, session.link.expires)
        await self.store.end_session(session_key(session.id, self.bound_to))

    async def _purge_now_and_then(self, now: float) -> None:
        if time.monotonic() - self._purged_at >= PURGE_EVERY_S:
            self._purged_at = time.monotonic()
            await self.store.purge_expired(now)
