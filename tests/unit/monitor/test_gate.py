from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from monitor.errors import ConfigError, GateModelError
from monitor.gate import (
    CalibratedGate,
    CalibrationRow,
    FixedGate,
    MarginGate,
    fit_gate_model,
    load_gate_model,
    make_gate,
    read_calibration_rows,
    save_gate_model,
)
from monitor.retrieval import Retrieval
from tests.conftest import CASE_ITEM


def r(s1: float, s2: float | None = None) -> Retrieval:
    return Retrieval(CASE_ITEM, s1, s2)


def test_fixed_gate() -> None:
    g = FixedGate(0.8)
    assert g.decide(r(0.8)).reason == "accepted"
    d = g.decide(r(0.79))
    assert d.status == "abstained" and d.reason == "low_similarity"
    assert d.reference_id == "g_case" and d.intent == "case_status" and d.threshold == 0.8


def test_margin_gate_reasons() -> None:
    g = MarginGate(0.8, 0.05)
    assert g.decide(r(0.9, 0.7)).reason == "accepted"
    assert g.decide(r(0.9, 0.88)).reason == "low_margin"
    assert g.decide(r(0.7, 0.1)).reason == "low_similarity"
    # One-item golden set: margin undefined, threshold alone decides.
    assert g.decide(r(0.9, None)).reason == "accepted"
    assert g.decide(r(0.9, 0.88)).margin == pytest.approx(0.02)


def test_empty_golden_set_abstains_with_reason() -> None:
    for gate in (FixedGate(), MarginGate()):
        d = gate.decide(None)
        assert d.status == "abstained" and d.reason == "empty_golden_set"


@given(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1))
def test_fixed_gate_is_monotone_in_similarity(a: float, b: float, tau: float) -> None:
    lo, hi = sorted((a, b))
    g = FixedGate(tau)
    if g.decide(r(lo)).accepted:
        assert g.decide(r(hi)).accepted


def _rows(n: int = 400, seed: int = 0) -> list[CalibrationRow]:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        s = rng.uniform(0.3, 1.0)
        m = rng.uniform(0.0, 0.3)
        p = min(1.0, max(0.0, (s - 0.55) * 2.5 + m))
        rows.append(
            CalibrationRow(
                similarity=s, margin=m, intent=rng.choice(["a", "b"]), appropriate=rng.random() < p
            )
        )
    return rows


@pytest.mark.parametrize("method", ["isotonic", "logistic"])
def test_calibrated_gate_fits_saves_as_json_and_reloads(tmp_path: Path, method: str) -> None:
    model = fit_gate_model(_rows(), method, gamma=0.7)  # type: ignore[arg-type]
    path = tmp_path / "gate.json"
    save_gate_model(model, path)
    data = json.loads(path.read_text())  # plain JSON, no pickle
    assert data["method"] == method and data["format"] == "cargo-gate/1"
    gate = CalibratedGate(load_gate_model(path))
    hi, lo = gate.decide(r(0.98, 0.3)), gate.decide(r(0.4, 0.0))
    assert hi.accepted and hi.probability is not None and hi.probability >= 0.7
    assert not lo.accepted and lo.reason == "low_probability"
    assert hi.probability > lo.probability  # type: ignore[operator]


def test_per_intent_threshold() -> None:
    model = fit_gate_model(_rows(), "isotonic", gamma=0.5, per_intent_gamma={"case_status": 0.999})
    d = CalibratedGate(model).decide(r(0.9, 0.2))
    assert d.threshold == 0.999 and not d.accepted


def test_calibration_needs_both_classes() -> None:
    rows = [CalibrationRow(similarity=0.9, appropriate=True)] * 5
    with pytest.raises(GateModelError, match="one class"):
        fit_gate_model(rows, "isotonic")


def test_bad_model_file_and_rows(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"method": "magic"}')
    with pytest.raises(GateModelError, match=r"bad\.json"):
        load_gate_model(bad)
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"similarity": 0.9, "appropriate": true}\n{"similarity": "x-secret"}\n')
    with pytest.raises(ConfigError, match=r"rows\.jsonl:2: bad calibration row: similarity"):
        read_calibration_rows(rows)
    # One line, without the value; a missing file is named, not a traceback.
    with pytest.raises(ConfigError) as err:
        read_calibration_rows(rows)
    assert "\n" not in str(err.value) and "x-secret" not in str(err.value)
    with pytest.raises(ConfigError, match="calibration rows file not found"):
        read_calibration_rows(tmp_path / "missing.jsonl")


