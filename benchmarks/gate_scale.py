"""Benchmark: the gate's cost per question as the golden set grows, against the embedding's.

For golden sets of 100, 1k, 10k and 100k items this measures, per question, the
gate: retrieval over the golden index (:class:`~monitor.retrieval.GoldenIndex`,
top-K cosine) plus the gate's decision (:class:`~monitor.gate.FixedGate`), and
compares it with the embedding of the same question by the real MiniLM model
(batch 32, offline). Medians over rounds; the rounds of the embedding and of every
size are interleaved so that machine noise hits them alike.

The golden items are synthetic (timing does not depend on their text): the real
golden set's questions are embedded once and every synthetic item is one of them
moved by Gaussian noise (cosine about 0.9 to its base), as wordings of one intent
would be; the queries are the bundled sample questions, embedded by the model.
With ``--search hnsw`` (or ``both``) the approximate index is measured too, with
its recall@1 against the exact search on the same queries.

Run: ``make perf-gate`` or ``python -m benchmarks.gate_scale``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from monitor.embeddings import Matrix, make_embedder
from monitor.gate import FixedGate
from monitor.golden import load_golden
from monitor.retrieval import GoldenIndex, Retrieval, single_threaded_blas
from monitor.schemas import GoldenItem, GoldenSet
from monitor.settings import DEFAULT_GOLDEN, DEFAULT_SAMPLES

SIZES = (100, 1_000, 10_000, 100_000)
# Noise per component: cosine to the base about 1/sqrt(1 + 384 s^2) = 0.9.
NOISE = 0.0247
GOAL_AT_10K = 0.10


class _Precomputed:
    """An embedder that hands the golden index its synthetic matrix."""

    def __init__(self, matrix: Matrix) -> None:
        self.matrix = matrix

    @property
    def model_id(self) -> str:
        return "synthetic"

    def embed(self, texts: Sequence[str]) -> Matrix:
        if len(texts) != len(self.matrix):
            raise ValueError("the synthetic embedder only embeds the golden set")
        return self.matrix


def synthetic_golden(n: int, bases: Matrix, rng: np.random.Generator) -> tuple[GoldenSet, Matrix]:
    """``n`` items, each a noisy copy of one base vector; unit rows in float32."""
    pick = rng.integers(0, len(bases), n)
    m = bases[pick] + rng.normal(0.0, NOISE, (n, bases.shape[1])).astype(np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    items = tuple(
        GoldenItem.model_construct(
            id=f"syn-{k}",
            intent=f"intent-{pick[k]}",
            agent="synthetic",
            question=f"synthetic question {k}",
            answer="synthetic answer",
            parameters={},
            steps=(),
            policy_terms=(),
        )
        for k in range(n)
    )
    return GoldenSet(version="synthetic", items=items), m.astype(np.float32)


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


@dataclass
class Case:
    size: int
    search: str
    index: GoldenIndex
    build_s: float
    memory_bytes: int
    retrieve: list[float]
    decide: list[float]


def gate_round(
    index: GoldenIndex, queries: Matrix, bs: int, gate: FixedGate
) -> tuple[float, float]:
    """Seconds per question of retrieval and of the gate decision."""
    t_retrieve = t_decide = 0.0
    for k in range(0, len(queries), bs):
        t0 = time.perf_counter()
        found = index.retrieve(queries[k : k + bs])
        t1 = time.perf_counter()
        for r in found:
            gate.decide(r)
        t_decide += time.perf_counter() - t1
        t_retrieve += t1 - t0
    return t_retrieve / len(queries), t_decide / len(queries)


def recall_at_1(exact: Sequence[Retrieval | None], approx: Sequence[Retrieval | None]) -> float:
    """Share of queries whose approximate top-1 is the exact one (or ties with it)."""
    hits = 0
    for e, a in zip(exact, approx, strict=True):
        assert e is not None and a is not None
        hits += a.item.id == e.item.id or abs(a.similarity - e.similarity) < 1e-6
    return hits / len(exact)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--input", default=str(DEFAULT_SAMPLES))
    ap.add_argument("--golden", default=str(DEFAULT_GOLDEN))
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--search", choices=["exact", "hnsw", "both"], default="exact")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    searches = ["exact", "hnsw"] if args.search == "both" else [args.search]
    bs = args.batch_size

    from benchmarks.throughput import _questions  # the sample questions, as `make perf` reads them

    single_threaded_blas()  # as `run` and `stream` do (build_components)
    embedder = make_embedder("minilm", batch_size=bs)
    real = GoldenIndex(load_golden(args.golden), embedder)
    questions = real.prepare(_questions(Path(args.input).read_text(encoding="utf-8").splitlines()))
    queries = embedder.embed(questions)
    rng = np.random.default_rng(args.seed)
    gate = FixedGate()

    cases: list[Case] = []
    for n in sizes:
        golden, matrix = synthetic_golden(n, real.matrix, rng)
        for search in searches:
            gc.collect()
            rss0 = _rss_bytes()
            t0 = time.perf_counter()
            index = GoldenIndex(golden, _Precomputed(matrix), mask=False, search=search)
            build = time.perf_counter() - t0
            # The index keeps the matrix it was given (built before rss0) and, for
            # hnsw, a graph with its own copy of the rows (counted by the RSS growth).
            mem = matrix.nbytes + max(0, _rss_bytes() - rss0)
            cases.append(Case(n, search, index, build, mem, [], []))
        del matrix

    def embed_round() -> float:
        t0 = time.perf_counter()
        for k in range(0, len(questions), bs):
            embedder.embed(questions[k : k + bs])
        return (time.perf_counter() - t0) / len(questions)

    embed_round()
    for c in cases:  # warm-up
        gate_round(c.index, queries, bs, gate)
    embed: list[float] = []
    for _ in range(args.rounds):
        embed.append(embed_round())
        for c in cases:
            r, d = gate_round(c.index, queries, bs, gate)
            c.retrieve.append(r)
            c.decide.append(d)
    emb = statistics.median(embed)

    print(
        f"gate scale: {len(questions)} sample questions, batch {bs}, {args.rounds} rounds "
        f"(medians); embedder {embedder.model_id}, {emb * 1e6:.0f} µs per question "
        f"(min {min(embed) * 1e6:.0f}, max {max(embed) * 1e6:.0f})"
    )
    print(
        f"{'items':>8} {'search':>6} {'memory MiB':>10} {'build s':>8} {'retrieve µs':>11} "
        f"{'decide µs':>9} {'gate µs':>8} {'gate/embed':>10} {'recall@1':>8}"
    )
    exact_found: dict[int, list[Retrieval | None]] = {}
    for c in cases:
        found = [
            r for k in range(0, len(queries), bs) for r in c.index.retrieve(queries[k : k + bs])
        ]
        if c.search == "exact":
            exact_found[c.size] = found
        recall = recall_at_1(exact_found[c.size], found) if c.size in exact_found else 1.0
        ret, dec = statistics.median(c.retrieve), statistics.median(c.decide)
        total = statistics.median([r + d for r, d in zip(c.retrieve, c.decide, strict=True)])
        ratio = total / emb
        print(
            f"{c.size:>8} {c.search:>6} {c.memory_bytes / 2**20:>10.1f} {c.build_s:>8.2f} "
            f"{ret * 1e6:>11.1f} {dec * 1e6:>9.1f} {total * 1e6:>8.1f} {ratio:>10.3f} "
            f"{recall if c.search != 'exact' else 1.0:>8.3f}"
        )
    at_10k = [c for c in cases if c.size == 10_000 and c.search == "exact"]
    if at_10k:
        c = at_10k[0]
        ratio = statistics.median([r + d for r, d in zip(c.retrieve, c.decide, strict=True)]) / emb
        verdict = "met" if ratio < GOAL_AT_10K else "NOT met"
        print(f"goal: exact gate < {GOAL_AT_10K:.0%} of embedding at 10k items: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
