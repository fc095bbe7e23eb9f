"""The stream worker's own metrics (the evaluation metrics are ``monitor.metrics``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge


@dataclass(frozen=True)
class StreamMetrics:
    duplicates: Any
    retries: Any
    lag: Any
    gaps: Any
    repaired: Any
    stalls: Any
    stalled: Any
    failures: Any

    @classmethod
    def create(cls, registry: CollectorRegistry) -> StreamMetrics:
        return cls(
            duplicates=Counter(
                "cargo_duplicates_skipped",
                "Redelivered messages skipped (already judged before a rebalance or restart).",
                registry=registry,
            ),
            retries=Counter(
                "cargo_judge_outage_retries",
                "Batches retried because of a judge outage (backpressure).",
                registry=registry,
            ),
            lag=Gauge(
                "cargo_stream_partition_lag",
                "Input messages of an assigned traces "
                "partition not yet judged by this worker (end offset minus the next "
                "offset to judge).",
                ["partition"],
                registry=registry,
            ),
            gaps=Counter(
                "cargo_stream_gaps",
                "Times the Kafka consumer skipped input offsets "
                "(a message above the next expected offset); the skipped records are "
                "read back and judged.",
                registry=registry,
            ),
            repaired=Counter(
                "cargo_stream_gap_records",
                "Input records read back and judged because the consumer had skipped them.",
                registry=registry,
            ),
            stalls=Counter(
                "cargo_stream_stalls",
                "Times an assigned traces partition with lag made no progress for the "
                "stall window.",
                registry=registry,
            ),
            stalled=Gauge(
                "cargo_partition_stalled",
                "1 while an assigned traces partition has lag and made no progress for the "
                "stall window, else 0.",
                ["topic", "partition"],
                registry=registry,
            ),
            failures=Counter(
                "cargo_stream_evaluation_failures",
                "Traces whose decoding or evaluation raised; each was dead-lettered with the "
                "exception type (its batch's other traces were judged).",
                ["stage"],
                registry=registry,
            ),
        )
