"""OpenAI Responses API (``POST /v1/responses``).

``input`` is a string or a list of items (messages with string or ``input_text`` /
``output_text`` parts, function calls and their outputs, reasoning, references …).
Memory goes after the existing ``instructions`` (``system``) or as a system message just
before the latest user item (``last_user``). With ``previous_response_id`` the earlier
history lives upstream and only this request's items are learned from. Streams are named
events relayed unchanged; ``response.output_text.delta`` pieces make the answer, which is
finished at ``response.completed`` (or ``response.incomplete``).
"""

from __future__ import annotations

from typing import Any

import orjson

from gateway.chat.context import Completion, Placement, TranscriptMessage
from gateway.dialects.base import SseEvents, content_text, join_query, required_model, role_transcript
from gateway.errors import BadRequest, GatewayError, error_bytes
from gateway.http.streaming import BROKEN_SSE
from gateway.memory import strip_block

_TEXT_PARTS = ("input_text", "output_text", "text")
_FINISHED = ("response.completed", "response.incomplete")


def item_text(item: Any) -> str:
    """Text of a message item (string content or text parts); '' for any other item."""
    if not isinstance(item, dict) or item.get("type", "message") != "message":
        return ""
    return content_text(item.get("content"), _TEXT_PARTS)


def _user_indexes(items: list[Any]) -> list[int]:
    return [
        i
        for i, item in enumerate(items)
        if isinstance(item, dict) and item.get("role") == "user" and item.get("type", "message") == "message"
    ]


class Responses:
    name = "responses"
    route = "/v1/responses"
    broken_stream_event = BROKEN_SSE

    def validate(self, body: dict[str, Any]) -> str:
        model = required_model(body, "'model' is required and must be a string")
        items = body.get("input")
        if items is not None and not isinstance(items, str | list):
            raise BadRequest("'input' must be a string or an array of items", param="input")
        if isinstance(items, list):
            for i, item in enumerate(items):
                if not isinstance(item, dict):
                    raise BadRequest(f"input[{i}] must be an object", param="input")
        if body.get("instructions") is not None and not isinstance(body["instructions"], str):
            raise BadRequest("'instructions' must be a string", param="instructions")
        if "stream" in body and not isinstance(body["stream"], bool | None):
            raise BadRequest("'stream' must be a boolean", param="stream")
        return model

    def body_user(self, body: dict[str, Any]) -> str | None:
        user = body.get("user")
        return user if isinstance(user, str) else None

    def query_text(self, body: dict[str, Any]) -> str:
        items = body.get("input")
        if isinstance(items, str):
            return join_query(strip_block(items), None)
        if not isinstance(items, list):
            return ""
        users = _user_indexes(items)
        if not users:
            return ""
        previous = strip_block(item_text(items[users[-2]])) if len(users) > 1 else None
        return join_query(strip_block(item_text(items[users[-1]])), previous)

    def place_block(self, body: dict[str, Any], block: str, placement: Placement) -> None:
        if placement == "system":
            instructions = body.get("instructions")
            body["instructions"] = f"{instructions}\n\n{block}" if instructions else block
            return
        note = {"role": "system", "content": block}
        items = body.get("input")
        if isinstance(items, str):
            body["input"] = [note, {"role": "user", "content": items}]
            return
        if not isinstance(items, list):
            body["input"] = [note]
            return
        users = _user_indexes(items)
        items.insert(users[-1] if users else len(items), note)

    def transcript(self, body: dict[str, Any]) -> list[TranscriptMessage]:
        # with previous_response_id the history lives upstream: this request holds the current turn only
        items = body.get("input")
        if isinstance(items, str):
            text = strip_block(items)
            return [{"role": "user", "content": text}] if text else []
        return role_transcript(items if isinstance(items, list) else [], item_text)

    def completion_from_body(self, body: bytes) -> Completion | None:
        try:
            obj = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
        return response_completion(obj) if isinstance(obj, dict) else None

    def observer(self) -> ResponsesAccumulator:
        return ResponsesAccumulator()

    def error_bytes(self, exc: GatewayError) -> bytes:
        return error_bytes(exc)


def response_completion(obj: dict[str, Any]) -> Completion:
    """The assistant text of a Response object: its message items' ``output_text`` parts."""
    output = obj.get("output")
    texts = [item_text(item) for item in output if isinstance(item, dict)] if isinstance(output, list) else []
    usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
    status = obj.get("status")
    return Completion("".join(t for t in texts if t), status if isinstance(status, str) else None, usage)


class ResponsesAccumulator:
    """Collects ``response.output_text.delta`` pieces; finished at ``response.completed``."""

    def __init__(self) -> None:
        self._events = SseEvents()
        self._parts: list[str] = []
        self._final: Completion | None = None

    def feed(self, chunk: bytes) -> None:
        for name, data in self._events.feed(chunk):
            try:
                obj = orjson.loads(data)
            except orjson.JSONDecodeError:
                continue
            if not isinstance(obj, dict):
                continue
            kind = obj.get("type") or name
            if kind == "response.output_text.delta" and isinstance(obj.get("delta"), str):
                self._parts.append(obj["delta"])
            elif kind in _FINISHED and isinstance(obj.get("response"), dict):
                self._final = response_completion(obj["response"])

    @property
    def ended(self) -> bool:
        return self._final is not None

    def completion(self) -> Completion | None:
        final = self._final
        if final is None:
            return None
        streamed = "".join(self._parts)
        return Completion(streamed or final.content, final.finish_reason, final.usage)


RESPONSES = Responses()
