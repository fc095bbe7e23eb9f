from __future__ import annotations

import re
from pathlib import Path

import pytest

from monitor.bench.generate import (
    GenerationError,
    check_instance,
    generate,
    negation_candidates,
    read_instances,
    repeated_identifier,
)
from monitor.bench.seeds import PLACEHOLDER, load_seeds
from monitor.data import BENCH_DIR
from monitor.errors import CargoError, GoldenSetError
from monitor.golden import item_problems

REPO = Path(__file__).resolve().parents[4]
BENCH = BENCH_DIR
SHIPPED = BENCH / "instances.jsonl"


@pytest.fixture(scope="module")
def seeds():  # type: ignore[no-untyped-def]
    return load_seeds(BENCH)


def test_public_seeds_cover_the_paper_intents(seeds) -> None:  # type: ignore[no-untyped-def]
    assert len(seeds) >= 10
    intents = {s.intent for s in seeds}
    for needed in (
        "case_status",
        "workorder_status",
        "asset_warranty",
        "case_priority",
        "asset_entitlement",
        "workorder_parts",
        "task_status",
    ):
        assert needed in intents
    procedures = [s for s in seeds if s.steps and s.policy_alternatives]
    assert len(procedures) >= 3
    assert any(s.negations for s in seeds)
    for s in seeds:
        assert len(s.paraphrases) >= 2, s.id
        assert not item_problems(s.golden_item()), s.id


def test_every_template_renders_without_defects(seeds) -> None:  # type: ignore[no-untyped-def]
    gen = generate(seeds, draws=3, gen_seed=1)
    for inst in gen.instances:
        for text in (inst.question, inst.answer):
            assert not PLACEHOLDER.search(text), inst.id
            assert repeated_identifier(text) is None, inst.id


def test_repeated_identifier_detector() -> None:
    assert repeated_identifier("work order 7012345678 7012345678 has part X") == "7012345678"
    assert repeated_identifier("Case 123456 is open. Case 654321 too.") is None


def test_generation_is_byte_identical_and_matches_the_shipped_file(seeds) -> None:  # type: ignore[no-untyped-def]
    a = generate(seeds, draws=5, gen_seed=2027).to_jsonl()
    b = generate(seeds, draws=5, gen_seed=2027).to_jsonl()
    assert a == b
    assert a == SHIPPED.read_text(encoding="utf-8")
    assert generate(seeds, draws=5, gen_seed=2028).to_jsonl() != a


def test_families_hold_their_construction(seeds) -> None:  # type: ignore[no-untyped-def]
    header, insts = read_instances(SHIPPED.read_text(encoding="utf-8"))
    golden = {g.id: g for g in header.golden.items}
    by_id = {i.id: i for i in insts}
    fams = {i.family for i in insts}
    assert fams == {"P1", "P2", "P3", "P4", "P5", "P6"}
    seed_by_id = {s.id: s for s in seeds}
    for i in insts:
        seed = seed_by_id[i.seed]
        if seed.parameters:
            assert i.context, i.id
        assert set(i.context) <= set(seed.observed_fields)
        if i.family == "P1":
            assert i.target_penalize is False and i.target_gate_accept is True
            for gval in seed.golden.values():
                if len(gval) >= 3 and gval not in i.context.values():
                    assert not re.search(rf"(?<!\w){re.escape(gval)}(?!\w)", i.answer), i.id
        if i.family == "P2":
            p1 = by_id[i.id.replace("-P2-", "-P1-")]
            assert i.detail["field"] in i.context
            assert i.detail["stated"] in i.answer and i.detail["true"] not in i.answer
            assert i.context == p1.context and i.answer != p1.answer
        if i.family == "P3":
            assert i.subtype in ("unobserved", "fabricated")
            assert len(i.detail["added"]) == 2
            assert not set(i.detail["added"]) & set(i.context)
            assert not set(i.detail["added"]) & set(PLACEHOLDER.findall(seed.answer))
        if i.family == "P4":
            p1 = by_id[
                i.id.rsplit("-", 1)[0].replace(f"-P4-{i.subtype}", "-P1") + "-" + str(i.draw)
            ]
            assert i.subtype in ("delete_step", "negate", "swap_policy")
            assert i.answer != p1.answer and i.target_penalize is True
        if i.family == "P5":
            assert i.question_seed != i.seed and i.target_gate_accept is False
            assert golden[i.question_seed].intent != golden[i.seed].intent
        if i.family == "P6":
            assert i.target_penalize is False
            for f, v in i.context.items():
                if f in i.detail["fields"]:
                    assert v in i.answer


def test_negation_rules_are_general_english() -> None:
    assert "Parts are not covered by the warranty." in negation_candidates(
        "Parts are covered by the warranty."
    )
    assert "You must not keep the case open." in negation_candidates("You must keep the case open.")
    assert "Customers cannot reopen a case." in negation_candidates("Customers can reopen a case.")
    assert negation_candidates("The sky is blue.") == []


