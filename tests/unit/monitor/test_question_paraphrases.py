"""A golden item's ``question_paraphrases``: more ways users ask its question.

A stranger's five-item golden set had one phrasing per item: 22 of 24 questions as
their users worded them abstained at the default tau, and 4 of 24 went to the wrong
item with the gate open. Every phrasing is now a row of the index, an item scores the
best of its rows, and the top K, s*, s2 and the margin are over distinct items.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from monitor.calibration import LabelRow, features
from monitor.embeddings import HashingEmbedder, Matrix
from monitor.errors import GoldenSetError
from monitor.gate import FixedGate
from monitor.golden import load_golden, parse_golden, set_notes
from monitor.retrieval import TOP_K, ExactSearch, GoldenIndex, HnswSearch, Phrasings
from monitor.schemas import GoldenItem, GoldenSet

ITEMS: list[dict[str, Any]] = [
    {
        "id": "g_access",
        "intent": "access_arrangements",
        "agent": "exams",
        "question": "How do I request access arrangements for candidate 39999999?",
        "question_paraphrases": [
            "Can my son get extra time in his exam because he is dyslexic?",
            "my daughter has a broken arm, what help can she get on the day of the exam",
        ],
        "answer": "Submit the access arrangements form for candidate 39999999 before entry.",
        "parameters": {"candidateId": {"value": "39999999", "type": "digits", "length": 8}},
    },
    {
        "id": "g_withdraw",
        "intent": "withdrawal",
        "agent": "exams",
        "question": "How do I withdraw a candidate from an exam?",
        "question_paraphrases": ["we can't make the exam anymore, how do we drop out?"],
        "answer": "Withdraw the candidate in the portal before the closing date.",
    },
    {
        "id": "g_results",
        "intent": "results",
        "agent": "exams",
        "question": "When are exam results published?",
        "answer": "Results are published online within six weeks of the exam.",
    },
]


def _golden(items: list[dict[str, Any]] = ITEMS) -> GoldenSet:
    return parse_golden({"version": "1", "items": items})


def _bare(items: list[dict[str, Any]] = ITEMS) -> list[dict[str, Any]]:
    return [{k: v for k, v in i.items() if k != "question_paraphrases"} for i in items]


# ------------------------------------------------------------------------------ schema


def test_paraphrases_are_optional_and_read_in_order() -> None:
    gs = _golden()
    access, withdraw, results = gs.items
    assert access.phrasings == (access.question, *ITEMS[0]["question_paraphrases"])
    assert len(withdraw.question_paraphrases) == 1
    assert results.question_paraphrases == () and results.phrasings == (results.question,)


def test_bad_paraphrases_are_named_by_item_and_index(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(
        """
version: "1"
items:
  - id: a
    intent: i
    agent: x
    question: "How do I withdraw from an exam?"
    question_paraphrases:
      - "  "
      - "how do I  withdraw from an EXAM?"
      - "can we drop out?"
      - "Can we drop out?"
    answer: "Withdraw in the portal."
  - id: b
    intent: i
    agent: x
    question: "When are results out?"
    question_paraphrases: ["results when?", {when: out}]
    answer: "Within six weeks."
