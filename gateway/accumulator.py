"""Assemble the final assistant message from an SSE stream without holding it back."""

from __future__ import annotations

from typing import Any

import orjson

from gateway.chain import Completion


class StreamAccumulator:
    """Feed raw SSE bytes as they pass; ``completion()`` gives the assembled answer."""

    def __init__(self) -> None:
        self._buffer = b""
        self._parts: list[str] = []
        self._finish_reason: str | None = None
        self._usage: dict[str, Any] | None = None
        self.done = False

    def feed(self, chunk: bytes) -> None:
        self._buffer += chunk
        while True:
            end = _event_end(self._buffer)
            if end < 0:
                return
            event, self._buffer = self._buffer[:end], self._buffer[end:].lstrip(b"\r\n")
            self._event(event)

    def _event(self, event: bytes) -> None:
        for line in event.splitlines():
            if not line.startswith(b"data:"):
                continue
            data = line[5:].strip()
            if data == b"[DONE]":
                self.done = True
                continue
            try:
                obj = orjson.loads(data)
            except orjson.JSONDecodeError:
                continue
            if isinstance(obj, dict):
                self._chunk(obj)

    def _chunk(self, obj: dict[str, Any]) -> None:
        usage = obj.get("usage")
        if isinstance(usage, dict):
            self._usage = usage
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return
        choice = choices[0]
        if choice.get("index", 0) != 0:
            return
        delta = choice.get("delta")
        if isinstance(delta, dict) and isinstance(delta.get("content"), str):
            self._parts.append(delta["content"])
        if choice.get("finish_reason"):
            self._finish_reason = choice["finish_reason"]

    def completion(self) -> Completion:
        return Completion("".join(self._parts), self._finish_reason, self._usage)


def _event_end(buffer: bytes) -> int:
    positions = [p for p in (buffer.find(b"\n\n"), buffer.find(b"\r\n\r\n")) if p >= 0]
    return min(positions) if positions else -1


def completion_from_body(body: bytes) -> Completion | None:
    """The first choice of a non-streamed chat completion body, or None if unusable."""
    try:
        obj = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(obj, dict):
        return None
    choices = obj.get("choices")
    usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message") or {}
    content = message.get("content") if isinstance(message, dict) else None
    return Completion(content if isinstance(content, str) else "", choices[0].get("finish_reason"), usage)
