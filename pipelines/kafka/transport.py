"""Faust and aiokafka adjustments of the worker: the consumer's fetch wait, and bounded
shutdown steps when the broker is gone (no leader topic: see ``worker.build_app``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

log = logging.getLogger("cargo.stream")

# Longest a stopping worker waits for its producer's last deliveries and for its final
# offset commit: together they leave room in a 30 s grace period (Kubernetes' default).
STOP_FLUSH_TIMEOUT_S = 5.0
STOP_COMMIT_TIMEOUT_S = 10.0


async def bounded(step: Awaitable[None], timeout_s: float, what: str, consequence: str) -> None:
    """A shutdown step that waits on the broker, given at most ``timeout_s``."""
    try:
        await asyncio.wait_for(step, timeout=timeout_s)
    except TimeoutError:
        log.warning(
            "%s within %.0f s on stop (broker unreachable?); %s", what, timeout_s, consequence
        )


def app_class() -> Any:
    """``faust.App`` whose producer flush on stop is bounded."""
    import faust

    class App(faust.App):
        async def _producer_flush(self, logger: Any) -> None:
            # Unbounded, it waits out the request timeout with the broker gone. What is
            # not delivered was never acknowledged: the partition's next owner reads it.
            await bounded(
                super()._producer_flush(logger),
                STOP_FLUSH_TIMEOUT_S,
                "producer not flushed",
                "unacknowledged input is read again by the next owner",
            )

    return App


def kafka_transport(fetch_max_wait_ms: int) -> Any:
    """Faust's aiokafka transport with the worker consumer's fetch wait set, and its
    consumer stop, final commit and producer stop bounded."""
    from faust.transport.drivers import aiokafka as driver

    class ConsumerThread(driver.AIOKafkaConsumerThread):
        def _create_worker_consumer(self, transport: Any) -> Any:
            consumer = super()._create_worker_consumer(transport)
            # Faust fixes 1.5 s; a fetch holding only idle partitions delays busy ones that
            # long (see docs/design/fetch-max-wait.md). Read when the fetcher starts.
            consumer._fetch_max_wait_ms = fetch_max_wait_ms
            return consumer

        async def on_thread_stop(self) -> None:
            # Stopping cancels a fetch waiting out its retry backoff (broker gone), and
            # aiokafka re-raises that from close(): a cancellation not our own is that one.
            try:
                await super().on_thread_stop()
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise
                log.warning(
                    "consumer stopped while a fetch waited to retry (broker "
                    "unreachable); closing its connections"
                )
                client = getattr(self._consumer, "_client", None)
                if client is not None:
                    await client.close()

    class Consumer(driver.Consumer):
        def _new_consumer_thread(self) -> Any:
            return ConsumerThread(self, loop=self.loop, beacon=self.beacon)

        async def on_stop(self) -> None:
            # The final commit waits for the group coordinator. Bounded: an offset not
            # committed is read again by the next owner, which skips what was delivered.
            await bounded(
                super().on_stop(),
                STOP_COMMIT_TIMEOUT_S,
                "final offset commit not done",
                "stopping without it: the next "
                "owner of those partitions reads them again from the last commit",
            )

    class Producer(driver.Producer):
        async def on_stop(self) -> None:
            # Stopping delivers what the producer holds: with the broker gone, for the
            # request timeout. Bounded, as the app's flush.
            await bounded(
                super().on_stop(),
                STOP_FLUSH_TIMEOUT_S,
                "producer not stopped",
                "its undelivered records were never acknowledged",
            )

    class Transport(driver.Transport):
        pass

    Transport.Consumer = Consumer
    Transport.Producer = Producer
    return Transport
