"""One Markdown table from several ``bench run --json`` reports: a row per report (a
set of seeds), a column per family, bold where the issue's target is met, and
optional group rows that give each column's range over some of the rows.

The README's headline table and the per-set table of the bench page are this table
(``cargo-monitor bench table``, ``make bench-heldout``), so that every figure in them
comes from reports a reader can produce again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from monitor.bench.report import BenchReport, JudgeSummary
from monitor.errors import ConfigError

SUBTYPES = ("delete_step", "negate", "swap_policy")

# The targets (issue 19): a rate at most (``max``) or at least (``min``) this.
_MAX = {"P1": 0.0, "P3": 0.03, "P6": 0.05}
_MIN = {"P2": 0.99, "P2p": 0.99, "P4": 0.90, "P4p": 0.90, "passed.P2p": 0.99}
_DI_MIN, _DI_LOWER_MIN = 0.90, 0.85

HEADERS = (
    "seeds (items)",
    "P1",
    "P3",
    "P6",
    "P2",
    "P4 delete / negate / swap",
    "P2p",
    "P4p delete / negate / swap",
    "P2p; P4p where the judge passed the uncorrupted paraphrase",
    "DI [95% CI]",
)
TARGET_ROW = (
    "**target**",
    ".00",
    "≤ .03",
    "≤ .05",
    "≥ .99",
    "≥ .90 each",
    "≥ .99",
    "≥ .90 each",
    "≥ .99; ≥ .90 each",
    "≥ .90, lower ≥ .85",
)


@dataclass(frozen=True, slots=True)
class Figures:
    """One report's figures for one judge; a rate is None where the family has no
    judged item (not built, or every item failed)."""

    label: str
    items: int
    rates: Mapping[str, float | None]  # "P1", "P4.negate", "P4p.swap_policy", "passed.P2p", ...
    di: float | None
    di_ci: tuple[float, float] | None


def figures(label: str, s: JudgeSummary) -> Figures:
    """The table's figures of one judge's summary."""
    rates: dict[str, float | None] = {f: r.rate for f, r in s.families.items()}
    for t in SUBTYPES:
        rates[f"P4.{t}"] = s.p4_by_type[t].rate if t in s.p4_by_type else None
        rates[f"P4p.{t}"] = s.p4p_by_type[t].rate if t in s.p4p_by_type else None
    for key, ob in s.on_passed_base.items():
        rates[f"passed.{key}"] = ob.caught.rate
    return Figures(label, s.items, rates, s.di, s.di_ci)


def read_report(path: str | Path, judge: str | None = None) -> JudgeSummary:
    """The summary of ``judge`` (default: the report's only judge) in a ``bench run
    --json`` report; a missing or unreadable file, or a judge the report lacks, is a
    :class:`ConfigError`."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"bench report not found: {p}")
    try:
        report = BenchReport.model_validate_json(p.read_bytes())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "the file"
        raise ConfigError(
            f"{p}: not a 'bench run --json' report ({where}: {first['msg']})"
        ) from None
    if judge is None:
        if len(report.judges) != 1:
            raise ConfigError(
                f"{p} has judges {', '.join(report.judges)}: say which one with --judge"
            )
        return next(iter(report.judges.values()))
    if judge not in report.judges:
        raise ConfigError(f"{p} has no judge {judge!r} (it has {', '.join(report.judges)})")
    return report.judges[judge]


def _num(x: float) -> str:
    s = f"{x:.2f}"
    return s[1:] if s.startswith("0") else s


def _met(key: str, x: float) -> bool:
    family = key.removeprefix("passed.").split(".")[0]
    if key in _MAX or family in _MAX:
        return x <= _MAX.get(key, _MAX.get(family, 0.0)) + 1e-9
    if key.startswith("passed.P4p"):
        return x >= _MIN["P4p"] - 1e-9
    return x >= _MIN.get(key, _MIN.get(family, 1.0)) - 1e-9


def _bold(text: str, met: bool) -> str:
    return f"**{text}**" if met else text


def _cell(key: str, values: Sequence[float | None]) -> str:
    """One figure, or its range over a group ("lo–hi"); "—" where no row has it;
    bold where every value meets the target."""
    xs = [x for x in values if x is not None]
    if not xs:
        return "—"
    lo, hi = min(xs), max(xs)
    text = _num(lo) if _num(lo) == _num(hi) else f"{_num(lo)}–{_num(hi)}"
    return _bold(text, all(_met(key, x) for x in xs))


def _split(keys: Sequence[str], rows: Sequence[Figures]) -> str:
    cells = [_cell(k, [r.rates.get(k) for r in rows]) for k in keys]
    return "—" if all(c == "—" for c in cells) else " / ".join(cells)


def _di(rows: Sequence[Figures]) -> str:
    pairs = [(r.di, r.di_ci) for r in rows if r.di is not None]
    if not pairs:
        return "—"
    met = all(
        d >= _DI_MIN - 1e-9 and ci is not None and ci[0] >= _DI_LOWER_MIN - 1e-9 for d, ci in pairs
    )
    if len(pairs) == 1:
        d, ci = pairs[0]
        text = f"{d:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
        return _bold(text, met)
    ds = [d for d, _ in pairs]
    lows = [ci[0] for _, ci in pairs if ci is not None]
    text = f"{min(ds):+.2f} to {max(ds):+.2f}"
    if lows:
        text += f", lower {_num(min(lows))}–{_num(max(lows))}"
    return _bold(text, met)


def _items(rows: Sequence[Figures]) -> str:
    ns = sorted({r.items for r in rows})
    return f"{ns[0]:,}" if len(ns) == 1 else f"{ns[0]:,}–{ns[-1]:,} each"


def row(label: str, rows: Sequence[Figures]) -> list[str]:
    """The cells of one table row: one report, or the range of each column over a
    group of reports."""
    return [
        f"{label} ({_items(rows)})",
        _cell("P1", [r.rates.get("P1") for r in rows]),
        _cell("P3", [r.rates.get("P3") for r in rows]),
        _cell("P6", [r.rates.get("P6") for r in rows]),
        _cell("P2", [r.rates.get("P2") for r in rows]),
        _split([f"P4.{t}" for t in SUBTYPES], rows),
        _cell("P2p", [r.rates.get("P2p") for r in rows]),
        _split([f"P4p.{t}" for t in SUBTYPES], rows),
        _passed(rows),
        _di(rows),
    ]


def _passed(rows: Sequence[Figures]) -> str:
    p2p = _cell("passed.P2p", [r.rates.get("passed.P2p") for r in rows])
    p4p = _split([f"passed.P4p.{t}" for t in SUBTYPES], rows)
    if p2p == "—" and p4p == "—":
        return "—"
    return f"{p2p}; {p4p}"


def markdown(
    rows: Sequence[Figures],
    groups: Mapping[str, Sequence[str]] = {},
    *,
    target: bool = True,
) -> str:
    """The table: the target row, one row per report in order, then one row per
    group (its members by label; an unknown label is a :class:`ConfigError`)."""
    by_label = {r.label: r for r in rows}
    lines = ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    if target:
        lines.append("| " + " | ".join(TARGET_ROW) + " |")
    lines += ["| " + " | ".join(row(r.label, [r])) + " |" for r in rows]
    for name, members in groups.items():
        unknown = [m for m in members if m not in by_label]
        if unknown:
            raise ConfigError(
                f"group {name!r} names {', '.join(unknown)}, which no report is labelled "
                f"(labels: {', '.join(by_label)})"
            )
        lines.append("| " + " | ".join(row(name, [by_label[m] for m in members])) + " |")
    return "\n".join(lines) + "\n"
