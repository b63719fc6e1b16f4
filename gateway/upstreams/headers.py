"""Which headers cross the gateway, in each direction: the forwarding rules of a transparent gateway."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gateway.auth import API_KEY_HEADER, is_bearer

HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
    }
)
_REQUEST_DROP = HOP_BY_HOP | {"host", "content-length", "authorization", "expect"}
# uvicorn writes its own date/server; content-length is recomputed
_RESPONSE_DROP = HOP_BY_HOP | {"content-length", "date", "server"}


def request_headers(
    incoming: Mapping[str, str],
    authorization: str | None,
    *,
    identity_encoding: bool,
    drop: frozenset[str] = frozenset(),
) -> list[tuple[str, str]]:
    """Headers for the upstream request: as sent, minus hop-by-hop, X-Memorelay-* and ``drop``
    (the headers that carry a credential the gateway issued, ``Caller.issued_headers``)."""
    out = [
        (name, value)
        for name, value in incoming.items()
        if name not in _REQUEST_DROP and not name.startswith("x-memorelay-") and name not in drop
    ]
    if identity_encoding:
        # the gateway reads chat bodies and streams, so ask for them uncompressed
        out = [(n, v) for n, v in out if n != "accept-encoding"]
        out.append(("accept-encoding", "identity"))
    if authorization:
        out.append(("authorization", authorization))
    return out


def response_headers(upstream: Iterable[tuple[str, str]], *, decoded: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in upstream:
        lname = name.lower()
        if lname in _RESPONSE_DROP or (decoded and lname == "content-encoding"):
            continue
        out[lname] = value
    return out


def anthropic_headers(
    incoming: Mapping[str, str], credential: str | None, issued: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """Headers for the Anthropic upstream: as sent (``anthropic-version``, ``anthropic-beta``
    …) minus hop-by-hop, ``X-Memorelay-*``, the caller's credentials and ``issued`` (headers
    that carry a key the gateway issued), plus ``credential``."""
    kept = {k: v for k, v in incoming.items() if k != API_KEY_HEADER}
    out = request_headers(kept, None, identity_encoding=True, drop=issued)
    if credential:
        out.append(("authorization", credential) if is_bearer(credential) else (API_KEY_HEADER, credential))
    return out
