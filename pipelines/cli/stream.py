"""``cargo-monitor stream``: run a Faust worker on Kafka (live traffic)."""

from __future__ import annotations

import argparse

from monitor.settings import CargoSettings
from pipelines.cli.base import add_settings_flags, settings_from_args
from pipelines.kafka.config import KafkaSettings, WorkerSettings
from pipelines.otel.settings import OtelKafkaSettings, OtelSettings


class StreamCommand:
    name = "stream"
    help = "run a Faust worker on Kafka (live traffic)"

    def register(self, parser: argparse.ArgumentParser) -> None:
        add_settings_flags(parser, KafkaSettings)
        add_settings_flags(parser, WorkerSettings)
        add_settings_flags(parser, CargoSettings)
        add_settings_flags(parser, OtelSettings)
        add_settings_flags(parser, OtelKafkaSettings)

    def run(self, args: argparse.Namespace) -> int:
        from pipelines.kafka.worker import StreamConfig, run_worker

        settings = settings_from_args(CargoSettings, args)
        worker = settings_from_args(WorkerSettings, args)
        cfg = StreamConfig(
            kafka=settings_from_args(KafkaSettings, args),
            group=worker.group,
            metrics_port=settings.metrics_port,
            batch_size=settings.batch_size,
            batch_within_s=settings.batch_window_s,
            data_dir=worker.data_dir,
            pipeline_depth=worker.pipeline_depth,
            max_attempts=worker.max_attempts,
            progress_interval_s=worker.progress_interval_s,
            stall_after_s=worker.stall_after_s,
            fetch_max_wait_s=worker.fetch_max_wait_s,
            otel=settings_from_args(OtelSettings, args),
            otel_kafka=settings_from_args(OtelKafkaSettings, args),
        )
        return run_worker(cfg, settings, loglevel=worker.loglevel)


COMMAND = StreamCommand()
