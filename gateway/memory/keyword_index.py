"""Partitioned keyword retrieval over one SQLite FTS5 table (``porter unicode61``).

``memories_fts`` is an external-content index over the view ``memories_fts_src`` (a
projection of ``memories``), kept in sync by triggers (see ``sqlite_store.MIGRATIONS``).
Its columns:

* ``part``: one opaque token naming the row's retrieval partition (``partition_token``),
  the same partitions as the vector index (``partition_key``): a user's personal memories,
  or a tenant's shared + system memories.
* ``title``, ``content``, ``tags``: English words, porter-stemmed.
* ``cjk``: CJK text as overlapping character bigrams plus unigrams ("我喜欢喝咖啡" ->
  "我喜 喜欢 欢喝 喝咖 咖啡 我 喜 ..."), because ``unicode61`` would keep a CJK run as one
  token. A query splits its CJK runs into the same bigrams (a 1-char run stays a unigram).

Every search is ``part : (<visible partitions>) AND (<terms>)``: FTS5 intersects the
partition's doclist with the terms' doclists, so the work follows the caller's own rows,
not the store. ``part`` has weight 0 in ``bm25`` so it does not affect ranking. The token
values are computed in Python by SQL functions registered on every connection
(``SQL_FUNCTIONS``); writing to ``memories`` on a connection without them fails.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
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


# (name, number of arguments, function): SQL functions the FTS view and triggers call.
SQL_FUNCTIONS: tuple[tuple[str, int, Callable[..., str]], ...] = (
    ("memorelay_part", 3, partition_token),
    ("memorelay_cjk", 1, cjk_grams),
)


@dataclass(slots=True)
class KeywordQuery:
    """A parsed query: English words (porter-stemmed by FTS5) and CJK bigrams/unigrams."""

    words: list[str] = field(default_factory=list)
    grams: list[str] = field(default_factory=list)

    @property
    def words_match(self) -> str | None:
        """Term expression over the English columns, or None without words."""
        terms = _or(self.words)
        return f"{{title content tags}} : ({terms})" if terms else None

    @property
    def cjk_match(self) -> str | None:
        """Term expression over the CJK gram column, or None without CJK."""
        terms = _or(self.grams)
        return f"cjk : ({terms})" if terms else None

    @property
    def substring_match(self) -> str | None:
        """Expression for the trigram index (``memories_tri``): the words of at least
        ``MIN_SUBSTRING`` letters as substrings ("paint" finds "painting", "repaint"), or None."""
        terms = _or([w for w in self.words if len(w) >= MIN_SUBSTRING])
        return terms or None

    def expressions(self) -> list[str]:
        """One term expression per keyword list (words, CJK), each ranked on its own."""
        return [e for e in (self.words_match, self.cjk_match) if e]


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


def doc_freq_sql(table: str = "memories_fts") -> str:
    """Rows (all partitions) whose English columns hold the one word given as parameter
    (a MATCH string from ``word_match``)."""
    if table not in FTS_TABLES:
        raise ValueError(f"unknown FTS table {table!r}")
    return f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?"


def word_match(word: str) -> str:
    """MATCH string for one English word over the English columns (for ``doc_freq_sql``)."""
    return f"{{title content tags}} : ({_or([word])})"


def _or(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def scoped_match(parts: list[str], expression: str) -> str:
    """The MATCH string: ``expression`` restricted to the partitions ``parts``."""
    return f"part : ({_or(parts)}) AND ({expression})"


def visibility_sql(user_id: str | None, alias: str = "m") -> tuple[str, list[object]]:
    """WHERE fragment limiting rows to what ``user_id`` may see (tenant bound separately)."""
    if user_id is None:
        return f"{alias}.scope IN ('shared', 'system')", []
    return (
        f"({alias}.scope IN ('shared', 'system') OR ({alias}.scope = 'personal' AND {alias}.user_id = ?))",
        [user_id],
    )


def filter_sql(
    tenant: str,
    user_id: str | None,
    *,
    category: str | None,
    scope: str | None,
    include_disabled: bool,
    alias: str = "m",
) -> tuple[str, list[object]]:
    """The full WHERE clause (without ``WHERE``) for a retrieval over visible rows."""
    vis, params = visibility_sql(user_id, alias)
    clauses = [f"{alias}.tenant = ?", vis]
    args: list[object] = [tenant, *params]
    if category is not None:
        clauses.append(f"{alias}.category = ?")
        args.append(category)
    if scope is not None:
        clauses.append(f"{alias}.scope = ?")
        args.append(scope)
    if not include_disabled:
        clauses.append(f"{alias}.enabled = 1")
    return " AND ".join(clauses), args


FTS_TABLES = frozenset({"memories_fts"})


def fts_sql(where: str, limit: int, table: str = "memories_fts", *, candidates: int | None = None) -> str:
    """FTS5 query ranked by bm25 (``part`` weight 0, title double); parameters: the MATCH
    string (``scoped_match``), then ``where``'s. The partitioned MATCH already bounds rows to
    the caller's partitions; ``where`` re-checks them (defence in depth) plus the category and
    enabled filters. With ``candidates``, only the best that many FTS rows are checked against
    ``where`` (cheaper; the caller retries without it if fewer than ``limit`` survive)."""
    if table not in FTS_TABLES:
        raise ValueError(f"unknown FTS table {table!r}")
    inner = f" ORDER BY rank LIMIT {int(candidates)}" if candidates is not None else ""
    return (
        f"SELECT m.id, f.rank FROM (SELECT rowid, bm25({table}, 0.0, 2.0, 1.0, 1.0, 1.0) AS rank "
        f"FROM {table} WHERE {table} MATCH ?{inner}) f "
        f"CROSS JOIN memories m ON m.rowid = f.rowid "
        f"WHERE {where} ORDER BY f.rank LIMIT {int(limit)}"
    )


def trigram_sql(where: str, limit: int) -> str:
    """Partial-word search over one partition of ``memories_tri``: parameters are the MATCH
    string (``KeywordQuery.substring_match``), the partition's rowid range (low, high), then
    ``where``'s. The rowid range lets FTS5 seek to the partition instead of ranking the store."""
    return (
        "SELECT m.id, f.rank FROM (SELECT rowid, bm25(memories_tri, 2.0, 1.0, 1.0) AS rank "
        "FROM memories_tri WHERE memories_tri MATCH ? AND rowid BETWEEN ? AND ?) f "
        "CROSS JOIN memories m ON m.rowid = (f.rowid & 4294967295) "
        f"WHERE {where} ORDER BY f.rank LIMIT {int(limit)}"
    )
