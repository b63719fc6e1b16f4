"""Facts said too tersely for the parse: a team's head count, a tool swapped in a few words.

"Four backend engineers incl. me.", "we're nine engineers as of this month", "No longer on
FreeAgent, Xero now." carry no verb frame the English reader (``english``) keeps, yet each is
one attribute with one value. They are read here only when that reader found nothing in the
sentence, and written in the form whose key (``keys``) is the attribute's: "The user's team
has nine engineers." (``team.size``), "The user does their bookkeeping in Xero."
"""

from __future__ import annotations

import re

from gateway.learning.offline import lexicon
from gateway.learning.offline.atomic import phrase_of

_NUM = (
    r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
    r"|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty"
)
_TEAM = re.compile(
    rf"(?:^|\b(?:we(?:'re| are| have)|our team (?:is|has)|the team (?:is|has)|team of|grew to|down to|now)\s+"
    rf"(?:(?:a team of|about|around|roughly|just|only|now)\s+)*)"
    rf"(?P<n>{_NUM})\s+(?P<kind>(?:backend|back-end|frontend|front-end|full-stack|mobile|data|software|senior)\s+)?"
    rf"(?P<who>engineers|developers|devs|people)\b",
    re.I,
)
_GONE = re.compile(
    r"\b(?:no longer (?:on|using|with)|moved off|off of|ditched|dropped|not on|not using)\s+(?P<old>[\w.+# -]{2,30}?)"
    r"(?=[,;.—–-]|\s+(?:any ?more|now)\b|$)",
    re.I,
)
_NOW = re.compile(r"\b(?:now|instead|these days)\b", re.I)


def read(sentence: str) -> list[tuple[str, str]]:
    """(kind, content) of the terse facts of one English sentence (module docstring)."""
    out: list[tuple[str, str]] = []
    team = _TEAM.search(sentence)
    if team is not None and not sentence.rstrip().endswith("?"):
        kind = (team.group("kind") or "").strip().lower()
        who = team.group("who").lower()
        out.append(("fact", f"The user's team has {team.group('n').lower()} {kind + ' ' if kind else ''}{who}."))
    swap = _swap(sentence)
    if swap is not None:
        out.append(("fact", swap))
    return out


def _swap(sentence: str) -> str | None:
    """ "No longer on FreeAgent, Xero now": a value gone and one of the same kind now."""
    gone = _GONE.search(sentence)
    if gone is None or not _NOW.search(sentence):
        return None
    old = lexicon.tools_in(gone.group("old"))
    if not old:
        return None
    cls = old[0][1]
    rest = sentence[: gone.start()] + " " + sentence[gone.end() :]
    new = [name for name, c in lexicon.tools_in(rest) if c == cls]
    if not new:
        return None
    at = rest.lower().find(new[0].lower())
    return phrase_of(cls, [rest[at : at + len(new[0])]])
