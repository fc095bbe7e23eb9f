"""Benchmark: raw embedding throughput vs end-to-end evaluator throughput, per runtime.

Both are measured in the same process on the same sample questions with the
same batch size, several rounds each, and the medians are compared. The ratio
``end_to_end / raw_embedding`` says how much the evaluation around the embedding
(parsing, retrieval, gate, structural judge, diagnostics, metrics, JSON) costs:
the target is >= 0.8. With ``--runtimes`` (default: every MiniLM runtime,
``torch,onnx-fp32,onnx-int8``) each runtime gets its own embedder, golden index and
evaluator; the rounds interleave the runtimes, so machine noise hits them alike, and
each runtime's medians are also given as a ratio to torch's in the same run, with the
median of the per-round ratios (each round's figure over torch's in that round). A
runtime name with ``:intra-op`` (``onnx-int8:intra-op``) runs ONNX Runtime on one
embedding thread with its own intra-op threads (one per usable core) instead of the
embedder's data-parallel chunks. Run: ``make perf`` or ``python -m benchmarks.throughput``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from prometheus_client import CollectorRegistry

from monitor.embeddings import (
    RUNTIMES,
    Embedder,
    SentenceTransformerEmbedder,
    make_embedder,
    usable_cores,
)
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.golden import load_golden
from monitor.judges import StructuralJudge
from monitor.metrics import MonitorMetrics
from monitor.retrieval import GoldenIndex, single_threaded_blas
from monitor.settings import DEFAULT_GOLDEN, DEFAULT_SAMPLES
from monitor.traces import RawTrace, is_valid_trace


def _questions(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(d, dict) and isinstance(d.get("question"), str):
            out.append(d["question"])
    return out


@dataclass
class Subject:
    name: str
    embedder: Embedder
    index: GoldenIndex
    evaluator: Evaluator
    raw: list[float] = field(default_factory=list)
    e2e: list[float] = field(default_factory=list)


def _embedder(name: str, embedder: str, batch_size: int, cache_dir: str | None) -> Embedder:
    if embedder != "minilm":
        return make_embedder(embedder, batch_size=batch_size)
    runtime, _, mode = name.partition(":")
    if runtime not in RUNTIMES or mode not in {"", "intra-op"}:
        raise SystemExit(f"unknown runtime {name!r}: {', '.join(RUNTIMES)} (onnx-*:intra-op)")
    if mode:
        return SentenceTransformerEmbedder(
            batch_size=batch_size,
            threads=1,
            runtime=runtime,
            cache_dir=cache_dir,
            onnx_intra_op_threads=usable_cores(),
        )
    return make_embedder("minilm", batch_size=batch_size, runtime=runtime, cache_dir=cache_dir)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--input", default=str(DEFAULT_SAMPLES))
    ap.add_argument("--golden", default=str(DEFAULT_GOLDEN))
    ap.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    ap.add_argument(
        "--runtimes",
        default=",".join(RUNTIMES),
        help="comma-separated MiniLM runtimes (torch first is the reference)",
    )
    ap.add_argument("--cache-dir", default=None, help="ONNX export cache (default: the user's)")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)

    all_lines = [x for x in Path(args.input).read_text(encoding="utf-8").splitlines() if x.strip()]
    # Both paths see exactly the same traces: the valid ones (invalid lines skip the
    # model, which would flatter the end-to-end figure).
    lines = [x for x in all_lines if is_valid_trace(x)]
    golden = load_golden(args.golden)
    single_threaded_blas()  # as `run` and `stream` do (build_components)
    names = [x.strip() for x in args.runtimes.split(",") if x.strip()]
    if args.embedder != "minilm":
        names = [args.embedder]
    subjects = []
    for name in names:
        embedder = _embedder(name, args.embedder, args.batch_size, args.cache_dir)
        index = GoldenIndex(golden, embedder)
        subjects.append(
            Subject(name, embedder, index, Evaluator(index, FixedGate(), StructuralJudge(embedder)))
        )
    metrics = MonitorMetrics(
        CollectorRegistry(), golden, gate_kind="fixed", judge_name="structural"
    )
    bs = args.batch_size
    # The raw path embeds exactly the texts the evaluator sends to the model
    # (entity-masked questions), so the ratio isolates the work around the model.
    questions = subjects[0].index.prepare(_questions(lines))

    def raw_round(embedder: Embedder) -> float:
        t0 = time.perf_counter()
        for k in range(0, len(questions), bs):
            embedder.embed(questions[k : k + bs])
        return len(questions) / (time.perf_counter() - t0)

    async def batches() -> AsyncIterator[list[RawTrace]]:
        for k in range(0, len(lines), bs):
            yield [RawTrace(x) for x in lines[k : k + bs]]

    async def e2e_round(evaluator: Evaluator) -> float:
        # The same pipelined path as `cargo-monitor run` (embedding of the next
        # batch overlaps the judging of the current one).
        t0 = time.perf_counter()
        async for judgments in evaluator.evaluate_stream(batches()):
            for j in judgments:
                metrics.observe(j)
                j.model_dump_json()
        return len(lines) / (time.perf_counter() - t0)

    for sub in subjects:  # warm-up both paths
        raw_round(sub.embedder)
        asyncio.run(e2e_round(sub.evaluator))
    for _ in range(args.rounds):  # interleaved, so machine noise hits all alike
        for sub in subjects:
            sub.raw.append(raw_round(sub.embedder))
            sub.e2e.append(asyncio.run(e2e_round(sub.evaluator)))
    print(
        f"batch {bs}, {args.rounds} rounds, {len(lines)} valid traces of {len(all_lines)} "
        f"lines, {len(questions)} questions, {usable_cores()} usable cores"
    )
    ref = subjects[0]
    ref_raw, ref_e2e = statistics.median(ref.raw), statistics.median(ref.e2e)
    print(
        f"{'runtime':20s} {'model':52s} {'raw q/s':>8s} {'e2e t/s':>8s} "
        f"{'e2e/raw':>7s} {'raw/' + ref.name:>12s} {'e2e/' + ref.name:>12s}"
    )
    for sub in subjects:
        raw_med, e2e_med = statistics.median(sub.raw), statistics.median(sub.e2e)
        engine = getattr(sub.embedder, "runtime", "")
        print(
            f"{sub.name:20s} {sub.embedder.model_id + (f' [{engine}]' if engine else ''):52s} "
            f"{raw_med:8.1f} {e2e_med:8.1f} {e2e_med / raw_med:7.3f} "
            f"{raw_med / ref_raw:12.2f} {e2e_med / ref_e2e:12.2f}"
        )
        # Per-round ratios to the reference measured next to it: steadier than the
        # ratio of medians when the machine's speed drifts within the run.
        raw_pair = statistics.median(x / y for x, y in zip(sub.raw, ref.raw, strict=True))
        e2e_pair = statistics.median(x / y for x, y in zip(sub.e2e, ref.e2e, strict=True))
        print(
            f"{'':20s} raw min {min(sub.raw):.1f} max {max(sub.raw):.1f}; "
            f"e2e min {min(sub.e2e):.1f} max {max(sub.e2e):.1f}; median per-round ratio "
            f"to {ref.name}: raw {raw_pair:.2f}, e2e {e2e_pair:.2f}"
        )
    worst = min(statistics.median(s.e2e) / statistics.median(s.raw) for s in subjects)
    print(
        f"ratio e2e/raw target >= 0.80: {'met' if worst >= 0.8 else 'NOT met'} (worst {worst:.3f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
