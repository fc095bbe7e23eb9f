"""Building the evaluation components from settings: one place for `run` and `stream`."""

from __future__ import annotations

import atexit
import gc
from dataclasses import dataclass

from monitor.citations import CitationChecker
from monitor.diagnostics import GuardConfig
from monitor.embeddings import Embedder, embedder_model_id, make_embedder
from monitor.errors import ConfigError
from monitor.evaluator import Evaluator
from monitor.gate import CalibratedGate, Gate, make_gate
from monitor.judges import Judge, JudgeDeps, make_judge
from monitor.llm import LLMClient
from monitor.retrieval import GoldenIndex, single_threaded_blas
from monitor.schemas import GoldenSet
from monitor.settings import CargoSettings
from monitor.steps import StepVerifier


@dataclass(frozen=True, slots=True)
class Components:
    embedder: Embedder
    index: GoldenIndex
    judge: Judge
    evaluator: Evaluator


def _check_gate_embedder(gate: Gate, model_id: str, path: object) -> None:
    """A calibrated gate maps similarities to probabilities; similarities of another
    embedding model are on another scale, and its thresholds mean nothing there (a
    model fitted with the hashing embedder abstained on every MiniLM trace). The same
    model in another runtime (``+onnx-int8-...``) is the same scale, near enough.
    ``model_id``: the run's embedder's (:func:`~monitor.embeddings.embedder_model_id`,
    known before the model loads)."""
    fitted = gate.model.embedding_model if isinstance(gate, CalibratedGate) else None
    if fitted and fitted.partition("+")[0] != model_id.partition("+")[0]:
        raise ConfigError(
            f"the gate model {path} was fitted on similarities of {fitted}; this run "
            f"embeds with {model_id}: fit it again with this embedder "
            "(cargo-monitor calibrate --embedder ...)"
        )


def build_components(settings: CargoSettings, golden: GoldenSet) -> Components:
    """Embedder, golden index, judge and evaluator, as the settings say."""
    single_threaded_blas()
    gate = make_gate(
        settings.gate,
        tau=settings.tau,
        delta=settings.delta,
        gamma=settings.gamma,
        model_path=settings.gate_model,
    )
    # Before the model loads (seconds) and the golden set is embedded.
    _check_gate_embedder(gate, embedder_model_id(settings.embedder), settings.gate_model)
    embedder = make_embedder(
        settings.embedder,
        batch_size=settings.batch_size,
        threads=settings.embed_threads,
        runtime=settings.embedder_runtime,
        cache_dir=settings.cache_dir,
    )
    index = GoldenIndex(
        golden,
        embedder,
        cache_dir=settings.cache_dir,
        query_cache_size=settings.query_cache_size,
        search=settings.golden_search,
    )
    judge = make_judge(
        settings.judge,
        JudgeDeps(
            embedder=embedder,
            procedure=settings.procedure(),
            llm=settings.llm(),
            sampler=settings.sampler(),
            escalate=settings.judge_escalate,
        ),
    )
    guards = GuardConfig(
        languages=tuple(x.strip() for x in settings.languages.split(",") if x.strip()),
        min_chars=settings.min_answer_chars,
        max_chars=settings.max_answer_chars,
    )
    # The evaluator's own bound only needs to let the judge's bound act; an LLM judge
    # limits its in-flight calls itself.
    support_llm = None
    if settings.citation_support == "llm":
        llm = settings.llm()
        if llm is None:
            raise ConfigError(
                "--citation-support llm needs the LLM judge endpoint: set "
                "CARGO_JUDGE_BASE_URL and CARGO_JUDGE_MODEL (or the flags)"
            )
        support_llm = LLMClient(llm)
    citations = CitationChecker(StepVerifier(embedder, settings.procedure()), support_llm)
    evaluator = Evaluator(
        index,
        gate,
        judge,
        judge_timeout_s=settings.judge_timeout_s,
        guards=guards,
        max_concurrency=max(8, settings.judge_max_concurrency),
        citations=citations,
        limits=settings.limits(),
        answer_check=settings.answer_check,
    )
    return Components(embedder, index, judge, evaluator)


# Allocations between two young-generation collections (CPython's default is 700).
GC_YOUNG_THRESHOLD = 20_000


def freeze_startup_heap() -> None:
    """Call once the model, golden set and clients are loaded, before the traffic.

    Moves every object allocated so far into the collector's permanent generation
    and collects the young generation less often. Otherwise the cyclic collector
    walks the model's, the tokenizer's and the Kafka clients' long-lived objects
    again and again while a trace's own objects (short-lived, freed by reference
    counting) trigger it. Measured in a stream worker with embedding free (query
    cache hits): the collector took about a fifth of its per-trace CPU (1.83 ms
    per trace, 1.48 with the collector off); with this, 1.34-1.58 against
    1.69-1.77 ms. Cyclic garbage among the frozen objects is never collected:
    they live as long as the process anyway.
    """
    gc.collect()
    gc.freeze()
    # Back into the collector at exit: interpreter shutdown then frees them in order
    # (native extensions report frozen objects as leaked otherwise).
    atexit.unregister(gc.unfreeze)
    atexit.register(gc.unfreeze)
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, GC_YOUNG_THRESHOLD), middle, old)
