"""``cargo-monitor stream``: run a Faust worker on Kafka (live traffic)."""

from __future__ import annotations

import argparse

from monitor.settings import CargoSettings
from pipelines.cli.base import add_settings_flags, option_group, settings_from_args
from pipelines.kafka.config import KafkaSettings


class StreamCommand:
    name = "stream"
    help = "run a Faust worker on Kafka (live traffic)"

    def register(self, parser: argparse.ArgumentParser) -> None:
        add_settings_flags(parser, KafkaSettings)
        k = option_group(parser, "Kafka")
        k.add_argument("--group", default="cargo-monitor", help="consumer group / Faust app id")
        k.add_argument("--data-dir", default=None, help="Faust table state directory")
        k.add_argument(
            "--pipeline-depth",
            type=int,
            default=4,
            help="batches in flight per worker (default 4: the next batches are "
            "embedded and judged while earlier ones are delivered; 1 = one at a time)",
        )
        k.add_argument(
            "--max-attempts",
            type=int,
            default=3,
            help="evaluations of a trace whose evaluation raises, its batch's included, "
            "before it is dead-lettered as evaluator_error (default 3)",
        )
        k.add_argument(
            "--progress-interval",
            type=float,
            default=10.0,
            help="seconds between progress checks: per-partition lag gauge, an "
            "info line per lagging partition (default 10)",
        )
        k.add_argument(
            "--stall-after",
            type=float,
            default=120.0,
            help="a partition with lag that has not advanced for this many seconds is "
            "stalled: cargo_partition_stalled 1 and a warning with its likely cause "
            "(default 120)",
        )
        k.add_argument(
            "--fetch-max-wait",
            type=float,
            default=0.1,
            help="seconds the broker may hold a fetch that finds no new records "
            "(0.001-30; default 0.1; Faust's own is 1.5): the longest an idle "
            "partition can hold up the others",
        )
        option_group(parser, "output").add_argument(
            "--loglevel", default="warning", help="worker log level (default warning)"
        )
        add_settings_flags(parser, CargoSettings)

    def run(self, args: argparse.Namespace) -> int:
        from pipelines.kafka.worker import StreamConfig, run_worker

        settings = settings_from_args(CargoSettings, args)
        cfg = StreamConfig(
            kafka=settings_from_args(KafkaSettings, args),
            group=args.group,
            metrics_port=settings.metrics_port,
            batch_size=settings.batch_size,
            batch_within_s=settings.batch_window_s,
            data_dir=args.data_dir,
            pipeline_depth=max(1, args.pipeline_depth),
            max_attempts=max(1, args.max_attempts),
            progress_interval_s=max(0.5, args.progress_interval),
            stall_after_s=max(1.0, args.stall_after),
            fetch_max_wait_s=args.fetch_max_wait,
        )
        return run_worker(cfg, settings, loglevel=args.loglevel)


COMMAND = StreamCommand()
