"""End user, conversation and opt-outs of one request (SPEC §3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gateway.errors import BadRequest

USER_HEADER = "x-memorelay-user"
CONVERSATION_HEADER = "x-memorelay-conversation"
OPT_OUT_HEADER = "x-memorelay-opt-out"
MAX_ID_LENGTH = 256


@dataclass(frozen=True, slots=True)
class OptOut:
    learning: bool = False
    injection: bool = False


NO_OPT_OUT = OptOut()


@dataclass(frozen=True, slots=True)
class Identity:
    tenant: str
    user: str | None
    conversation: str | None


def parse_opt_out(value: str | None) -> OptOut:
    """``learning``, ``injection``, ``all`` or ``none``; comma-separated, any case."""
    if not value:
        return NO_OPT_OUT
    learning = injection = False
    for token in value.split(","):
        word = token.strip().lower()
        if word == "learning":
            learning = True
        elif word == "injection":
            injection = True
        elif word == "all":
            learning = injection = True
        elif word not in ("", "none"):
            raise BadRequest(
                f"X-Memorelay-Opt-Out: unknown value {word!r} (use learning, injection or all)",
                param="X-Memorelay-Opt-Out",
            )
    return OptOut(learning=learning, injection=injection)


def resolve_user(headers: Mapping[str, str], body: Mapping[str, Any] | None) -> str | None:
    """The header wins over the OpenAI body field ``user``; neither means no user."""
    user = headers.get(USER_HEADER)
    if user is None and body is not None:
        body_user = body.get("user")
        user = body_user if isinstance(body_user, str) else None
    return _check_id(user, "X-Memorelay-User")


def resolve_conversation(headers: Mapping[str, str]) -> str | None:
    return _check_id(headers.get(CONVERSATION_HEADER), "X-Memorelay-Conversation")


def _check_id(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    if len(value) > MAX_ID_LENGTH or not value.isprintable():
        raise BadRequest(f"{name}: must be printable and at most {MAX_ID_LENGTH} characters")
    return value
