from __future__ import annotations

from pathlib import Path

import pytest

from monitor.data import DEFAULT_GOLDEN
from monitor.errors import GoldenSetError
from monitor.golden import load_golden
from monitor.schemas import GoldenSet


def test_bundled_golden_set_matches_the_paper_deployment(golden: GoldenSet) -> None:
    assert len(golden.items) >= 30
    policy = [i for i in golden.items if not i.entity_bearing]
    assert len(policy) >= 20
    intents = {i.intent for i in golden.items if i.entity_bearing}
    for needed in (
        "case_status",
        "case_priority",
        "workorder_status",
        "workorder_parts",
        "asset_warranty",
        "asset_entitlement",
        "task_status",
    ):
        assert needed in intents
    for item in golden.items:
        for spec in item.parameters.values():
            assert spec.label, f"{item.id}: every parameter is annotated with a label"


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "g.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_all_problems_are_reported_with_file_and_item(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        """
version: "1"
items:
  - {id: a, intent: i, agent: x, question: "Q?", answer: "Case 1 is Open.",
     parameters: {caseNumber: "999999999"}}
  - {id: a, intent: i, agent: x, question: "Q2?", answer: "A."}
  - {id: b, intent: i, agent: x, question: "  ", answer: "A."}
  - {id: c, intent: i, agent: x, question: "Q?"}
""",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_golden(p)
    problems = exc.value.problems
    text = "\n".join(problems)
    assert f"{p}: item 'a': parameters.caseNumber: value '999999999' occurs" in text
    assert f"{p}: item 'a': duplicate id (2 items)" in text
    assert f"{p}: item 'b': question: empty text" in text
    assert f"{p}: item 'c': answer: Field required" in text


def test_enum_value_must_be_in_vocabulary(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        """
version: "1"
items:
  - id: a
    intent: i
    agent: x
    question: "Q?"
    answer: "It is Lost."
    parameters: {status: {value: Lost, type: enum, values: [Open, Closed]}}
""",
    )
    with pytest.raises(GoldenSetError, match=r"item 'a': parameters\.status"):
        load_golden(p)


@pytest.mark.parametrize(
    ("steps", "ok"),
    [
        ('["We close at five."]', False),  # not in the answer: it was always "covered"
        ('["We open at nine."]', True),
        ('["you must book ahead"]', True),  # a part of a sentence, its own case and stop
        ('["You must book ahead - as places are limited."]', True),  # its own punctuation
        ('["You must book\u200b ahead, as places are limited."]', True),  # zero width
        ('["You must book early"]', False),
        ('["  "]', False),
    ],
)
def test_a_step_is_a_sentence_of_the_answer(tmp_path: Path, steps: str, ok: bool) -> None:
    p = _write(
        tmp_path,
        f"""
version: "1"
items:
  - id: a
    intent: i
    agent: x
    question: "Q?"
    answer: "We open at nine. You must book ahead, as places are limited."
    steps: {steps}
""",
    )
    if ok:
        assert load_golden(p).items[0].steps
    else:
        with pytest.raises(GoldenSetError, match=r"item 'a': .*steps\.0: .* does not occur"):
            load_golden(p)


@pytest.mark.parametrize("text", ["items: []", "version: 1\nitems: 3", "- a\n- b", ": : :"])
def test_structural_errors(tmp_path: Path, text: str) -> None:
    with pytest.raises(GoldenSetError, match=str(tmp_path)):
        load_golden(_write(tmp_path, text))


def test_missing_file() -> None:
    with pytest.raises(GoldenSetError, match="file not found"):
        load_golden("/nonexistent/golden.yaml")


def test_content_hash_changes_with_content(golden: GoldenSet) -> None:
    other = golden.model_copy(update={"version": "other"})
    assert golden.content_hash() != other.content_hash()
    assert golden.content_hash() == load_golden(DEFAULT_GOLDEN).content_hash()


def test_shorthand_parameters_infer_types(tmp_path: Path) -> None:
    gs = load_golden(
        _write(
            tmp_path,
            """
version: "1"
items:
  - {id: a, intent: i, agent: x, question: "Q?", answer: "Tag 9Y0S3VQ ends 2025-07-19.",
     parameters: {serviceTag: 9Y0S3VQ, warrantyEnd: "2025-07-19"}}
