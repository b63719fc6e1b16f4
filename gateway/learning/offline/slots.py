"""Profile slots: the key a memory fills, stored in its ``slot`` field .

A slot names *what* a memory is about ("home.city", "team.size", "stack.database"), not its
value; ``gateway.learning.offline.keys.derive_key`` finds it, reading subject and attribute
off the sentence's parse. The word rules kept here are the attributes a sentence names by
their own word ("no emoji", "tabs over spaces", "vegetarian", "a team of 8 engineers"):
``keys`` asks ``topic_slot`` for them. The LLM learner may name a slot itself, which
``normalise_slot`` accepts when it is one of ``SLOTS``.
"""

from __future__ import annotations

import re

_NUM_EN = r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)"
_NUM_ZH = r"[\d一二两三四五六七八九十百]+"

# (slot, pattern); matched case-insensitively unless the pattern sets its own flags
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("writing.pov", re.compile(r"\b(?:first|second|third)[- ]person\b|第[一二三]人称", re.I)),
    (
        "writing.spelling",
        re.compile(r"\b(?:British|American|Australian|Canadian|UK|US)\s+(?:spelling|English)\b|英式拼写|美式拼写"),
    ),
    ("style.exclamation", re.compile(r"\bexclamation(?: marks?| points?)?\b|感叹号", re.I)),
    ("style.emoji", re.compile(r"\bemojis?\b|表情符号|表情包", re.I)),
    ("style.hashtags", re.compile(r"\bhashtags?\b|话题标签", re.I)),
    ("style.oxford_comma", re.compile(r"\boxford comma\b|牛津逗号", re.I)),
    ("code.indentation", re.compile(r"\b(?:tabs|spaces|indentation|indent(?:ed|ing)?)\b|缩进|制表符", re.I)),
    ("code.line_length", re.compile(r"\bline (?:length|width)\b|\bcolumn limit\b|行宽|每行不超过", re.I)),
    ("stack.rust_msrv", re.compile(r"\bMSRV\b|minimum supported rust version", re.I)),
    (
        "answer.language",
        re.compile(
            r"\b(?:answers?|repl(?:y|ies)|respon(?:d|ses?))\b.{0,30}\bin (?:Chinese|English|Mandarin|Japanese|"
            r"French|German|Spanish)\b|用(?:中文|英文|英语|日语)(?:回答|回复)",
            re.I,
        ),
    ),
    (
        "diet",
        re.compile(
            r"\b(?:vegetarian|vegan|pescatarian|eats? (?:meat|fish))\b|吃素|素食|吃鱼|吃肉|吃荤",
            re.I,
        ),
    ),
    (
        "team.size",
        re.compile(
            rf"\bteam\b.{{0,40}}\b{_NUM_EN}[- ](?:engineers|developers|devs|people|person)\b"
            rf"|\b{_NUM_EN}[- ](?:backend |frontend |full-stack |software |senior )?(?:engineers|developers|devs)\b"
            rf"|\bteam of {_NUM_EN}\b"
            rf"|(?:团队|技术|组|部门|我们组).{{0,8}}?{_NUM_ZH}\s*(?:个人|人)",
            re.I,
        ),
    ),
    (
        "business.locations",
        re.compile(
            rf"\b(?:{_NUM_EN}|third|fourth|fifth|second)\s+(?:shops?|stores?|locations|branches|cafés?|cafes?)\b"
            rf"|{_NUM_ZH}(?:家|个)(?:门店|店|分店)",
            re.I,
        ),
    ),
    ("trip.budget", re.compile(r"\bbudget\b|预算", re.I)),
    # when the user works: one schedule at a time, whatever the verb ("works nights", "switched to")
    (
        "work.schedule",
        re.compile(
            r"\b(?:night|day|early|late|morning|evening|afternoon|weekend|rotating|split|double|12[- ]hour)"
            r" shifts?\b|\bwork(?:s|ing)? (?:nights|weekends|part[- ]time|full[- ]time|remotely|from home)\b"
            r"|\b(?:part[- ]time|full[- ]time) (?:job|role|position)\b|夜班|白班|倒班|轮班|全职|兼职|远程办公|在家办公",
            re.I,
        ),
    ),
    (
        "clothing.shoe_size",
        re.compile(
            r"\bsize \d+(?:\.5)?\b.{0,24}\b(?:boots?|shoes?|trainers|sneakers)\b|\b(?:shoe|boot) size\b"
            r"|鞋码|穿\d+码的?鞋",
            re.I,
        ),
    ),
    # how often the user trains: one value, whatever the sport is called
    (
        "training.frequency",
        re.compile(
            rf"\b(?:{_NUM_EN}|\d+x|once|twice|thrice)(?: times)? (?:a|per|each) week\b|\b{_NUM_EN}x a week\b"
            rf"|(?:每周|一周|每星期|每个星期|一星期)[^，,。；;]{{0,8}}?{_NUM_ZH}\s*(?:次|天|练)",
            re.I,
        ),
    ),
)

SLOTS: frozenset[str] = frozenset(
    {slot for slot, _ in _RULES}
    | {"home.city", "stack.hosting", "stack.database", "stack.frontend", "stack.queue", "stack.orchestrator"}
    | {"stack.editor", "stack.tests", "work.employer", "work.role"}
)


def topic_slot(text: str) -> str | None:
    """The attribute ``text`` names by its own word (emoji, indentation, diet …), or None."""
    for slot, pattern in _RULES:
        if pattern.search(text):
            return slot
    return None


def normalise_slot(value: object) -> str | None:
    """A model-given slot, kept only when it is a known one (free-form slots never supersede)."""
    if not isinstance(value, str):
        return None
    key = re.sub(r"[\s\-/]+", "_", value.strip().lower())
    return key if key in SLOTS else None
