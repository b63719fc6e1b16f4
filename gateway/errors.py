"""The one exception tree of memorelay, and its OpenAI-shaped rendering.

    GatewayError                      status, type, code; rendered as {"error": {...}}
    ├── BadRequest (400)              bad JSON, bad fields, validation
    ├── Unauthorized (401)            missing or wrong gateway / admin key or metrics token
    ├── Forbidden (403)               a relayed path the relay policy refuses
    ├── NotFound (404)                unknown memory or route
    ├── TooManyPinned (409)           memory.max_pinned_per_user reached
    ├── ReviewDecided (409)           a supersede review was already accepted or rejected
    ├── PayloadTooLarge (413)         body over server.max_body_bytes
    ├── UnsupportedMediaType (415)    a body that is not application/json
    ├── RateLimited (429)             a limit of the gateway was hit
    │   ├── TooManyMemories (429)     memory.max_manual_memories_per_user reached
    │   └── TooManyAuthFailures (429) too many wrong credentials from one client address
    ├── ServiceUnavailable (503)      a part the request needs is not ready
    │   └── StorageUnavailable (503)  the database cannot be written (I/O error, read-only)
    ├── InsufficientStorage (507)     the database is full (SQLITE_FULL): nothing was stored
    ├── UpstreamUnreachable (502)     connect error / protocol error to the upstream
    ├── UpstreamTimeout (504)         the upstream did not answer in time
    └── StartupError (500)            start-up could not open a resource (never sent to a client)

Errors from httpx, litellm and aiosqlite are mapped to these where they enter
(``raise X from exc``); a single handler in ``gateway.app`` renders them.
Upstream HTTP errors are *not* mapped: their status and body are relayed as sent.
"""

from __future__ import annotations

from typing import Any

import orjson


class GatewayError(Exception):
    status_code = 500
    error_type = "server_error"
    code: str | None = None

    def __init__(self, message: str, *, code: str | None = None, param: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.param = param

    def body(self) -> dict[str, Any]:
        return error_body(self.message, self.error_type, self.code, self.param)


class BadRequest(GatewayError):
    status_code = 400
    error_type = "invalid_request_error"
    code = "invalid_request"


class Unauthorized(GatewayError):
    status_code = 401
    error_type = "authentication_error"
    code = "invalid_api_key"


class Forbidden(GatewayError):
    status_code = 403
    error_type = "permission_error"
    code = "forbidden"


class NotFound(GatewayError):
    status_code = 404
    error_type = "invalid_request_error"
    code = "not_found"


class TooManyPinned(GatewayError):
    """Pinning one more memory would pass ``memory.max_pinned_per_user``."""

    status_code = 409
    error_type = "invalid_request_error"
    code = "too_many_pinned"


class ReviewDecided(GatewayError):
    """A supersede review that was already accepted or rejected cannot be decided again."""

    status_code = 409
    error_type = "invalid_request_error"
    code = "review_decided"


class ReviewPending(GatewayError):
    """A memory waiting for its supersede review is enabled only by accepting the review."""

    status_code = 409
    error_type = "invalid_request_error"
    code = "review_pending"


class PayloadTooLarge(GatewayError):
    status_code = 413
    error_type = "invalid_request_error"
    code = "payload_too_large"


class UnsupportedMediaType(GatewayError):
    status_code = 415
    error_type = "invalid_request_error"
    code = "unsupported_media_type"


class RateLimited(GatewayError):
    status_code = 429
    error_type = "rate_limit_error"
    code = "rate_limited"


class ServiceUnavailable(GatewayError):
    status_code = 503
    error_type = "server_error"
    code = "service_unavailable"


class StorageUnavailable(ServiceUnavailable):
    code = "storage_unavailable"


class InsufficientStorage(GatewayError):
    status_code = 507
    error_type = "server_error"
    code = "insufficient_storage"


class TooManyMemories(RateLimited):
    code = "too_many_memories"


class TooManyAuthFailures(RateLimited):
    """Too many wrong credentials from one client address; ``retry_after_s`` says when to retry."""

    code = "too_many_auth_failures"

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class StartupError(GatewayError):
    """A resource could not be opened at start-up; the message names it (one line)."""

    code = "startup_failed"


class UpstreamUnreachable(GatewayError):
    status_code = 502
    error_type = "upstream_error"
    code = "upstream_unreachable"


class UpstreamTimeout(GatewayError):
    status_code = 504
    error_type = "upstream_error"
    code = "upstream_timeout"


def error_body(message: str, error_type: str, code: str | None, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": error_type, "param": param, "code": code}}


def error_bytes(exc: GatewayError) -> bytes:
    return orjson.dumps(exc.body())
