"""Backend-neutral keyword retrieval pieces: query parsing, CJK grams, partitions.

A query becomes English words (stop words dropped; each backend stems them its own way) and
CJK character bigrams (a 1-char run stays a unigram), because a word tokenizer would keep a
CJK run as one token; rows are indexed with the same grams (``cjk_grams``: bigrams plus
unigrams, "我喜欢喝咖啡" -> "我喜 喜欢 欢喝 喝咖 咖啡 我 喜 ..."). Keyword search runs
within the caller's partitions only (``visible_partitions``), the same partitions as the
vector index (``partition_key``): a user's personal memories, or a tenant's shared + system
memories. The SQLite FTS5 SQL is in ``gateway/store/sqlite/keywords.py``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ffff"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
MAX_TERMS = 32
# Common-term pruning (``prune_common``): a word in more than COMMON_FRACTION of all indexed
# rows, and in more than COMMON_MIN_ROWS of them, is left out of the keyword query. bm25 gives
# such a word a small idf, yet every row holding it must be scored (the cost of an FTS5 search
# is the bm25 work per matched row). The row floor keeps small stores untouched.
COMMON_FRACTION = 0.1
COMMON_MIN_ROWS = 2000
SHARED_OWNER = "\x00shared"
# shorter words match too much of everything as substrings ("use" in "because")
MIN_SUBSTRING = 4

# Function words carry no topic; dropping them keeps keyword matches meaningful.
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being
    both but by can could did do does doing done down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours out over own
    same she should so some such than that the their theirs them then there these they this
    those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves let lets any much many did does
    what's whats it's i'm don't didn't doesn't isn't wasn't ever""".split()
)


def partition_key(tenant: str, scope: str, user_id: str) -> tuple[str, str]:
    """Personal memories live in (tenant, user); shared and system in (tenant, SHARED_OWNER)."""
    return (tenant, user_id) if scope == "personal" else (tenant, SHARED_OWNER)


def partition_token(tenant: str, scope: str, user_id: str) -> str:
    """The ``part`` column's token for a row. Hex plus a trailing digit: ``unicode61`` keeps
    it one token and the porter stemmer (suffix rules on letters) leaves it unchanged."""
    owner = partition_key(tenant, scope, user_id)[1]
    digest = hashlib.sha1(f"{tenant}\x00{owner}".encode()).hexdigest()[:20]
    return ("s" if owner == SHARED_OWNER else "p") + digest + "0"


def visible_partitions(tenant: str, user_id: str | None, scope: str | None) -> list[str]:
    """Partition tokens a (tenant, user) search covers, narrowed by a ``scope`` filter."""
    parts: list[str] = []
    if user_id is not None and scope in (None, "personal"):
        parts.append(partition_token(tenant, "personal", user_id))
    if scope in (None, "shared", "system"):
        parts.append(partition_token(tenant, "shared", ""))
    return parts


def cjk_grams(text: str | None) -> str:
    """Index form of the CJK in ``text``: each run's character bigrams, then its unigrams."""
    if not text:
        return ""
    out: list[str] = []
    for run in _CJK_RUN.findall(text.lower()):
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
        out.extend(run)
    return " ".join(out)


@dataclass(slots=True)
class KeywordQuery:
    """A parsed query: English words (porter-stemmed by FTS5) and CJK bigrams/unigrams."""

    words: list[str] = field(default_factory=list)
    grams: list[str] = field(default_factory=list)


def parse_query(text: str) -> KeywordQuery:
    """Split ``text`` into searchable words and CJK grams."""
    lowered = text.lower()
    words: list[str] = []
    for word in _WORD.findall(_CJK_RUN.sub(" ", lowered)):
        word = word.replace("’", "'")
        if len(word) >= 3 and word not in STOPWORDS and word not in words:
            words.append(word)
    grams: list[str] = []
    for run in _CJK_RUN.findall(lowered):
        for gram in [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]:
            if gram not in grams:
                grams.append(gram)
    return KeywordQuery(words=words[:MAX_TERMS], grams=grams[:MAX_TERMS])


def prune_common(
    query: KeywordQuery,
    doc_freq: dict[str, int],
    total_rows: int,
    *,
    fraction: float = COMMON_FRACTION,
    min_rows: int = COMMON_MIN_ROWS,
) -> KeywordQuery:
    """``query`` without the English words that match too many rows (see ``COMMON_FRACTION``);
    ``doc_freq`` maps a word to its row count over the whole index (missing: kept). If every
    word is common, the rarest one is kept so the keyword list is never emptied by pruning."""
    cutoff = max(fraction * total_rows, float(min_rows))
    kept = [w for w in query.words if doc_freq.get(w, 0) <= cutoff]
    if not kept and query.words:
        kept = [min(query.words, key=lambda w: doc_freq.get(w, 0))]
    return KeywordQuery(words=kept, grams=list(query.grams))
