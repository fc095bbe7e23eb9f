"""Benchmark: throughput and latency through Kafka vs the embedded evaluator.

In one run, on a local broker this script starts on a free port (and stops):

1. embedded: the evaluator's pipelined path on the sample traces (traces/s);
2. Kafka maximum: N traces produced up front, one worker started, time from its
   W-th judgment to its (N-C)-th (traces/s through Kafka, end to end, after a
   warm-up of W traces -- the embedded figure is also taken with warm caches --
   and before a cool-down of C: a finite backlog ends in partial batches that
   wait for more traffic, which a live stream does not). Repeated in
   rounds, each between two sets of embedded passes; a round's ratio is its Kafka
   rate over the embedded figures around it, and the median ratio is quoted (the
   machine is shared: its speed drifts within a run);
3. Kafka latency: traces offered at half the measured maximum rate; latency is
   judgment arrival minus the trace's produce timestamp (p50/p99);
4. the worker's resident memory (from its /metrics);
5. CPU accounting of both paths (CPU ms per trace of the embedded evaluator, the
   worker(s) and the broker, and how much of the machine each used), which says
   whether a gap is Kafka overhead or a shared, saturated CPU.

Run: ``make perf-kafka`` or ``python -m benchmarks.kafka_stream``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from monitor.embeddings import usable_cores
from monitor.golden import load_golden
from monitor.settings import DEFAULT_SAMPLES, CargoSettings
from monitor.traces import RawTrace
from pipelines.components import build_components, freeze_startup_heap
from pipelines.kafka.config import KafkaSettings

BROKER = Path(__file__).resolve().parent.parent / "deploy" / "kafka" / "broker"


def _free_port() -> int:
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        with socket.socket() as s2:
            try:
                s2.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                continue


def _traces(n: int) -> list[bytes]:
    from monitor.errors import InvalidTraceError
    from monitor.traces import parse_trace

    base = []
    for x in DEFAULT_SAMPLES.read_text().splitlines():
        try:
            base.append(parse_trace(x).model_dump(mode="json"))
        except InvalidTraceError:
            continue
    out = []
    for k in range(n):
        d = dict(base[k % len(base)])
        d["trace_id"] = f"bench-{k}-{uuid.uuid4().hex[:8]}"
        out.append(json.dumps(d).encode())
    return out


def _broker_cpu_s(pid: int | None) -> float:
    """The local broker's CPU seconds (0 for a cluster elsewhere)."""
    return 0.0 if pid is None else _cpu_s(pid)


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class EmbeddedPath:
    """The embedded evaluator on the same traces, measured in passes.

    The evaluator is built exactly as a stream worker builds its own (the same
    components from the same settings: environment plus the overrides the
    workers get), so the two paths do the same evaluation work per trace. It is
    measured before the first Kafka round and after each (the model stays
    loaded, idle, in between), so that every Kafka figure has embedded figures
    taken just before and just after it.
    """

    def __init__(
        self, lines: Sequence[bytes], batch: int, query_cache: int = 0, embed_threads: int = 0
    ) -> None:
        settings = CargoSettings(
            batch_size=batch, query_cache_size=query_cache, embed_threads=embed_threads
        )
        components = build_components(settings, load_golden(settings.golden))
        freeze_startup_heap()  # as `run` and `stream` do after loading
        self.evaluator = components.evaluator
        self.runtime = str(getattr(components.embedder, "runtime", "?"))
        self.lines, self.batch = lines, batch
        self.rates: list[float] = []
        self.cpu_s = 0.0
        self.wall_s = 0.0
        self.statuses: dict[str, int] = {}
        self._pass()  # warm-up: model, caches, first sight of every question

    def _pass(self) -> float:
        async def batches() -> AsyncIterator[list[RawTrace]]:
            for k in range(0, len(self.lines), self.batch):
                yield [RawTrace(x) for x in self.lines[k : k + self.batch]]

        async def run() -> float:
            t0 = time.perf_counter()
            async for js in self.evaluator.evaluate_stream(batches()):
                for j in js:
                    self.statuses[j.status] = self.statuses.get(j.status, 0) + 1
                    j.model_dump_json()
            return len(self.lines) / (time.perf_counter() - t0)

        return asyncio.run(run())

    def measure(self, passes: int = 3) -> float:
        """Run passes; their median traces/s (all passes are kept in ``rates``)."""
        cpu0, wall0 = time.process_time(), time.perf_counter()
        rates = [self._pass() for _ in range(passes)]
        self.cpu_s += time.process_time() - cpu0
        self.wall_s += time.perf_counter() - wall0
        self.rates += rates
        return statistics.median(rates)

    @property
    def cpu_ms_per_trace(self) -> float:
        return self.cpu_s * 1000 / max(1, len(self.rates) * len(self.lines))


