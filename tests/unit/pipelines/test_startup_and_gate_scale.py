"""The start-up paths that need no model stay free of it, and the benchmarks' helpers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.gate_scale import _Precomputed, gate_round, recall_at_1, synthetic_golden
from benchmarks.onnx_equivalence import Pairs, _sweep
from benchmarks.startup import RUN_PHASES, _table
from monitor.data import DEFAULT_SAMPLES
from monitor.gate import FixedGate
from monitor.retrieval import GoldenIndex, Retrieval

HEAVY = ("torch", "sentence_transformers", "transformers", "sklearn", "faiss", "faust")

PROBE = f"""
import json, sys
from pipelines.cli import main
try:
    rc = main(sys.argv[1:])
except SystemExit as exc:
    rc = exc.code
print(json.dumps({{"rc": rc, "heavy": [m for m in {HEAVY!r} if m in sys.modules]}}))
"""


def _heavy_imports(args: list[str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, HF_HUB_OFFLINE="1"),
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["rc"] == 0, out.stderr
    return list(result["heavy"])


def test_help_imports_no_model_library() -> None:
    assert _heavy_imports(["--help"]) == []
    assert _heavy_imports(["stream", "--help"]) == []
    assert _heavy_imports(["run", "--help"]) == []


def test_a_hashing_run_imports_no_model_library(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    one.write_text(DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines()[0] + "\n")
    args = ["run", "--input", str(one), "--output", str(tmp_path / "out.jsonl")]
    args += ["--embedder", "hashing", "--metrics-port", "0", "--no-progress"]
    args += ["--cache-dir", str(tmp_path / "cache")]
    assert _heavy_imports(args) == []
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 1


def test_synthetic_golden_rows_are_unit_and_near_their_base() -> None:
    rng = np.random.default_rng(0)
    bases = rng.normal(size=(5, 384)).astype(np.float32)
    bases /= np.linalg.norm(bases, axis=1, keepdims=True)
    golden, m = synthetic_golden(200, bases, rng)
    assert len(golden.items) == 200 and m.shape == (200, 384) and m.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-5)
    assert len({i.id for i in golden.items}) == 200
    best = (m @ bases.T).max(axis=1)
    assert 0.85 < float(np.median(best)) < 0.95
    index = GoldenIndex(golden, _Precomputed(m), mask=False)
    assert index.matrix is m
    retrieve_s, decide_s = gate_round(index, bases, 2, FixedGate())
    assert retrieve_s > 0 and decide_s > 0


def test_recall_at_1_counts_ties_as_hits() -> None:
    rng = np.random.default_rng(1)
    bases = rng.normal(size=(3, 16)).astype(np.float32)
    golden, _ = synthetic_golden(3, bases / np.linalg.norm(bases, axis=1, keepdims=True), rng)
    a, b, c = golden.items
    exact = [Retrieval(a, 0.9, 0.8), Retrieval(b, 0.7, 0.6)]
    assert recall_at_1(exact, exact) == 1.0
    # Another item: a miss, unless its similarity ties the exact top-1's.
    assert recall_at_1(exact, [Retrieval(c, 0.85, 0.8), Retrieval(b, 0.7, 0.6)]) == 0.5
    assert recall_at_1(exact, [Retrieval(c, 0.9, 0.8), Retrieval(a, 0.6, 0.5)]) == 0.5


def test_startup_table_prints_medians(capsys: pytest.CaptureFixture[str]) -> None:
    keys = ["spawn", "main", *(b for _, _, b in RUN_PHASES[1:])]
    rows = [{k: float(n) * scale for n, k in enumerate(keys)} for scale in (1, 2, 3)]
    for r in rows:
        r["exit"] = r["first_judgment"] + 1
    _table("run", rows, RUN_PHASES)
    out = capsys.readouterr().out
    assert "median of 3 starts" in out
    # Every phase is one step of the scale: the median of 1, 2 and 3 seconds.
    assert "model load                                     2.00" in out
    assert "process start to first judgment               16.00" in out


def _stand_in_export(cache: Path) -> None:
    """An export of a small stand-in model under the bundled MiniLM's own cache key
    (this CPU's int8 quantisation), with PyTorch's probe vectors in its manifest: to a
    start it is a warm, valid cache (exporting MiniLM itself takes half a minute)."""
    torch = pytest.importorskip("torch")
    from monitor import onnx_runtime as ort_export
    from monitor.embeddings import SentenceTransformerEmbedder

    class StandIn(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            gen = torch.Generator().manual_seed(0)
            self.emb = torch.nn.Parameter(torch.randn(30522, 16, generator=gen))

        def forward(self, input_ids: object, attention_mask: object) -> object:
            mask = attention_mask.unsqueeze(-1).float()  # type: ignore[attr-defined]
            mean = (self.emb[input_ids] * mask).sum(1) / mask.sum(1).clamp(min=1.0)
            return torch.nn.functional.normalize(mean, p=2.0, dim=1)

    model_dir = SentenceTransformerEmbedder.bundled_path()
    tokenize = ort_export.bert_tokenizer(model_dir)
    assert tokenize is not None
    model = StandIn().eval()
    with torch.inference_mode():
        probes = model(*map(torch.from_numpy, tokenize(list(ort_export.PROBES)))).numpy()
    quant = ort_export.quantisation("int8")
    key = ort_export.cache_key(ort_export.weights_digest(model_dir), quant)
    path = ort_export.export_path(cache, quant, key)
    ort_export.export(model, tokenize, path, quant, key, probes)


def test_an_onnx_run_on_a_warm_export_imports_no_pytorch(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tokenizers")
    cache = tmp_path / "cache"
    _stand_in_export(cache)
    exports = sorted(p.name for p in (cache / "onnx").iterdir())
    one = tmp_path / "one.jsonl"
    one.write_text(DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines()[0] + "\n")
    args = ["run", "--input", str(one), "--output", str(tmp_path / "out.jsonl")]
    args += ["--embedder", "minilm", "--embedder-runtime", "onnx-int8"]
    args += ["--metrics-port", "0", "--no-progress", "--cache-dir", str(cache)]
    assert _heavy_imports(args) == []
    (line,) = (tmp_path / "out.jsonl").read_text().splitlines()
    assert json.loads(line)["trace_id"]
    # The export was used as it was, not exported again.
    assert sorted(p.name for p in (cache / "onnx").iterdir()) == exports


def test_the_tau_sweep_counts_flips_near_tau() -> None:
    # Pair 0 moves from .50 to .52: it flips at τ .51 and .52 (within .02 of its s*);
    # pair 1 does not move; pair 2 has no retrieval (ignored).
    st = np.array([0.50, 0.90, np.nan])
    so = np.array([0.52, 0.90, np.nan])
    p = Pairs("t", ["a", "b", "c"], st, so, np.full(3, np.inf), np.full(3, np.inf))
    worst, tau, n_near, n_flip, n_rule, shown = _sweep(p)
    assert worst == 0.5 and tau == 0.51
    assert n_flip == 2
    assert n_near == 10  # five τ within .02 of each of the two s*
    assert n_rule == 95 - 2  # every τ of the grid but .51 and .52
    assert shown == {0.5: 1.0, 0.6: 1.0, 0.7: 1.0, 0.8: 1.0, 0.9: 1.0, 0.95: 1.0}
