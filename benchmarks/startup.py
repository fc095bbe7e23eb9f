"""Benchmark: start-up time, from process start to the first judgment and to a stream
worker ready, split into imports, model load, golden index and first batch.

Every figure is the median over ``--starts`` fresh processes (warm caches: the golden
index is built once before the first timed start, and the OS page cache is warm).

* ``run``: ``python -m pipelines.cli run`` on a one-trace input. The total is the
  plain command, timed from spawn to exit by this process. The split comes from the
  same command run through an instrumented child (``_child``) that timestamps the
  phases: *interpreter* (spawn to the child's first line), *imports* (the command
  line's modules, then the model's libraries, which the command imports when it loads
  the model; here just before it: torch and sentence-transformers for ``--runtime
  torch``, onnxruntime and tokenizers for an ONNX runtime with its export in the cache,
  which loads no PyTorch), *model load*
  (``make_embedder``), *golden index* (``GoldenIndex``), *first batch* (components
  built to the first judgment written) and *exit* (to the end of the process).
* ``stream``: the Faust worker (``pipelines.kafka.worker``) on a real local broker
  (``deploy/kafka/broker start --port``): the same phases up to ``build_app``, then
  *worker start* (Faust worker started to partitions assigned: ready to judge) and
  *first batch* (one trace produced after ready to its judgment read back).
  Without a broker (``--no-broker``) the stream worker is measured up to the point
  before it connects (the app built, with its model and golden index).

``--runtime`` (``torch``, ``onnx-fp32``, ``onnx-int8``) is the commands'
``--embedder-runtime``; the untimed warm-up start also exports an ONNX runtime's model
into the (temporary) cache directory, so the timed starts find it there.

Run: ``make perf-startup`` or ``python -m benchmarks.startup [--runtime onnx-int8]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ENV_T0 = "CARGO_STARTUP_T0"
ENV_MARKS = "CARGO_STARTUP_MARKS"
ENV_NO_BROKER = "CARGO_STARTUP_NO_BROKER"
BROKER = Path(__file__).resolve().parent.parent / "deploy" / "kafka" / "broker"
GOAL_S = 10.0


# --------------------------------------------------------------------------- the child


class _Marks:
    """Wall-clock timestamps (``time.time()``) by phase, written as JSON at exit."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.t: dict[str, float] = {"spawn": float(os.environ[ENV_T0]), "main": time.time()}

    def mark(self, name: str) -> None:
        if name not in self.t:
            self.t[name] = time.time()
            self.write()

    def write(self) -> None:
        tmp = Path(self.path + ".tmp")
        tmp.write_text(json.dumps(self.t))
        tmp.replace(self.path)

    def dump(self) -> None:
        self.t["exit"] = time.time()
        self.write()


def _wrap(owner: Any, attr: str, before: Callable[[], None], after: Callable[[], None]) -> None:
    fn = getattr(owner, attr)

    def wrapped(*a: Any, **kw: Any) -> Any:
        before()
        try:
            return fn(*a, **kw)
        finally:
            after()

    setattr(owner, attr, wrapped)


def _child(argv: list[str]) -> int:
    import atexit

    marks = _Marks(os.environ[ENV_MARKS])
    atexit.register(marks.dump)
    import pipelines.cli
    from pipelines import components

    marks.mark("cli_imported")
    runtime = argv[argv.index("--embedder-runtime") + 1] if "--embedder-runtime" in argv else ""
    if "--embedder" not in argv or argv[argv.index("--embedder") + 1] == "minilm":
        # What loading the model imports.
        if runtime.startswith("onnx"):
            import onnxruntime  # noqa: F401
            import tokenizers  # noqa: F401
        else:
            import sentence_transformers  # noqa: F401

    marks.mark("libraries_imported")
    _wrap(components, "make_embedder", lambda: marks.mark("model_start"), lambda: None)
    _wrap(
        components,
        "GoldenIndex",
        lambda: marks.mark("model_loaded"),
        lambda: marks.mark("index_loaded"),
    )
    _wrap(components, "freeze_startup_heap", lambda: None, lambda: marks.mark("components_built"))
    if argv[0] == "run":
        from monitor import io

        _wrap(io.JsonlSink, "write", lambda: None, lambda: marks.mark("first_judgment"))
        return pipelines.cli.main(argv)
    # stream: build_app is the point before connecting; then Faust starts the worker.
    from monitor.metrics import MonitorMetrics
    from pipelines.kafka import worker

    _wrap(MonitorMetrics, "observe", lambda: None, lambda: marks.mark("first_judgment"))
    _wrap(worker, "build_components", lambda: None, lambda: marks.mark("components_built"))
    if os.environ.get(ENV_NO_BROKER):
        worker.ensure_topics = lambda *a, **kw: []  # type: ignore[attr-defined]  # no connection
    build = worker.build_app

    def build_and_watch(*a: Any, **kw: Any) -> Any:
        app = build(*a, **kw)
        marks.mark("app_built")
        if os.environ.get(ENV_NO_BROKER):
            marks.dump()
            os._exit(0)

        @app.on_partitions_assigned.connect  # type: ignore[untyped-decorator]
        async def assigned(_app: Any, assigned: Any, **_kw: Any) -> None:
            if assigned:
                marks.mark("ready")

        return app

    worker.build_app = build_and_watch
    return pipelines.cli.main(argv)


