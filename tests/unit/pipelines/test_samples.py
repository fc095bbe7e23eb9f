from __future__ import annotations

from monitor.settings import DEFAULT_GOLDEN, DEFAULT_SAMPLES
from pipelines.samples import generate


def test_bundled_sample_traffic_is_reproducible() -> None:
    committed = DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines()
    assert generate(DEFAULT_GOLDEN, 7) == committed
    assert 200 <= len(committed) <= 600


def test_other_seeds_differ() -> None:
    assert generate(DEFAULT_GOLDEN, 8) != generate(DEFAULT_GOLDEN, 7)


def test_sample_traffic_has_cited_answers_of_every_failure_kind() -> None:
    import json

    from monitor.citations import FINDING_CATEGORIES, CitationChecker
    from monitor.schemas import Trace

    expected = {
        "cited_ok": set(),
        "cited_prose_ok": set(),
        "cited_quote_ok": set(),
        "cited_unknown_source": {"unknown_source", "uncited_claim"},
        "cited_duplicate_source": {"duplicate_source"},
        "cited_uncited_claim": {"uncited_claim"},
        "cited_render_mismatch": {"render_mismatch"},
        "cited_unresolved_footnote": {"unresolved_footnote"},
        "cited_hash_mismatch": {"hash_mismatch"},
        "cited_quote_mismatch": {"quote_mismatch"},
        "cited_wrong_chunk": set(),  # a valid pointer to a passage that does not say it
    }
    checker = CitationChecker()
    seen: dict[str, list[set[str]]] = {}
    wrong_chunk_elsewhere = []
    for line in DEFAULT_SAMPLES.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(data, dict) or "citations" not in data:
            continue
        report = checker.check(Trace.model_validate(data))
        assert report is not None
        kind = data["metadata"]["sample_kind"]
        seen.setdefault(kind, []).append({f.category for f in report.findings})
        if kind == "cited_wrong_chunk":
            c1 = report.claims[0]
            wrong_chunk_elsewhere.append((c1.supported, c1.supported_elsewhere))
        if kind in ("cited_ok", "cited_prose_ok"):
            assert report.coverage == 1.0 and report.precision == 1.0
    assert set(seen) == set(expected)
    for kind, found in seen.items():
        assert all(f == expected[kind] for f in found), (kind, found)
    covered = set().union(*expected.values())
    assert covered == set(FINDING_CATEGORIES)  # every deterministic category occurs
    assert all(s is False and len(e) == 1 for s, e in wrong_chunk_elsewhere)
