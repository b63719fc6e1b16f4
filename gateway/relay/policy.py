"""Which paths the verbatim relays refuse when every tenant shares the operator's upstream account.

In gateway-key mode (and in pass-through mode with a configured upstream key) each call goes
out with the operator's one key, so the upstream sees one account for all tenants. Endpoints
that keep state in that account — files, batches, stored chat completions and responses,
assistants, threads, vector stores, fine-tuning, the organisation's admin and usage data,
uploads, evals, containers … — would let one tenant list, read and delete another's. They are
refused with a 403 unless ``upstreams.<name>.relay`` (every tenant) or the caller's
``auth.keys[i].relay`` (that tenant) lists a pattern that matches the path.

Stateless endpoints (embeddings, completions, moderations, audio, images, models) relay as
before. A caller whose own credential goes upstream (pass-through) has its own account:
nothing is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from gateway.errors import Forbidden

if TYPE_CHECKING:
    from gateway.auth import Caller

# a path equal to one of these or below it keeps state in the upstream account
ACCOUNT_PREFIXES = (
    "/v1/files",
    "/v1/uploads",
    "/v1/batches",
    "/v1/messages/batches",
    "/v1/chat/completions",  # POST is the chat route; what reaches the relay lists or edits stored ones
    "/v1/responses",  # POST is the chat route; what reaches the relay reads, deletes or cancels stored ones
    "/v1/conversations",
    "/v1/assistants",
    "/v1/threads",
    "/v1/vector_stores",
    "/v1/fine_tuning",
    "/v1/fine-tunes",
    "/v1/organization",
    "/v1/organizations",
    "/v1/usage",
    "/v1/dashboard",
    "/v1/evals",
    "/v1/containers",
    "/v1/videos",
    "/v1/realtime",  # mints client secrets that use the account without the gateway
    "/v1/skills",
    "/v1/chatkit",
)
# below an account prefix, yet stateless
_STATELESS = frozenset({"/v1/responses/input_tokens"})
_SLASHES = re.compile(r"/{2,}")


def account_level(method: str, path: str) -> bool:
    """Whether ``method path`` (the decoded request path) reaches state kept in the upstream account."""
    # judged as a lenient server would read it: one case, no doubled or trailing slash, and no
    # ';parameter' on a segment ('/v1/files;x' is '/v1/files' to some)
    path = "/".join(segment.partition(";")[0] for segment in path.lower().split("/"))
    path = _SLASHES.sub("/", path).rstrip("/") or "/"
    if path in _STATELESS:
        return False
    if method == "DELETE" and path.startswith("/v1/models/"):
        return True  # deletes a fine-tuned model of the account
    return any(path == p or path.startswith(p + "/") for p in ACCOUNT_PREFIXES)


def allowed(path: str, patterns: Iterable[str]) -> bool:
    """Whether a pattern matches ``path``; ``*`` matches any characters, ``/`` included."""
    path = _SLASHES.sub("/", path)
    return any(fnmatchcase(path, pattern) for pattern in patterns)


def check_relay(method: str, path: str, patterns: Iterable[str], config_key: str) -> None:
    """Raise ``Forbidden`` for an account-level path that no pattern opts in."""
    if account_level(method, path) and not allowed(path, patterns):
        raise Forbidden(
            f"{method} {path[:120]} reaches data kept in the upstream account that every tenant of this "
            f"gateway shares, so it is not relayed; an operator can allow it with {config_key} "
            "(or auth.keys[].relay for one tenant)",
            code="relay_refused",
        )


def check_caller_relay(method: str, path: str, caller: Caller, upstream: str, upstream_relay: Iterable[str]) -> None:
    """``check_relay`` for a verbatim relay to ``upstreams.<upstream>``: only a caller whose calls
    reach the shared upstream account is held to it, and what that upstream's ``relay`` or the
    caller's own key (``auth.keys[].relay``) opts in passes."""
    if caller.shared_account:
        check_relay(method, path, (*upstream_relay, *caller.relay), f"upstreams.{upstream}.relay")
