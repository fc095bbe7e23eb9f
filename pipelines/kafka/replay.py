"""Produce a JSONL file to a Kafka topic (kafka-python), for demos, load tests and
backfills.

Each line is one message, keyed by its trace id when it has one (so that a trace always
lands on the same partition); a malformed line is sent as it is -- the monitor
dead-letters it. A line over the payload limit is not sent (Kafka would refuse it, and
the monitor would dead-letter it as ``too_large``): it is skipped and reported.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from monitor.errors import ConfigError
from monitor.limits import InputLimits
from monitor.traces import trace_id_hint
from pipelines.kafka.admin import ensure_topics
from pipelines.kafka.config import KafkaSettings


def message_key(line: bytes, limits: InputLimits | None = None) -> bytes | None:
    """The trace id of a line as the message key, or None (whatever the line holds)."""
    try:
        tid = trace_id_hint(line) if limits is None else trace_id_hint(line, limits)
    except Exception:  # a hostile line: sent without a key, the worker dead-letters it
        return None
    return None if tid is None else tid.encode()


@dataclass
class ReadResult:
    lines: list[bytes]
    skipped: list[int] = field(default_factory=list)  # 1-based line numbers over the limit
    numbers: list[int] = field(default_factory=list)  # the 1-based line number of each line


def read_lines(path: Path, limits: InputLimits) -> ReadResult:
    """The non-blank lines of a JSONL file; lines over the payload limit are skipped
    (their numbers kept), read in chunks so that such a line is never held whole."""
    out = ReadResult([])
    cap = limits.max_payload_bytes
    with path.open("rb") as fh:
        number = 0
        while line := fh.readline(cap + 2):  # room for the line's own "\r\n"
            number += 1
            body = line.rstrip(b"\r\n")
            if len(body) > cap:
                out.skipped.append(number)
                while line and not line.endswith(b"\n"):
                    line = fh.readline(cap + 2)  # the rest of the long line, dropped
            elif body.strip():
                out.lines.append(body)
                out.numbers.append(number)
    return out


def replay(
    kafka: KafkaSettings,
    path: Path,
    *,
    topic: str,
    rate: float = 0.0,
    loop: bool = False,
    limit: int = 0,
    progress: bool = True,
    limits: InputLimits | None = None,
) -> int:
    """Send the file's lines; returns the exit code: 0, or 1 when Kafka refused some."""
    from kafka import KafkaProducer
    from kafka.errors import KafkaError

    limits = limits or InputLimits()
    if not path.exists():
        raise ConfigError(f"input file not found: {path}")
    read = read_lines(path, limits)
    console = Console(stderr=True)
    if read.skipped:
        console.print(
            f"skipped {len(read.skipped)} line(s) over {limits.max_payload_bytes} bytes "
            f"(lines {_numbers(read.skipped)})"
        )
    lines = read.lines
    if not lines:
        raise ConfigError(f"{path}: no lines to send")
    ensure_topics(kafka, {topic: kafka.partitions})
    try:
        producer = KafkaProducer(
            acks="all",
            linger_ms=5,
            retries=5,
            client_id="cargo-monitor-replay",
            **kafka.kafka_python_kwargs(),
        )
    except KafkaError as exc:
        raise ConfigError(f"cannot reach Kafka at {kafka.bootstrap}: {exc}") from exc
    keys = [message_key(line, limits) for line in lines]
    total = limit or (None if loop else len(lines))
    interval = 1.0 / rate if rate > 0 else 0.0
    sent = 0
    # Messages Kafka refused (too large for a request, not accepted by the broker, ...):
    # by error type, with their line numbers; reported, and the exit code says so.
    failed: dict[str, list[int]] = {}

    def fail(number: int, exc: BaseException) -> None:
        failed.setdefault(type(exc).__name__, []).append(number)

    started = time.perf_counter()
    try:
        with Progress(
            TextColumn(f"[bold]replay → {topic}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            console=console,
            disable=not progress or not sys.stderr.isatty(),
        ) as bar:
            task = bar.add_task("replay", total=total, rate="")
            try:
                while True:
                    for line, key, number in zip(lines, keys, read.numbers, strict=True):
                        if limit and sent >= limit:
                            raise StopIteration
                        sent += 1
                        try:
                            future = producer.send(topic, key=key, value=line)
                        except KafkaError as exc:  # e.g. larger than one request may be
                            fail(number, exc)
                        else:
                            future.add_errback(functools.partial(fail, number))
                        if interval:
                            # Paced against the start time so the offered rate holds.
                            delay = started + sent * interval - time.perf_counter()
                            if delay > 0:
                                time.sleep(delay)
                        if sent % 100 == 0:
                            elapsed = time.perf_counter() - started
                            bar.update(task, completed=sent, rate=f"{sent / elapsed:.0f} msg/s")
                    if not loop:
                        break
            except (StopIteration, KeyboardInterrupt):
                pass
            producer.flush(timeout=60)
            bar.update(task, completed=sent)
    finally:
        producer.close()
    elapsed = time.perf_counter() - started
    refused = sum(len(v) for v in failed.values())
    console.print(
        f"sent {sent - refused} messages to {topic} in {elapsed:.1f}s "
        f"({(sent - refused) / elapsed:.0f} msg/s)"
    )
    for kind, numbers in sorted(failed.items()):
        console.print(f"not delivered: {len(numbers)} ({kind}; lines {_numbers(sorted(numbers))})")
    if refused:
        return 1
    return 0


def _numbers(xs: Sequence[int], shown: int = 10) -> str:
    text = ", ".join(map(str, xs[:shown]))
    return text + (f" and {len(xs) - shown} more" if len(xs) > shown else "")
