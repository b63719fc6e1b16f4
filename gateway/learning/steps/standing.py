"""Standing rules the learner proposes as pinned (L1) memories.

A learned preference about how every answer should be given ("always answer in Chinese",
"以后总是用中文回答", "never use bullet points") applies to every turn, not only to turns
that mention it, so it is stored pinned while the user is under ``memory.max_pinned_per_user``
(over it, it is stored unpinned and retrieved as before). Only the answer's language and style
qualify: a learned fact is never pinned.
"""

from __future__ import annotations

import re

from gateway.learning.steps.extraction import KnowledgeItem

_SUBCATEGORIES = frozenset({"language", "style"})
_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|every time|whenever|in (?:the )?future)\b"
    r"|以后|今后|从现在|一律|每次|总是|永远|始终|务必",
    re.IGNORECASE,
)


def is_standing_rule(item: KnowledgeItem) -> bool:
    """A user preference on the answers' language or style, worded as a standing rule."""
    if item.category != "user_preference" or item.subcategory not in _SUBCATEGORIES:
        return False
    return bool(_STANDING.search(f"{item.title}\n{item.content}"))
