"""``LearningParts``: what the learning side uses of the gateway, handed to it by the composition.

The workers, the pipeline and the consolidation rounds read the memory service and the
learning queue, count metrics and spans, and reach the upstreams (with the config that
names them) to learn with an LLM. They get exactly these, built once in
``gateway.compose``; nothing in learning imports the HTTP side's bundle (``Services``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gateway.auth import Authenticator
from gateway.config import Config
from gateway.memory import MemoryService
from gateway.metrics import Metrics
from gateway.store import Backend, LearningStore
from gateway.telemetry import Telemetry
from gateway.upstreams import UpstreamRouter


@dataclass(frozen=True, slots=True)
class LearningParts:
    config: Config
    # whether callers hold the gateway's key (then a caller key never reaches the learner)
    auth: Authenticator
    upstreams: UpstreamRouter
    metrics: Metrics
    memory: MemoryService
    learning: LearningStore
    # the consolidation rounds take the backend's advisory lock through its memory store
    backend: Backend
    telemetry: Telemetry
    # this process among the replicas on one database (learning jobs' caller-key affinity)
    replica: str