def test_make_gate_errors() -> None:
    with pytest.raises(ConfigError, match="needs a model file"):
        make_gate("calibrated")
    with pytest.raises(ConfigError, match="unknown gate"):
        make_gate("psychic")


def test_a_gate_fitted_on_another_embedder_is_refused() -> None:
    # Similarities of another model are on another scale: a gate fitted with the
    # hashing embedder abstained on every MiniLM trace, without a word.
    from monitor.embeddings import HashingEmbedder
    from monitor.gate import CalibratedGate
    from pipelines.components import _check_gate_embedder

    rows = [CalibrationRow(similarity=s / 10, appropriate=s > 5) for s in range(10)]
    hashing = HashingEmbedder()
    on_minilm = fit_gate_model(
        rows, "logistic", embedding_model="sentence-transformers/all-MiniLM-L6-v2"
    )
    with pytest.raises(ConfigError, match="fitted on similarities of sentence-transformers"):
        _check_gate_embedder(CalibratedGate(on_minilm), hashing.model_id, "gate.json")
    # The same model in another runtime, a model fitted on given similarities, and
    # the model's own embedder pass.
    int8 = on_minilm.model_copy(update={"embedding_model": hashing.model_id + "+onnx-int8-x"})
    for model in (
        int8,
        fit_gate_model(rows, "logistic"),
        on_minilm.model_copy(update={"embedding_model": hashing.model_id}),
    ):
        _check_gate_embedder(CalibratedGate(model), hashing.model_id, "gate.json")


def test_a_gate_of_another_embedder_is_refused_before_the_model_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The refusal came after MiniLM had loaded (seconds of a run that could not go on).
    from monitor.data import DEFAULT_GOLDEN
    from monitor.embeddings import SentenceTransformerEmbedder, embedder_model_id
    from monitor.gate import save_gate_model
    from monitor.golden import load_golden
    from monitor.settings import CargoSettings
    from pipelines import components

    rows = [CalibrationRow(similarity=s / 10, appropriate=s > 5) for s in range(10)]
    path = tmp_path / "gate.json"
    save_gate_model(fit_gate_model(rows, "logistic", embedding_model="hashing-384"), path)

    def no_model(*_: object, **__: object) -> None:
        raise AssertionError("the embedder was loaded")

    monkeypatch.setattr(components, "make_embedder", no_model)
    settings = CargoSettings(gate="calibrated", gate_model=str(path), embedder="minilm")
    with pytest.raises(ConfigError, match="fitted on similarities of hashing-384"):
        components.build_components(settings, load_golden(DEFAULT_GOLDEN))
    assert embedder_model_id("minilm") == SentenceTransformerEmbedder.MODEL_ID
    assert embedder_model_id("hashing") == "hashing-384"


def _topic_rows() -> list[CalibrationRow]:
    """A small labelled sample like a new team's: every row of 'vet' appropriate,
    'lost' mixed (its uncovered questions happened to land there)."""
    rows = [
        CalibrationRow(similarity=0.45 + i / 20, intent="vet", appropriate=True) for i in range(4)
    ]
    rows += [
        CalibrationRow(similarity=0.5 + i / 20, intent="lost", appropriate=i % 2 == 1)
        for i in range(8)
    ]
    return rows


def test_a_one_class_intent_is_warned_about_for_the_logistic_model() -> None:
    from monitor.calibration import one_class_intents

    rows = _topic_rows()
    # The hazard the warning names: the fitted model accepts a far question sent to
    # 'vet' that it would refuse for 'lost' at the same similarity and margin.
    model = fit_gate_model(rows, "logistic")
    assert model.probability(0.45, 0.0, "vet") > model.probability(0.45, 0.0, "lost")
    warnings = one_class_intents(rows)
    assert len(warnings) == 1 and warnings[0].startswith("intent 'vet': all 4 of its rows")
    assert "near misses" in warnings[0] and "--method isotonic" in warnings[0]
    only_no = [*rows, CalibrationRow(similarity=0.9, intent="x", appropriate=False)]
    assert "intent 'x': its only row is inappropriate" in one_class_intents(only_no)[1]
    mixed = [*rows, CalibrationRow(similarity=0.4, intent="vet", appropriate=False)]
    assert one_class_intents(mixed) == []
    # Rows without an intent have no intent coefficient to learn.
    assert one_class_intents([CalibrationRow(similarity=0.5, appropriate=True)]) == []
