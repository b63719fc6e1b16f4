"""Property tests of the relay path guard: no accepted path can climb out of /v1."""

from __future__ import annotations

from urllib.parse import unquote

from hypothesis import example, given, settings
from hypothesis import strategies as st
from yarl import URL

from gateway.errors import BadRequest
from gateway.relay.paths import relay_path

# the characters that matter for traversal, and a few that do not
PIECES = [
    ".",
    "..",
    "/",
    "%",
    "%2e",
    "%2E",
    "%2f",
    "%2F",
    "%25",
    "%5c",
    "%3f",
    "%23",
    "\\",
    "?",
    "#",
    ";",
    "a",
    "b",
    "%41",
    "é",
]
raw_paths = st.lists(st.sampled_from(PIECES), max_size=12).map(lambda parts: "/v1/" + "".join(parts))


def _uvicorn_scope_path(raw: bytes) -> str:
    text = raw.decode("latin-1")
    return unquote(text) if "%" in text else text


def _dot_segment(path: str) -> bool:
    segments = path.replace("\\", "/").split("/")
    return any(segment.partition(";")[0] in (".", "..") for segment in segments)


@settings(max_examples=300)
@given(raw_paths)
@example("/v1/%2e%2e/x")
@example("/v1/..%2f")
@example("/v1/%252e%252e/")
@example("/v1/a/..;/x")
def test_no_accepted_path_has_a_dot_segment_after_any_decoding(path: str) -> None:
    raw = path.encode("utf-8")
    try:
        rest = relay_path(_uvicorn_scope_path(raw), raw, "/v1")
    except BadRequest as exc:
        assert exc.code == "invalid_path"
        return
    decoded = rest
    for _ in range(3):
        assert not _dot_segment(decoded)
        assert not any(c in decoded for c in "?#\\")
        decoded = unquote(decoded)
    url = URL("http://upstream:1/v1" + rest, encoded=True)
    assert url.raw_path == "/v1" + rest and url.path.startswith("/v1")
    assert url.raw_query_string == "" and url.fragment == ""