""",
        encoding="utf-8",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_golden(path)
    problems = exc.value.problems
    assert f"{path}: item 'a': question_paraphrases.0: empty text" in problems
    assert (
        f"{path}: item 'a': question_paraphrases.1: 'how do I  withdraw from an EXAM?' is "
        "the same as the question"
    ) in problems
    assert (
        f"{path}: item 'a': question_paraphrases.3: 'Can we drop out?' is the same as "
        "question_paraphrases.2"
    ) in problems
    assert any(p.startswith(f"{path}: item 'b': question_paraphrases.1: ") for p in problems)
    assert len(problems) == 4


def test_a_set_without_paraphrases_keeps_its_serialisation_and_hash() -> None:
    bare = _golden(_bare())
    for item in bare.model_dump(mode="json")["items"]:
        assert "question_paraphrases" not in item
    listed_empty = _golden([{**i, "question_paraphrases": []} for i in _bare()])
    assert listed_empty.content_hash() == bare.content_hash()
    # A paraphrase is content: the hash (the embedding cache's key) changes with it.
    assert _golden().content_hash() != bare.content_hash()
    one_more = [dict(i) for i in ITEMS]
    one_more[2] = {**one_more[2], "question_paraphrases": ["results out yet?"]}
    assert _golden(one_more).content_hash() != _golden().content_hash()


def test_the_index_cache_is_rebuilt_when_a_paraphrase_is_added(tmp_path: Path) -> None:
    e = HashingEmbedder()
    bare = GoldenIndex(_golden(_bare()), e, cache_dir=tmp_path)
    assert not bare.cache_hit and bare.matrix.shape[0] == 3
    index = GoldenIndex(_golden(), e, cache_dir=tmp_path)
    assert not index.cache_hit and index.matrix.shape[0] == 6  # 3 questions + 3 paraphrases
    again = GoldenIndex(_golden(), e, cache_dir=tmp_path)
    assert again.cache_hit
    np.testing.assert_array_equal(again.matrix, index.matrix)
    np.testing.assert_array_equal(index.matrix, e.embed(index.row_texts()))


# --------------------------------------------------------------------------- retrieval


def test_an_item_scores_the_best_of_its_phrasings() -> None:
    e = HashingEmbedder()
    index = GoldenIndex(_golden(), e)
    q = "Ethan is dyslexic, can he get extra time in his flute exam?"
    (r,) = index.retrieve(index.embed_questions([q]))
    assert r is not None and r.item.id == "g_access"
    v = index.embed_questions([q])[0]
    own = e.embed(index.prepare(list(r.item.phrasings))) @ v
    assert r.similarity == pytest.approx(float(own.max()), abs=1e-6)
    assert int(np.argmax(own)) == 1  # the dyslexia paraphrase, not the template question
    assert r.phrasings[0] == 1
    # Without its paraphrases the item scores its question only: lower, and not first.
    (plain,) = GoldenIndex(_golden(_bare()), e).retrieve(index.embed_questions([q]))
    assert plain is not None
    assert dict(plain.candidates)["g_access"] == pytest.approx(float(own[0]), abs=1e-6)
    assert plain.item.id != "g_access"


def test_top_k_and_margin_are_over_distinct_items() -> None:
    """Asked with words of both of an item's phrasings, the item's two rows are the two
    nearest: s2 and the margin must still come from another item."""
    index = GoldenIndex(_golden(), HashingEmbedder())
    q = "How do I request access arrangements? Can my son get extra time in his exam?"
    (r,) = index.retrieve(index.embed_questions([q]))
    assert r is not None and r.item.id == "g_access"
    ids = [c for c, _ in r.candidates]
    assert len(ids) == len(set(ids)) == 3
    row_sims = index.embed_questions([q])[0] @ index.matrix.T
    assert np.sort(row_sims)[-2] > np.max(row_sims[3:])  # rows 0-2 are g_access's
    assert r.second_similarity == pytest.approx(r.candidates[1][1], abs=1e-6)
    assert r.candidates[1][0] != "g_access"
    assert r.margin is not None and r.margin > 0.05


def test_phrasings_group_rows_and_pad_with_the_items_own() -> None:
    p = Phrasings.of([3, 1, 2])
    assert p.rows == 6 and p.width == 3
    assert p.starts.tolist() == [0, 3, 4]
    assert p.row_items().tolist() == [0, 0, 0, 1, 2, 2]
    assert p.padded().tolist() == [[0, 1, 2], [3, 3, 3], [4, 5, 5]]
    sims = np.array([[0.1, 0.9, 0.2, 0.5, 0.3, 0.4]], np.float32)
    assert p.item_similarities(sims)[0].tolist() == pytest.approx([0.9, 0.5, 0.4])


def _old_retrieve(index: GoldenIndex, vectors: Matrix) -> list[tuple[Any, ...]]:
    """The retrieval before paraphrases existed, verbatim: one row per item."""
    sims = vectors @ index.matrix.T
    n = sims.shape[1]
    k = min(TOP_K, n)
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k] if k < n else None
    if top is None:
        top = np.broadcast_to(np.arange(n), sims.shape)
    vals = np.take_along_axis(sims, top, axis=1)
    order = np.argsort(-vals, axis=1, kind="stable")
    ids = np.take_along_axis(top, order, axis=1)
    vals = np.clip(np.take_along_axis(vals, order, axis=1), -1.0, 1.0)
    items = index.golden.items
    out = []
    for row_ids, row in zip(ids.tolist(), vals.tolist(), strict=True):
        cands = tuple((items[i].id, round(s, 6)) for i, s in zip(row_ids, row, strict=True))
        out.append((items[row_ids[0]].id, row[0], row[1] if n > 1 else None, cands))
    return out


@pytest.mark.parametrize("search", ["exact", "hnsw"])
def test_a_set_without_paraphrases_retrieves_exactly_as_before(
    golden: GoldenSet, search: str, tmp_path: Path
) -> None:
    if search == "hnsw":
        pytest.importorskip("faiss")
    from monitor.data import DEFAULT_SAMPLES

    questions = [
        json.loads(line)["question"]
        for line in DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines()[:60]
        if line.strip()
    ]
    index = GoldenIndex(golden, HashingEmbedder(), search=search, cache_dir=tmp_path)
    assert index.phrasings is None and index.matrix.shape[0] == len(golden.items)
    assert index.search is not None and index.search.phrasings is None
    vectors = index.embed_questions(questions)
    got = index.retrieve(vectors)
    expected = _old_retrieve(index, vectors)
    if search == "hnsw":  # the hnsw path of old: the graph's rows scored exactly
        ids, sims = HnswSearch(index.matrix).top_k(vectors, TOP_K)
        expected = [
            (
                golden.items[r[0]].id,
                v[0],
                v[1],
                tuple((golden.items[i].id, round(s, 6)) for i, s in zip(r, v, strict=True)),
            )
            for r, v in zip(ids.tolist(), np.clip(sims, -1, 1).tolist(), strict=True)
        ]
    for r, (ref, s1, s2, cands) in zip(got, expected, strict=True):
        assert r is not None
        assert (r.item.id, r.similarity, r.second_similarity, r.candidates) == (
            ref,
            s1,
            s2,
            cands,
        )
        assert r.phrasings == ()
    # The judgment's candidates carry no phrasing either.
    decided = FixedGate().decide(got[0]).model_dump(mode="json")
    assert all(set(c) == {"reference_id", "similarity"} for c in decided["candidates"])


def test_the_gate_records_which_phrasing_matched() -> None:
    index = GoldenIndex(_golden(), HashingEmbedder())
    (r,) = index.retrieve(index.embed_questions(["we can't make the exam, how do we drop out?"]))
    decision = FixedGate(tau=-1).decide(r)
    assert decision.reference_id == "g_withdraw"
    by_id = {c.reference_id: c for c in decision.candidates}
    assert by_id["g_withdraw"].phrasing == 1
    assert by_id["g_results"].phrasing is None  # an item without paraphrases
    dumped = {c["reference_id"]: c for c in decision.model_dump(mode="json")["candidates"]}
    assert dumped["g_withdraw"]["phrasing"] == 1 and "phrasing" not in dumped["g_results"]


def _grouped(n_items: int, seed: int = 5, dim: int = 48) -> tuple[Matrix, Phrasings, Matrix]:
    """Unit rows: ``n_items`` items of 1 to 4 phrasings each around its own centre,
    and 150 queries near random items."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, 5, n_items).tolist()
    centres = rng.normal(size=(n_items, dim))
    rows = np.repeat(centres, counts, axis=0) + rng.normal(0, 0.6, (sum(counts), dim))
    queries = centres[rng.integers(0, n_items, 150)] + rng.normal(0, 0.6, (150, dim))
    unit = [
        (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32) for m in (rows, queries)
    ]
    return unit[0], Phrasings.of(counts), unit[1]