def _count_judgments(
    kafka: KafkaSettings,
    topic: str,
    start_at: int,
    n: int,
    timeout_s: float,
    on_start: Callable[[], None] | None = None,
    poll_s: float = 0.05,
) -> tuple[float, int, float, int]:
    """Watch the judgments topic's end offsets (summed over its partitions) until
    they reach n: the (time, count) of the first poll that saw at least start_at
    and of the one that saw n. on_start() runs at the first (CPU accounting).

    Polling end offsets instead of reading the judgments keeps the measuring
    process nearly idle (reading 2 KB judgments with kafka-python costs CPU that
    the worker and the broker would share on a small machine)."""
    from kafka import KafkaConsumer, TopicPartition

    c = KafkaConsumer(group_id=None, enable_auto_commit=False, **kafka.kafka_python_kwargs())
    try:
        deadline = time.monotonic() + timeout_s
        parts = None
        while not parts and time.monotonic() < deadline:
            parts = c.partitions_for_topic(topic)
            if not parts:
                time.sleep(poll_s)
        tps = [TopicPartition(topic, p) for p in sorted(parts or ())]
        first: tuple[float, int] | None = None
        while time.monotonic() < deadline:
            now = time.time()
            count = sum(c.end_offsets(tps).values()) if tps else 0
            if first is None and count >= start_at:
                first = (now, count)
                if on_start is not None:
                    on_start()
            if first is not None and count >= n:
                return first[0], first[1], now, count
            time.sleep(poll_s)
        raise TimeoutError(f"{topic}: fewer than {n} judgments after {timeout_s:.0f} s")
    finally:
        c.close()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--bootstrap",
        default=None,
        help="measure on this Kafka cluster instead of a local broker started here "
        "(security as for every command: CARGO_KAFKA_SECURITY_PROTOCOL, "
        "CARGO_KAFKA_SASL_*, CARGO_KAFKA_SSL_*; no broker CPU figures)",
    )
    ap.add_argument("--traces", type=int, default=2000)
    ap.add_argument("--latency-seconds", type=float, default=20.0)
    ap.add_argument(
        "--latency-warmup",
        type=float,
        default=10.0,
        help="seconds of traffic offered to the fresh latency worker before "
        "latencies count (at least --warmup traces; default 10)",
    )
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument(
        "--warmup",
        type=int,
        default=300,
        help="judgments a fresh worker makes before the Kafka clock starts "
        "(model warm-up, first sight of each question and procedure); the "
        "embedded path gets a full warm-up pass (default 300)",
    )
    ap.add_argument(
        "--cooldown",
        type=int,
        default=300,
        help="the backlog's last judgments, not timed (default 300): a finite "
        "backlog ends in partial batches that wait --batch-within for "
        "traffic that never comes (up to 1 s of idle at the end of a "
        "5-second drain), which a live stream does not have",
    )
    ap.add_argument(
        "--query-cache",
        type=int,
        default=0,
        help="masked-question embedding cache size for both paths (default 0: "
        "off, so that every trace pays for its embedding)",
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        help="workers in the group for the maximum-throughput run (scale-out on "
        "this machine; default 1)",
    )
    ap.add_argument(
        "--embed-threads",
        type=int,
        default=0,
        help="embedding threads of the embedded evaluator and of each worker "
        "(CARGO_EMBED_THREADS; 0 = one per usable core)",
    )
    ap.add_argument(
        "--worker-embed-threads",
        type=int,
        default=None,
        help="embedding threads of each worker when they should differ from the "
        "embedded evaluator's (scale-out: --workers 2 --worker-embed-threads "
        "1 on two cores); default: --embed-threads",
    )
    ap.add_argument(
        "--depths",
        default="4",
        help="worker pipeline depths to measure the Kafka maximum with, comma "
        "separated; the last one is the ratio's and the latency run's "
        "(default 4, the worker's default)",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="Kafka maximum-throughput runs per depth, each between two sets "
        "of embedded passes (default 3; the ratio quoted is the median)",
    )
    ap.add_argument(
        "--embedded-passes",
        type=int,
        default=2,
        help="embedded passes (1,000 traces each) before the first round and "
        "after each round (default 2)",
    )
    args = ap.parse_args(argv)
    depths = [max(1, int(x)) for x in args.depths.split(",") if x.strip()]
    if args.rounds < 1 or args.embedded_passes < 1:
        ap.error("--rounds and --embedded-passes must be at least 1")
    if not 0 <= args.warmup < args.traces - max(0, args.cooldown):
        ap.error(
            f"--warmup {args.warmup} and --cooldown {args.cooldown} leave none of the "
            f"{args.traces} traces to time"
        )
    args.cooldown = max(0, args.cooldown)
    worker_threads = (
        args.embed_threads if args.worker_embed_threads is None else args.worker_embed_threads
    )

    from kafka import KafkaProducer

    from pipelines.kafka.admin import ensure_topics

    lines = _traces(args.traces)
    embedded = EmbeddedPath(lines[:1000], args.batch_size, args.query_cache, args.embed_threads)
    emb_before = embedded.measure(args.embedded_passes)

    tmp = Path(tempfile.mkdtemp(prefix="cargo-bench-stream-"))
    local = args.bootstrap is None
    env = dict(os.environ)
    broker_pid: int | None = None
    if local:
        port = _free_port()
        # The local broker is PLAINTEXT: no security settings for its clients.
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_KAFKA_")}
        env |= {"CARGO_KAFKA_PORT": str(port), "CARGO_KAFKA_DATA": str(tmp / "kafka")}
        subprocess.run([str(BROKER), "fetch"], env=env, check=True, capture_output=True)
        subprocess.run([str(BROKER), "start"], env=env, check=True, capture_output=True)
        kafka = KafkaSettings(bootstrap=f"127.0.0.1:{port}", security_protocol="PLAINTEXT")
        broker_pid = int((tmp / "kafka" / "broker.pid").read_text().strip())
    else:
        kafka = KafkaSettings(bootstrap=args.bootstrap)
    bootstrap = kafka.bootstrap
    workers: list[subprocess.Popen[bytes]] = []
    try:

        def start_worker(group: str, depth: int) -> tuple[subprocess.Popen[bytes], int]:
            # Reads topic <group>, writes <group>-judgments and <group>-dlq.
            mport = _free_port()
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "pipelines.cli",
                    "stream",
                    "--bootstrap",
                    bootstrap,
                    "--group",
                    group,
                    "--traces-topic",
                    group,
                    "--judgments-topic",
                    f"{group}-judgments",
                    "--dlq-topic",
                    f"{group}-dlq",
                    "--metrics-port",
                    str(mport),
                    "--data-dir",
                    str(tmp / group),
                    "--batch-size",
                    str(args.batch_size),
                    "--pipeline-depth",
                    str(depth),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={
                    **env,
                    "HF_HUB_OFFLINE": "1",
                    "CARGO_QUERY_CACHE_SIZE": str(args.query_cache),
                    "CARGO_EMBED_THREADS": str(worker_threads),
                },
            )
            return proc, mport

        def start_workers(
            group: str, depth: int, settle: bool, grace_s: float = 0.0
        ) -> list[tuple[subprocess.Popen[bytes], int]]:
            """args.workers workers in one group; with settle, return once each serves
            /metrics (after grace_s) and (several workers) the group had 10 s to
            settle, so that no rebalance falls inside a measurement."""
            started = [start_worker(group, depth) for _ in range(max(1, args.workers))]
            if settle:
                time.sleep(grace_s)
                for _, mp in started:
                    _wait_ready(mp)
                if len(started) > 1:
                    time.sleep(10)
            return started

        # --- maximum throughput: a backlog of N traces drained by fresh worker(s),
        # per depth, in rounds interleaved with embedded passes: each Kafka figure is
        # compared with the embedded passes just before and just after it, so that a
        # change in the shared machine's speed hits both sides of each ratio.
        rates: dict[int, list[float]] = {d: [] for d in depths}
        ratios: dict[int, list[float]] = {d: [] for d in depths}
        timed: dict[int, _Timed] = {d: _Timed() for d in depths}
        rss = 0.0
        emb_prev = emb_before
        for rnd in range(1, args.rounds + 1):
            round_rates: dict[int, float] = {}
            for depth in depths:
                topic = f"bench-max-d{depth}-r{rnd}"
                ensure_topics(kafka, {topic: 4, f"{topic}-judgments": 4})
                # One worker starts on the backlog (its clock starts after the warm-up);
                # several let their group settle first.
                started = start_workers(topic, depth, settle=args.workers > 1)
                workers = [w for w, _ in started]
                producer = KafkaProducer(acks="all", linger_ms=5, **kafka.kafka_python_kwargs())
                for line in lines:
                    producer.send(topic, value=line)
                producer.flush()
                producer.close()
                w, stop = args.warmup, len(lines) - args.cooldown
                snap: dict[str, float] = {}

                def mark(
                    snap: dict[str, float] = snap,
                    pids: tuple[int, ...] = tuple(p.pid for p in workers),
                ) -> None:
                    snap.update(
                        workers=sum(_cpu_s(pid) for pid in pids), broker=_broker_cpu_s(broker_pid)
                    )

                t_first, n_first, t_last, n_last = _count_judgments(
                    kafka, f"{topic}-judgments", w, stop, 600, on_start=mark
                )
                n_timed = n_last - n_first
                round_rates[depth] = n_timed / max(t_last - t_first, 1e-9)
                if snap:
                    acc = timed[depth]
                    acc.worker_cpu_s += sum(_cpu_s(p.pid) for p in workers) - snap["workers"]
                    acc.broker_cpu_s += _broker_cpu_s(broker_pid) - snap["broker"]
                    acc.traces += n_timed
                    acc.wall_s += t_last - t_first
                rss = max([rss] + [_rss(mp) for _, mp in started])
                for proc in workers:
                    proc.terminate()
                for proc in workers:
                    proc.wait(timeout=60)
                workers = []
            emb_next = embedded.measure(args.embedded_passes)
            for depth, r in round_rates.items():
                ratio = round_ratio(r, emb_prev, emb_next)
                rates[depth].append(r)
                ratios[depth].append(ratio)
                print(
                    f"round {rnd}: Kafka depth {depth} {r:7.1f} traces/s, embedded around "
                    f"it {emb_prev:.1f} / {emb_next:.1f}, ratio {ratio:.3f}",
                    flush=True,
                )
            emb_prev = emb_next
        kafka_rate = statistics.median(rates[depths[-1]])
        emb_after = emb_prev
        emb_rate = statistics.median(embedded.rates)
        emb_cpu_ms = embedded.cpu_ms_per_trace
        runtime = embedded.runtime

        # --- latency at half the maximum rate.
        rate = kafka_rate / 2
        ensure_topics(kafka, {"bench-lat": 4, "bench-lat-judgments": 4})
        # The workers join their group before traffic is offered.
        started = start_workers("bench-lat", depths[-1], settle=True, grace_s=5)
        workers = [w for w, _ in started]
        n = int(rate * args.latency_seconds)
        # The first --latency-warmup seconds of traffic (at least --warmup traces) are
        # offered at the same rate but not measured, as the throughput run skips its
        # first judgments: a fresh worker's first batches embed and judge slower and
        # the broker is busy with the new topics (measured; see the README), and the
        # backlog that builds takes a few seconds to drain. Printed apart.
        warm = max(0, args.warmup, int(rate * args.latency_warmup))
        sent: dict[str, float] = {}

        measured_done = threading.Event()

        def offer() -> None:
            # linger 5 ms, as a batching client would: sending every trace in its own
            # request costs the shared CPU more than the worker's own work.
            p = KafkaProducer(acks=1, linger_ms=5, **kafka.kafka_python_kwargs())
            t0 = time.perf_counter()
            k = 0
            # After the measured traces the same traffic goes on (not measured) until
            # their judgments are in: a live stream does not stop, and the last ones
            # would otherwise wait out --batch-within in a partial batch.
            while k < warm + n or not measured_done.is_set():
                d = json.loads(lines[k % len(lines)])
                d["trace_id"] = (
                    f"lat-warm-{k}" if k < warm else f"lat-{k}" if k < warm + n else f"lat-tail-{k}"
                )
                if k < warm + n:
                    sent[d["trace_id"]] = time.time()
                p.send("bench-lat", key=d["trace_id"].encode(), value=json.dumps(d).encode())
                k += 1
                delay = t0 + k / rate - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                if k >= warm + n and time.perf_counter() - t0 > 600:
                    break  # the measurement gave up (timeout below)
            p.flush()
            p.close()

        feeder = threading.Thread(target=offer)
        feeder.start()
        try:
            got = _latencies(kafka, "bench-lat-judgments", sent, warm + n, 600)
        finally:
            measured_done.set()
            feeder.join()
        measured = {k: v for k, v in got.items() if not k.startswith("lat-warm-")}
        lat = list(measured.values())
        windows = window_p99([(sent[k], v) for k, v in measured.items()], 5.0)
        lat_warm = [v for k, v in got.items() if k.startswith("lat-warm-")]
        rss = max([rss] + [_rss(mp) for _, mp in started])
    finally:
        for proc in workers:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=60)
        if local:
            subprocess.run([str(BROKER), "stop"], env=env, check=False, capture_output=True)

    lat.sort()
    p50, p99 = nearest_rank(lat, 0.5), nearest_rank(lat, 0.99)
    print(
        f"traces              {len(lines)} (sample traffic, fresh trace ids), batch "
        f"{args.batch_size}, structural judge, MiniLM ({runtime}, embedding threads "
        f"{args.embed_threads or 'one per core'}; per worker "
        f"{worker_threads or 'one per core'}), query cache {args.query_cache}, "
        f"Kafka timed from judgment {args.warmup} to {len(lines) - args.cooldown}"
    )
    ncpu = usable_cores()  # as the embedder counts them (the affinity mask)
    print(
        f"embedded evaluator  median {emb_rate:8.1f} traces/s over {len(embedded.rates)} "
        f"passes (first {emb_before:.1f}, last {emb_after:.1f}), "
        f"{emb_cpu_ms:.2f} ms CPU/trace ({embedded.cpu_s / embedded.wall_s / ncpu:.0%} of "
        f"{ncpu} cores); judgments {dict(sorted(embedded.statuses.items()))}"
    )
    for depth in depths:
        r_med, q_med = statistics.median(rates[depth]), statistics.median(ratios[depth])
        print(
            f"through Kafka       median {r_med:8.1f} traces/s over {len(rates[depth])} "
            f"round(s) ({args.workers} worker(s), 4 partitions, backlog, pipeline depth "
            f"{depth}); ratio to the embedded passes around each: median {q_med:.3f} "
            f"(rounds {', '.join(f'{q:.3f}' for q in ratios[depth])})"
        )
        t = timed[depth]
        if t.traces and t.wall_s:
            w_ms, b_ms = t.worker_cpu_s * 1000 / t.traces, t.broker_cpu_s * 1000 / t.traces
            print(
                f"  CPU per trace     worker(s) {w_ms:.2f} ms + broker {b_ms:.2f} ms "
                f"({(t.worker_cpu_s + t.broker_cpu_s) / t.wall_s / ncpu:.0%} of {ncpu} "
                f"cores in use)"
            )
    q = statistics.median(ratios[depths[-1]])
    print(
        f"ratio kafka/embedded median {q:.3f} at depth {depths[-1]}  (target >= 0.80: "
        f"{'met' if q >= 0.8 else 'NOT met'}; met in "
        f"{sum(x >= 0.8 for x in ratios[depths[-1]])} of {len(ratios[depths[-1]])} rounds)"
    )
    print(
        f"latency (depth {depths[-1]}) at {rate:.0f}/s   p50 {p50 * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms over "
        f"{len(lat)} traces (target p99 <= 1000 ms: {'met' if p99 <= 1.0 else 'NOT met'})"
    )
    print(
        "  p99 per 5 s of offered traffic: " + ", ".join(f"{w * 1000:.0f}" for w in windows) + " ms"
    )
    if lat_warm:
        lat_warm.sort()
        print(
            f"  cold start        first {len(lat_warm)} traces of the fresh worker (not in "
            f"the figures above): p50 {nearest_rank(lat_warm, 0.5) * 1000:.0f} ms, "
            f"max {lat_warm[-1] * 1000:.0f} ms"
        )
    print(f"worker RSS          {rss / 2**20:.0f} MiB (largest worker)")
    return 0


