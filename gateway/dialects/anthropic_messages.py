"""Anthropic Messages (``POST /v1/messages``) to ``upstreams.anthropic``.

Memory goes into ``system``: a string stays a string (the block after the existing
text), a block list gets one more text block at its end, after any block carrying
``cache_control``, so the cached prefix is untouched. ``placement: last_user`` puts the
block at the start of the latest user message's text instead (after any ``tool_result``
blocks, which Anthropic requires first). Thinking, ``tool_use`` and ``tool_result``
blocks are never edited; events are relayed unchanged and the answer is the stream's
``text_delta`` pieces, finished at ``message_stop``. Errors have Anthropic's shape
``{"type": "error", "error": {"type", "message"}}``.
"""

from __future__ import annotations

from typing import Any

import orjson

from gateway.chat.context import Completion, Placement, TranscriptMessage
from gateway.dialects.base import SseEvents, content_text, join_query, required_model, role_transcript
from gateway.errors import BadRequest, GatewayError
from gateway.http.streaming import BROKEN_MESSAGE
from gateway.memory import strip_block

MESSAGES_PATH = "/v1/messages"
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    415: "invalid_request_error",
    429: "rate_limit_error",
    504: "timeout_error",
}


_TEXT_BLOCKS = ("text",)


# Anthropic's own form of a stream error, which its SDKs raise as anthropic.APIError
BROKEN_EVENT = (
    b"event: error\ndata: "
    + orjson.dumps({"type": "error", "error": {"type": "api_error", "message": BROKEN_MESSAGE}})
    + b"\n\n"
)


def anthropic_error_bytes(exc: GatewayError) -> bytes:
    kind = _ERROR_TYPES.get(exc.status_code, "api_error")
    return orjson.dumps({"type": "error", "error": {"type": kind, "message": exc.message}})


def block_text(message: Any) -> str:
    """Text of a message (string content or ``text`` blocks); thinking and tool blocks are skipped."""
    return content_text(message.get("content"), _TEXT_BLOCKS) if isinstance(message, dict) else ""


def _user_turns(messages: list[Any]) -> list[int]:
    """Indexes of user messages that carry text (a bare ``tool_result`` message is not a turn)."""
    return [
        i
        for i, m in enumerate(messages)
        if isinstance(m, dict) and m.get("role") == "user" and strip_block(block_text(m)).strip()
    ]


class AnthropicMessages:
    name = "anthropic_messages"
    route = MESSAGES_PATH
    broken_stream_event = BROKEN_EVENT

    def validate(self, body: dict[str, Any]) -> str:
        model = required_model(body, "model: field required")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("messages: must be a non-empty array", param="messages")
        for i, message in enumerate(messages):
            if not isinstance(message, dict) or not isinstance(message.get("role"), str):
                raise BadRequest(f"messages.{i}: must be an object with a 'role'", param="messages")
        system = body.get("system")
        if system is not None and not isinstance(system, str | list):
            raise BadRequest("system: must be a string or an array of blocks", param="system")
        if "stream" in body and not isinstance(body["stream"], bool | None):
            raise BadRequest("stream: must be a boolean", param="stream")
        return model

    def body_user(self, body: dict[str, Any]) -> str | None:
        metadata = body.get("metadata")
        user = metadata.get("user_id") if isinstance(metadata, dict) else None
        return user if isinstance(user, str) else None

    def query_text(self, body: dict[str, Any]) -> str:
        messages = body["messages"]
        turns = _user_turns(messages)
        if not turns:
            return ""
        previous = strip_block(block_text(messages[turns[-2]])) if len(turns) > 1 else None
        return join_query(strip_block(block_text(messages[turns[-1]])), previous)

    def place_block(self, body: dict[str, Any], block: str, placement: Placement) -> None:
        turns = _user_turns(body["messages"])
        if placement == "last_user" and turns:
            _prefix_user_text(body["messages"][turns[-1]], block)
            return
        system = body.get("system")
        if isinstance(system, list):
            body["system"] = [*system, {"type": "text", "text": block}]
        else:
            body["system"] = f"{system}\n\n{block}" if system else block

    def transcript(self, body: dict[str, Any]) -> list[TranscriptMessage]:
        return role_transcript(body["messages"], block_text)

    def completion_from_body(self, body: bytes) -> Completion | None:
        try:
            obj = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(obj, dict) or obj.get("type") != "message":
            return None
        usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
        stop = obj.get("stop_reason")
        return Completion(block_text(obj), stop if isinstance(stop, str) else None, usage)

    def observer(self) -> MessagesAccumulator:
        return MessagesAccumulator()

    def error_bytes(self, exc: GatewayError) -> bytes:
        return anthropic_error_bytes(exc)


def _prefix_user_text(message: dict[str, Any], block: str) -> None:
    content = message.get("content")
    if isinstance(content, str):
        message["content"] = f"{block}\n\n{content}"
        return
    blocks: list[Any] = list(content) if isinstance(content, list) else []
    first_text = next((i for i, b in enumerate(blocks) if isinstance(b, dict) and b.get("type") == "text"), len(blocks))
    blocks.insert(first_text, {"type": "text", "text": block})
    message["content"] = blocks


class MessagesAccumulator:
    """Collects ``text_delta`` pieces; finished at ``message_stop`` (an ``error`` event never is)."""

    def __init__(self) -> None:
        self._events = SseEvents()
        self._parts: list[str] = []
        self._stop_reason: str | None = None
        self._usage: dict[str, Any] = {}
        self._done = False
        self._failed = False

    def feed(self, chunk: bytes) -> None:
        for name, data in self._events.feed(chunk):
            try:
                obj = orjson.loads(data)
            except orjson.JSONDecodeError:
                continue
            if isinstance(obj, dict):
                self._event(obj.get("type") or name, obj)

    def _event(self, kind: Any, obj: dict[str, Any]) -> None:
        if kind == "content_block_delta":
            delta = obj.get("delta")
            if isinstance(delta, dict) and delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
                self._parts.append(delta["text"])
        elif kind == "message_start":
            message = obj.get("message")
            if isinstance(message, dict) and isinstance(message.get("usage"), dict):
                self._usage.update(message["usage"])
        elif kind == "message_delta":
            delta = obj.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get("stop_reason"), str):
                self._stop_reason = delta["stop_reason"]
            if isinstance(obj.get("usage"), dict):
                self._usage.update(obj["usage"])
        elif kind == "message_stop":
            self._done = True
        elif kind == "error":
            self._failed = True

    @property
    def ended(self) -> bool:
        return self._done and not self._failed

    def completion(self) -> Completion | None:
        if not self._done or self._failed:
            return None
        return Completion("".join(self._parts), self._stop_reason, self._usage or None)


ANTHROPIC_MESSAGES = AnthropicMessages()
