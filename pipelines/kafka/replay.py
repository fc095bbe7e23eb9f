"""``cargo-monitor replay``: produce a JSONL file to a Kafka topic (kafka-python).

For demos, load tests and backfills. Each line is one message, keyed by its
trace id when it has one (so that a trace always lands on the same partition);
a malformed line is sent as it is -- the monitor dead-letters it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from monitor.errors import ConfigError


@contextlib.contextmanager
def kafka_client(bootstrap: str, factory: Callable[..., Any], **kwargs: Any) -> Iterator[Any]:
    """A kafka-python client (admin or consumer) for the admin helpers, closed after
    use; a broker that cannot be reached is a :class:`ConfigError` naming it."""
    from kafka.errors import KafkaError

    try:
        client = factory(bootstrap_servers=bootstrap, client_id="cargo-monitor-admin", **kwargs)
    except KafkaError as exc:
        raise ConfigError(f"cannot reach Kafka at {bootstrap}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()


def ensure_topics(
    bootstrap: str, topics: dict[str, int], *, compact: set[str] | None = None, replication: int = 1
) -> list[str]:
    """Create missing topics with the given partition counts; returns those created."""
    from kafka.admin import KafkaAdminClient, NewTopic
    from kafka.errors import TopicAlreadyExistsError

    with kafka_client(bootstrap, KafkaAdminClient, request_timeout_ms=15000) as admin:
        existing = set(admin.list_topics())
        new = [
            NewTopic(
                name,
                num_partitions=n,
                replication_factor=replication,
                topic_configs={"cleanup.policy": "compact"} if compact and name in compact else {},
            )
            for name, n in topics.items()
            if name not in existing
        ]
        if new:
            with contextlib.suppress(TopicAlreadyExistsError):
                admin.create_topics(new)
        return [t.name for t in new]


def _key(line: bytes) -> bytes | None:
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if isinstance(data, dict) and isinstance(data.get("trace_id"), str | int):
        return str(data["trace_id"]).encode()
    return None


def main_replay(args: argparse.Namespace) -> int:
    from kafka import KafkaProducer
    from kafka.errors import KafkaError

    path = Path(args.file)
    if not path.exists():
        raise ConfigError(f"input file not found: {path}")
    lines = [x for x in path.read_bytes().splitlines() if x.strip()]
    if not lines:
        raise ConfigError(f"{path}: no lines to send")
    ensure_topics(args.bootstrap, {args.topic: args.partitions})
    try:
        producer = KafkaProducer(
            bootstrap_servers=args.bootstrap,
            acks="all",
            linger_ms=5,
            retries=5,
            client_id="cargo-monitor-replay",
        )
    except KafkaError as exc:
        raise ConfigError(f"cannot reach Kafka at {args.bootstrap}: {exc}") from exc
    console = Console(stderr=True)
    total = args.limit or (None if args.loop else len(lines))
    interval = 1.0 / args.rate if args.rate > 0 else 0.0
    sent = 0
    started = time.perf_counter()
    with Progress(
        TextColumn(f"[bold]replay → {args.topic}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        console=console,
        disable=args.no_progress or not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task("replay", total=total, rate="")
        try:
            while True:
                for line in lines:
                    if args.limit and sent >= args.limit:
                        raise StopIteration
                    producer.send(args.topic, key=_key(line), value=line)
                    sent += 1
                    if interval:
                        # Pace against the start time so the offered rate holds on average.
                        delay = started + sent * interval - time.perf_counter()
                        if delay > 0:
                            time.sleep(delay)
                    if sent % 100 == 0:
                        elapsed = time.perf_counter() - started
                        bar.update(task, completed=sent, rate=f"{sent / elapsed:.0f} msg/s")
                if not args.loop:
                    break
        except (StopIteration, KeyboardInterrupt):
            pass
        producer.flush(timeout=60)
        bar.update(task, completed=sent)
    producer.close()
    elapsed = time.perf_counter() - started
    console.print(
        f"sent {sent} messages to {args.topic} in {elapsed:.1f}s ({sent / elapsed:.0f} msg/s)"
    )
    return 0
