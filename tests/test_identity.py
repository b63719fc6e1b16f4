"""Property tests of the identity headers: opt-out parsing and header user-id decoding."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gateway.chat.identity import OptOut, decode_header_id, parse_opt_out, resolve_conversation, resolve_user
from gateway.errors import BadRequest

WORDS = ["learning", "injection", "all", "none", ""]
# what a header carries: each byte one latin-1 character (gateway.http.asgi.header_dict)
header_text = st.binary(max_size=64).map(lambda b: b.decode("latin-1"))
ids = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=64
).filter(lambda s: s == s.strip() and s.isprintable())


def _header(value: str) -> dict[str, str]:
    return {"x-memorelay-user": value, "x-memorelay-conversation": value}


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.booleans(), st.sampled_from(["", " ", "  "]))))
def test_opt_out_of_known_words_in_any_case_and_spacing(tokens: list[tuple[str, bool, str]]) -> None:
    value = ",".join(pad + (w.upper() if upper else w) + pad for w, upper, pad in tokens)
    words = {w for w, _, _ in tokens}
    expected = OptOut(learning=bool(words & {"learning", "all"}), injection=bool(words & {"injection", "all"}))
    assert parse_opt_out(value) == expected


@settings(max_examples=200)
@given(header_text)
def test_opt_out_parses_or_refuses_any_header(value: str) -> None:
    try:
        parse_opt_out(value)
    except BadRequest as exc:
        assert exc.param == "X-Memorelay-Opt-Out"


@settings(max_examples=300)
@given(ids)
@example("José")
@example("张三")
@example("50%off")
def test_a_percent_encoded_id_decodes_to_itself(user: str) -> None:
    encoded = quote(user, safe="")
    assert resolve_user(_header(encoded), None) == user
    assert resolve_user(_header("UTF-8''" + encoded), None) == user
    assert resolve_conversation(_header(encoded)) == user
    assert resolve_user({}, {"user": user}) == user  # the body form of the same id


@settings(max_examples=200)
@given(ids.filter(lambda s: "%" not in s))
def test_raw_utf8_header_bytes_decode_to_the_id(user: str) -> None:
    assert resolve_user(_header(user.encode().decode("latin-1")), None) == user


@settings(max_examples=300)
@given(header_text)
def test_any_header_bytes_decode_or_are_a_400(value: str) -> None:
    try:
        decoded = decode_header_id(value, "X-Memorelay-User")
    except BadRequest as exc:
        assert exc.param == "X-Memorelay-User"
        return
    assert isinstance(decoded, str)


@pytest.mark.parametrize("value", ["100%", "%g0", "%C3", "%FF"])
def test_stray_percent_or_bad_utf8_is_refused(value: str) -> None:
    with pytest.raises(BadRequest):
        decode_header_id(value, "X-Memorelay-User")


def test_the_conversation_time_header_is_iso_8601_and_utc_by_default() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from gateway.chat.identity import resolve_time

    assert resolve_time({}) is None and resolve_time({"x-memorelay-time": "  "}) is None
    assert resolve_time({"x-memorelay-time": "2026-12-01T09:30:00Z"}) == datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    assert resolve_time({"x-memorelay-time": "2026-12-01"}) == datetime(2026, 12, 1, tzinfo=UTC)
    plus8 = resolve_time({"x-memorelay-time": "2026-12-01T08:00:00+08:00"})
    assert plus8 == datetime(2026, 12, 1, 8, tzinfo=timezone(timedelta(hours=8)))
    for bad in ("yesterday", "2026-13-01", "12/01/2026"):
        with pytest.raises(BadRequest):
            resolve_time({"x-memorelay-time": bad})
