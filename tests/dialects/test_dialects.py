"""The three dialects on their own: placement, query text, transcript and stream accumulation."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from gateway.chat import Dialect
from gateway.dialects import ANTHROPIC_MESSAGES, CHAT_COMPLETIONS, RESPONSES
from gateway.errors import BadRequest, UpstreamTimeout
from gateway.memory import MEMORY_BLOCK_END, MEMORY_BLOCK_START
from tests import fake_wire
from tests.fake_upstream import chunk, sse

BLOCK = f"{MEMORY_BLOCK_START}\n- The user likes tea.\n{MEMORY_BLOCK_END}"


def feed_bytewise(dialect: Dialect, stream: bytes) -> Any:
    observer = dialect.observer()
    for i in range(len(stream)):  # events split at every possible boundary
        observer.feed(stream[i : i + 1])
    return observer.completion()


def test_accumulators_assemble_split_streams_and_refuse_unfinished_ones() -> None:
    chat = b"".join(
        [sse(chunk("m", "Hel")), sse(chunk("m", "lo")), sse(chunk("m", None, finish="stop")), b"data: [DONE]\n\n"]
    )
    responses = b"".join(fake_wire.response_events({"model": "m"}, "Hello there", None))
    messages = b"".join(
        fake_wire.anthropic_events(
            "m", [{"type": "thinking", "thinking": "x", "signature": "s"}, {"type": "text", "text": "Hello there"}]
        )
    )
    assert feed_bytewise(CHAT_COMPLETIONS, chat).content == "Hello"
    done = feed_bytewise(RESPONSES, responses)
    assert done.content == "Hello there" and done.finish_reason == "completed" and done.usage["output_tokens"] == 7
    done = feed_bytewise(ANTHROPIC_MESSAGES, messages)
    assert done.content == "Hello there" and done.finish_reason == "end_turn" and done.usage["output_tokens"] == 7
    # a stream cut before its last event is never learned from
    for dialect, stream, last in (
        (CHAT_COMPLETIONS, chat, b"data: {"),
        (RESPONSES, responses, b"event: response.completed"),
        (ANTHROPIC_MESSAGES, messages, b"event: message_delta"),
    ):
        assert feed_bytewise(dialect, stream[: stream.rindex(last)]) is None
    errored = messages.replace(b"event: message_stop", b'event: error\ndata: {"type":"error"}\n\nevent: message_stop')
    assert feed_bytewise(ANTHROPIC_MESSAGES, errored) is None


def test_whole_bodies() -> None:
    body = orjson.dumps(fake_wire.response_object({"model": "m"}, [fake_wire.message_item("Hi")]))
    assert RESPONSES.completion_from_body(body).content == "Hi"  # type: ignore[union-attr]
    message = fake_wire.anthropic_message("m", [{"type": "thinking", "thinking": "no"}, {"type": "text", "text": "Hi"}])
    assert ANTHROPIC_MESSAGES.completion_from_body(orjson.dumps(message)).content == "Hi"  # type: ignore[union-attr]
    assert ANTHROPIC_MESSAGES.completion_from_body(b'{"type": "error"}') is None


def test_anthropic_last_user_keeps_tool_results_first_and_query_skips_them() -> None:
    body: dict[str, Any] = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "Plan my Paris trip"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "w", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "sunny"}]},
        ],
    }
    assert ANTHROPIC_MESSAGES.query_text(body) == "Plan my Paris trip"
    body["messages"][2]["content"].append({"type": "text", "text": "and then?"})
    assert ANTHROPIC_MESSAGES.query_text(body) == "Plan my Paris trip\nand then?"
    ANTHROPIC_MESSAGES.place_block(body, BLOCK, "last_user")
    assert [b["type"] for b in body["messages"][2]["content"]] == ["tool_result", "text", "text"]
    assert body["messages"][2]["content"][1]["text"] == BLOCK and "system" not in body
    assert ANTHROPIC_MESSAGES.transcript(body) == [
        {"role": "user", "content": "Plan my Paris trip"},
        {"role": "user", "content": "and then?"},
    ]


def test_responses_transcript_and_query() -> None:
    body: dict[str, Any] = {
        "model": "m",
        "instructions": "Be brief.",
        "input": [
            {"role": "developer", "content": "secret rules"},
            {"role": "user", "content": [{"type": "input_text", "text": "I use Go at work."}]},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Nice."}]},
            {"type": "function_call_output", "call_id": "c", "output": "42"},
            {"role": "user", "content": "and tests?"},
        ],
    }
    assert RESPONSES.query_text(body) == "I use Go at work.\nand tests?"
    RESPONSES.place_block(body, BLOCK, "last_user")
    RESPONSES.place_block(body, BLOCK, "system")
    assert body["instructions"] == f"Be brief.\n\n{BLOCK}"
    assert RESPONSES.transcript(body) == [
        {"role": "user", "content": "I use Go at work."},
        {"role": "assistant", "content": "Nice."},
        {"role": "user", "content": "and tests?"},
    ]


@pytest.mark.parametrize(
    ("dialect", "body"),
    [
        (RESPONSES, {"model": "m", "input": 3}),
        (RESPONSES, {"model": "m", "input": "x", "instructions": ["no"]}),
        (ANTHROPIC_MESSAGES, {"model": "m", "messages": [{"content": "no role"}]}),
        (ANTHROPIC_MESSAGES, {"model": "m", "messages": [{"role": "user", "content": "x"}], "system": 1}),
        (CHAT_COMPLETIONS, {"messages": [{"role": "user", "content": "x"}]}),
    ],
)
def test_validation(dialect: Dialect, body: dict[str, Any]) -> None:
    with pytest.raises(BadRequest):
        dialect.validate(body)


def test_anthropic_error_shape() -> None:
    assert orjson.loads(ANTHROPIC_MESSAGES.error_bytes(UpstreamTimeout("slow"))) == {
        "type": "error",
        "error": {"type": "timeout_error", "message": "slow"},
    }
