"""The MiniLM embedder on ONNX Runtime (fp32 and int8), exported once per session from
the bundled weights: vectors against PyTorch, batch independence, a garbage export
replaced, and PyTorch when no export can be had (with warnings)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("onnxruntime")

from monitor.onnx_runtime import cpu_isa

SENTENCES = [
    "How do I reset the password for account 4471?",
    "reset password",
    "  Why was order 99-1812 charged twice, and how do I get a refund?  ",
    "Wie storniere ich die Bestellung 12?",
    "The pump on asset 7 reports low pressure after the valve check; what next?",
    "My laptop will not turn on after the update.",
    "Can I change the delivery address of an order that has shipped?",
    "x",
]


@pytest.fixture(scope="session")
def minilm_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("onnx-cache")


@pytest.fixture(scope="session")
def minilm() -> Iterator[Any]:
    from monitor.embeddings import SentenceTransformerEmbedder

    yield SentenceTransformerEmbedder(threads=2)


@pytest.fixture(scope="session")
def minilm_onnx(minilm_cache: Path) -> dict[str, Any]:
    from monitor.embeddings import SentenceTransformerEmbedder

    return {
        rt: SentenceTransformerEmbedder(threads=2, runtime=rt, cache_dir=minilm_cache)
        for rt in ("onnx-fp32", "onnx-int8")
    }


@pytest.mark.integration
def test_minilm_onnx_vectors_match_torch(minilm: Any, minilm_onnx: dict[str, Any]) -> None:
    want = minilm.embed(SENTENCES)
    fp32, int8 = minilm_onnx["onnx-fp32"], minilm_onnx["onnx-int8"]
    assert fp32.runtime == "onnx-fp32" and fp32.model_id == minilm.model_id
    assert int8.runtime == f"onnx-int8-{cpu_isa()}"
    assert int8.model_id == f"{minilm.model_id}+onnx-int8-{cpu_isa()}"
    got32, got8 = fp32.embed(SENTENCES), int8.embed(SENTENCES)
    assert np.abs(got32 - want).max() < 1e-4
    cos = (got8 * want).sum(axis=1)
    assert cos.min() > 0.97 and cos.mean() > 0.99, cos
    assert np.allclose(np.linalg.norm(got8, axis=1), 1.0, atol=1e-5)
    # A text's int8 vector does not depend on the other texts of its batch.
    alone = np.concatenate([int8.embed([t]) for t in SENTENCES])
    assert np.abs(alone - got8).max() < 1e-5
    # Batches of one chunk and of several, and a text past the 256-token limit.
    long = [*SENTENCES * 5, " ".join(["the device keeps rebooting after the update"] * 60)]
    assert np.abs(fp32.embed(long) - minilm.embed(long)).max() < 1e-4


@pytest.mark.integration
def test_minilm_garbage_export_is_replaced_and_vectors_stay_right(
    minilm: Any, minilm_onnx: dict[str, Any], minilm_cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from monitor.embeddings import SentenceTransformerEmbedder

    (path,) = (minilm_cache / "onnx").glob("*fp32*.onnx")
    path.write_bytes(b"garbage" * 100)
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        again = SentenceTransformerEmbedder(threads=2, runtime="onnx-fp32", cache_dir=minilm_cache)
    assert any("not usable" in r.getMessage() for r in caplog.records)
    assert again.runtime == "onnx-fp32"
    assert np.abs(again.embed(SENTENCES) - minilm.embed(SENTENCES)).max() < 1e-4


@pytest.mark.integration
def test_minilm_without_a_usable_export_runs_torch(
    minilm: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from monitor.embeddings import SentenceTransformerEmbedder

    blocked = tmp_path / "not-a-dir"
    blocked.write_text("")
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        e = SentenceTransformerEmbedder(threads=2, runtime="onnx-int8", cache_dir=blocked)
    assert any("PyTorch" in r.getMessage() for r in caplog.records)
    assert e.runtime == "torchscript" and e.model_id == minilm.model_id
    assert np.abs(e.embed(SENTENCES) - minilm.embed(SENTENCES)).max() < 1e-5


@pytest.mark.integration
def test_minilm_onnx_without_pytorch_matches_the_sentence_transformers_path(
    minilm: Any, minilm_onnx: dict[str, Any]
) -> None:
    # The tokenizers-only tokenisation a warm start uses gives sentence-transformers' ids
    # and mask, so the session's vectors are those of the path through
    # sentence-transformers' tokeniser (to 1e-5), for fp32 and int8 alike.
    from monitor.onnx_runtime import PROBES, bert_tokenizer, one_by_one, run_session

    tokenize = bert_tokenizer(minilm.bundled_path())
    assert tokenize is not None
    odd = [
        "",
        "   ",
        "\u00a0x\u3000",
        "Ünïcödé straße 東京 😀 tab\there",
        "a " * 600,
        "Hi, WORLD!!",
    ]
    texts = [*SENTENCES, *PROBES, *odd]
    ids, mask = tokenize(texts)
    want_ids, want_mask = minilm._tokenize_st(texts)
    assert np.array_equal(ids, want_ids) and np.array_equal(mask, want_mask)
    for e in minilm_onnx.values():
        assert e._model is None  # the PyTorch model is not kept once ONNX Runtime runs
        by_one = one_by_one(e._onnx_quant)
        old = run_session(e._onnx, minilm._tokenize_st, texts, one_by_one=by_one)
        assert np.abs(e.embed(texts) - old).max() < 1e-5
