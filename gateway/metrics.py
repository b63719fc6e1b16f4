"""Prometheus metrics of one gateway instance (its own registry, so tests can run many)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.requests = Counter(
            "memorelay_requests",
            "HTTP requests by route and status",
            ["route", "status"],
            registry=r,
        )
        self.upstream_seconds = Histogram(
            "memorelay_upstream_seconds",
            "Time to upstream response headers",
            buckets=_SLOW,
            registry=r,
        )
        self.overhead_seconds = Histogram(
            "memorelay_overhead_seconds",
            "Gateway time before the upstream call",
            buckets=_FAST,
            registry=r,
        )
        self.filter_seconds = Histogram(
            "memorelay_filter_seconds",
            "Time spent in each filter itself",
            ["filter"],
            buckets=_FAST,
            registry=r,
        )
        self.inflight_streams = Gauge("memorelay_inflight_streams", "Streams being relayed", registry=r)
        self.memory_failures = Counter(
            "memorelay_memory_failures", "Injection that failed open", ["reason"], registry=r
        )
        self.memories_injected = Counter("memorelay_memories_injected", "Memories injected into requests", registry=r)
        self.learning_jobs = Counter("memorelay_learning_jobs", "Learning jobs by outcome", ["outcome"], registry=r)
        self.learning_skipped = Counter(
            "memorelay_learning_skipped", "Chats not queued for learning", ["reason"], registry=r
        )
        self.learning_pending = Gauge(
            "memorelay_learning_pending",
            "Learning jobs pending or running in the shared queue (every replica's), as of the last count",
            registry=r,
        )
        self.learning_leases_lost = Counter(
            "memorelay_learning_leases_lost",
            "Learning jobs this replica stopped because its lease ran out and another worker claimed them",
            registry=r,
        )
        self.learning_key_fallbacks = Counter(
            "memorelay_learning_key_fallbacks",
            "Learning jobs that needed a caller key this replica did not hold (learned by the heuristic learner)",
            registry=r,
        )

    def watch_working_set(self, counts: Callable[[], Mapping[str, int]]) -> None:
        """Export the working set's counters (``WorkingSetStats``), read at each scrape."""
        self.registry.register(_WorkingSetCounters(counts))

    def time_filter(self, name: str, seconds: float) -> None:
        self.filter_seconds.labels(name).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _WorkingSetCounters(Collector):
    """Where memory searches were answered (the replica's working set, or the store: a
    partition not held yet, too large, or dropped by a change) and how partitions were kept
    current (loads from the store, changes applied in place)."""

    def __init__(self, counts: Callable[[], Mapping[str, int]]) -> None:
        self._counts = counts

    def collect(self) -> Iterator[CounterMetricFamily]:
        counts = self._counts()
        searches = CounterMetricFamily(
            "memorelay_memory_searches", "Memory searches by where they were answered", labels=["source"]
        )
        searches.add_metric(["working_set"], counts.get("served", 0))
        searches.add_metric(["store"], counts.get("missed", 0))
        yield searches
        yield CounterMetricFamily(
            "memorelay_working_set_loads", "Partitions read whole from the store", value=counts.get("loads", 0)
        )
        yield CounterMetricFamily(
            "memorelay_working_set_patches",
            "Changes applied to a held partition in place (only the changed rows read)",
            value=counts.get("patches", 0),
        )
