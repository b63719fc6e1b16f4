"""Who is calling: gateway keys → tenant, pass-through tenant hash, admin key.

Credentials are compared in constant time and never stored or logged; the
pass-through tenant is a one-way hash of the caller's credential.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from gateway.auth_throttle import AuthThrottle
from gateway.config import Config
from gateway.errors import Unauthorized

# Anthropic's own credential header (the Messages routes also accept a bearer token)
API_KEY_HEADER = "x-api-key"

ANONYMOUS_TENANT = "anonymous"


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated caller of one request."""

    tenant: str
    # the Authorization value to send upstream (None: send none); kept in memory only
    upstream_authorization: str | None
    # the operator's key goes upstream: every tenant shares one upstream account (relay policy)
    shared_account: bool = False
    # account-level relay paths this caller's gateway key opts in (auth.keys[i].relay)
    relay: tuple[str, ...] = ()
    # request headers that carry a credential the gateway issued: never forwarded upstream
    issued_headers: frozenset[str] = frozenset()


class Authenticator:
    def __init__(self, config: Config, throttle: AuthThrottle | None = None) -> None:
        self._keys = [(k.key.get_secret_value().encode(), k.tenant, k.relay) for k in config.auth.keys]
        upstream_key = config.upstreams.default.api_key.get_secret_value()
        self._upstream_auth = f"Bearer {upstream_key}" if upstream_key else None
        self._admin_key = config.auth.admin_key.get_secret_value().encode()
        self._allow_anonymous = config.auth.allow_anonymous
        self._fixed_tenant = config.auth.tenant
        self.throttle = throttle or AuthThrottle(config.auth.max_failures, config.auth.failure_window_s)
        # digests of every credential the gateway issued, to spot one in any request header
        issued = [k for k, _, _ in self._keys] + ([self._admin_key] if self._admin_key else [])
        self._issued = frozenset(hashlib.sha256(k).digest() for k in issued)

    @property
    def gateway_key_mode(self) -> bool:
        return bool(self._keys)

    def caller(self, headers: Mapping[str, str]) -> Caller:
        issued = self.issued_headers(headers)
        authorization = headers.get("authorization")
        if self._keys:
            tenant, relay = self._tenant_for(authorization)
            return Caller(tenant, self._upstream_auth, True, relay, issued)
        shared = self._upstream_auth is not None
        if "authorization" in issued:  # the admin key is no upstream credential
            authorization = None
        if not authorization:
            if not self._allow_anonymous:
                raise Unauthorized(
                    "missing credential: send 'Authorization: Bearer <key>' (pass-through mode refuses "
                    "anonymous calls unless auth.allow_anonymous is set)"
                )
            return Caller(self._fixed_tenant or ANONYMOUS_TENANT, self._upstream_auth, shared, (), issued)
        # pass-through: the caller's credential goes upstream unless config names a key
        tenant = self._fixed_tenant or pass_through_tenant(authorization)
        return Caller(tenant, self._upstream_auth or authorization, shared, (), issued)

    def issued_headers(self, headers: Mapping[str, str]) -> frozenset[str]:
        """Names of the headers whose value (or bearer token) is a gateway or admin key."""
        if not self._issued:
            return frozenset()
        found = set()
        for name, value in headers.items():
            token = _bearer(value) or value.strip()
            if hashlib.sha256(token.encode("latin-1")).digest() in self._issued:
                found.add(name)
        return frozenset(found)

    def _tenant_for(self, authorization: str | None) -> tuple[str, tuple[str, ...]]:
        token = _bearer(authorization)
        if token is None:
            raise Unauthorized("missing gateway key: send 'Authorization: Bearer <key>'")
        self.throttle.check()
        found: tuple[str, tuple[str, ...]] | None = None
        given = token.encode()
        for key, tenant, relay in self._keys:  # check every key so timing does not leak which matched
            if hmac.compare_digest(key, given):
                found = (tenant, relay)
        if found is None:
            self.throttle.failed("gateway key")
            raise Unauthorized("invalid gateway key")
        return found

    def require_admin(self, headers: Mapping[str, str]) -> None:
        if not self._admin_key:
            raise Unauthorized(
                "the admin API is disabled: set MEMORELAY_ADMIN_KEY (auth.admin_key) and restart", code="admin_disabled"
            )
        token = _bearer(headers.get("authorization"))
        if token is None:
            raise Unauthorized("invalid admin key")
        self.throttle.check()
        if not hmac.compare_digest(self._admin_key, token.encode()):
            self.throttle.failed("admin key")
            raise Unauthorized("invalid admin key")


def pass_through_tenant(authorization: str) -> str:
    """The tenant of a pass-through caller: a hash of its ``Authorization`` value, taken in
    canonical form so ``bearer k``, ``BEARER  k`` and `` Bearer k `` are the tenant of ``Bearer k``."""
    digest = hashlib.sha256(canonical_authorization(authorization).encode()).hexdigest()
    return "t_" + digest[:24]


def canonical_authorization(authorization: str) -> str:
    """``Bearer <token>`` for any spelling of the bearer scheme and surrounding whitespace;
    any other value stripped."""
    token = _bearer(authorization)
    return f"Bearer {token}" if token is not None else authorization.strip()


def is_bearer(value: str) -> bool:
    """Whether ``value`` is an ``Authorization`` value of the bearer scheme (any case)."""
    return _bearer(value) is not None


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization`` value of the bearer scheme (any case, any surrounding
    whitespace), or None."""
    return _bearer(authorization)


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    parts = authorization.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    return parts[1].strip()
