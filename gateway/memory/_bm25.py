"""FTS5's ``bm25()`` over one held partition, ranked in numpy (for ``working_set``).

FTS5 ranks by scoring every row that matches any query term; on a big partition that is most
of a keyword list's time. Here the same scores come from postings read once per partition.
Terms stay FTS5's own: a partition's from its table (``fts5vocab``), a query's from a small
tokenizer table with the same tokenizer. The formula is FTS5's (``fts5_aux.c``): per phrase
idf = max(1e-6, ln((N - n + 0.5) / (n + 0.5))) with n the rows holding it in the searched
columns; per row f = the column-weighted count of the phrase and D = the row's tokens in all
columns; score = sum of idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl)), k1 = 1.2,
b = 0.75 (FTS5 answers -score). The score is a sum over phrases, each term independent of
the others, so a query word of several tokens ("team's" is the phrase "team" "s", which
needs positions) is scored by FTS5 on its own (``PhraseScores``) and added in.

A few rows laid over a held partition (``Postings(..., like=base)``) are scored with the
statistics of both together (rows, rows holding a term, the base's average length), so a
memory just added ranks about where it will once the partition is rebuilt with it.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Callable, Sequence

import numpy as np

K1 = 1.2
B = 0.75
# the columns each list searches and their bm25 weights (keyword_index.fts_sql)
WORD_COLUMNS = {"title": 2.0, "content": 1.0, "tags": 1.0}
CJK_COLUMNS = {"cjk": 1.0}
TOKENIZER = "porter unicode61 remove_diacritics 2"

Posting = tuple[np.ndarray, np.ndarray]  # rows, column-weighted counts
# (kind, query word) -> rows matching it as a phrase and its bm25 part there (FTS5's)
PhraseScores = Callable[[str, str], tuple[np.ndarray, np.ndarray]]


class Postings:
    """Per term, the rows holding it in one column group, with their weighted counts."""

    __slots__ = ("_cjk", "_like", "_norm", "_words", "avgdl", "nbytes", "rows")

    def __init__(self, db: sqlite3.Connection, table: str, rows: int, like: Postings | None = None) -> None:
        """Read ``table``'s terms (an FTS5 table of ``rows`` rows, rowids 0..rows-1); ``like``:
        the partition these rows lie over, whose statistics their scores share."""
        db.execute(f"CREATE VIRTUAL TABLE temp.{table}_vocab USING fts5vocab(main, {table}, 'instance')")
        words: dict[str, dict[int, float]] = {}
        cjk: dict[str, dict[int, float]] = {}
        length = np.zeros(rows, dtype=np.float64)
        for term, doc, col in db.execute(f"SELECT term, doc, col FROM temp.{table}_vocab"):
            length[doc] += 1
            w = WORD_COLUMNS.get(col)
            if w is not None:
                counts = words.setdefault(term, {})
                counts[doc] = counts.get(doc, 0.0) + w
            elif col in CJK_COLUMNS:
                counts = cjk.setdefault(term, {})
                counts[doc] = counts.get(doc, 0.0) + 1.0
        db.execute(f"DROP TABLE temp.{table}_vocab")
        self.rows = rows
        self._like = like
        avgdl = float(length.sum()) / rows if rows else 1.0
        self.avgdl: float = avgdl if like is None else like.avgdl
        # the per-row part of the denominator: k1 * (1 - b + b * D / avgdl)
        self._norm = K1 * (1 - B + B * length / self.avgdl)
        self._words = {t: _arrays(c) for t, c in words.items()}
        self._cjk = {t: _arrays(c) for t, c in cjk.items()}
        self.nbytes = int(self._norm.nbytes) + sum(
            120 + len(t) * 4 + d.nbytes + f.nbytes for p in (self._words, self._cjk) for t, (d, f) in p.items()
        )

    def ranked(
        self, kind: str, terms: Sequence[str], k: int, keep: np.ndarray | None, phrase: PhraseScores
    ) -> list[tuple[int, float]]:
        """The best ``k`` rows for the OR of ``terms`` ("words" or "cjk" list), best first, as
        (row, score); ``phrase`` scores a term of several tokens."""
        postings = self._words if kind == "words" else self._cjk
        n = self.rows
        like = self._like
        total = n if like is None else n + like.rows
        scores = np.zeros(n, dtype=np.float64)
        matched = np.zeros(n, dtype=bool)
        for text in terms:
            term = tokens(text)
            if len(term) != 1:
                docs, part = phrase(kind, text)
                scores[docs] += part
                matched[docs] = True
                continue
            posting = postings.get(term[0])
            if posting is None:
                continue
            docs, freq = posting
            hits = len(docs) if like is None else len(docs) + like.holding(kind, term[0])
            idf = max(1e-6, math.log((total - hits + 0.5) / (hits + 0.5)))
            scores[docs] += idf * (freq * (K1 + 1.0)) / (freq + self._norm[docs])
            matched[docs] = True
        if keep is not None:
            matched &= keep
        rows = np.flatnonzero(matched)
        if len(rows) > k:
            rows = rows[np.argpartition(-scores[rows], k - 1)[:k]]
        rows = rows[np.lexsort((rows, -scores[rows]))]
        return [(int(r), float(scores[r])) for r in rows]

    def holding(self, kind: str, term: str) -> int:
        """Rows holding ``term`` in the ``kind`` ("words" or "cjk") columns."""
        posting = (self._words if kind == "words" else self._cjk).get(term)
        return 0 if posting is None else len(posting[0])


def _arrays(counts: dict[int, float]) -> Posting:
    docs = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
    freq = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
    return docs, freq


class _Tokenizer:
    """FTS5's tokens of a query term (what a quoted MATCH string becomes), cached."""

    def __init__(self) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        self._db.executescript(
            f"CREATE VIRTUAL TABLE t USING fts5 (x, tokenize='{TOKENIZER}');"
            "CREATE VIRTUAL TABLE tv USING fts5vocab(t, 'instance');"
        )
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[str, ...]] = {}

    def __call__(self, text: str) -> tuple[str, ...]:
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        with self._lock:
            self._db.execute("INSERT INTO t (rowid, x) VALUES (1, ?)", (text,))
            hit = tuple(r[0] for r in self._db.execute("SELECT term FROM tv ORDER BY offset"))
            self._db.execute("DELETE FROM t")
            if len(self._cache) >= 100_000:
                self._cache.clear()
            self._cache[text] = hit
        return hit


tokens = _Tokenizer()
