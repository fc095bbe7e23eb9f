"""The citation contract, following the cases of the citation-contract seed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry

from monitor.citations import CitationChecker, content_hash, parse_markers, quotes_in
from monitor.embeddings import HashingEmbedder
from monitor.errors import InvalidTraceError
from monitor.evaluator import Evaluator
from monitor.gate import FixedGate
from monitor.judges.structural import StructuralJudge
from monitor.metrics import MonitorMetrics
from monitor.retrieval import GoldenIndex
from monitor.schemas import CitationReport, GoldenSet, Trace
from monitor.traces import parse_trace

REFUND = "Standard purchases may be returned within 30 days. Refunds go to the original card."
REFUND_2024 = "Standard purchases may be returned within 14 days."
DAMAGED = "Damaged items must be reported within 48 hours."
SOURCES = [
    {
        "source_id": "refund-2025",
        "document_version": "2025-06-01",
        "chunk_id": "c0",
        "rank": 0,
        "text": REFUND,
    },
    {
        "source_id": "damaged-items",
        "document_version": "2025-04-12",
        "chunk_id": "c3",
        "rank": 1,
        "text": DAMAGED,
    },
]
CHECKER = CitationChecker()


def check(citations: dict[str, Any], answer: str = "An answer.") -> CitationReport:
    report = CHECKER.check(Trace(trace_id="t", question="q", answer=answer, citations=citations))
    assert report is not None
    return report


def claim(cid: str, text: str, *ids: str, required: bool = True) -> dict[str, Any]:
    return {"claim_id": cid, "text": text, "citation_ids": list(ids), "requires_citation": required}


def cats(r: CitationReport) -> list[tuple[str, str | None, tuple[str, ...]]]:
    return [(f.category, f.claim_id, f.source_ids) for f in r.findings]


def by_claim(r: CitationReport, cid: str) -> Any:
    return next(c for c in r.claims if c.claim_id == cid)


def test_unknown_marker_and_uncited_claim_are_reported_separately() -> None:
    r = check(
        {
            "sources": SOURCES,
            "claims": [
                claim("c1", "Standard purchases have a 30-day return window.", "refund-2025"),
                claim("c2", DAMAGED, "damaged-2024"),
                claim("c3", "Sale items use a separate eligibility rule."),
                claim("c4", "Happy to help with anything else.", required=False),
            ],
        }
    )
    assert cats(r) == [("unknown_source", "c2", ("damaged-2024",)), ("uncited_claim", "c3", ())]
    assert r.integrity == "fail"
    # Support never ran for the unknown marker: nothing was scored, nothing is 0.
    assert by_claim(r, "c2").support == () and by_claim(r, "c2").supported is None
    assert by_claim(r, "c1").supported is True
    # c4 is exempt: not in the coverage denominator, no finding.
    assert (r.requiring, r.covered) == (3, 1) and r.coverage == pytest.approx(1 / 3)
    assert r.precision == 1.0  # the one citation that could be checked holds


def test_duplicate_manifest_ids_block_support() -> None:
    dup = [*SOURCES, {"source_id": "refund-2025", "text": REFUND_2024}]
    r = check({"sources": dup, "claims": [claim("c1", "Returns within 30 days.", "refund-2025")]})
    assert cats(r) == [("duplicate_source", None, ("refund-2025",))]
    s = by_claim(r, "c1").support[0]
    assert s.status == "not_run" and "more than once" in s.reason
    assert r.citations_checked == 0 and r.precision is None and r.coverage == 0.0


def test_conversational_claim_is_exempt() -> None:
    r = check(
        {
            "sources": SOURCES,
            "claims": [
                claim("c1", "Thanks for reaching out!", required=False),
                claim("c2", "Standard purchases may be returned within 30 days.", "refund-2025"),
            ],
        }
    )
    assert r.findings == () and r.requiring == 1 and r.coverage == 1.0


def test_renderer_resort_changes_a_positional_marker() -> None:
    sources = [SOURCES[0], {"source_id": "refund-2024", "text": REFUND_2024}]
    r = check(
        {
            "sources": sources,
            "claims": [claim("c1", "Standard purchases may be returned within 30 days.", "1")],
            "footnotes": {"1": "refund-2025", "2": "refund-2024"},
            "rendered_footnotes": {"1": "refund-2024", "2": "refund-2025"},
        }
    )
    # The generation artifact passes (resolved through the saved map) ...
    assert by_claim(r, "c1").resolved == ("refund-2025",)
    assert by_claim(r, "c1").supported is True
    # ... and the end-to-end rendering assertion fails.
    assert cats(r) == [("render_mismatch", "c1", ("refund-2025", "refund-2024"))]


def test_exception_claim_supported_only_by_another_chunk() -> None:
    r = check({"sources": SOURCES, "claims": [claim("c2", DAMAGED, "refund-2025")]})
    c = by_claim(r, "c2")
    assert r.findings == () and r.integrity == "pass"  # the pointer is valid ...
    assert c.support[0].status == "unsupported"  # ... but its passage does not say it
    assert c.supported is False and c.supported_elsewhere == ("damaged-items",)
    assert r.coverage == 0.0 and r.precision == 0.0  # wrong source, not no source


def test_stale_evaluator_copy_is_a_transport_defect() -> None:
    h = content_hash(REFUND)
    r = check(
        {
            "sources": [{**SOURCES[0], "content_hash": f"sha256:{h}"}, SOURCES[1]],
            "claims": [
                claim("c1", "Standard purchases may be returned within 30 days.", "refund-2025")
            ],
            "stage_hashes": {
                "retrieval": {"refund-2025": h},
                "generation": {"refund-2025": h},
                "evaluation": {"refund-2025": content_hash(REFUND_2024)},
            },
        }
    )
    assert [f.category for f in r.findings] == ["hash_mismatch"]
    assert "evaluation=" in r.findings[0].detail
    s = by_claim(r, "c1").support[0]
    assert s.status == "not_run" and "differs between stages" in s.reason


def test_manifest_text_that_does_not_match_its_own_hash() -> None:
    r = check(
        {
            "sources": [{**SOURCES[0], "content_hash": content_hash(REFUND_2024)}],
            "claims": [claim("c1", "Returns within 30 days.", "refund-2025")],
        }
    )
    assert [f.category for f in r.findings] == ["hash_mismatch"]


def test_paraphrase_has_no_quote_to_align() -> None:
    r = check(
        {
            "sources": SOURCES,
            "claims": [
                claim("c1", "You can return standard purchases within 30 days.", "refund-2025")
            ],
        }
    )
    assert r.quotes == "not_applicable" and by_claim(r, "c1").quotes_status == "not_applicable"
    assert by_claim(r, "c1").supported is True  # support is judged, not assumed from quotes


def test_exact_quotes_are_checked_against_the_cited_passage_only() -> None:
    ok = check(
        {
            "sources": SOURCES,
            "claims": [
                claim(
                    "c1",
                    'The policy says "standard purchases   MAY be returned within 30 days."',
                    "refund-2025",
                )
            ],
        }
    )
    assert ok.quotes == "pass" and ok.findings == ()
    bad = check(
        {
            "sources": SOURCES,
            "claims": [
                claim("c1", 'The policy says "must be reported within 48 hours".', "refund-2025")
            ],
        }
    )
    assert bad.quotes == "fail"
    assert cats(bad) == [("quote_mismatch", "c1", ("refund-2025",))]
    assert quotes_in('a "two words" and "three little words"') == ["three little words"]


def test_footnotes_resolve_only_through_the_saved_map() -> None:
    r = check(
        {
            "sources": SOURCES,
            "footnotes": {"1": "refund-2025"},
            "claims": [claim("c1", "Returns within 30 days.", "1"), claim("c2", DAMAGED, "2")],
        }
    )
    assert cats(r) == [("unresolved_footnote", "c2", ("2",))]
    nomap = check({"sources": SOURCES, "claims": [claim("c1", "Returns within 30 days.", "1")]})
    assert nomap.findings[0].category == "unknown_source"
    assert "positions are never inferred" in nomap.findings[0].detail


def test_prose_markers_with_an_embedder_backed_verifier() -> None:
    from monitor.steps import StepVerifier

    checker = CitationChecker(StepVerifier(HashingEmbedder()))
    answer = (
        "Standard purchases may be returned within 30 days [refund-2025]. "
        "Damaged items must be reported within 48 hours.[damaged-items] Thanks!"
    )
    report = checker.check(
        Trace(trace_id="t", question="q", answer=answer, citations={"sources": SOURCES})
    )
    assert report is not None and report.mode == "markers"
    assert report.findings == () and report.coverage == 1.0 and report.precision == 1.0


# --------------------------------------------------------------------------- marker grammar


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Returns within 30 days [a].", [("Returns within 30 days.", ("a",))]),
        (
            "Returns within 30 days.[a] Next sentence here now.",
            [("Returns within 30 days.", ("a",)), ("Next sentence here now.", ())],
        ),
        (
            "Returns within 30 days. [a][b] Next sentence here now [c].",
            [("Returns within 30 days.", ("a", "b")), ("Next sentence here now.", ("c",))],
        ),
        ("Returns within 30 days [a, b; c].", [("Returns within 30 days.", ("a", "b", "c"))]),
        ("Returns [a] within 30 days [a].", [("Returns within 30 days.", ("a",))]),
        (
            "Returns within 30 days [a]; no receipt needed [b].",
            [("Returns within 30 days; no receipt needed.", ("a", "b"))],
        ),
        (
            r"Use \[brackets] for notes in this form.",
            [("Use [brackets] for notes in this form.", ())],
        ),
        (
            "Open [the portal](https://x.example/p) to start a return.",
            [("Open [the portal](https://x.example/p) to start a return.", ())],
        ),
        (
            "Set `items[0]` to the first item in the list [doc-1].",
            [("Set `items[0]` to the first item in the list.", ("doc-1",))],
        ),
        (
            "Run this:\n```\nx = a[1]\ny = b[2]\n```\nThat is all for this step [a].",
            [("Run this:", ()), ("That is all for this step.", ("a",))],
        ),
        (
            "This is [citation needed] in the text here.",
            [("This is [citation needed] in the text here.", ())],
        ),
    ],
)
def test_marker_grammar(answer: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    got = [(c.text, c.citation_ids) for c in parse_markers(answer)]
    assert got == expected


def test_prose_citation_policy() -> None:
    claims = {
        c.text: c.requires_citation
        for c in parse_markers(
            "Hope this helps! Is there anything else? Returns take five business days. Sure. "
            "Ok [a]."
        )
    }
    assert claims == {
        "Hope this helps!": False,
        "Is there anything else?": False,
        "Returns take five business days.": True,
        "Sure.": False,
        "Ok.": True,
    }


@given(st.text(alphabet=st.sampled_from(list("ab [],;.`\\!?()\n 1-")), max_size=120))
def test_marker_parser_is_total_and_only_reports_ids_it_saw(answer: str) -> None:
    claims = parse_markers(answer)
    assert len({c.claim_id for c in claims}) == len(claims)
    for c in claims:
        for i in c.citation_ids:
            assert f"{i}" in answer


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("citations", "field"),
    [
        ({"sources": [{"text": "x"}]}, "citations.sources.0.source_id"),
        ({"sources": [{"source_id": "a", "text": "x", "rank": -1}]}, "citations.sources.0.rank"),
        ({"sources": [{"source_id": "a"}]}, "citations.sources.0"),
        (
            {"sources": [{"source_id": "a", "text": "x", "sourceVersion": "1"}]},
            "citations.sources.0.sourceVersion",
        ),
        (
            {
                "sources": [],
                "claims": [{"claim_id": "c", "text": "t"}, {"claim_id": "c", "text": "u"}],
            },
            "citations",
        ),
        (
            {"sources": [], "claims": [{"claim_id": "c", "text": "t", "citation_ids": "a"}]},
            "citations.claims.0.citation_ids",
        ),
        (
            {"sources": [], "stage_hashes": {"indexing": {"a": "x"}}},
            "citations.stage_hashes.indexing",
        ),
        ({"claims": []}, "citations.sources"),
        ("refund-2025", "citations"),
    ],
)
def test_malformed_manifests_are_invalid_with_the_field_named(citations: Any, field: str) -> None:
    payload = json.dumps({"trace_id": "t", "question": "q", "answer": "a", "citations": citations})
    with pytest.raises(InvalidTraceError) as info:
        parse_trace(payload)
    assert info.value.field == field


# --------------------------------------------------------------------------- evaluator, metrics


async def test_every_valid_trace_gets_its_citation_report(golden: GoldenSet) -> None:
    registry = CollectorRegistry()
    metrics = MonitorMetrics(registry, golden, gate_kind="fixed", judge_name="structural")
    index = GoldenIndex(golden, HashingEmbedder(), cache_dir=None)
    ev = Evaluator(index, FixedGate(0.5), StructuralJudge())
    item = golden.items[0]
    bundle = {
        "sources": SOURCES,
        "claims": [claim("c1", DAMAGED, "damaged-2024"), claim("c2", "Sale items differ.")],
    }
    accepted = Trace(trace_id="a", question=item.question, answer=item.answer, citations=bundle)
    off_topic = Trace(trace_id="b", question="zzzz qqqq", answer="x", citations=bundle)
    plain = Trace(trace_id="c", question=item.question, answer=item.answer)
    out = await ev.evaluate_batch([accepted, off_topic, plain])
    assert [j.status for j in out] == ["evaluated", "abstained", "evaluated"]
    for j in out[:2]:
        assert j.citations is not None
        assert [f.category for f in j.citations.findings] == ["unknown_source", "uncited_claim"]
    assert out[2].citations is None
    for j in out:
        metrics.observe(j)
    get = registry.get_sample_value
    assert get("cargo_citation_findings_total", {"category": "unknown_source"}) == 2
    assert get("cargo_citation_findings_total", {"category": "uncited_claim"}) == 2
    assert get("cargo_citation_findings_total", {"category": "hash_mismatch"}) == 0
    assert get("cargo_citation_claims_total", {"covered": "false"}) == 4
    assert (
        get("cargo_citation_traces_total", {"integrity": "fail", "quotes": "not_applicable"}) == 2
    )


# --------------------------------------------------------------------------- LLM support checks


def _support_checker(url: str, **kw: Any) -> CitationChecker:
    from pydantic import SecretStr

    from monitor.llm import LLMClient, LLMConfig

    cfg = LLMConfig(
        base_url=url,
        model="m",
        api_key=SecretStr("k"),
        max_retries=0,
        backoff_base_s=0.01,
        price_input_per_1k=1.0,
        **kw,
    )
    return CitationChecker(support_llm=LLMClient(cfg))


async def test_llm_support_checks_only_citations_that_passed_integrity() -> None:
    from tests.support.chat_server import Reply, scripted_server

    bundle = {
        "sources": SOURCES,
        "claims": [
            # A paraphrase the lexical verifier cannot see ...
            claim("c1", "Goods bought normally can come back for a month.", "refund-2025"),
            # ... and a citation that never reaches the LLM (integrity failed first).
            claim("c2", DAMAGED, "damaged-2024"),
        ],
    }
    trace = Trace(trace_id="t", question="q", answer="a", citations=bundle)
    assert CHECKER.check(trace).claims[0].supported is False  # type: ignore[union-attr]
    reply = json.dumps({"status": "supported", "rationale": "30 days is a month"})
    with scripted_server(Reply(content=reply, usage=(100, 10))) as server:
        checker = _support_checker(server.url)
        report = await checker.check_async(trace)
        await checker.support_llm.aclose()  # type: ignore[union-attr]
    assert report is not None and len(server.requests) == 1
    sent = server.requests[0].body["messages"]
    assert "CITED PASSAGE" in sent[1]["content"] and REFUND in sent[1]["content"]
    assert DAMAGED not in sent[1]["content"]  # only the cited passage, never the whole set
    s = report.claims[0].support[0]
    assert (s.status, s.checked_by) == ("supported", "llm")
    assert "structural: unsupported" in s.reason
    assert report.coverage == 0.5 and report.precision == 1.0
    assert report.llm is not None and report.llm.calls == 1 and report.llm.usage.input_tokens == 100
    assert report.llm.cost_usd == pytest.approx(0.1)


async def test_llm_support_failure_keeps_the_structural_verdict() -> None:
    from tests.support.chat_server import Reply, scripted_server

    bundle = {
        "sources": SOURCES,
        "claims": [
            claim("c1", "Standard purchases may be returned within 30 days.", "refund-2025")
        ],
    }
    trace = Trace(trace_id="t", question="q", answer="a", citations=bundle)
    with scripted_server(Reply(content="I think so.")) as server:
        checker = _support_checker(server.url)
        report = await checker.check_async(trace)
        await checker.support_llm.aclose()  # type: ignore[union-attr]
    assert report is not None
    s = report.claims[0].support[0]
    assert (s.status, s.checked_by) == ("supported", "structural")
    assert "LLM check failed (unparseable)" in s.reason
    assert report.llm is not None and report.llm.failed == {"unparseable": 1}


async def test_async_support_checks_embed_off_the_loop_and_match_the_sync_report() -> None:
    # Claims worded away from their passages need the embedder. In check_async every
    # support check the report can ask for (including "supported elsewhere") runs
    # first, their embeddings in one model call in a worker thread; the report is
    # the one check() builds.
    import threading

    from monitor.steps import StepVerifier

    class Counting(HashingEmbedder):
        def __init__(self) -> None:
            super().__init__()
            self.threads: list[int] = []

        def embed(self, texts):  # type: ignore[no-untyped-def]
            self.threads.append(threading.get_ident())
            return super().embed(texts)

    trace = Trace(
        trace_id="t",
        question="q",
        answer="An answer.",
        citations={
            "sources": SOURCES,
            "claims": [
                claim(
                    "c1", "Purchases can be sent back for a refund within a month.", "refund-2025"
                ),
                claim(
                    "c2",
                    "Report damage to an item no later than two days after it arrives.",
                    "refund-2025",
                ),
                claim("c3", "Refunds are paid back to the card used originally.", "refund-2025"),
            ],
        },
    )
    expected = CitationChecker(StepVerifier(HashingEmbedder())).check(trace)
    emb = Counting()
    got = await CitationChecker(StepVerifier(emb)).check_async(trace)
    assert got == expected
    assert len(emb.threads) == 1 and emb.threads[0] != threading.get_ident()
