"""Signed, expiring console links: ``/me/open?token=…`` for one tenant and user (SPEC section 9).

A token is ``base64url(claims).base64url(HMAC-SHA256(key, claims))`` with claims
``{"t": tenant, "u": user, "e": expires (unix s), "n": nonce}``. The key is
``console.secret``, or a random key per process when that is empty (links then die on
restart and do not work across replicas). Logging out revokes the link that started the
session, so the same link cannot be replayed afterwards.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

import orjson

_MAX_REVOKED = 100_000


@dataclass(frozen=True, slots=True)
class LinkClaims:
    tenant: str
    user: str
    expires: float
    nonce: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class LinkSigner:
    def __init__(self, secret: str, ttl_s: float) -> None:
        seed = secret.encode() if secret else secrets.token_bytes(32)
        self._key = hashlib.sha256(b"memorelay console link\0" + seed).digest()
        self.ttl_s = ttl_s
        self._revoked: dict[str, float] = {}  # nonce -> expiry of its link

    def mint(self, tenant: str, user: str, now: float | None = None) -> tuple[str, float]:
        """(token, expires_at as unix seconds)."""
        expires = int((time.time() if now is None else now) + self.ttl_s)
        claims = orjson.dumps({"t": tenant, "u": user, "e": expires, "n": secrets.token_urlsafe(12)})
        return f"{_b64(claims)}.{_b64(self._sign(claims))}", float(expires)

    def verify(self, token: str, now: float | None = None) -> LinkClaims | None:
        """The claims of a genuine, unexpired, unrevoked token; None otherwise."""
        body, _, signature = token.partition(".")
        try:
            claims_raw, given = _unb64(body), _unb64(signature)
        except (ValueError, TypeError):
            return None
        if not hmac.compare_digest(self._sign(claims_raw), given):
            return None
        try:
            data = orjson.loads(claims_raw)
            claims = LinkClaims(str(data["t"]), str(data["u"]), float(data["e"]), str(data["n"]))
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return None
        if claims.expires <= (time.time() if now is None else now) or claims.nonce in self._revoked:
            return None
        return claims

    def revoke(self, claims: LinkClaims) -> None:
        now = time.time()
        if len(self._revoked) >= _MAX_REVOKED:
            self._revoked = {n: e for n, e in self._revoked.items() if e > now}
        self._revoked[claims.nonce] = claims.expires

    def _sign(self, claims: bytes) -> bytes:
        return hmac.new(self._key, claims, hashlib.sha256).digest()
