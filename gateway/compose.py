"""Composition: the one place that builds the gateway's parts and hands each what it uses.

``compose(config)`` constructs (and opens nothing): the memory service with the options
the ``learning`` filter sets on it, the learning side with only ``LearningParts``, the
HTTP side's ``Services`` and the filters of the chain. ``gateway.app`` wires them into
routes and the lifespan.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from gateway.auth import Authenticator
from gateway.chat import ChatFilter
from gateway.config import Config
from gateway.filter_loader import filter_class, filter_options
from gateway.learning.offline.keys import derive_key
from gateway.learning.options import LearningOptions, learning_options
from gateway.learning.parts import LearningParts
from gateway.learning.runtime.service import LearningService
from gateway.memory import MemoryPolicy, MemoryService, build_embedder
from gateway.memory.recall import RecallSettings
from gateway.metrics import Metrics
from gateway.model_info import ModelInfo
from gateway.services import Services
from gateway.store import MemoryStore
from gateway.store.backend import open_backend
from gateway.telemetry import Telemetry
from gateway.upstreams import UpstreamRouter


@dataclass(frozen=True, slots=True)
class Composition:
    services: Services
    filters: list[ChatFilter]


def compose(config: Config) -> Composition:
    services = build_services(config)
    return Composition(services, build_filters(config, services))


def build_services(config: Config) -> Services:
    """Construct every shared part; nothing is opened until ``Services.start``."""
    backend = open_backend(config)
    options = learning_options(config)
    memory = memory_service(config, backend.memories, options)
    auth, upstreams, metrics = Authenticator(config), UpstreamRouter(config), Metrics()
    if memory.working_set is not None:
        metrics.watch_working_set(memory.working_set.stats.counts)
    aliases = {a.model_name: str(a.litellm_params.get("model", "")) for a in config.upstreams.models}
    telemetry = Telemetry(config.telemetry, aliases)
    replica = secrets.token_hex(8)
    learning = None
    if options is not None:
        parts = LearningParts(config, auth, upstreams, metrics, memory, backend.learning, backend, telemetry, replica)
        learning = LearningService(parts, options)
    return Services(
        config=config,
        auth=auth,
        upstreams=upstreams,
        model_info=ModelInfo(config),
        metrics=metrics,
        memory=memory,
        learning=backend.learning,
        backend=backend,
        telemetry=telemetry,
        replica=replica,
        learning_service=learning,
    )


def memory_service(config: Config, store: MemoryStore, options: LearningOptions | None) -> MemoryService:
    """The memory service over ``store``; the ``learning`` filter's consent and decay options
    apply to it too (retention and edits read them), and edits get the key their text says."""
    embedding = config.memory.embedding.model_dump()
    if config.memory.embedding.api_key is not None:
        embedding["api_key"] = config.memory.embedding.api_key.get_secret_value()
    m = config.memory
    memory = MemoryService(
        store,
        build_embedder(embedding),
        working_set_mb=m.working_set_mb,
        working_set_max_rows=m.working_set_max_rows,
        max_pinned_per_user=m.max_pinned_per_user,
        recall=RecallSettings(**m.recall.model_dump()),
        search_min_relevance=m.search_min_relevance,
        policy=MemoryPolicy() if options is None else memory_policy(options, key_of=derive_key),
    )
    return memory


def memory_policy(options: LearningOptions, *, key_of: Callable[[str], str | None] | None = None) -> MemoryPolicy:
    """The learning filter's consent and decay options, as the memory service reads them."""
    return MemoryPolicy(
        learning_default=options.consent == "opt_out",
        decay_half_life_days=options.decay_half_life_days,
        episode_half_life_days=options.episode_half_life_days,
        decay_floor=options.decay_floor,
        key_of=key_of,
    )


def build_filters(config: Config, services: Services) -> list[ChatFilter]:
    """The chain's filters in config order, each built as ``cls(options, services)``."""
    filters = []
    for spec in config.filter_specs:
        cls = filter_class(spec, config.source)
        instance = cls(filter_options(cls, spec, config.source), services)
        if not getattr(instance, "name", None):
            instance.name = spec.name
        filters.append(instance)
    return filters