@dataclass
class _Timed:
    """The Kafka runs' timed windows of one pipeline depth, summed over rounds."""

    worker_cpu_s: float = 0.0
    broker_cpu_s: float = 0.0
    traces: int = 0
    wall_s: float = 0.0


def window_p99(sent_and_latency: Sequence[tuple[float, float]], window_s: float) -> list[float]:
    """p99 latency of the traces sent in each consecutive window (send time order),
    so that a slow start or a slow-down shows where it happened."""
    if not sent_and_latency:
        return []
    t0 = min(sent for sent, _ in sent_and_latency)
    buckets: dict[int, list[float]] = {}
    for sent, lat in sent_and_latency:
        buckets.setdefault(int((sent - t0) // window_s), []).append(lat)
    return [nearest_rank(sorted(buckets[k]), 0.99) for k in sorted(buckets)]


def nearest_rank(sorted_xs: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values by rank (the value at index int(n * q))."""
    return sorted_xs[min(len(sorted_xs) - 1, int(len(sorted_xs) * q))]


def round_ratio(kafka_rate: float, embedded_before: float, embedded_after: float) -> float:
    """A round's Kafka rate over the mean of the embedded figures measured just
    before and just after it."""
    around = (embedded_before + embedded_after) / 2
    if around <= 0:
        raise ValueError("embedded rate must be positive")
    return kafka_rate / around


def _rss(port: int) -> float:
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    except OSError:
        return 0.0
    for line in text.decode().splitlines():
        if line.startswith("process_resident_memory_bytes "):
            return float(line.split()[1])
    return 0.0


def _wait_ready(port: int, timeout_s: float = 180) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _rss(port) == 0.0:
        time.sleep(0.5)
    time.sleep(3)


def _latencies(
    kafka: KafkaSettings, topic: str, sent: dict[str, float], n: int, timeout_s: float
) -> dict[str, float]:
    """Produce-to-judgment latency of n trace ids, read from the judgments topic as
    the judgments arrive; ``sent`` (trace id -> send time) is filled by the feeder
    as it sends, always before the trace's judgment can exist."""
    from kafka import KafkaConsumer

    # The measuring process reads without CRC checks (the broker checked them): its
    # CPU is shared with the worker it measures.
    c = KafkaConsumer(
        topic,
        auto_offset_reset="earliest",
        group_id=None,
        consumer_timeout_ms=1000,
        check_crcs=False,
        **kafka.kafka_python_kwargs(),
    )
    out: dict[str, float] = {}
    deadline = time.monotonic() + timeout_s
    while len(out) < n and time.monotonic() < deadline:
        for msg in c:
            tid = msg.key.decode()
            if tid in sent and tid not in out:
                out[tid] = time.time() - sent[tid]
            if len(out) >= n:
                break
    c.close()
    return out


if __name__ == "__main__":
    sys.exit(main())
