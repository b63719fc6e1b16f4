"""Helpers the wire formats share: the body's model, a message's text, the query, SSE events.

The ``Dialect`` protocol they implement is one of the chat request's neutral values
(``gateway.chat.context``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from gateway.chat.context import TranscriptMessage
from gateway.errors import BadRequest
from gateway.memory import strip_block

# a short latest turn ("and in Go?") borrows this much of the previous user turn
SHORT_QUERY = 40
CONTEXT_CHARS = 300


def required_model(body: dict[str, Any], message: str) -> str:
    """The body's ``model``; a 400 with ``message`` (in the surface's wording) when it is missing."""
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise BadRequest(message, param="model")
    return model


def content_text(content: Any, part_types: Collection[str]) -> str:
    """Text of a message's ``content``: a string as is, or the ``text`` of its parts whose
    ``type`` is in ``part_types`` (images, tool and thinking blocks are skipped)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and part.get("type") in part_types and isinstance(part.get("text"), str)
        )
    return ""


def role_transcript(messages: Iterable[Any], text_of: Callable[[Any], str]) -> list[TranscriptMessage]:
    """User and assistant turns that carry text, the gateway's own block removed; system
    prompts (and the injected block with them) are never learned from."""
    out: list[TranscriptMessage] = []
    for m in messages:
        role = m.get("role") if isinstance(m, dict) else None
        if role not in ("user", "assistant"):
            continue
        text = strip_block(text_of(m))
        if text:
            out.append({"role": "user" if role == "user" else "assistant", "content": text})
    return out


def join_query(latest: str, previous: str | None) -> str:
    """``latest``, prefixed with the tail of ``previous`` when ``latest`` is short."""
    query = latest.strip()
    if len(query) < SHORT_QUERY and previous:
        query = f"{previous.strip()[-CONTEXT_CHARS:]}\n{query}".strip()
    return query


class SseEvents:
    """Splits raw SSE bytes into (event name, parsed JSON data) pairs as they arrive."""

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[tuple[str, bytes]]:
        self._buffer += chunk
        out: list[tuple[str, bytes]] = []
        while True:
            end = _event_end(self._buffer)
            if end < 0:
                return out
            event, self._buffer = self._buffer[:end], self._buffer[end:].lstrip(b"\r\n")
            name, data = "", []
            for line in event.splitlines():
                if line.startswith(b"event:"):
                    name = line[6:].strip().decode("utf-8", "replace")
                elif line.startswith(b"data:"):
                    data.append(line[5:].strip())
            if data:
                out.append((name, b"\n".join(data)))


def _event_end(buffer: bytes) -> int:
    positions = [p for p in (buffer.find(b"\n\n"), buffer.find(b"\r\n\r\n")) if p >= 0]
    return min(positions) if positions else -1