def test_exact_search_ranks_items_by_their_best_phrasing() -> None:
    rows, phrasings, queries = _grouped(40)
    ids, sims = ExactSearch(rows, phrasings).top_k(queries, 5)
    full = queries @ rows.T
    items = phrasings.row_items()
    best = np.stack([full[:, items == i].max(axis=1) for i in range(40)], axis=1)
    np.testing.assert_allclose(sims, np.sort(best, axis=1)[:, ::-1][:, :5], atol=1e-6)
    np.testing.assert_allclose(np.take_along_axis(best, ids, axis=1), sims, atol=1e-6)
    assert all(len(set(r)) == 5 for r in ids.tolist())


def test_hnsw_search_over_phrasings_agrees_with_the_exact_one(tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    rows, phrasings, queries = _grouped(400)
    exact_ids, exact_sims = ExactSearch(rows, phrasings).top_k(queries, 5)
    hnsw = HnswSearch(rows, phrasings=phrasings, path=tmp_path / "g.faiss")
    ids, sims = hnsw.top_k(queries, 5)
    assert all(len(set(r)) == 5 for r in ids.tolist())
    assert float(np.mean(ids[:, 0] == exact_ids[:, 0])) >= 0.95
    # Whatever the graph proposes, an item's similarity is the best of its phrasings.
    best = ExactSearch(rows, phrasings).similarities(queries)
    np.testing.assert_allclose(np.take_along_axis(best, ids, axis=1), sims, atol=1e-6)
    assert (np.diff(sims, axis=1) <= 0).all()
    assert (sims[:, 0] <= exact_sims[:, 0] + 1e-6).all()


def test_hnsw_rows_the_graph_cannot_fill_are_searched_exactly() -> None:
    pytest.importorskip("faiss")
    rows, phrasings, queries = _grouped(30)
    hnsw = HnswSearch(rows, phrasings=phrasings)

    class _Empty:  # a graph that finds nothing: every query falls back
        def search(self, x: Matrix, k: int) -> tuple[Matrix, np.ndarray]:
            return np.zeros((len(x), k), np.float32), -np.ones((len(x), k), np.int64)

    hnsw._index = _Empty()
    ids, sims = hnsw.top_k(queries, 5)
    exact = ExactSearch(rows, phrasings).top_k(queries, 5)
    np.testing.assert_array_equal(ids, exact[0])
    np.testing.assert_array_equal(sims, exact[1])


def test_both_searches_retrieve_the_same_items_from_a_paraphrased_set(tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    qs = [
        "Ethan is dyslexic, can he get extra time in his flute exam?",
        "we can't make the exam, how do we drop out?",
        "When will I get my results?",
    ]
    out = []
    for search in ("exact", "hnsw"):
        index = GoldenIndex(_golden(), HashingEmbedder(), search=search, cache_dir=tmp_path)
        out.append(index.retrieve(index.embed_questions(qs)))
    exact, hnsw = out
    for a, b in zip(exact, hnsw, strict=True):
        assert a is not None and b is not None
        assert [c for c, _ in a.candidates] == [c for c, _ in b.candidates]
        assert [s for _, s in a.candidates] == pytest.approx([s for _, s in b.candidates])
        assert a.phrasings == b.phrasings
    assert [r.item.id for r in exact if r] == ["g_access", "g_withdraw", "g_results"]


# ---------------------------------------------------------------- readers of golden items


def test_calibration_features_take_the_best_phrasing_and_another_items_margin() -> None:
    index = GoldenIndex(_golden(), HashingEmbedder())
    q = "How do I request access arrangements? Can my son get extra time in his exam?"
    rows = [
        (1, LabelRow(question=q, reference_id="g_access", appropriate=True)),
        (2, LabelRow(question=q, appropriate=True)),
        (3, LabelRow(question=q, reference_id="g_results", appropriate=False)),
    ]
    given, top1, other = features(rows, index)
    (r,) = index.retrieve(index.embed_questions([q]))
    assert r is not None
    assert given.similarity == pytest.approx(r.similarity, abs=1e-6)
    assert given.margin == pytest.approx(r.margin, abs=1e-6)
    assert (top1.similarity, top1.margin) == (given.similarity, given.margin)
    assert other.margin is not None and other.margin < 0
    assert other.similarity == pytest.approx(dict(r.candidates)["g_results"], abs=1e-6)


def test_validate_golden_notes_a_small_set_without_paraphrases() -> None:
    assert set_notes(_golden()) == [
        "1 of 3 items without question_paraphrases ('g_results'): a question worded "
        "unlike an item's may score low or match another item; add 2-4 phrasings as "
        "your users ask"
    ]
    everyone = [
        {**i, "question_paraphrases": i.get("question_paraphrases", ["out yet?"])} for i in ITEMS
    ]
    assert set_notes(_golden(everyone)) == []
    big = GoldenSet(
        version="1",
        items=tuple(
            GoldenItem(id=f"i{k}", intent="x", agent="a", question=f"q {k}?", answer="A.")
            for k in range(51)
        ),
    )
    assert set_notes(big) == []
