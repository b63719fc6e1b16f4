"""OpenAI chat completions (``POST /v1/chat/completions``): the first dialect.

Memory goes after the leading system/developer content (``system``) or as a system
message just before the latest user message (``last_user``); the stream's
``choices[0].delta.content`` pieces make the answer, which is finished when a
``finish_reason`` or ``[DONE]`` arrives.
"""

from __future__ import annotations

from typing import Any

import orjson

from gateway.chat.context import Completion, Placement, TranscriptMessage
from gateway.dialects.base import SseEvents, content_text, join_query, required_model, role_transcript
from gateway.errors import BadRequest, GatewayError, error_bytes
from gateway.http.streaming import BROKEN_SSE
from gateway.memory import strip_block

_TEXT_PARTS = ("text",)


def message_text(message: dict[str, Any]) -> str:
    """Text of a chat message whose content is a string or a list of ``text`` parts."""
    return content_text(message.get("content"), _TEXT_PARTS)


def latest_user_index(messages: list[Any]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], dict) and messages[i].get("role") == "user":
            return i
    return None


class ChatCompletions:
    name = "chat_completions"
    route = "/v1/chat/completions"
    broken_stream_event = BROKEN_SSE

    def validate(self, body: dict[str, Any]) -> str:
        model = required_model(body, "'model' is required and must be a string")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise BadRequest("'messages' must be a non-empty array", param="messages")
        for i, message in enumerate(messages):
            if not isinstance(message, dict) or not isinstance(message.get("role"), str):
                raise BadRequest(f"messages[{i}] must be an object with a 'role'", param="messages")
        if "stream" in body and not isinstance(body["stream"], bool | None):
            raise BadRequest("'stream' must be a boolean", param="stream")
        return model

    def body_user(self, body: dict[str, Any]) -> str | None:
        user = body.get("user")
        return user if isinstance(user, str) else None

    def query_text(self, body: dict[str, Any]) -> str:
        messages = body["messages"]
        last = latest_user_index(messages)
        if last is None:
            return ""
        earlier = latest_user_index(messages[:last])
        previous = strip_block(message_text(messages[earlier])) if earlier is not None else None
        return join_query(strip_block(message_text(messages[last])), previous)

    def place_block(self, body: dict[str, Any], block: str, placement: Placement) -> None:
        messages: list[dict[str, Any]] = body["messages"]
        if placement == "last_user":
            index = latest_user_index(messages)
            messages.insert(index if index is not None else len(messages), {"role": "system", "content": block})
            return
        lead = 0
        while lead < len(messages) and messages[lead].get("role") in ("system", "developer"):
            lead += 1
        if lead == 0:
            messages.insert(0, {"role": "system", "content": block})
            return
        target = messages[lead - 1]
        content = target.get("content")
        if isinstance(content, str):
            target["content"] = f"{content}\n\n{block}" if content else block
        elif isinstance(content, list):
            target["content"] = [*content, {"type": "text", "text": block}]
        else:
            messages.insert(lead, {"role": "system", "content": block})

    def transcript(self, body: dict[str, Any]) -> list[TranscriptMessage]:
        return role_transcript(body["messages"], message_text)

    def completion_from_body(self, body: bytes) -> Completion | None:
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

    def observer(self) -> StreamAccumulator:
        return StreamAccumulator()

    def error_bytes(self, exc: GatewayError) -> bytes:
        return error_bytes(exc)


class StreamAccumulator:
    """Feed raw SSE bytes as they pass; ``completion()`` gives the assembled answer."""

    def __init__(self) -> None:
        self._events = SseEvents()
        self._parts: list[str] = []
        self._finish_reason: str | None = None
        self._usage: dict[str, Any] | None = None
        self.done = False

    def feed(self, chunk: bytes) -> None:
        for _, data in self._events.feed(chunk):
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

    @property
    def ended(self) -> bool:
        return self.done or self._finish_reason is not None

    def completion(self) -> Completion | None:
        if not (self.done or self._finish_reason):
            return None
        return Completion("".join(self._parts), self._finish_reason, self._usage)


CHAT_COMPLETIONS = ChatCompletions()
