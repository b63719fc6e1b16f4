"""Small pure-ASGI helpers shared by the endpoints: headers, bounded body, JSON and errors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from gateway.errors import BadRequest, GatewayError, PayloadTooLarge, error_bytes

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

JSON_HEADER = (b"content-type", b"application/json")


def header_dict(scope: Scope) -> dict[str, str]:
    """Request headers, lower-cased names; a repeated header keeps its last value."""
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}


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
    return value


def encode_headers(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def send_bytes(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_error(send: Send, exc: GatewayError, extra: list[tuple[bytes, bytes]] = []) -> None:  # noqa: B006
    await send_bytes(send, exc.status_code, error_bytes(exc), [JSON_HEADER, *extra])
