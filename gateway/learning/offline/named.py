"""Who is who in the user's life, said in passing: "my sister Priya dragged me", "Noodle, my
greyhound", "my twin brother Chidi wants one too".

A person or pet of the user's named next to the word for them is a lasting fact even when the
sentence around it tells a moment ("my sister Priya dragged me" is an outing, the sister is
for good). The name must be written with a capital, the word be one of family, pets or the
people the user lives with, and
the pair is kept as "The user's sister is called Priya."
"""

from __future__ import annotations

import re

__all__ = ["named_in_next_sentence", "named_relations"]

_FAMILY = (
    "wife|husband|partner|spouse|fiance|fiancé|fiancée|girlfriend|boyfriend|daughter|son|kid|child|baby|mother|mom"
    "|mum|father|dad|brother|sister|grandma|grandmother|grandpa|grandfather|gran|nan|aunt|uncle|cousin|niece|nephew"
    "|stepson|stepdaughter|stepmum|stepmom|stepdad|twin"
    "|flatmate|roommate|housemate"  # the people the user lives with
)
_PETS = (
    "dog|cat|puppy|kitten|pup|pet|horse|pony|rabbit|bunny|hamster|guinea pig|parrot|budgie|tortoise|turtle|lizard"
    "|gecko|snake|ferret|chinchilla|greyhound|beagle|labrador|lab|spaniel|terrier|collie|poodle|dachshund|pug|husky"
    "|retriever|shepherd|corgi|whippet|tabby|moggy"
)
_REL = rf"(?P<rel>{_FAMILY}|{_PETS})"
_ADJ = (
    r"(?:(?:little|big|older|younger|elder|baby|twin|new|old|rescue|rescued|ginger|black|white|grey|tabby|lovely)\s+)*"
)
_NAME = r"(?P<name>[A-Z][a-zà-öø-ÿ]{1,15}(?:-[A-Z][a-z]+)?)"
_PATTERNS = (
    re.compile(rf"\b[Mm]y (?P<what>{_ADJ}{_REL}),?\s+{_NAME}\b"),  # "my sister Priya", "my greyhound, Noodle"
    re.compile(rf"(?:^|[.!;]\s+){_NAME},\s+my (?P<what>{_ADJ}{_REL})\b"),  # "Noodle, my greyhound"
    re.compile(rf"\b{_NAME}(?:'s| is) my (?P<what>{_ADJ}{_REL})\b"),  # "Sheldon is my tortoise"
)
# "we adopted a rescue greyhound yesterday!!! she's called Biscuit": the name said in the next
# sentence belongs with the one just introduced
_NAMED_NEXT = re.compile(
    rf"\b(?P<np>(?i:a|an|our|my)\s+(?i:{_ADJ}{_REL}))\b(?P<mid>[^.!?\n]{{0,40}}?)\s*[.!?]+"
    rf"[\s\U0001F300-\U0001FAFF\u2600-\u27BF]*(?i:she|he|it|they)(?:'s| is|’s) (?i:called|named) {_NAME}\b"
)


def named_in_next_sentence(text: str) -> str:
    """``text`` with a name given in the sentence after someone or a pet is introduced joined to
    them: "we adopted a rescue greyhound yesterday! she's called Biscuit" → "we adopted a rescue
    greyhound called Biscuit yesterday"."""
    return _NAMED_NEXT.sub(lambda m: f"{m.group('np')} called {m.group('name')}{m.group('mid')}.", text)


_NOT_NAMES = {
    "I",
    "The",
    "And",
    "But",
    "So",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Christmas",
    "Easter",
    "Mum",
    "Dad",
    "Mom",
    "In",
    "Law",
    "On",
    "At",
}


# "Haha, my cat just walked across the keyboard": an interjection before the comma, not a name
_INTERJECTION = re.compile(
    r"^(?:ha(?:ha)+|he(?:he)+|lol|lmao|oh|ok(?:ay)?|yes|yeah|yep|no|nope|well|hey|hi|hiya|hello|wow|omg|ugh|aw+"
    r"|anyway|sorry|thanks|cheers|sure|right|um+|hm+|ah+|yay|phew|oops|gosh|honestly|seriously|also|plus)$",
    re.I,
)


def named_relations(sentence: str) -> list[tuple[str, str]]:
    """``(relation, name)`` for each family member or pet the sentence names ("my twin brother
    Chidi" → ``("twin brother", "Chidi")``)."""
    found: list[tuple[str, str]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(sentence):
            name, rel = m.group("name"), m.group("what").lower()
            if name not in _NOT_NAMES and not _INTERJECTION.match(name) and (rel, name) not in found:
                found.append((rel, name))
    return found
