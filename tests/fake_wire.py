"""Wire formats the fake upstream speaks besides chat completions: the OpenAI Responses API
and Anthropic Messages, whole and as named SSE events (as the real APIs send them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

RESPONSE_USAGE = {
    "input_tokens": 11,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 7,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 18,
}
ANTHROPIC_USAGE = {"input_tokens": 11, "output_tokens": 7}


def named(event: str, obj: dict[str, Any]) -> bytes:
    return b"event: " + event.encode() + b"\ndata: " + orjson.dumps(obj) + b"\n\n"


# --- OpenAI Responses -------------------------------------------------------------


def response_text(body: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """(reply text, function call item or None) for a Responses request."""
    given = body.get("input")
    items = given if isinstance(given, list) else []
    outputs = [i for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]
    if outputs:
        return f"tool said: {outputs[-1].get('output')}", None
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("type") == "function"]
    if tools:
        call = {
            "type": "function_call",
            "id": "fc_fake",
            "call_id": "call_fake",
            "name": tools[0]["name"],
            "arguments": '{"city": "Paris"}',
            "status": "completed",
        }
        return "", call
    if isinstance(given, str):
        return f"echo: {given}", None
    users = [i for i in items if isinstance(i, dict) and i.get("role") == "user"]
    content = users[-1].get("content") if users else ""
    if isinstance(content, list):
        content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return f"echo: {content}", None


def message_item(text: str, status: str = "completed") -> dict[str, Any]:
    content = (
        [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}] if status == "completed" else []
    )
    return {"type": "message", "id": "msg_fake", "status": status, "role": "assistant", "content": content}


def response_object(body: dict[str, Any], output: list[dict[str, Any]], status: str = "completed") -> dict[str, Any]:
    return {
        "id": "resp_fake",
        "object": "response",
        "created_at": 1,
        "status": status,
        "model": body.get("model"),
        "output": output,
        "instructions": body.get("instructions"),
        "previous_response_id": body.get("previous_response_id"),
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": body.get("tools") or [],
        "store": body.get("store", True),
        "usage": RESPONSE_USAGE if status == "completed" else None,
        "x_vendor_field": {"kept": True},
    }


def response_events(body: dict[str, Any], text: str, call: dict[str, Any] | None) -> Iterator[bytes]:
    seq = iter(range(1000))

    def ev(kind: str, **fields: Any) -> bytes:
        return named(kind, {"type": kind, "sequence_number": next(seq), **fields})

    yield ev("response.created", response=response_object(body, [], "in_progress"))
    if call is not None:
        yield ev("response.output_item.added", output_index=0, item={**call, "arguments": "", "status": "in_progress"})
        yield ev("response.function_call_arguments.delta", item_id="fc_fake", output_index=0, delta=call["arguments"])
        yield ev(
            "response.function_call_arguments.done", item_id="fc_fake", output_index=0, arguments=call["arguments"]
        )
        yield ev("response.output_item.done", output_index=0, item=call)
        yield ev("response.completed", response=response_object(body, [call]))
        return
    ids = {"item_id": "msg_fake", "output_index": 0, "content_index": 0}
    yield ev("response.output_item.added", output_index=0, item=message_item("", "in_progress"))
    yield ev("response.content_part.added", part={"type": "output_text", "text": "", "annotations": []}, **ids)
    for i, word in enumerate(text.split(" ")):
        yield ev("response.output_text.delta", delta=word if i == 0 else " " + word, logprobs=[], **ids)
    yield ev("response.output_text.done", text=text, logprobs=[], **ids)
    yield ev("response.content_part.done", part={"type": "output_text", "text": text, "annotations": []}, **ids)
    yield ev("response.output_item.done", output_index=0, item=message_item(text))
    yield ev("response.completed", response=response_object(body, [message_item(text)]))


# --- Anthropic Messages -----------------------------------------------------------


def anthropic_content(body: dict[str, Any], text: str | None) -> list[dict[str, Any]]:
    """The content blocks of a reply: thinking (when asked), then tool_use or text."""
    blocks: list[dict[str, Any]] = []
    if isinstance(body.get("thinking"), dict):
        blocks.append({"type": "thinking", "thinking": "let me think", "signature": "sig_fake"})
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    content = last.get("content") if isinstance(last, dict) else None
    results = (
        [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        if isinstance(content, list)
        else []
    )
    if text is None and results:
        text = f"tool said: {results[-1].get('content')}"
    if text is None and body.get("tools"):
        blocks.append(
            {"type": "tool_use", "id": "toolu_fake", "name": body["tools"][0]["name"], "input": {"city": "Paris"}}
        )
        return blocks
    if text is None:
        if isinstance(content, list):
            content = " ".join(b.get("text", "") for b in content if isinstance(b, dict))
        text = f"echo: {content}"
    blocks.append({"type": "text", "text": text})
    return blocks


def anthropic_message(model: str, blocks: list[dict[str, Any]]) -> dict[str, Any]:
    stop = "tool_use" if blocks and blocks[-1]["type"] == "tool_use" else "end_turn"
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": ANTHROPIC_USAGE,
    }


def anthropic_events(model: str, blocks: list[dict[str, Any]]) -> Iterator[bytes]:
    done = anthropic_message(model, blocks)
    start = {**done, "content": [], "stop_reason": None, "usage": {"input_tokens": 11, "output_tokens": 1}}
    yield named("message_start", {"type": "message_start", "message": start})
    yield named("ping", {"type": "ping"})
    for index, block in enumerate(blocks):
        kind = block["type"]
        empty: dict[str, Any] = (
            {"text": ""}
            if kind == "text"
            else {"thinking": "", "signature": ""}
            if kind == "thinking"
            else {"input": {}}
        )
        yield named(
            "content_block_start", {"type": "content_block_start", "index": index, "content_block": {**block, **empty}}
        )
        if kind == "text":
            for i, word in enumerate(block["text"].split(" ")):
                delta = {"type": "text_delta", "text": word if i == 0 else " " + word}
                yield named("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        elif kind == "thinking":
            delta = {"type": "thinking_delta", "thinking": block["thinking"]}
            yield named("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
            delta = {"type": "signature_delta", "signature": block["signature"]}
            yield named("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        else:
            delta = {"type": "input_json_delta", "partial_json": orjson.dumps(block["input"]).decode()}
            yield named("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        yield named("content_block_stop", {"type": "content_block_stop", "index": index})
    message_delta = {"stop_reason": done["stop_reason"], "stop_sequence": None}
    yield named("message_delta", {"type": "message_delta", "delta": message_delta, "usage": {"output_tokens": 7}})
    yield named("message_stop", {"type": "message_stop"})


def anthropic_error(status: int) -> dict[str, Any]:
    kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": f"fake {status}"}}