# --------------------------------------------------------------------------- the parent

RUN_PHASES = (
    ("interpreter", "spawn", "main"),
    ("imports: command line", "main", "cli_imported"),
    ("imports: model libraries", "cli_imported", "libraries_imported"),
    ("settings, golden set, metrics", "libraries_imported", "model_start"),
    ("model load", "model_start", "model_loaded"),
    ("golden index", "model_loaded", "index_loaded"),
    ("judge, evaluator", "index_loaded", "components_built"),
    ("first batch", "components_built", "first_judgment"),
)
STREAM_PHASES = (
    *RUN_PHASES[:3],
    ("settings, topics, golden set, metrics", "libraries_imported", "model_start"),
    *RUN_PHASES[4:7],
    ("app built (topics, table)", "components_built", "app_built"),
    ("worker start to partitions assigned (ready)", "app_built", "ready"),
    ("first batch (trace produced to judged)", "produced", "first_judgment"),
)


def _env(marks: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ, HF_HUB_OFFLINE="1", **(extra or {}))
    env[ENV_MARKS] = str(marks)
    env[ENV_T0] = repr(time.time())
    return env


def _timed(cmd: list[str], env: dict[str, str] | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _table(
    title: str, rows: list[dict[str, float]], phases: Sequence[tuple[str, str, str]]
) -> None:
    print(f"\n{title} (median of {len(rows)} starts, seconds)")
    for name, a, b in phases:
        vals = [r[b] - r[a] for r in rows if a in r and b in r]
        if vals:
            print(f"  {name:<44} {statistics.median(vals):6.2f}")
    for end in ("ready", "first_judgment", "app_built"):
        totals = [r[end] - r["spawn"] for r in rows if end in r]
        if totals:
            label = "process start to " + end.replace("_", " ")
            print(f"  {label:<44} {statistics.median(totals):6.2f}")
    exits = [r["exit"] - r["spawn"] for r in rows if "exit" in r]
    print(f"  {'process start to exit (instrumented)':<44} {statistics.median(exits):6.2f}")


def measure_run(args: argparse.Namespace, work: Path) -> None:
    one = work / "one.jsonl"
    first = Path(args.input).read_text(encoding="utf-8").splitlines()[0]
    one.write_text(first + "\n", encoding="utf-8")
    cmd = [
        *("run", "--input", str(one), "--output", str(work / "out.jsonl")),
        *("--no-progress", "--metrics-port", "0", "--cache-dir", str(work / "cache")),
        *("--embedder", args.embedder, "--embedder-runtime", args.runtime),
    ]
    py = sys.executable
    _timed([py, "-m", "pipelines.cli", *cmd])  # warm: builds the golden cache
    plain, rows = [], []
    for _ in range(args.starts):
        plain.append(_timed([py, "-m", "pipelines.cli", *cmd]))
        marks = work / "marks.json"
        _timed([py, "-m", "benchmarks.startup", "_child", *cmd], _env(marks))
        rows.append(json.loads(marks.read_text()))
    help_s = [_timed([py, "-m", "pipelines.cli", "--help"]) for _ in range(args.starts)]
    title = f"run, one trace, --embedder {args.embedder} --embedder-runtime {args.runtime}"
    _table(title, rows, RUN_PHASES)
    print(
        f"  {'plain command, spawn to exit':<44} {statistics.median(plain):6.2f}"
        f"  (min {min(plain):.2f}, max {max(plain):.2f}; goal < {GOAL_S:.0f} s: "
        f"{'met' if statistics.median(plain) < GOAL_S else 'NOT met'})"
    )
    print(f"  {'`--help`, spawn to exit':<44} {statistics.median(help_s):6.2f}")


def _poll(marks: Path, key: str, proc: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if marks.exists() and key in json.loads(marks.read_text()):
            return
        if proc.poll() is not None:
            raise RuntimeError(f"the worker exited ({proc.returncode}) before {key}")
        time.sleep(0.05)
    raise TimeoutError(f"no {key} within {timeout_s:.0f} s")


def measure_stream(args: argparse.Namespace, work: Path) -> None:
    py = sys.executable
    port = args.broker_port
    broker_env = dict(os.environ, CARGO_KAFKA_DATA=str(work / "kafka"))
    rows = []
    if not args.no_broker:
        subprocess.run(
            [str(BROKER), "start", "--port", str(port)],
            env=broker_env,
            check=True,
            capture_output=True,
        )
    try:
        for k in range(args.starts + 1):  # the first start is a warm-up
            marks = work / "marks.json"
            marks.unlink(missing_ok=True)
            topic = f"startup-{k}"
            cmd = [
                *("stream", "--bootstrap", f"127.0.0.1:{port}", "--group", topic),
                *("--traces-topic", topic, "--judgments-topic", f"{topic}-judgments"),
                *("--dlq-topic", f"{topic}-dlq", "--metrics-port", "0", "--partitions", "1"),
                *("--cache-dir", str(work / "cache"), "--embedder", args.embedder),
                *("--embedder-runtime", args.runtime),
                *("--data-dir", str(work / f"faust-{k}")),
            ]
            env = _env(marks, {ENV_NO_BROKER: "1"} if args.no_broker else None)
            env = {k: v for k, v in env.items() if not k.startswith("CARGO_KAFKA_")}
            proc = subprocess.Popen(
                [py, "-m", "benchmarks.startup", "_child", *cmd],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                if args.no_broker:
                    proc.wait(timeout=300)
                else:
                    _poll(marks, "ready", proc, 300)
                    produced = _produce_one(port, topic, args.input)
                    _poll(marks, "first_judgment", proc, 120)
            finally:
                proc.terminate()
                proc.wait(timeout=60)
            if k > 0:
                row = json.loads(marks.read_text())
                if not args.no_broker:
                    row["produced"] = produced
                rows.append(row)
    finally:
        if not args.no_broker:
            subprocess.run(
                [str(BROKER), "stop", "--port", str(port)],
                env=broker_env,
                capture_output=True,
                check=False,
            )
    if args.no_broker:
        title = f"stream worker, up to the point before connecting, {args.runtime}"
        _table(title, rows, STREAM_PHASES[:8])
    else:
        _table(f"stream worker, local broker, {args.runtime}", rows, STREAM_PHASES)


def _produce_one(port: int, topic: str, input_path: str) -> float:
    """Send the first trace of the input; the time it was acknowledged."""
    from kafka import KafkaProducer

    line = Path(input_path).read_text(encoding="utf-8").splitlines()[0]
    producer = KafkaProducer(bootstrap_servers=f"127.0.0.1:{port}", acks="all")
    producer.send(topic, value=line.encode())
    producer.flush()
    sent = time.time()
    producer.close()
    return sent


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_child"]:
        return _child(argv[1:])
    from monitor.settings import DEFAULT_SAMPLES

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--input", default=str(DEFAULT_SAMPLES), help="its first line is the trace")
    ap.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    ap.add_argument("--runtime", default="torch", choices=["torch", "onnx-fp32", "onnx-int8"])
    ap.add_argument("--starts", type=int, default=3)
    ap.add_argument("--only", choices=["run", "stream"], default=None)
    ap.add_argument("--broker-port", type=int, default=19392, help="a spare port (and the next)")
    ap.add_argument("--no-broker", action="store_true", help="stream: stop before connecting")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cargo-startup-") as tmp:
        work = Path(tmp)
        if args.only in (None, "run"):
            measure_run(args, work)
        if args.only in (None, "stream"):
            measure_stream(args, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
