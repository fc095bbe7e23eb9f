"""Two ``bench run --items`` files of the same instances, compared item by item.

``cargo-monitor bench diff OLD NEW``: which judged items changed their decision between
two runs (a judge change, a setting, another version), and whether each move was a fix
(the new decision is the instance's target) or a break. Rows pair on ``(judge, id)``;
an item's id already names its seed, family and draw. A row a run could not decide
(``penalized`` null: every repeat failed) is counted apart, never as a move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from monitor.errors import ConfigError
from monitor.io import jsonl_objects

# What a row needs for a comparison; the rest (scores, verdicts) is only shown.
_REQUIRED = ("judge", "id", "family", "target_penalize", "penalized")


@dataclass(frozen=True, slots=True)
class Move:
    """One item whose decision differs between the two runs."""

    judge: str
    id: str
    family: str  # with the subtype after a dot where there is one (P4p.negate)
    target_penalize: bool
    old: bool | None
    new: bool | None
    old_why: str | None
    new_why: str | None

    @property
    def kind(self) -> str:
        """``fixed`` (the new decision is the target), ``broken`` (the old one was),
        or ``undecided`` (one of the two runs could not judge it)."""
        if self.old is None or self.new is None:
            return "undecided"
        return "fixed" if self.new == self.target_penalize else "broken"


@dataclass(slots=True)
class FamilyDiff:
    """One judge's items of one family (and subtype): how many both runs judged, and
    how many were right in each."""

    compared: int = 0
    right_old: int = 0
    right_new: int = 0
    fixed: int = 0
    broken: int = 0
    undecided: int = 0


@dataclass(slots=True)
class ItemsDiff:
    families: dict[tuple[str, str], FamilyDiff] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    only_old: int = 0
    only_new: int = 0

    @property
    def compared(self) -> int:
        return sum(f.compared for f in self.families.values())

    def count(self, kind: str) -> int:
        return sum(1 for m in self.moves if m.kind == kind)


def read_items(path: str | Path) -> dict[tuple[str, str], dict[str, Any]]:
    """The rows of one ``--items`` file keyed by ``(judge, id)``. A line that is not a
    JSON object with the fields a comparison needs, or a key seen twice, is a
    :class:`ConfigError` naming the file and line."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for n, row in jsonl_objects(path, what="items"):
        missing = [k for k in _REQUIRED if k not in row]
        if missing:
            raise ConfigError(
                f"{path}:{n}: not a 'bench run --items' row (no {', '.join(missing)})"
            )
        key = (str(row["judge"]), str(row["id"]))
        if key in rows:
            raise ConfigError(f"{path}:{n}: item {key[1]!r} of judge {key[0]!r} twice")
        rows[key] = row
    return rows


def _family(row: dict[str, Any]) -> str:
    sub = row.get("subtype")
    return f"{row['family']}.{sub}" if sub else str(row["family"])


def _decision(row: dict[str, Any]) -> bool | None:
    v = row["penalized"]
    return None if v is None else bool(v)


def diff_items(
    old: dict[tuple[str, str], dict[str, Any]],
    new: dict[tuple[str, str], dict[str, Any]],
    judges: Iterable[str] | None = None,
) -> ItemsDiff:
    """Compare two runs' rows (``judges``: only those judges' rows)."""
    keep = set(judges) if judges else None
    out = ItemsDiff()
    old_keys = {k for k in old if keep is None or k[0] in keep}
    new_keys = {k for k in new if keep is None or k[0] in keep}
    out.only_old = len(old_keys - new_keys)
    out.only_new = len(new_keys - old_keys)
    for key in sorted(old_keys & new_keys):
        a, b = old[key], new[key]
        if bool(a["target_penalize"]) != bool(b["target_penalize"]) or a["family"] != b["family"]:
            raise ConfigError(
                f"item {key[1]!r} of judge {key[0]!r} is a different instance in the two "
                "files (family or target differ): compare runs of the same instances "
                "(same seeds, --draws and --gen-seed)"
            )
        fam = _family(a)
        f = out.families.setdefault((key[0], fam), FamilyDiff())
        target = bool(a["target_penalize"])
        was, now = _decision(a), _decision(b)
        f.compared += 1
        f.right_old += was == target
        f.right_new += now == target
        if was == now:
            continue
        move = Move(key[0], key[1], fam, target, was, now, a.get("why"), b.get("why"))
        out.moves.append(move)
        if move.kind == "fixed":
            f.fixed += 1
        elif move.kind == "broken":
            f.broken += 1
        else:
            f.undecided += 1
    return out
