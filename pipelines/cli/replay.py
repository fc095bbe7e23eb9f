"""``cargo-monitor replay``: produce a JSONL file to a Kafka topic."""

from __future__ import annotations

import argparse

from monitor.data import DEFAULT_SAMPLES
from monitor.settings import CargoSettings
from pipelines.cli.base import add_settings_flags, option_group, settings_from_args
from pipelines.kafka.config import KafkaSettings

# The connection and topic-creation settings; the topic is --topic.
KAFKA_FIELDS = [
    "bootstrap",
    "security_protocol",
    "sasl_mechanism",
    "sasl_username",
    "ssl_cafile",
    "ssl_certfile",
    "ssl_keyfile",
    "partitions",
    "replication",
]


class ReplayCommand:
    name = "replay"
    help = "produce a JSONL file to a Kafka topic"

    def register(self, parser: argparse.ArgumentParser) -> None:
        inp = option_group(parser, "input")
        inp.add_argument(
            "file", nargs="?", default=str(DEFAULT_SAMPLES), help="JSONL traces, one per line"
        )
        add_settings_flags(
            parser,
            KafkaSettings,
            KAFKA_FIELDS,
            help_overrides={"partitions": "create the topic with N partitions when missing"},
        )
        k = option_group(parser, "Kafka")
        k.add_argument(
            "--topic", default=None, help="topic to produce to (default: the traces topic)"
        )
        k.add_argument(
            "--rate", type=float, default=0.0, help="messages/s (0 = as fast as possible)"
        )
        k.add_argument("--loop", action="store_true", help="repeat the file until interrupted")
        k.add_argument("--limit", type=int, default=0, help="stop after N messages (0 = no limit)")
        add_settings_flags(parser, CargoSettings, ["max_payload_bytes"])
        option_group(parser, "output").add_argument(
            "--no-progress", action="store_true", help="no progress bar"
        )

    def run(self, args: argparse.Namespace) -> int:
        from pathlib import Path

        from pipelines.kafka.replay import replay

        kafka = settings_from_args(KafkaSettings, args)
        limits = settings_from_args(CargoSettings, args).limits()
        return replay(
            kafka,
            Path(args.file),
            topic=args.topic or kafka.traces_topic,
            rate=args.rate,
            loop=args.loop,
            limit=args.limit,
            progress=not args.no_progress,
            limits=limits,
        )


COMMAND = ReplayCommand()
