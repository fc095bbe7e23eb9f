"""The ``cargo-monitor`` command line. Settings are read here and nowhere else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from monitor.errors import CargoError
from monitor.settings import DEFAULT_SAMPLES
from pipelines.cli.options import add_eval_options, settings_from


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cargo-monitor",
        description="Retrieval-gated, context-grounded monitor for agentic AI traffic.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="evaluate traces from a file or stdin (embedded default)")
    run.add_argument(
        "--input",
        default=str(DEFAULT_SAMPLES),
        help="JSONL traces; '-' for stdin (default: bundled sample traffic)",
    )
    run.add_argument("--follow", action="store_true", help="tail a growing input file")
    run.add_argument(
        "--output",
        default="out/judgments.jsonl",
        help="judgments JSONL; '-' for stdout (default: out/judgments.jsonl)",
    )
    run.add_argument(
        "--keep-serving",
        action="store_true",
        help="after the input ends, keep serving /metrics until Ctrl-C",
    )
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_eval_options(run)

    golden = sub.add_parser("validate-golden", help="validate a golden set and report problems")
    golden.add_argument("path")

    fit = sub.add_parser("fit-gate", help="fit a calibrated gate model from labelled rows")
    fit.add_argument(
        "--labels", required=True, help="JSONL rows: similarity, margin, intent, appropriate (0/1)"
    )
    fit.add_argument("--method", choices=["isotonic", "logistic"], default="isotonic")
    fit.add_argument("--gamma", type=float, default=0.8, help="target P̂ threshold γ")
    fit.add_argument("--out", required=True, help="where to write the JSON gate model")

    stream = sub.add_parser("stream", help="run a Faust worker on Kafka (live traffic)")
    stream.add_argument("--bootstrap", default="127.0.0.1:9092", help="Kafka bootstrap servers")
    stream.add_argument("--traces-topic", default="agent-traces")
    stream.add_argument("--judgments-topic", default="cargo-judgments")
    stream.add_argument("--dlq-topic", default="cargo-traces-dlq")
    stream.add_argument("--group", default="cargo-monitor", help="consumer group / Faust app id")
    stream.add_argument(
        "--partitions",
        type=int,
        default=4,
        help="partitions for topics the worker creates (default 4)",
    )
    stream.add_argument("--replication", type=int, default=1)
    stream.add_argument(
        "--security-protocol",
        default="PLAINTEXT",
        choices=["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"],
    )
    stream.add_argument("--sasl-mechanism", default=None, help="PLAIN, SCRAM-SHA-256, ...")
    stream.add_argument("--sasl-username", default=None)
    stream.add_argument("--ssl-cafile", default=None)
    stream.add_argument("--data-dir", default=None, help="Faust table state directory")
    stream.add_argument(
        "--pipeline-depth",
        type=int,
        default=4,
        help="batches in flight per worker (default 4: the next batches are "
        "embedded and judged while earlier ones are delivered; 1 = one "
        "at a time)",
    )
    stream.add_argument(
        "--progress-interval",
        type=float,
        default=10.0,
        help="seconds between progress checks: per-partition lag gauge, an "
        "info line per lagging partition (default 10)",
    )
    stream.add_argument(
        "--stall-after",
        type=float,
        default=120.0,
        help="warn (with the consumer's view of the partition) when a lagging "
        "partition has not advanced for this many seconds (default 120)",
    )
    stream.add_argument(
        "--fetch-max-wait",
        type=float,
        default=0.1,
        help="seconds the broker may hold a fetch that finds no new "
        "records (0.001-30; default 0.1; Faust's own is 1.5): the "
        "longest an idle partition can hold up the others",
    )
    stream.add_argument("--loglevel", default="warning")
    add_eval_options(stream)

    replay = sub.add_parser("replay", help="produce a JSONL file to a Kafka topic")
    replay.add_argument("file", nargs="?", default=str(DEFAULT_SAMPLES))
    replay.add_argument("--bootstrap", default="127.0.0.1:9092")
    replay.add_argument("--topic", default="agent-traces")
    replay.add_argument(
        "--rate", type=float, default=0.0, help="messages/s (0 = as fast as possible)"
    )
    replay.add_argument("--loop", action="store_true", help="repeat the file until interrupted")
    replay.add_argument("--limit", type=int, default=0, help="stop after N messages (0 = no limit)")
    replay.add_argument(
        "--partitions", type=int, default=4, help="create the topic with N partitions when missing"
    )
    replay.add_argument("--no-progress", action="store_true")

    from pipelines.kafka.topics import add_topics_parser
    from pipelines.reports.bench import add_bench_parser
    from pipelines.reports.calibrate import add_calibrate_parser
    from pipelines.reports.report import add_report_parser

    add_topics_parser(sub)
    add_bench_parser(sub)
    add_calibrate_parser(sub)
    add_report_parser(sub)

    samples = sub.add_parser("make-samples", help="regenerate the bundled sample traffic")
    samples.add_argument("--golden", default=None)
    samples.add_argument("--output", default=str(DEFAULT_SAMPLES))
    samples.add_argument("--seed", type=int, default=7)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            from pipelines.embedded import main_run

            settings = settings_from(args)
            return main_run(
                settings,
                input_path=args.input,
                output=args.output,
                follow=args.follow,
                keep_serving=args.keep_serving,
                progress=not args.no_progress and sys.stderr.isatty(),
            )
        if args.command == "validate-golden":
            from monitor.golden import load_golden

            gs = load_golden(args.path)
            print(
                f"{args.path}: OK, version {gs.version}, {len(gs.items)} items, "
                f"{sum(i.entity_bearing for i in gs.items)} entity-bearing"
            )
            return 0
        if args.command == "fit-gate":
            from monitor.gate import fit_gate_model, read_calibration_rows, save_gate_model

            rows = read_calibration_rows(args.labels)
            model = fit_gate_model(rows, args.method, gamma=args.gamma)
            save_gate_model(model, args.out)
            print(
                f"{args.out}: {args.method} gate fitted on {model.fitted_rows} rows "
                f"({model.fitted_positives} appropriate), gamma {model.gamma}"
            )
            return 0
        if args.command == "stream":
            import os

            from pipelines.kafka.worker import StreamConfig, run_worker

            settings = settings_from(args)
            cfg = StreamConfig(
                bootstrap=args.bootstrap,
                traces_topic=args.traces_topic,
                judgments_topic=args.judgments_topic,
                dlq_topic=args.dlq_topic,
                group=args.group,
                partitions=args.partitions,
                replication=args.replication,
                metrics_port=settings.metrics_port,
                batch_size=settings.batch_size,
                batch_within_s=settings.batch_window_s,
                security_protocol=args.security_protocol,
                sasl_mechanism=args.sasl_mechanism,
                sasl_username=args.sasl_username,
                sasl_password=os.environ.get("CARGO_KAFKA_SASL_PASSWORD"),
                ssl_cafile=args.ssl_cafile,
                data_dir=args.data_dir,
                pipeline_depth=max(1, args.pipeline_depth),
                progress_interval_s=max(0.5, args.progress_interval),
                stall_after_s=max(1.0, args.stall_after),
                fetch_max_wait_s=args.fetch_max_wait,
            )
            return run_worker(cfg, settings, loglevel=args.loglevel)
        if args.command == "replay":
            from pipelines.kafka.replay import main_replay

            return main_replay(args)
        if args.command == "topics":
            from pipelines.kafka.topics import main_topics

            return main_topics(args)
        if args.command == "bench":
            from pipelines.reports.bench import main_bench

            return main_bench(args)
        if args.command == "calibrate":
            from pipelines.reports.calibrate import main_calibrate

            return main_calibrate(args)
        if args.command == "report":
            from pipelines.reports.report import main_report

            return main_report(args)
        if args.command == "make-samples":
            from pipelines.samples import main_samples

            return main_samples(args.golden, args.output, args.seed)
    except (CargoError, ValidationError) as exc:
        print(f"cargo-monitor: error: {exc}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
