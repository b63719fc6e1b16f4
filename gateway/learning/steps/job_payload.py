"""What a learning job keeps of a conversation, and the turn the learners read from it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gateway.chat import TranscriptMessage
from gateway.learning.llm.learners import Turn
from gateway.memory import strip_block

_CONTEXT_MESSAGES = 6
_MAX_MESSAGE_CHARS = 4000


def job_payload(
    transcript: list[TranscriptMessage], answer: str, dialect: str, when: datetime | None = None
) -> dict[str, Any]:
    """What a job keeps: the last turns (already without the gateway's memory block), the
    answer, the dialect the conversation spoke (which upstream its own model lives on) and the
    conversation's time (``X-Memorelay-Time``, else now: relative dates are resolved from it)."""
    recent = [
        {"role": m["role"], "content": strip_block(m["content"])[:_MAX_MESSAGE_CHARS]}
        for m in transcript[-_CONTEXT_MESSAGES:]
    ]
    return {
        "messages": [m for m in recent if m["content"]],
        "answer": strip_block(answer)[:_MAX_MESSAGE_CHARS],
        "dialect": dialect,
        "time": (when or datetime.now(UTC)).isoformat(),
    }


def turn_of(payload: dict[str, Any]) -> Turn:
    messages = payload.get("messages") or []
    users = [m["content"] for m in messages if m.get("role") == "user"]
    user_text = users[-1] if users else ""
    answer = str(payload.get("answer") or "")
    lines = [f"{m['role'].capitalize()}: {m['content']}" for m in messages]
    lines.append(f"Assistant: {answer}")
    return Turn(user_text=user_text, assistant_text=answer, transcript="\n".join(lines), time=time_of(payload))


def time_of(payload: dict[str, Any]) -> datetime:
    """The conversation's time a job carries (older jobs have none: now)."""
    try:
        when = datetime.fromisoformat(str(payload["time"]))
    except (KeyError, ValueError):
        return datetime.now(UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
