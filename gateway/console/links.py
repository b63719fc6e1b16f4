"""Signed, expiring console links: ``/me/open?token=…`` for one tenant and user (SPEC section 9).

A token is ``base64url(claims).base64url(HMAC-SHA256(key, claims))`` with claims
``{"t": tenant, "u": user, "e": expires (unix s), "n": nonce}``. Logging out revokes the link
that started the session (``ConsoleStore.revoke_link``), on every replica.

The key (``Links``): ``console.secret`` when set. When it is empty:
- one process on SQLite: a random key per process (links die on restart);
- replicas on PostgreSQL: a random seed kept once in the database (``ConsoleStore.link_seed``,
  the first replica to need it stores it, every other one reads it) mixed with
  ``auth.admin_key``, so a link minted on one replica opens on any other, while a copy of the
  database alone (without the admin key) cannot mint links. Setting ``console.secret`` (the
  same on every replica) is still better: start-up logs a warning while it is empty.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from gateway.store import ConsoleStore


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
    """Mints and checks tokens under one key (``secret``; empty: a random one)."""

    def __init__(self, secret: str, ttl_s: float) -> None:
        seed = secret.encode() if secret else secrets.token_bytes(32)
        self._key = hashlib.sha256(b"memorelay console link\0" + seed).digest()
        self.ttl_s = ttl_s

    def mint(self, tenant: str, user: str, now: float | None = None) -> tuple[str, float]:
        """(token, expires_at as unix seconds)."""
        expires = int((time.time() if now is None else now) + self.ttl_s)
        claims = orjson.dumps({"t": tenant, "u": user, "e": expires, "n": secrets.token_urlsafe(12)})
        return f"{_b64(claims)}.{_b64(self._sign(claims))}", float(expires)

    def verify(self, token: str, now: float | None = None) -> LinkClaims | None:
        """The claims of a genuine, unexpired token; None otherwise (revocation: ``Links``)."""
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
        if claims.expires <= (time.time() if now is None else now):
            return None
        return claims

    def _sign(self, claims: bytes) -> bytes:
        return hmac.new(self._key, claims, hashlib.sha256).digest()


def shared_secret(seed: str, admin_key: str) -> str:
    """The signing secret of replicas without ``console.secret``: the database's seed and the
    admin key (both the same on every replica)."""
    return "memorelay shared seed\0" + seed + "\0" + admin_key


class Links:
    """The console's links: signed with ``secret``, or (empty, ``shared`` database) with the
    key every replica derives from the stored seed; revoked links are refused on every replica."""

    def __init__(self, secret: str, ttl_s: float, store: ConsoleStore, *, shared: bool, admin_key: str) -> None:
        self.ttl_s = ttl_s
        self.store = store
        self.admin_key = admin_key
        self._signer = LinkSigner(secret, ttl_s) if secret or not shared else None

    async def signer(self) -> LinkSigner:
        if self._signer is None:
            # replicas racing here store one seed between them and all read that one
            seed = await self.store.link_seed(secrets.token_urlsafe(32))
            self._signer = LinkSigner(shared_secret(seed, self.admin_key), self.ttl_s)
        return self._signer

    async def mint(self, tenant: str, user: str) -> tuple[str, float]:
        """(token, expires_at as unix seconds)."""
        return (await self.signer()).mint(tenant, user)

    async def verify(self, token: str) -> LinkClaims | None:
        """The claims of a genuine, unexpired token that no logout revoked; None otherwise."""
        claims = (await self.signer()).verify(token)
        if claims is None or await self.store.link_revoked(claims.nonce):
            return None
        return claims
