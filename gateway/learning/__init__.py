"""Learning: turn finished conversations into per-user memories (SPEC section 4).

The modules here are pure steps (commands, scoring, extraction, heuristic learner, PII
scrubbing, poisoning check, dedup) that the pipeline composes; nothing heavy is loaded on
import.
"""

from __future__ import annotations

from gateway.learning.errors import LearningError, MalformedOutput, PiiError

__all__ = ["LearningError", "MalformedOutput", "PiiError"]
