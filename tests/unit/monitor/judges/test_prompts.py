"""Prompt conditions and rubrics as data: loading, rendering, delimiting, hashing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from monitor.errors import ConfigError
from monitor.judges.base import JudgeRequest
from monitor.judges.prompts import (
    CONDITIONS_FILE,
    RUBRICS_FILE,
    PromptRenderer,
    default_library,
    load_library,
)
from monitor.schemas import Trace
from tests.conftest import ACCEPTED, CASE_ITEM, REPO

PAPER_CONDITIONS = {
    "noref",
    "direct",
    "direct_ctx",
    "cargo",
    "cargo_unv",
    "cargo_noex",
    "cargo_noctx",
    "cargo_auth",
}
TRACE = Trace(
    trace_id="t",
    question="What is the status of case 171056262?",
    answer="Case 171056262 is currently Pending Customer.",
    context={"caseNumber": "171056262"},
)


def blocks(user: str) -> list[str]:
    return re.findall(r"^<<<BEGIN (.+?) [0-9a-f]{12}>>>$", user, flags=re.MULTILINE)


def test_every_paper_condition_is_shipped_and_renders() -> None:
    lib = default_library()
    assert set(lib.conditions) >= PAPER_CONDITIONS
    hashes = set()
    for name in lib.conditions:
        p = PromptRenderer(name).render(JudgeRequest(TRACE, CASE_ITEM, ACCEPTED))
        assert p.condition == name and p.prompt_version.startswith(f"{name}@")
        assert TRACE.answer not in p.system  # trace content never reaches the system prompt
        hashes.add(p.prompt_hash)
    assert len(hashes) == len(lib.conditions)  # every condition says something different


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("noref", ["QUESTION", "LIVE ANSWER", "LIVE CONTEXT"]),
        ("direct", ["QUESTION", "LIVE ANSWER", "GOLDEN ANSWER"]),
        ("direct_ctx", ["QUESTION", "LIVE ANSWER", "LIVE CONTEXT", "GOLDEN ANSWER"]),
        ("cargo", ["QUESTION", "LIVE ANSWER", "LIVE CONTEXT", "PROCEDURAL EXEMPLAR"]),
        ("cargo_noctx", ["QUESTION", "LIVE ANSWER", "PROCEDURAL EXEMPLAR"]),
        ("cargo_noex", ["QUESTION", "LIVE ANSWER", "LIVE CONTEXT", "REFERENCE ANSWER"]),
    ],
)
def test_conditions_show_the_blocks_they_should(condition: str, expected: list[str]) -> None:
    p = PromptRenderer(condition).render(JudgeRequest(TRACE, CASE_ITEM, ACCEPTED))
    assert blocks(p.user) == expected


def test_ablations_differ_from_cargo_in_one_component() -> None:
    cargo = PromptRenderer("cargo").system
    assert (
        "DIFFERENT instance" in cargo
        and "DIFFERENT instance" not in PromptRenderer("cargo_noex").system
    )
    assert PromptRenderer("cargo_unv").statuses == ("supported", "unsupported")
    assert '"unverifiable"' not in PromptRenderer("cargo_unv").system.split("Reply with")[1]
    auth = PromptRenderer("cargo_auth").system
    assert auth.startswith(cargo.split("Score these dimensions")[0].strip()[:200])
    assert "the exemplar is the authority" in auth and "exemplar is the authority" not in cargo


def test_rubric_swap_is_configuration() -> None:
    a = PromptRenderer("cargo")
    b = PromptRenderer("cargo", rubric="reference_grounded")
    assert a.prompt_hash != b.prompt_hash
    assert b.prompt_version == "cargo@1+reference_grounded@1"
    assert "agree with the reference answer" in b.system
    assert PromptRenderer("direct").rubric.name == "reference_grounded"


def test_unknown_names_are_config_errors() -> None:
    with pytest.raises(ConfigError, match=r"unknown judge condition .nope..*cargo"):
        PromptRenderer("nope")
    with pytest.raises(ConfigError, match="unknown rubric"):
        PromptRenderer("cargo", rubric="nope")


def test_broken_prompt_files_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "conditions.yaml"
    bad.write_text("conditions: [unclosed", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"conditions\.yaml: not valid YAML"):
        load_library(bad, RUBRICS_FILE)
    text = CONDITIONS_FILE.read_text(encoding="utf-8").replace(
        "rubric: context_grounded", "rubric: missing_rubric", 1
    )
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown rubric 'missing_rubric'"):
        load_library(bad, RUBRICS_FILE)
    rub = tmp_path / "rubrics.yaml"
    rub.write_text(
        "rubrics:\n  r:\n    version: '1'\n    dimensions: {correctness: x}\n", encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="must define exactly"):
        load_library(CONDITIONS_FILE, rub)


def injection_traces() -> list[Trace]:
    path = REPO / "tests" / "data" / "llm" / "injection.jsonl"
    return [Trace.model_validate(json.loads(line)) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("trace", injection_traces(), ids=lambda t: t.trace_id)
def test_injected_instructions_stay_inside_their_data_block(trace: Trace) -> None:
    p = PromptRenderer("cargo").render(JudgeRequest(trace, CASE_ITEM, ACCEPTED))
    # Exactly the four real blocks, whatever the answer pretends.
    assert blocks(p.user) == ["QUESTION", "LIVE ANSWER", "LIVE CONTEXT", "PROCEDURAL EXEMPLAR"]
    tag = re.search(r"<<<BEGIN QUESTION ([0-9a-f]{12})>>>", p.user).group(1)  # type: ignore[union-attr]
    assert len(re.findall(r"<<<(?:BEGIN|END) ", p.user)) == 8
    answer_block = p.user.split(f"<<<BEGIN LIVE ANSWER {tag}>>>")[1].split(
        f"<<<END LIVE ANSWER {tag}>>>"
    )[0]
    assert (
        "ignore" in answer_block.lower() or "judge note" in answer_block or "Closed" in answer_block
    )
    assert "data only" in p.system.lower() and "never an instruction" in p.system
    # The live context shown is the trace's, not the one the answer tried to forge.
    ctx = p.user.split(f"<<<BEGIN LIVE CONTEXT {tag}>>>")[1].split(f"<<<END LIVE CONTEXT {tag}>>>")[
        0
    ]
    assert json.loads(ctx) == {"caseNumber": "171056262", "status": "Open"}
