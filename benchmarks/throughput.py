"""Benchmark: raw embedding throughput vs end-to-end evaluator throughput.

Both are measured in the same process on the same sample questions with the
same batch size, several rounds each, and the medians are compared. The ratio
``end_to_end / raw_embedding`` says how much the evaluation around the embedding
(parsing, retrieval, gate, structural judge, diagnostics, metrics, JSON) costs:
the target is >= 0.8. Run: ``make perf`` or ``python -m benchmarks.throughput``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from prometheus_client import CollectorRegistry

from monitor.embeddings import make_embedder
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


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--input", default=str(DEFAULT_SAMPLES))
    ap.add_argument("--golden", default=str(DEFAULT_GOLDEN))
    ap.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)

    all_lines = [x for x in Path(args.input).read_text(encoding="utf-8").splitlines() if x.strip()]
    # Both paths see exactly the same traces: the valid ones (invalid lines skip the
    # model, which would flatter the end-to-end figure).
    lines = [x for x in all_lines if is_valid_trace(x)]
    golden = load_golden(args.golden)
    single_threaded_blas()  # as `run` and `stream` do (build_components)
    embedder = make_embedder(args.embedder, batch_size=args.batch_size)
    index = GoldenIndex(golden, embedder)
    evaluator = Evaluator(index, FixedGate(), StructuralJudge(embedder))
    metrics = MonitorMetrics(
        CollectorRegistry(), golden, gate_kind="fixed", judge_name="structural"
    )
    bs = args.batch_size
    # The raw path embeds exactly the texts the evaluator sends to the model
    # (entity-masked questions), so the ratio isolates the work around the model.
    questions = index.prepare(_questions(lines))

    def raw_round() -> float:
        t0 = time.perf_counter()
        for k in range(0, len(questions), bs):
            embedder.embed(questions[k : k + bs])
        return len(questions) / (time.perf_counter() - t0)

    async def batches() -> AsyncIterator[list[RawTrace]]:
        for k in range(0, len(lines), bs):
            yield [RawTrace(x) for x in lines[k : k + bs]]

    async def e2e_round() -> float:
        # The same pipelined path as `cargo-monitor run` (embedding of the next
        # batch overlaps the judging of the current one).
        t0 = time.perf_counter()
        async for judgments in evaluator.evaluate_stream(batches()):
            for j in judgments:
                metrics.observe(j)
                j.model_dump_json()
        return len(lines) / (time.perf_counter() - t0)

    raw_round()
    asyncio.run(e2e_round())  # warm-up both paths
    raw, e2e = [], []
    for _ in range(args.rounds):  # interleaved, so machine noise hits both alike
        raw.append(raw_round())
        e2e.append(asyncio.run(e2e_round()))
    raw_med, e2e_med = statistics.median(raw), statistics.median(e2e)
    ratio = e2e_med / raw_med
    print(
        f"embedder            {embedder.model_id} (batch {bs}, {args.rounds} rounds, "
        f"{len(lines)} valid traces of {len(all_lines)} lines)"
    )
    print(
        f"raw embedding       median {raw_med:8.1f} questions/s  "
        f"(min {min(raw):.1f}, max {max(raw):.1f})"
    )
    print(
        f"end-to-end          median {e2e_med:8.1f} traces/s     "
        f"(min {min(e2e):.1f}, max {max(e2e):.1f})"
    )
    print(
        f"ratio e2e/raw       {ratio:.3f}  (target >= 0.80: {'met' if ratio >= 0.8 else 'NOT met'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
