"""Property tests of JSON body parsing: too deep is a 400, never a 500."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.errors import BadRequest
from gateway.http.asgi import MAX_JSON_DEPTH, json_depth, parse_json_object

leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
trees = st.recursive(
    leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@settings(max_examples=150)
@given(trees)
def test_json_depth_matches_the_recursive_definition(value: Any) -> None:
    assert json_depth(value) == _depth(value)


@settings(max_examples=100)
@given(st.integers(1, 1100), st.lists(st.sampled_from(["list", "dict"]), min_size=1, max_size=4))
def test_deep_bodies_are_a_400_exactly_past_the_limit(depth: int, kinds: list[str]) -> None:
    raw = b"{}"
    for level in range(depth - 1):
        raw = b"[" + raw + b"]" if kinds[level % len(kinds)] == "list" else b'{"k":' + raw + b"}"
    body = b'{"x":' + raw + b"}"
    try:
        parsed = parse_json_object(body)
    except BadRequest:
        assert depth + 1 > MAX_JSON_DEPTH
        return
    assert depth + 1 <= MAX_JSON_DEPTH
    assert orjson.loads(orjson.dumps({"wrapped": [parsed]})) == {"wrapped": [parsed]}
