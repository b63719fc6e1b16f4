"""End user, conversation and opt-outs of one request, from its headers (and the body's ``user``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote_to_bytes

from gateway.errors import BadRequest

USER_HEADER = "x-memorelay-user"
CONVERSATION_HEADER = "x-memorelay-conversation"
OPT_OUT_HEADER = "x-memorelay-opt-out"
TIME_HEADER = "x-memorelay-time"
MAX_ID_LENGTH = 256
# RFC 8187 ext-value prefix: charset, optional language tag (only UTF-8 is recognised)
_RFC8187_PREFIX = re.compile(r"utf-8'[A-Za-z0-9-]*'", re.IGNORECASE)
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


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
    # the conversation's time (``X-Memorelay-Time``) when an import or replay gives it
    time: datetime | None = None


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
    if user is not None:
        user = decode_header_id(user, "X-Memorelay-User")
    elif body is not None:
        body_user = body.get("user")
        user = body_user if isinstance(body_user, str) else None
    return _check_id(user, "X-Memorelay-User")


def resolve_conversation(headers: Mapping[str, str]) -> str | None:
    value = headers.get(CONVERSATION_HEADER)
    if value is None:
        return None
    return _check_id(decode_header_id(value, "X-Memorelay-Conversation"), "X-Memorelay-Conversation")


def resolve_time(headers: Mapping[str, str]) -> datetime | None:
    """``X-Memorelay-Time``: the conversation's time, for relative dates ("yesterday") in what
    is learned from it. ISO 8601 (a date, or a date and time; without an offset it is UTC)."""
    value = headers.get(TIME_HEADER)
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        when = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in "zZ" else text)
    except ValueError:
        raise BadRequest(
            "X-Memorelay-Time: not an ISO 8601 date or time (e.g. 2026-12-01T09:30:00Z)", param="X-Memorelay-Time"
        ) from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def decode_header_id(value: str, name: str) -> str:
    """A user or conversation id as sent in a header, decoded to the string the body would carry.

    Header values arrive as bytes (``header_dict`` maps them 1:1 to latin-1 text). Accepted:
    percent-encoded UTF-8 (``Jos%C3%A9``), the RFC 8187 form (``UTF-8''Jos%C3%A9``) and raw
    UTF-8 bytes. A ``%`` must start a valid escape (a literal one is ``%25``), and the bytes
    must be valid UTF-8; anything else is a 400 rather than a guess at another user.
    """
    if value.isascii() and "%" not in value and "'" not in value:
        return value  # the common case costs three C-speed checks
    prefix = _RFC8187_PREFIX.match(value)
    if prefix is not None:
        value = value[prefix.end() :]
    if _BAD_ESCAPE.search(value):
        raise BadRequest(f"{name}: '%' must start a percent-escape of UTF-8 (send a literal '%' as %25)", param=name)
    raw = unquote_to_bytes(value.encode("latin-1"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(f"{name}: not valid UTF-8 after percent-decoding", param=name) from None


def is_valid_id(value: str) -> bool:
    """Whether a stripped tenant, user or conversation id may be used: at most ``MAX_ID_LENGTH``
    characters, all printable (no control, format, separator other than the space, private-use,
    surrogate or unassigned character: no zero-width space, bidi override or soft hyphen that
    would make two ids look alike). The admin API holds its ids to the same rule."""
    return len(value) <= MAX_ID_LENGTH and value.isprintable()


def _check_id(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    if not is_valid_id(value):
        raise BadRequest(f"{name}: must be printable and at most {MAX_ID_LENGTH} characters", param=name)
    return value
