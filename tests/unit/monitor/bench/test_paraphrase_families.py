"""P2p / P4p: the P2 and P4 corruptions made on marked paraphrase bases (issue 19 point 3)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from monitor.bench.generate import P4_TYPES, BenchInstance, check_instance, generate
from monitor.bench.seeds import Seed, load_seeds, strip_markup
from monitor.data import BENCH_DIR
from tests.conftest import HELDOUT_SETS

HELDOUT = HELDOUT_SETS[0]

SEED = {
    "id": "clinic_reschedule",
    "intent": "appointment_change",
    "agent": "scheduling",
    "question": "How do I move appointment {apptId}?",
    "answer": (
        "To move appointment {apptId}, open My Visits and choose Reschedule. "
        "You must confirm the new time from the text message we send. "
        "Changes are free up to 24 hours before the visit."
    ),
    "parameters": {"apptId": {"type": "digits", "length": 7, "label": "appointment"}},
    "golden": {"apptId": "4417302"},
    "observed_fields": ["apptId"],
    "steps": [
        "To move appointment {apptId}, open My Visits and choose Reschedule.",
        "You must confirm the new time from the text message we send.",
    ],
    "policy_alternatives": [{"from": "up to 24 hours", "to": "up to 2 hours"}],
    "paraphrases": [
        "[[step:Open My Visits, pick {apptId} and hit Reschedule.]] "
        "[[step:Then reply to our text to confirm; this [[rule:is required|is optional]].]] "
        "There is no charge if you change it [[policy:a day or more|an hour or more]] ahead.",
        "Appointment {apptId} can be moved free of charge [[policy:up to 24 hours]] before. "
        "[[step2:The text we send [[rule:must]] be answered to confirm.]] "
        "[[step1:Use Reschedule under My Visits.]]",
    ],
}


def _seed(**changes: object) -> Seed:
    return Seed.model_validate({**SEED, **changes})


def _new(instances: list[BenchInstance]) -> list[BenchInstance]:
    return [i for i in instances if i.family in ("P2p", "P4p")]


def test_every_marked_paraphrase_gets_every_corruption() -> None:
    seed = _seed()
    assert not seed.problems()
    gen = generate([seed], draws=3, gen_seed=7)
    new = _new(gen.instances)
    by_kind = Counter((i.family, i.subtype, i.detail["template"]) for i in new)
    for b in (0, 1):
        assert by_kind[("P2p", None, b)] == 3
        for t in P4_TYPES:
            assert by_kind[("P4p", t, b)] == 3, (t, b)
    assert all(i.target_penalize is True for i in new)
    assert len({i.id for i in gen.instances}) == len(gen.instances)


def test_every_corruption_changes_its_paraphrase_and_only_there() -> None:
    seed = _seed()
    gen = generate([seed], draws=4, gen_seed=11)
    for inst in _new(gen.instances):
        live = dict(inst.context)
        base = " ".join(seed.render(seed.paraphrases[inst.detail["template"]], live).split())
        assert inst.answer != base, inst.id
        d = inst.detail
        if inst.family == "P2p":
            assert d["stated"] in inst.answer and d["true"] not in inst.answer
            assert inst.context[d["field"]] == d["true"]
        elif inst.subtype == "delete_step":
            assert d["step"] in base and d["step"] not in inst.answer
        else:
            assert d["rewrite"]["from"] in base and d["rewrite"]["to"] in inst.answer
            assert inst.answer == base.replace(d["rewrite"]["from"], d["rewrite"]["to"], 1)


def test_generation_is_deterministic() -> None:
    seeds = load_seeds(HELDOUT)
    a = generate(seeds, draws=2, gen_seed=2027).to_jsonl()
    b = generate(seeds, draws=2, gen_seed=2027).to_jsonl()
    assert a == b
    c = generate(seeds, draws=2, gen_seed=2028).to_jsonl()
    assert a != c


def test_older_families_are_unchanged_by_the_markup() -> None:
    """The same seed with its markup stripped generates exactly the older instances:
    the new families draw from their own stream and come after the others."""
    marked = _seed()
    marked_texts = marked.marked_paraphrases
    plain = _seed(paraphrases=[strip_markup(p) for p in marked_texts])
    assert not plain.marked_paraphrases and plain.paraphrases == marked.paraphrases
    with_new = generate([marked], draws=5, gen_seed=3).instances
    without = generate([plain], draws=5, gen_seed=3).instances
    assert _new(without) == []
    old = [i for i in with_new if i.family not in ("P2p", "P4p")]
    assert [i.model_dump_json() for i in old] == [i.model_dump_json() for i in without]
    # and within each draw the new ones come last
    for d in range(5):
        fams = [i.family for i in with_new if i.draw == d]
        first_new = fams.index("P2p")
        assert all(f in ("P2p", "P4p") for f in fams[first_new:])


def test_seeds_without_markup_yield_none() -> None:
    gen = generate(load_seeds(BENCH_DIR), draws=2, gen_seed=2027)
    assert _new(gen.instances) == []
    assert "P2p" not in gen.header.dropped


@pytest.mark.parametrize(
    "folder", HELDOUT_SETS, ids=[f.name.removesuffix("_seeds") for f in HELDOUT_SETS]
)
def test_heldout_seeds_generate_the_new_families_without_drops(folder: Path) -> None:
    seeds = load_seeds(folder)
    gen = generate(seeds, draws=2, gen_seed=2027)
    assert gen.problems == []
    counts = Counter((i.family, i.subtype) for i in _new(gen.instances))
    bases = sum(len(s.paraphrases) for s in seeds)
    assert counts[("P2p", None)] == 2 * bases
    for t in P4_TYPES:
        assert counts[("P4p", t)] > 0, t


def _one(family: str, subtype: str | None) -> tuple[BenchInstance, Seed, dict[str, str]]:
    seed = _seed()
    gen = generate([seed], draws=1, gen_seed=5)
    inst = next(i for i in gen.instances if i.family == family and i.subtype == subtype)
    return inst, seed, dict(inst.context)


@pytest.mark.parametrize(
    ("family", "subtype", "change", "problem"),
    [
        ("P2p", None, lambda i, base: {"answer": base}, "did not change the paraphrase"),
        (
            "P2p",
            None,
            lambda i, base: {"answer": i.answer + " " + i.detail["true"] + "."},
            "P2p true value still present",
        ),
        (
            "P2p",
            None,
            lambda i, base: {"answer": i.answer.replace(i.detail["stated"], "0000000")},
            "P2p stated value absent",
        ),
        ("P4p", "delete_step", lambda i, base: {"answer": base}, "did not change"),
        (
            "P4p",
            "delete_step",
            lambda i, base: {"answer": i.answer + " " + i.detail["step"]},
            "deleted step is still there",
        ),
        (
            "P4p",
            "swap_policy",
            lambda i, base: {"answer": i.answer.replace(i.detail["rewrite"]["to"], "whenever")},
            "not applied",
        ),
        ("P4p", "negate", lambda i, base: {"detail": {**i.detail, "template": 9}}, "no paraphrase"),
    ],
)
def test_consistency_checks_catch_broken_corruptions(family, subtype, change, problem) -> None:  # type: ignore[no-untyped-def]
    inst, seed, live = _one(family, subtype)
    assert check_instance(inst, seed, "", live) == []
    base = " ".join(seed.render(seed.paraphrases[inst.detail["template"]], live).split())
    broken = inst.model_copy(update=change(inst, base))
    issues = check_instance(broken, seed, "", live)
    assert any(problem in p for p in issues), issues


def test_question_paraphrases_stay_test_questions_not_golden_phrasings() -> None:
    """A seed's ``question_paraphrases`` are P1q's live questions. Copied into the golden
    items the bench builds (which take ``question_paraphrases`` too), every P1q would
    be asked with a phrasing of the index itself and score s* = 1.0."""
    from monitor.bench.runner import retrieve_gate_items
    from monitor.embeddings import HashingEmbedder
    from monitor.retrieval import GoldenIndex

    seeds = load_seeds(HELDOUT)
    assert sum(len(s.question_paraphrases) for s in seeds) >= 10
    gen = generate(seeds, draws=1, gen_seed=2027)
    golden = gen.header.golden
    assert all(i.question_paraphrases == () for i in golden.items)
    asked = [i for i in gen.instances if i.family == "P1q"]
    assert asked
    index = GoldenIndex(golden, HashingEmbedder())
    assert index.phrasings is None and len(index.matrix) == len(golden.items)
    pairs = retrieve_gate_items(index, asked)
    assert len(pairs) == len(asked)
    assert all(g.retrieval is not None and g.retrieval.similarity < 0.999 for g in pairs)