""",
        )
    )
    params = gs.items[0].parameters
    assert params["serviceTag"].type == "alnum"
    assert params["warrantyEnd"].type == "date"


def test_a_duplicate_id_is_reported_beside_the_other_problems(tmp_path: Path) -> None:
    # One of the two items with id 'a' is itself invalid: the duplicate was reported
    # only once that item had been fixed.
    p = _write(
        tmp_path,
        """
version: "1"
items:
  - {id: a, intent: i, agent: x, question: "Q?", answer: "Do this.", steps: ["Do that."]}
  - {id: a, intent: i, agent: x, question: "Q2?", answer: "A."}
""",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_golden(p)
    text = "\n".join(exc.value.problems)
    assert f"{p}: item 'a': duplicate id (2 items)" in text
    assert f"{p}: item 'a': steps.0: 'Do that.' does not occur in the answer" in text
    # Without pydantic's wording for a check of the whole item.
    assert "<root>" not in text
    assert "Value error" not in text


def test_a_value_of_another_length_than_declared_is_refused(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        """
version: "1"
items:
  - {id: a, intent: i, agent: x, question: "Is order 1234 ready?", answer: "Order 1234 is ready.",
     parameters: {orderNo: {value: "1234", type: digits, length: 5}}}
  - {id: b, intent: j, agent: x, question: "Is task T-12 done?", answer: "Task T-12 is done.",
     parameters: {taskId: {value: "T-12", type: alnum, length: 4}}}
""",
    )
    with pytest.raises(GoldenSetError) as exc:
        load_golden(p)
    assert exc.value.problems == [
        f"{p}: item 'a': parameters.orderNo: value '1234' has 4 characters, not its length 5"
    ]


def test_numbers_are_read_as_written(tmp_path: Path) -> None:
    """A value, a version or an enum value written as a YAML number is the text it was
    written as (a marina's golden set wrote ``value: 9, type: integer`` and was refused
    with "Input should be a valid string"): not 9 refused, not 0123 read as octal 83,
    not 2026.10 read as 2026.1. Fields that take a number still read one."""
    gs = load_golden(
        _write(
            tmp_path,
            """
version: 2026.10
items:
  - id: a
    intent: i
    agent: x
    question: "Is my 9 m boat on berth 0123 booked?"
    answer: "Your 9 m boat is booked on berth 0123, size 2."
    parameters:
      boatLength: {value: 9, type: integer, label: boat length, min: 0, max: 40.5}
      berth: {value: 0123, type: digits, length: 4}
      size: {value: 2, type: enum, values: [1, 2, 3]}
""",
        )
    )
    assert gs.version == "2026.10"
    params = gs.items[0].parameters
    assert (params["boatLength"].value, params["boatLength"].min, params["boatLength"].max) == (
        "9",
        0.0,
        40.5,
    )
    assert (params["berth"].value, params["berth"].length) == ("0123", 4)
    assert params["size"].values == ("1", "2", "3")


def test_the_formats_page_example_is_a_valid_golden_set(tmp_path: Path) -> None:
    page = (Path(__file__).parents[3] / "docs" / "formats.md").read_text(encoding="utf-8")
    at = page.index("## Golden set")
    block = page[at:].split("```yaml\n", 1)[1].split("```", 1)[0]
    p = tmp_path / "g.yaml"
    p.write_text(block, encoding="utf-8")
    g = load_golden(p)
    assert [len(i.steps) for i in g.items] == [0, 2]
    assert g.items[1].policy_terms


def test_a_policy_term_occurs_in_the_answer_case_aside(tmp_path: Path) -> None:
    item = {
        "id": "a",
        "intent": "a",
        "agent": "a",
        "question": "Who handles it?",
        "answer": "A different adviser reviews the appeal within 10 days.",
    }
    ok = GoldenSet.model_validate(
        {"version": "1", "items": [{**item, "policy_terms": ["a different adviser"]}]}
    )
    assert ok.items[0].policy_terms == ("a different adviser",)
    with pytest.raises(ValueError, match="'another adviser' does not occur in the answer"):
        GoldenSet.model_validate(
            {"version": "1", "items": [{**item, "policy_terms": ["another adviser"]}]}
        )
