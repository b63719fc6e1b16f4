"""Credentials on the Anthropic Messages route (``upstreams.anthropic``).

The caller's key may arrive as ``x-api-key`` (Anthropic's way) or as a bearer token.
In gateway-key mode either carries the gateway key and the upstream key comes from
``upstreams.anthropic.api_key``. In pass-through mode the caller's own credential goes
upstream unless config names a key, and its hash is the tenant — the same tenant as the
same key sent as ``Authorization: Bearer`` to the other routes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gateway.auth import API_KEY_HEADER, Authenticator, Caller


class AnthropicCallers:
    """``caller(headers)`` for the Anthropic route; ``upstream_authorization`` holds the
    credential for ``upstreams.anthropic`` (a bare key, or ``Bearer …`` to send as is)."""

    def __init__(self, auth: Authenticator, upstream_key: str) -> None:
        self.auth = auth
        self.upstream_key = upstream_key

    def caller(self, headers: Mapping[str, str]) -> Caller:
        api_key = headers.get(API_KEY_HEADER)
        probe = headers
        if api_key and (not self.auth.gateway_key_mode or not headers.get("authorization")):
            probe = {**headers, "authorization": f"Bearer {api_key}"}
        caller = self.auth.caller(probe)
        credential: str | None
        if self.upstream_key:
            credential = self.upstream_key
        elif self.auth.gateway_key_mode:
            credential = None  # the gateway key never goes upstream
        else:
            credential = api_key or headers.get("authorization")
            if credential and self.auth.issued_headers({"credential": credential}):
                credential = None  # nor does the admin key
        shared = bool(self.upstream_key) or self.auth.gateway_key_mode
        return replace(caller, upstream_authorization=credential, shared_account=shared)
