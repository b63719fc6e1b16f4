"""What kind of knowledge a memory holds, and the kind a memory stored without one gets.

Kinds:

- ``fact``: an attribute of the user or of something in their life (works at, lives in, stack);
- ``preference``: likes, dislikes, always/never, style;
- ``relation``: a person, pet or organisation in the user's life and how they relate;
- ``episode``: a dated event in the user's life (fades faster: ``learning.episode_half_life_days``);
- ``rule``: a standing instruction to the assistant.

A memory written before kinds existed (an older database, backup, export or import file, or an
API call that names none) gets ``derive_kind``: a tag naming a kind wins; then a user
preference on the answers' language or style worded as a standing instruction ("always answer
in Chinese", "以后总是用中文回答") is a ``rule``; any other ``user_preference`` is a
``preference``; everything else is a ``fact``. The SQLite migration calls this function; the
PostgreSQL migration spells the same rule in SQL (``STANDING_SQL``).
"""

from __future__ import annotations

import re
from typing import Literal, get_args

Kind = Literal["fact", "preference", "relation", "episode", "rule"]
KINDS: tuple[str, ...] = get_args(Kind)
DEFAULT_KIND = "fact"

# the subcategories of a preference about how answers are given
_ANSWER_SUBCATEGORIES = frozenset({"language", "style"})
_STANDING_WORDS = (
    "always",
    "never",
    "from now on",
    "going forward",
    "every time",
    "whenever",
    "in the future",
    "in future",
)
_STANDING_CJK = ("以后", "今后", "从现在", "一律", "每次", "总是", "永远", "始终", "务必")
_STANDING = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in _STANDING_WORDS) + r")\b|" + "|".join(_STANDING_CJK),
    re.IGNORECASE,
)
# the same words as a PostgreSQL regular expression (\y: a word boundary); case-insensitive (~*)
STANDING_SQL = r"\y(" + "|".join(_STANDING_WORDS) + r")\y|" + "|".join(_STANDING_CJK)


# what a tag naming a kind may carry around it: ASCII whitespace, the same on both backends
# (TAG_TRIM_SQL is the PostgreSQL migration's btrim argument)
_TAG_TRIM = " \t\n\v\f\r"
TAG_TRIM_SQL = " || ".join(f"chr({ord(c)})" for c in _TAG_TRIM)


def derive_kind(category: str, subcategory: str, title: str, content: str, tags: object) -> str:
    """The kind of a memory stored without one (the rule in the module docstring). ``tags`` is
    what the memory holds: anything but a list (an older row's scalar) names no kind, nor does
    an entry that is not a string."""
    for tag in tags if isinstance(tags, list | tuple) else ():
        if isinstance(tag, str) and (named := tag.strip(_TAG_TRIM).lower()) in KINDS:
            return named
    if category != "user_preference":
        return DEFAULT_KIND
    if subcategory in _ANSWER_SUBCATEGORIES and _STANDING.search(f"{title}\n{content}"):
        return "rule"
    return "preference"
