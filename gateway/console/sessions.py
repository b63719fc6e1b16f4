"""Browser sessions of the console: a random id in an HttpOnly, SameSite=Strict cookie.

Sessions live in this process's memory (a restart signs everyone out); each has its own
CSRF token, which every change must send back. A user session is bound to exactly one
tenant and user; an operator session to the admin key.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass

from gateway.console.links import LinkClaims

_MAX_SESSIONS = 50_000


@dataclass(slots=True)
class Session:
    id: str
    kind: str  # "user" | "operator"
    tenant: str
    user: str
    csrf: str
    expires: float
    link: LinkClaims | None = None

    def csrf_ok(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.csrf.encode(), str(given).encode())


class SessionStore:
    def __init__(self, ttl_s: float) -> None:
        self.ttl_s = ttl_s
        self._sessions: dict[str, Session] = {}

    def create(self, kind: str, tenant: str = "", user: str = "", link: LinkClaims | None = None) -> Session:
        now = time.time()
        if len(self._sessions) >= _MAX_SESSIONS:
            self._sessions = {k: s for k, s in self._sessions.items() if s.expires > now}
            while len(self._sessions) >= _MAX_SESSIONS:  # still full: drop the oldest
                self._sessions.pop(next(iter(self._sessions)))
        session = Session(
            secrets.token_urlsafe(32), kind, tenant, user, secrets.token_urlsafe(32), now + self.ttl_s, link
        )
        self._sessions[session.id] = session
        return session

    def get(self, session_id: str | None, kind: str) -> Session | None:
        if not session_id:
            return None
        session = self._sessions.get(session_id)
        if session is None or session.kind != kind:
            return None
        if session.expires <= time.time():
            self._sessions.pop(session_id, None)
            return None
        return session

    def drop(self, session_id: str) -> Session | None:
        return self._sessions.pop(session_id, None)
