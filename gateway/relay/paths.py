"""Which request paths may be relayed upstream, and in what exact form.

A relayed path is appended to ``upstreams.default.api_base`` and sent with the
operator's upstream key, so it must never climb out of that base. Policy:

* the path is taken from the bytes the client sent (``raw_path``), not from the
  server's decoded ``path``, and is forwarded in that encoded form;
* a dot segment (``.`` or ``..``, also with a ``;`` parameter: ``..;x``) is refused, and so is any percent-escape that
  would decode to a dot, a slash, a backslash, ``?``, ``#`` or ``%`` (``%2e``,
  ``%2f``, ``%5c``, ``%3f``, ``%23``, ``%25``, any case): after them no decoding
  of the path, once or repeatedly, can produce a dot segment or a new separator;
* a literal backslash, a non-ASCII byte or a malformed escape is refused.

The result is built into a URL with ``encoded=True`` so that neither yarl nor
aiohttp re-normalises or re-interprets it.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from gateway.errors import BadRequest

_FORBIDDEN_ESCAPE = re.compile(rb"%(?:2[eEfF5]|5[cC]|3[fF]|23)")
_MALFORMED_ESCAPE = re.compile(rb"%(?![0-9A-Fa-f]{2})")


def relay_path(scope_path: str, raw_path: bytes | None, prefix: str) -> str:
    """The still-encoded path below ``prefix`` to append to the upstream base; raise 400 if unsafe."""
    raw = raw_path if raw_path is not None else quote(scope_path).encode()
    if not raw.startswith(prefix.encode()) or not scope_path.startswith(prefix):
        raise _refused("the path is outside " + prefix)
    rest = raw[len(prefix) :]
    if not rest.isascii() or b"\\" in rest or b"?" in rest or b"#" in rest:
        raise _refused("the path has a backslash, '?', '#' or a non-ASCII byte")
    if _FORBIDDEN_ESCAPE.search(rest) or _MALFORMED_ESCAPE.search(rest):
        raise _refused("the path has an encoded dot, slash, backslash, '?', '#' or '%', or a malformed escape")
    if _has_dot_segment(rest.decode("ascii")) or _has_dot_segment(scope_path):
        raise _refused("the path has a '.' or '..' segment")
    return rest.decode("ascii")


def _has_dot_segment(path: str) -> bool:
    # '..;x' counts: servers that take ';' as a path-parameter separator read it as '..'
    return any(segment.partition(";")[0] in (".", "..") for segment in path.split("/"))


def _refused(why: str) -> BadRequest:
    return BadRequest(f"refused request path: {why}", code="invalid_path")
