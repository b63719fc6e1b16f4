"""Errors raised by the learning steps.

    LearningError                 base of every error the learning pipeline raises itself
    ├── MalformedOutput           a model answer (score or items) holds no usable JSON
    ├── RetryableError            the learner's upstream failed in a way worth retrying
    └── PiiError                  PII scrubbing failed; the turn must not be learned (fail closed)
    LeaseLost                     (not a LearningError) this worker's claim on the job ran out and
                                  another worker claimed it: the job is that worker's now

None of these reach an HTTP client: learning runs after the response, and the worker
logs the error against the job (SPEC section 4, steps 4 and 5).
"""

from __future__ import annotations


class LearningError(Exception):
    """Base class of the learning pipeline's own errors."""


class MalformedOutput(LearningError, ValueError):
    """A model's answer could not be turned into a score or into knowledge items."""


class RetryableError(LearningError):
    """The learner's upstream failed in a way worth retrying (429, 5xx, unreachable)."""


class PiiError(LearningError):
    """Scrubbing failed: nothing from this turn may be extracted or stored."""


class LeaseLost(Exception):
    """The job's lease ran out and another worker claimed it: this worker must write nothing
    for it. Not a ``LearningError``: the pipeline does not log it as the job's outcome."""
