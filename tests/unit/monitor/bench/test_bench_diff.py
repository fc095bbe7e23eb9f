"""``bench diff``: two ``--items`` runs of the same instances, item by item."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monitor.bench.diff import diff_items, read_items
from monitor.errors import ConfigError


def _row(
    i: str, fam: str, target: bool, pen: bool | None, sub: str | None = None
) -> dict[str, Any]:
    return {
        "judge": "structural",
        "id": i,
        "family": fam,
        "subtype": sub,
        "target_penalize": target,
        "penalized": pen,
        "why": None if pen is None else ("step 1 negated" if pen else "not penalised"),
    }


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_moves_are_fixed_broken_or_undecided(tmp_path: Path) -> None:
    old = [
        _row("a-P6-0", "P6", False, True),  # penalised a paraphrase: fixed below
        _row("b-P6-0", "P6", False, False),  # right both times
        _row("c-P4p-0", "P4p", True, True, "negate"),  # caught: broken below
        _row("d-P4p-0", "P4p", True, False, "negate"),  # missed both times
        _row("e-P2-0", "P2", True, None),  # errored before: undecided
        _row("f-P1-0", "P1", False, False),  # only in the old run
    ]
    new = [
        _row("a-P6-0", "P6", False, False),
        _row("b-P6-0", "P6", False, False),
        _row("c-P4p-0", "P4p", True, False, "negate"),
        _row("d-P4p-0", "P4p", True, False, "negate"),
        _row("e-P2-0", "P2", True, True),
    ]
    d = diff_items(read_items(_write(tmp_path / "o", old)), read_items(_write(tmp_path / "n", new)))
    assert {m.id: m.kind for m in d.moves} == {
        "a-P6-0": "fixed",
        "c-P4p-0": "broken",
        "e-P2-0": "undecided",
    }
    assert (d.compared, d.only_old, d.only_new) == (5, 1, 0)
    p6 = d.families[("structural", "P6")]
    assert (p6.compared, p6.right_old, p6.right_new, p6.fixed, p6.broken) == (2, 1, 2, 1, 0)
    negate = d.families[("structural", "P4p.negate")]
    assert (negate.right_old, negate.right_new, negate.broken) == (1, 0, 1)
    assert d.families[("structural", "P2")].undecided == 1


def test_only_the_judges_asked(tmp_path: Path) -> None:
    rows = [_row("a-P6-0", "P6", False, True), {**_row("a-P6-0", "P6", False, True), "judge": "x"}]
    new = [_row("a-P6-0", "P6", False, False), {**_row("a-P6-0", "P6", False, False), "judge": "x"}]
    o, n = read_items(_write(tmp_path / "o", rows)), read_items(_write(tmp_path / "n", new))
    assert len(diff_items(o, n).moves) == 2
    assert [m.judge for m in diff_items(o, n, ["x"]).moves] == ["x"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json\n", "not JSON"),
        ("[1, 2]\n", "not a JSON object"),
        ('{"judge": "structural", "id": "a"}\n', "no family, target_penalize, penalized"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text(json.dumps(_row("a", "P6", False, False)) + "\n" + line, encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"bad.jsonl:2: .*{message}"):
        read_items(p)


def test_a_repeated_item_and_a_different_instance_are_refused(tmp_path: Path) -> None:
    twice = _write(tmp_path / "t", [_row("a", "P6", False, False)] * 2)
    with pytest.raises(ConfigError, match="t:2: item 'a' of judge 'structural' twice"):
        read_items(twice)
    o = read_items(_write(tmp_path / "o", [_row("a", "P6", False, False)]))
    n = read_items(_write(tmp_path / "n", [_row("a", "P2", True, False)]))
    with pytest.raises(ConfigError, match="different instance"):
        diff_items(o, n)
    with pytest.raises(ConfigError, match="not found"):
        read_items(tmp_path / "missing.jsonl")
