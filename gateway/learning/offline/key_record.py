"""A key and the parts both languages build keys from (``keys`` for English, ``keys_zh``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_KEY = 64


@dataclass(frozen=True)
class Key:
    """What a memory's sentence is about: the attribute (``slot``), its values, and how the
    sentence changes them (``gateway.learning.offline.keys`` reads it off the sentence)."""

    slot: str
    multi: bool = False
    values: tuple[str, ...] = ()
    old: tuple[str, ...] = ()
    change: bool = False
    retraction: bool = False
    subject: str = "user"  # user | rel:<name or role>
    # read only off what a named value is, with no frame: an attribute the sentence names by its
    # own word ("told in first person") says more
    weak: bool = False


def clean_segment(word: str) -> str:
    """One dotted segment of a key: lower-case words joined by ``_``."""
    word = re.sub(r"[^\w]+", "_", word.casefold()).strip("_")
    return word[:24]


def join_key(*parts: str) -> str:
    key = ".".join(p for p in (clean_segment(x) if i else x for i, x in enumerate(parts)) if p)
    return key[:MAX_KEY].rstrip("._")


# relation nouns: (key group, several at once?)
RELATIONS: dict[str, tuple[str, bool]] = {
    **{w: ("family", True) for w in "daughter son child kid baby sister brother sibling cousin niece nephew".split()},
    **{
        w: ("family", True) for w in "grandmother grandma grandfather grandpa aunt uncle grandson granddaughter".split()
    },
    **{w: ("family", False) for w in "wife husband partner spouse fiancé fiancée girlfriend boyfriend".split()},
    **{w: ("family", False) for w in "mother mom mum father dad stepmother stepfather parents in-laws".split()},
    **{w: ("pets", True) for w in "dog cat puppy kitten rabbit hamster parrot horse pet tortoise".split()},
    **{w: ("work", False) for w in "manager boss".split()},
    **{w: ("work", True) for w in "colleague coworker co-worker cofounder co-founder teammate mentor".split()},
    **{w: ("people", True) for w in "friend neighbour neighbor roommate flatmate".split()},
}
