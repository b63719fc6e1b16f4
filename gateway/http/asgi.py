"""Small pure-ASGI helpers shared by the endpoints: headers, bounded body, JSON and errors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from gateway.errors import BadRequest, GatewayError, PayloadTooLarge, UnsupportedMediaType, error_bytes

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

JSON_HEADER = (b"content-type", b"application/json")
# deepest accepted JSON request body: orjson parses up to 1024 levels but
# re-serialises at most 254, and the gateway wraps bodies a few levels deeper; no chat or
# memory request needs more than a handful, tool schemas included
MAX_JSON_DEPTH = 128


def header_dict(scope: Scope) -> dict[str, str]:
    """Request headers, lower-cased names; a repeated header keeps its last value, except an
    ``X-Memorelay-*`` one, which is refused: which of two users was meant would be a guess."""
    out: dict[str, str] = {}
    for k, v in scope["headers"]:
        name = k.decode("latin-1")
        if name in out and name.startswith("x-memorelay-"):
            raise BadRequest(f"the {name} header is sent more than once: send it once", param=name)
        out[name] = v.decode("latin-1")
    return out


def require_json(headers: dict[str, str], body: bytes) -> None:
    """A request body must be declared ``application/json`` (parameters such as a charset allowed).

    Browsers send ``text/plain`` and form types cross-origin without a CORS preflight, so a
    body accepted under them could be posted by any web page a user visits. A request with no
    body and no ``Content-Type`` passes.
    """
    declared = headers.get("content-type")
    if declared is None and not body:
        return
    media = (declared or "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        shown = repr(declared[:80]) if declared is not None else "none"
        raise UnsupportedMediaType(f"the request body must be sent as Content-Type: application/json (got {shown})")


async def read_body(receive: Receive, limit: int, headers: dict[str, str]) -> bytes:
    declared = headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"request body over {limit} bytes (server.max_body_bytes)")
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnected()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"request body over {limit} bytes (server.max_body_bytes)")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


class ClientDisconnected(Exception):
    """The client went away before the request was read."""


def parse_json_object(raw: bytes) -> dict[str, Any]:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"request body is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise BadRequest("request body must be a JSON object")
    # fewer brackets than the limit cannot nest deeper than it: two C-speed counts
    # spare the walk for almost every body
    if raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH and json_depth(value) > MAX_JSON_DEPTH:
        raise BadRequest(f"request body nests deeper than {MAX_JSON_DEPTH} levels")
    return value


def json_depth(value: Any) -> int:
    """How many arrays and objects nest at the deepest point of ``value`` (iterative: no recursion)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def encode_headers(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def send_bytes(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_error(send: Send, exc: GatewayError, extra: list[tuple[bytes, bytes]] = []) -> None:  # noqa: B006
    await send_bytes(send, exc.status_code, error_bytes(exc), [JSON_HEADER, *extra])
