"""Retrieval with the real bundled MiniLM model, offline."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from monitor.embeddings import SentenceTransformerEmbedder
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet


@pytest.mark.integration
def test_real_minilm_offline_retrieval(
    golden: GoldenSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    e = SentenceTransformerEmbedder()
    index = GoldenIndex(golden, e, cache_dir=tmp_path)
    vecs = index.embed_questions(
        [
            "Is service tag 7QZ1KPL still under warranty?",
            "What will the weather be like in Lisbon tomorrow?",
        ]
    )
    assert vecs.shape == (2, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    near, far = index.retrieve(vecs)
    assert near is not None and near.item.id == "g_asset_warranty" and near.similarity > 0.9
    assert far is not None and far.similarity < 0.5
