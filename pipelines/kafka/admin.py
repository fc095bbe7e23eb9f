"""Kafka clients outside the consumer group: topic admin, a group's lag, and reading
an offset range back (all built from one :class:`KafkaSettings`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

from monitor.errors import ConfigError
from pipelines.kafka.config import KafkaSettings
from pipelines.kafka.delivery import InputRecord

log = logging.getLogger("cargo.stream")


@contextlib.contextmanager
def kafka_client(kafka: KafkaSettings, factory: Callable[..., Any], **kwargs: Any) -> Iterator[Any]:
    """A kafka-python client (admin or consumer) for the admin helpers, closed after
    use; a broker that cannot be reached is a :class:`ConfigError` naming it."""
    from kafka.errors import KafkaError

    try:
        client = factory(client_id="cargo-monitor-admin", **kafka.kafka_python_kwargs(), **kwargs)
    except KafkaError as exc:
        raise ConfigError(f"cannot reach Kafka at {kafka.bootstrap}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()


def ensure_topics(
    kafka: KafkaSettings,
    topics: dict[str, int],
    *,
    compact: set[str] | None = None,
    replication: int | None = None,
) -> list[str]:
    """Create missing topics with the given partition counts; returns those created
    (replication: the settings' unless given)."""
    from kafka.admin import KafkaAdminClient, NewTopic
    from kafka.errors import TopicAlreadyExistsError

    factor = kafka.replication if replication is None else replication
    with kafka_client(kafka, KafkaAdminClient, request_timeout_ms=15000) as admin:
        existing = set(admin.list_topics())
        new = [
            NewTopic(
                name,
                num_partitions=n,
                replication_factor=factor,
                topic_configs={"cleanup.policy": "compact"} if compact and name in compact else {},
            )
            for name, n in topics.items()
            if name not in existing
        ]
        if new:
            with contextlib.suppress(TopicAlreadyExistsError):
                admin.create_topics(new)
        return [t.name for t in new]


def topic_table(kafka: KafkaSettings) -> list[tuple[str, int, str, int]]:
    """(name, partitions, cleanup.policy, messages) for every non-internal topic."""
    from kafka import KafkaConsumer, TopicPartition
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

    with (
        kafka_client(kafka, KafkaAdminClient, request_timeout_ms=15000) as admin,
        kafka_client(kafka, KafkaConsumer, group_id=None, enable_auto_commit=False) as consumer,
    ):
        names = sorted(t for t in admin.list_topics() if not t.startswith("__"))
        if not names:
            return []
        policies: dict[str, str] = {}
        described = admin.describe_configs(
            [
                ConfigResource(ConfigResourceType.TOPIC, n, configs={"cleanup.policy": None})
                for n in names
            ],
            config_filter="all",
        )
        for by_name in described.values():
            for name, entries in by_name.items():
                entry = entries.get("cleanup.policy")
                if entry is not None:
                    policies[name] = str(entry["value"] if isinstance(entry, dict) else entry)
        rows = []
        for name in names:
            tps = [
                TopicPartition(name, p) for p in sorted(consumer.partitions_for_topic(name) or ())
            ]
            ends, starts = consumer.end_offsets(tps), consumer.beginning_offsets(tps)
            rows.append(
                (name, len(tps), policies.get(name, "?"), sum(ends[tp] - starts[tp] for tp in tps))
            )
        return rows


def group_lag(kafka: KafkaSettings, group: str, topic: str) -> list[tuple[int, int | None, int]]:
    """(partition, committed offset or None, end offset) for each partition of topic."""
    from kafka import KafkaConsumer, TopicPartition

    # A consumer with the group's id reads its committed offsets (OffsetFetch)
    # without joining the group: nothing is rebalanced.
    with kafka_client(kafka, KafkaConsumer, group_id=group, enable_auto_commit=False) as consumer:
        parts = consumer.partitions_for_topic(topic)
        if not parts:
            raise ConfigError(f"topic {topic!r} not found at {kafka.bootstrap}")
        tps = [TopicPartition(topic, p) for p in sorted(parts)]
        ends = consumer.end_offsets(tps)
        return [(tp.partition, consumer.committed(tp), ends[tp]) for tp in tps]


class RangeReader:
    """Reads an offset range of one partition straight from Kafka, outside the group.

    The safety net under at-least-once: Faust's consumer can skip a record around a
    partition assignment (the first record at the committed offset after a restart)
    and then commits past it; the worker reads the hole back with this reader before
    it judges the message above it. Kafka errors are retried with backoff for as long
    as it takes (the batch waits): never skip.
    """

    def __init__(
        self, kafka: KafkaSettings, retry_s: float = 1.0, retry_max_s: float = 30.0
    ) -> None:
        self.kafka = kafka
        self.retry_s = retry_s
        self.retry_max_s = retry_max_s
        self._consumer: Any = None

    async def _ensure(self) -> Any:
        if self._consumer is None:
            from aiokafka import AIOKafkaConsumer  # type: ignore[import-untyped]

            consumer = AIOKafkaConsumer(
                group_id=None,
                enable_auto_commit=False,
                auto_offset_reset="earliest",
                **self.kafka.aiokafka_kwargs(),
            )
            await consumer.start()
            self._consumer = consumer
        return self._consumer

    async def read(self, topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        """Records with start <= offset < stop (offsets without a record -- transaction
        markers, compacted or expired records -- are simply absent)."""
        delay = self.retry_s
        while True:
            try:
                return await self._read(topic, partition, start, stop)
            except Exception as exc:  # Kafka unavailable: wait, never skip
                log.warning(
                    "reading back %s:%d offsets %d..%d failed (%s); retrying in %.0fs",
                    topic,
                    partition,
                    start,
                    stop - 1,
                    exc,
                    delay,
                )
                await self.close()
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max_s)

    async def _read(self, topic: str, partition: int, start: int, stop: int) -> list[InputRecord]:
        from aiokafka import TopicPartition

        consumer = await self._ensure()
        tp = TopicPartition(topic, partition)
        consumer.assign([tp])
        consumer.seek(tp, start)
        out: list[InputRecord] = []
        while await consumer.position(tp) < stop:
            batch = await consumer.getmany(tp, timeout_ms=1000)
            for rec in batch.get(tp, []):
                if start <= rec.offset < stop:
                    out.append(InputRecord(topic, partition, rec.offset, rec.value or b""))
        return out

    async def close(self) -> None:
        consumer, self._consumer = self._consumer, None
        if consumer is not None:
            await consumer.stop()
