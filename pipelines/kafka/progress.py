"""The progress watch: per assigned traces partition, its lag, and whether it stalled.

Every interval the lag (end offset minus the next offset to judge) goes to
``cargo_stream_partition_lag``. A partition with lag whose next offset has not moved
for the stall window is stalled: ``cargo_partition_stalled`` is 1 until it moves
again (alert ``PartitionStalled``), ``cargo_stream_stalls_total`` counts one per
window, and a warning gives the consumer's view of the partition and the likely
cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from pipelines.kafka.delivery import Progress
from pipelines.kafka.metrics import StreamMetrics

log = logging.getLogger("cargo.stream")


def stall_cause(
    *,
    position: int | None,
    end: int,
    paused: bool,
    flow_active: bool,
    inflight: int,
    agent_alive: bool,
    reading_back: str | None = None,
) -> str:
    """The likeliest reason a partition with lag does not move (from what the worker
    sees; "unknown" when none of the signs is there)."""
    if not agent_alive:
        return "the agent that judges this worker's partitions is not running"
    if reading_back:
        return f"the worker is reading back {reading_back} (skipped by the consumer)"
    if not flow_active:
        return "the consumer's flow control is off (a rebalance that did not finish?)"
    if paused:
        return "the consumer paused the partition"
    if inflight > 0:
        return (
            f"{inflight} batch(es) in flight without an outcome for the window: evaluation "
            "or delivery is blocked (judge endpoint, broker, or a message the evaluator "
            "cannot finish)"
        )
    if position is not None and position >= end:
        return "its records were fetched but never handed to the agent"
    if position is not None:
        return f"the consumer is not fetching it (position {position}, end {end})"
    return "unknown"


def forget_partitions(
    progress: Progress, metrics: StreamMetrics, topic: str, partitions: Iterable[int]
) -> None:
    """A revoked partition is another worker's now: its state here and its series go, so
    that neither a stale lag nor a stale ``cargo_partition_stalled`` keeps an alert up."""
    for p in partitions:
        for state in (progress.done, progress.moved, progress.stalled):
            state.pop(p, None)
        for gauge, labels in ((metrics.lag, (str(p),)), (metrics.stalled, (topic, str(p)))):
            with contextlib.suppress(KeyError):  # never set on this worker
                gauge.remove(*labels)


async def watch_progress(
    app: Any,
    traces_topic: str,
    stall_after_s: float,
    progress: Progress,
    metrics: StreamMetrics,
    *,
    agent_alive: Callable[[], bool] = lambda: True,
    reading_back: Callable[[], str | None] = lambda: None,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """One round of the progress watch."""
    done, moved, stalled = progress.done, progress.moved, progress.stalled
    consumer = app.consumer
    tps = sorted(
        (tp for tp in consumer.assignment() if tp.topic == traces_topic),
        key=lambda tp: tp.partition,
    )
    if not tps:
        return
    try:
        # A round trip through the consumer's thread; bounded, so that a wedged
        # consumer cannot wedge the watch too (then the fetcher's cached marks).
        ends = await asyncio.wait_for(consumer.highwaters(*tps), timeout=5.0)
    except Exception as exc:  # timeout included
        log.warning(
            "progress watch: end offsets not available (%s); using cached ones", type(exc).__name__
        )
        ends = {tp: consumer.highwater(tp) for tp in tps}
    now = clock()
    for tp in tps:
        committed = consumer._committed_offset.get(tp)  # next offset to read, or None
        nxt = max(done.get(tp.partition, -1) + 1, committed or 0)
        end = ends.get(tp)
        if end is None:
            continue
        lag = max(0, end - nxt)
        labels = {"topic": tp.topic, "partition": str(tp.partition)}
        metrics.lag.labels(partition=str(tp.partition)).set(lag)
        if tp.partition in stalled and (lag == 0 or stalled[tp.partition] != nxt):
            del stalled[tp.partition]
            log.warning("partition %s:%d moves again (next %d)", tp.topic, tp.partition, nxt)
        metrics.stalled.labels(**labels).set(1 if tp.partition in stalled else 0)
        since = moved.setdefault(tp.partition, now)
        if lag == 0:
            moved[tp.partition] = now
            continue
        log.info("progress %s:%d next %d end %d lag %d", tp.topic, tp.partition, nxt, end, lag)
        if now - since < stall_after_s:
            continue
        metrics.stalls.inc()
        stalled[tp.partition] = nxt
        metrics.stalled.labels(**labels).set(1)
        moved[tp.partition] = now  # one report per stall window
        try:
            position: int | None = await asyncio.wait_for(consumer.position(tp), timeout=5.0)
        except Exception:  # timeout included
            position = None
        paused = tp in consumer._paused_partitions
        cause = stall_cause(
            position=position,
            end=end,
            paused=paused,
            flow_active=bool(consumer.flow_active and app.flow_control.is_active()),
            inflight=progress.inflight,
            agent_alive=agent_alive(),
            reading_back=reading_back(),
        )
        log.warning(
            "partition %s:%d stalled: lag %d, no progress for %.0fs; cause: %s (consumer "
            "position %s, committed %s, read offset %s, active %s, paused %s, buffered %s, "
            "flow active %s, flow control active %s, batches in flight %d)",
            tp.topic,
            tp.partition,
            lag,
            now - since,
            cause,
            "unknown" if position is None else position,
            committed,
            consumer._read_offset.get(tp),
            tp in (consumer._active_partitions or ()),
            paused,
            tp in consumer._buffered_partitions,
            consumer.flow_active,
            app.flow_control.is_active(),
            progress.inflight,
        )