def _write_seed(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(body, encoding="utf-8")
    return p


def test_seed_validation_reports_file_and_seed(tmp_path: Path) -> None:
    p = _write_seed(
        tmp_path,
        """
seeds:
  - id: bad
    intent: x
    agent: y
    question: "Where is {parcelId}?"
    answer: "Parcel {parcelId} is {where}. Created: {createdDate}."
    parameters:
      parcelId: {type: digits, length: 8}
    golden: {parcelId: "12345678"}
    observed_fields: [parcelId, nope]
    extra_fields:
      parcelId: {type: date}
    steps: ["Not in the answer."]
    negations: [{from: "absent", to: "x"}]
""",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_seeds(p)
    text = "\n".join(exc.value.problems)
    assert f"{p}: seed 'bad': answer: placeholder {{where}} is not a parameter" in text
    assert "observed_fields: 'nope' is not a parameter" in text
    assert "extra_fields: 'parcelId' is a field of the answer template" in text
    assert "steps.0: not a sentence of the answer template" in text
    assert "negations.0: 'absent' does not occur in the answer" in text


def test_a_misspelt_seed_key_is_an_error_not_a_field_left_out(tmp_path: Path) -> None:
    # "paraphrase:" for "paraphrases:" would quietly drop P6, P2p and P4p.
    p = _write_seed(
        tmp_path,
        """
seeds:
  - id: typo
    intent: x
    agent: y
    question: "Where is parcel {parcelId}?"
    answer: "Parcel {parcelId} is at the depot."
    parameters:
      parcelId: {type: digits, length: 8}
    golden: {parcelId: "12345678"}
    observed_fields: [parcelId]
    paraphrase: ["Your parcel {parcelId} waits at the depot."]
""",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_seeds(p)
    assert exc.value.problems == [
        f"{p}: seed 'typo': paraphrase: Extra inputs are not permitted; did you mean "
        "'paraphrases' or 'question_paraphrases'?"
    ]
    assert str(exc.value).startswith("the seed set is invalid:")


def test_a_misspelt_parameter_setting_names_the_keys_it_is_nearest_to(tmp_path: Path) -> None:
    p = _write_seed(
        tmp_path,
        """
seeds:
  - id: typo
    intent: x
    agent: y
    question: "Where is parcel {parcelId}?"
    answer: "Parcel {parcelId} is at the depot."
    parameters:
      parcelId: {type: digits, lenght: 8}
    golden: {parcelId: "12345678"}
    observed_fields: [parcelId]
    extra_fields: {createdDate: {type: date, lable: "Created"}}
    negations: [{from: "at the depot", too: "not at the depot"}]
    zzz: 1
""",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_seeds(p)
    text = "\n".join(exc.value.problems)
    assert (
        "parameters.parcelId.lenght: Extra inputs are not permitted; did you mean 'length'?" in text
    )
    assert "negations.0.too: Extra inputs are not permitted; did you mean 'to'?" in text
    assert "createdDate.lable: Extra inputs are not permitted; did you mean 'label'?" in text
    assert "zzz: Extra inputs are not permitted\n" in text + "\n"  # nothing near it


def test_failing_consistency_checks_fail_the_run_or_are_dropped(tmp_path: Path) -> None:
    # An answer that repeats its identifier (the paper's g_workorder2 defect).
    p = _write_seed(
        tmp_path,
        """
seeds:
  - id: dup
    intent: x
    agent: y
    question: "Parts on work order {wo}?"
    answer: "Work order {wo} {wo} has one part."
    parameters:
      wo: {type: digits, length: 8, label: work order}
    golden: {wo: "12345678"}
    observed_fields: [wo]
""",
    )
    seeds = load_seeds(p)
    with pytest.raises(GenerationError, match="repeats identifier"):
        generate(seeds, draws=2)
    out = generate(seeds, draws=2, drop_invalid=True)
    assert out.instances == [] and sum(out.header.dropped.values()) > 0


def test_check_instance_catches_a_golden_leak(seeds) -> None:  # type: ignore[no-untyped-def]
    gen = generate(seeds, draws=1)
    p1 = next(i for i in gen.instances if i.family == "P1" and i.seed == "g_case")
    seed = next(s for s in seeds if s.id == "g_case")
    leaked = p1.model_copy(update={"answer": p1.answer + " See case 215474133."})
    live = dict(p1.context)
    assert any("golden value" in p for p in check_instance(leaked, seed, p1.answer, live))


def test_a_bad_instances_file_is_one_line_naming_the_line_and_field() -> None:
    gen = generate(load_seeds(BENCH)[:1], draws=1, gen_seed=1)
    header = gen.to_jsonl().splitlines()[0]
    with pytest.raises(CargoError) as exc:
        read_instances(header + '\n{"id": 3}\n', source="x.jsonl")
    text = str(exc.value)
    assert "\n" not in text and "pydantic.dev" not in text
    assert text.startswith("x.jsonl:2: bad instance: id: Input should be a valid string (and ")
    with pytest.raises(CargoError) as exc:
        read_instances('{"id": "a"}\n', source="x.jsonl")
    assert str(exc.value).startswith("x.jsonl:1: not a cargo-bench/1 header")
    assert "\n" not in str(exc.value)
    # Blank lines are skipped, but the error names the line's number in the file.
    with pytest.raises(CargoError) as exc:
        read_instances(header + '\n\n\n{"id": 3}\n', source="x.jsonl")
    assert str(exc.value).startswith("x.jsonl:4: bad instance: ")


def test_a_seed_value_written_as_a_number_is_its_text(tmp_path: Path) -> None:
    """``golden: {parcelId: 01234567}`` is the parcel 01234567, not refused as a number
    nor read as an octal one; ``length: 8`` is still the number 8."""
    p = _write_seed(
        tmp_path,
        """
seeds:
  - id: numbers
    intent: x
    agent: y
    question: "Where is parcel {parcelId}?"
    answer: "Parcel {parcelId} is at the depot."
    parameters:
      parcelId: {type: digits, length: 8}
    golden: {parcelId: 01234567}
    observed_fields: [parcelId]
""",
    )
    [seed] = load_seeds(p)
    assert seed.golden == {"parcelId": "01234567"}
    assert seed.parameters["parcelId"].length == 8
