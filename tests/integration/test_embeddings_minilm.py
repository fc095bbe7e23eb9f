"""The MiniLM embedder's data-parallel, traced runtime against the eager model."""

from __future__ import annotations

import logging
import os
import threading

import numpy as np
import pytest

from monitor import embeddings
from monitor.embeddings import SentenceTransformerEmbedder, make_embedder
from monitor.errors import ConfigError

TEXTS = [
    "How do I reset the password for account 4471?",
    "reset password",
    "  Why was order 99-1812 charged twice, and how do I get the second charge refunded?  ",
    "Wie storniere ich die Bestellung 12?",
    "The pump on asset 7 reports low pressure after the valve check; what do I do next?",
    "x",
] * 7 + [" ".join(["the device keeps rebooting after the firmware update"] * 60)]


@pytest.fixture(scope="module")
def eager() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(threads=1, trace=False)


@pytest.fixture(scope="module")
def fast() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(threads=2, batch_size=16)


@pytest.mark.integration
def test_bundled_model_runs_traced_and_data_parallel(fast: SentenceTransformerEmbedder) -> None:
    assert fast.runtime == "torchscript"
    assert fast.threads == 2


@pytest.mark.integration
@pytest.mark.parametrize("n", [1, 2, 9, 16, 17, len(TEXTS)])
def test_traced_parallel_vectors_equal_the_eager_model(
    eager: SentenceTransformerEmbedder, fast: SentenceTransformerEmbedder, n: int
) -> None:
    # Batches below one chunk, of two chunks, above batch_size (sub-batched), and a
    # text past the model's 256-token limit (truncation): same vectors, same order.
    texts = TEXTS[:n] if n < len(TEXTS) else TEXTS
    want, got = eager.embed(texts), fast.embed(texts)
    assert got.shape == want.shape == (len(texts), fast.dim)
    assert float(np.abs(got - want).max()) < 1e-5
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@pytest.mark.integration
def test_the_trace_runs_pooling_and_normalisation_too(
    eager: SentenceTransformerEmbedder, fast: SentenceTransformerEmbedder
) -> None:
    # One traced call from token ids and mask to the model's final, unit-length
    # sentence embeddings (no module of the model runs outside it).
    features = fast._preprocess(TEXTS[:5])
    raw = fast._traced(features["input_ids"], features["attention_mask"]).numpy()
    assert raw.shape == (5, fast.dim)
    assert np.allclose(np.linalg.norm(raw, axis=1), 1.0, atol=1e-5)
    assert float(np.abs(raw - eager.embed(TEXTS[:5])).max()) < 1e-5


@pytest.mark.integration
@pytest.mark.parametrize(("preset", "want"), [(None, "false"), ("true", "true")])
def test_tokenizer_pool_is_off_unless_the_user_set_it(
    monkeypatch: pytest.MonkeyPatch, preset: str | None, want: str
) -> None:
    if preset is None:
        monkeypatch.delenv("TOKENIZERS_PARALLELISM", raising=False)
    else:
        monkeypatch.setenv("TOKENIZERS_PARALLELISM", preset)
    SentenceTransformerEmbedder(threads=1, trace=False)
    assert os.environ["TOKENIZERS_PARALLELISM"] == want


@pytest.mark.integration
def test_concurrent_callers_share_the_pool(
    eager: SentenceTransformerEmbedder, fast: SentenceTransformerEmbedder
) -> None:
    want = eager.embed(TEXTS)
    out: dict[int, np.ndarray] = {}

    def call(k: int) -> None:
        out[k] = fast.embed(TEXTS[k:] + TEXTS[:k])

    threads = [threading.Thread(target=call, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, got in out.items():
        assert float(np.abs(got - np.roll(want, -k, axis=0)).max()) < 1e-5


@pytest.mark.integration
def test_a_trace_that_differs_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    eager: SentenceTransformerEmbedder,
) -> None:
    monkeypatch.setattr(embeddings, "TRACE_TOLERANCE", -1.0)  # any trace "differs"
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        e = SentenceTransformerEmbedder(threads=2)
    assert e.runtime == "eager"
    assert "running eager" in caplog.text
    assert float(np.abs(e.embed(TEXTS) - eager.embed(TEXTS)).max()) < 1e-5


@pytest.mark.integration
def test_a_model_that_cannot_be_traced_runs_eager(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import torch

    def boom(*_a: object, **_k: object) -> None:
        raise RuntimeError("tracing is not supported here")

    monkeypatch.setattr(torch.jit, "trace", boom)
    with caplog.at_level(logging.WARNING, logger="cargo.embeddings"):
        e = SentenceTransformerEmbedder(threads=1)
    assert e.runtime == "eager"
    assert "cannot trace the embedding model (RuntimeError: tracing is not supported" in caplog.text
    assert e.embed(["reset password"]).shape == (1, e.dim)


def test_negative_thread_count_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="embedding threads must be 0"):
        make_embedder("minilm", threads=-1)
