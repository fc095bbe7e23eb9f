"""``cargo-monitor bench generate|run|diff``: Cargo-Bench from seeds to a Table-1 report."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from monitor.bench.diff import ItemsDiff, Move, diff_items, read_items
from monitor.bench.generate import BenchHeader, BenchInstance, generate, read_instances
from monitor.bench.report import BenchReport, InstancesInfo, JudgeReport, LLMLabels, Rate
from monitor.bench.runner import (
    BOOTSTRAP_RESAMPLES,
    SANITY_JUDGES,
    base_verdicts,
    item_row,
    judge_items,
    paired_delta,
    retrieve_gate_items,
    summarize,
    worst_items,
)
from monitor.bench.seeds import load_seeds
from monitor.embeddings import make_embedder
from monitor.errors import ConfigError
from monitor.gate import CalibratedGate, load_gate_model
from monitor.io import check_writable, write_output
from monitor.judges import JUDGES, Judge, JudgeDeps, TraceSampler, aclose_judge, make_judge
from monitor.retrieval import GoldenIndex
from monitor.settings import CargoSettings, default_cache_dir
from monitor.text.lexicon import counted

REPORT_FORMAT = "cargo-bench-report/1"
LLM_JUDGES = ("llm", "hybrid")
# The paper's layout: Table 1 headline conditions, Table 2 component ablations,
# Table 3 the rubric swap (prompt x rubric).
TABLE1 = ("noref", "direct", "direct_ctx", "cargo", "cargo_auth")
TABLE2 = ("cargo_noctx", "cargo_noex", "cargo_unv")


@dataclass(frozen=True, slots=True)
class BenchRunOptions:
    """What ``bench run`` judges and how (the LLM endpoint comes from the settings)."""

    instances: str | None = None
    seeds: str | None = None
    draws: int = 5
    gen_seed: int = 2027
    judges: tuple[str, ...] = ("structural",)
    repeats: int = 1
    conditions: tuple[str, ...] = ()
    rubrics: tuple[str | None, ...] = ()
    json: str | None = None
    markdown: str | None = None
    html: str | None = None
    items: str | None = None
    embedder: str = "minilm"
    tau: float = 0.80
    delta: float = 0.02
    gamma: float = 0.80
    gate_model: str | None = None
    bootstrap: int = BOOTSTRAP_RESAMPLES
    cache_dir: str | None = None


def bench_console() -> Console:
    return Console(width=None if sys.stdout.isatty() else 160)


def _make_bench_judge(name: str, deps: JudgeDeps) -> Judge:
    if name in SANITY_JUDGES:
        judge: Judge = SANITY_JUDGES[name]()
        return judge
    if name not in JUDGES:
        raise ConfigError(
            f"unknown judge {name!r}; choose from: {', '.join(sorted([*JUDGES, *SANITY_JUDGES]))}"
        )
    return make_judge(name, deps)


def _check_writable(outputs: dict[str, str | None]) -> None:
    """Each output path can be written: checked before the work (nothing created), so
    that a bad path is one line and exit 2, not a traceback after the run."""
    for what, path in outputs.items():
        check_writable(path, what)


def bench_generate(
    seeds_path: str, out_path: str, *, draws: int, gen_seed: int, drop_invalid: bool
) -> int:
    """``bench generate``: labelled instances from seeds, written as JSONL."""
    console = bench_console()
    _check_writable({"instances": out_path})
    seeds = load_seeds(seeds_path)
    out = generate(seeds, draws=draws, gen_seed=gen_seed, drop_invalid=drop_invalid)
    write_output(out_path, out.to_jsonl(), "instances")
    counts: dict[str, int] = {}
    for i in out.instances:
        counts[i.family] = counts.get(i.family, 0) + 1
    console.print(
        f"{out_path}: {counted(len(out.instances), 'instance')} from "
        f"{counted(len(seeds), 'seed')} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
        f"dropped {sum(out.header.dropped.values())}"
    )
    for p in out.problems[:20]:
        console.print(f"  dropped: {p}")
    return 0


def bench_run(opts: BenchRunOptions, settings: CargoSettings) -> int:
    """``bench run``: judge instances (from a file or generated from seeds) and report."""
    console = bench_console()
    _check_writable(
        {
            "items": opts.items,
            "JSON report": opts.json,
            "Markdown report": opts.markdown,
            "HTML report": opts.html,
        }
    )
    # (A misspelt judge ends the command before anything is embedded or judged.)
    unknown = [n for n in opts.judges if n not in JUDGES and n not in SANITY_JUDGES]
    if unknown:
        raise ConfigError(
            f"unknown judge {unknown[0]!r}; choose from: "
            f"{', '.join(sorted([*JUDGES, *SANITY_JUDGES]))}"
        )
    if opts.instances:
        path = Path(opts.instances)
        if not path.exists():
            raise ConfigError(f"instances file not found: {path}")
        header, instances = read_instances(path.read_text(encoding="utf-8"), source=str(path))
        source = str(path)
    else:
        if not opts.seeds:
            raise ConfigError("bench run needs instances or seeds")
        gen = generate(
            load_seeds(opts.seeds), draws=opts.draws, gen_seed=opts.gen_seed, drop_invalid=True
        )
        header, instances, source = gen.header, gen.instances, str(opts.seeds)
    report = asyncio.run(run_report(header, instances, opts, settings, source))
    console.print(render_table(report))
    missing = not_built_line(report)
    if missing:
        console.print(missing)
    for extra in (
        render_subtype_table(report),
        render_paraphrase_table(report),
        render_passed_base_table(report),
        render_escalation_table(report),
        render_gate_table(report),
    ):
        if extra is not None:
            console.print(extra)
    if opts.items:
        console.print(f"items: {opts.items}")
    if opts.json:
        write_output(
            opts.json, json.dumps(report.model_dump(mode="json"), indent=2) + "\n", "JSON report"
        )
        console.print(f"report: {opts.json}")
    figures = bench_figures(report) if opts.markdown or opts.html else {}
    if opts.markdown:
        md_path = Path(opts.markdown)
        names = {key: f"{md_path.stem}-{key}.png" for key in figures}
        for key, name in names.items():
            write_output(md_path.parent / name, figures[key], "figure")
        write_output(md_path, render_markdown(report, names), "Markdown report")
        console.print(f"report: {opts.markdown} (figures {', '.join(names.values())})")
    if opts.html:
        from pipelines.reports.html import render_page

        names = {key: f"{key}.png" for key in figures}
        page = render_page(
            render_markdown(report, names),
            title="Cargo-Bench report",
            images={names[key]: data for key, data in figures.items()},
        )
        write_output(opts.html, page, "HTML report")
        console.print(f"report: {opts.html}")
    return 0


async def run_report(
    header: BenchHeader,
    instances: list[BenchInstance],
    opts: BenchRunOptions,
    settings: CargoSettings,
    source: str,
) -> BenchReport:
    cache = Path(opts.cache_dir) if opts.cache_dir else default_cache_dir()
    embedder = make_embedder(opts.embedder, runtime=settings.embedder_runtime, cache_dir=cache)
    deps = JudgeDeps(
        embedder=embedder,
        procedure=settings.procedure(),
        llm=settings.llm(),
        # The bench sends every item to a hybrid judge's LLM tier, unless it escalates
        # the uncertain: then the blind sample is the settings' (default none).
        sampler=settings.sampler() if settings.judge_escalate == "uncertain" else TraceSampler(1.0),
        escalate=settings.judge_escalate,
    )
    judges: dict[str, Judge] = {}
    labels: dict[str, LLMLabels] = {}
    for n in opts.judges or ("structural",):
        if n not in LLM_JUDGES:
            judges[n] = _make_bench_judge(n, deps)
            continue
        if deps.llm is None:
            raise ConfigError(
                f"--judge {n} needs an endpoint and a model: --judge-base-url "
                "and --judge-model (or CARGO_JUDGE_BASE_URL/CARGO_JUDGE_MODEL)"
            )
        for cond in opts.conditions or (settings.judge_condition,):
            for rubric in opts.rubrics or (settings.judge_rubric,):
                cfg = dataclasses.replace(deps.llm, condition=cond, rubric=rubric)
                label = f"{n}:{cond}" + (f"/{rubric}" if rubric else "")
                judges[label] = make_judge(n, dataclasses.replace(deps, llm=cfg))
                labels[label] = LLMLabels(condition=cond, rubric=rubric)
    names = list(judges)
    index = GoldenIndex(header.golden, embedder, cache_dir=cache)
    from monitor.bench.runner import gate_report

    calibrated = CalibratedGate(load_gate_model(opts.gate_model)) if opts.gate_model else None
    gate = gate_report(
        retrieve_gate_items(index, instances),
        tau=opts.tau,
        delta=opts.delta,
        gamma=opts.gamma,
        calibrated=calibrated,
    )
    outcomes = {}
    report_judges: dict[str, JudgeReport] = {}
    rows: list[str] = []
    try:
        for name, judge in judges.items():
            res = await judge_items(
                judge,
                instances,
                header.golden,
                repeats=opts.repeats,
                concurrency=max(8, settings.judge_max_concurrency),
                timeout_s=settings.judge_timeout_s,
            )
            outcomes[name] = {o.instance.id: o for o in res}
            report_judges[name] = JudgeReport(
                **dict(summarize(res, resamples=opts.bootstrap, judge=judge.info.name)),
                gate=gate,
                judge=judge.info,
                llm=labels.get(name),
                worst=worst_items(res),
            )
            if opts.items:
                bases = base_verdicts(res)
                rows += [json.dumps(item_row(o, name, bases), ensure_ascii=False) for o in res]
    finally:
        for judge in judges.values():
            await aclose_judge(judge)
    if opts.items:
        write_output(opts.items, "".join(r + "\n" for r in rows), "items")
    paired = []
    for k, a in enumerate(names):
        for b in names[k + 1 :]:
            paired.append(
                paired_delta(outcomes[a], outcomes[b], labels=(a, b), resamples=opts.bootstrap)
            )
    fam_counts: dict[str, int] = {}
    for i in instances:
        fam_counts[i.family] = fam_counts.get(i.family, 0) + 1
    return BenchReport(
        format=REPORT_FORMAT,
        instances=InstancesInfo(
            source=source,
            n=len(instances),
            by_family=fam_counts,
            gen_seed=header.gen_seed,
            draws=header.draws,
            seeds_hash=header.seeds_hash,
            seeds=len(header.seeds),
            dropped=header.dropped,
        ),
        repeats=opts.repeats,
        embedder=embedder.model_id,
        bootstrap_resamples=opts.bootstrap,
        judges=report_judges,
        gate=gate,
        paired=paired,
    )


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _di_cell(r: JudgeReport) -> str:
    """DI [95% CI]; "without P4" (say) when a family of the DI had no judged item, so
    that a DI over fewer families does not read as one over all five."""
    if r.di is None:
        return "—"
    ci = r.di_ci
    return (
        f"{r.di:+.2f}"
        + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
        + (f" without {', '.join(r.di_missing)}" if r.di_missing else "")
    )


def not_built_line(report: BenchReport) -> str | None:
    """One line naming the families P1–P6 these instances have none of, and why (their
    cells read "—"); None when every family was built."""
    nb = report.instances.not_built
    if not nb:
        return None
    return "Not built: " + "; ".join(f"{fam} — {why}" for fam, why in nb.items()) + "."


def _rows(report: BenchReport) -> list[list[str]]:
    rows = []
    for name, r in report.judges.items():
        f = r.families
        rows.append(
            [
                name,
                *(_pct(f[x].rate) for x in ("P1", "P2", "P3", "P4", "P6")),
                _pct(r.tp),
                _pct(r.fp),
                _di_cell(r),
                str(r.errors),
            ]
        )
    return rows


HEADERS = ["judge", "P1 ↓", "P2 ↑", "P3 ↓", "P4 ↑", "P6 ↓", "TP", "FP", "DI [95% CI]", "errors"]


def render_table(report: BenchReport) -> Table:
    inst = report.instances
    return _console_table(
        f"Cargo-Bench — {counted(inst.n, 'instance')}, {counted(inst.seeds, 'seed')}, "
        f"repeats {report.repeats} (penalty rate per family)",
        HEADERS,
        _rows(report),
    )


def _has_paraphrase_bases(report: BenchReport) -> bool:
    return any(r.paraphrase_bases is not None for r in report.judges.values())


def _paraphrase_rows(report: BenchReport) -> list[list[str]]:
    rows = []
    for name, r in report.judges.items():
        pb, f = r.paraphrase_bases, r.families
        if pb is None:
            continue
        ci = pb.di_ci
        di = (
            "—"
            if pb.di is None
            else f"{pb.di:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
        )
        cells = [f"{_pct(f[x].rate)} ({f[x].n})" if x in f else "—" for x in ("P2p", "P4p")]
        cells += [
            f"{_pct(r.p4p_by_type[t].rate)} ({r.p4p_by_type[t].n})" if t in r.p4p_by_type else "—"
            for t in ("delete_step", "negate", "swap_policy")
        ]
        rows.append([name, *cells, _pct(pb.tp), _pct(r.fp), di])
    return rows


PARAPHRASE_HEADERS = [
    "judge",
    "P2p ↑",
    "P4p ↑",
    "P4p delete_step",
    "P4p negate",
    "P4p swap_policy",
    "TP(P2p+P4p)",
    "FP",
    "DI on paraphrases [95% CI]",
]


def _console_table(
    title: str, headers: list[str], rows: list[list[str]], left: tuple[str, ...] = ("judge",)
) -> Table:
    """A console table: the ``left`` columns left-aligned, the figures right-aligned."""
    t = Table(title=title)
    for h in headers:
        t.add_column(h, justify="left" if h in left else "right")
    for row in rows:
        t.add_row(*row)
    return t


def _markdown_table(intro: str, headers: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown section: a blank line, its one-paragraph intro, then the table."""
    return [
        "",
        intro,
        "",
        "| " + " | ".join(headers) + " |",
        "|" + "---|" * len(headers),
        *("| " + " | ".join(r) + " |" for r in rows),
    ]


SUBTYPE_HEADERS = [
    "judge",
    "P4 delete_step ↑",
    "P4 negate ↑",
    "P4 swap_policy ↑",
    "P3 unobserved ↓",
    "P3 fabricated ↓",
]


def _subtype_rows(report: BenchReport) -> list[list[str]]:
    rows = []
    for name, r in report.judges.items():
        p4, p3 = r.p4_by_type, r.p3_by_split
        rows.append(
            [
                name,
                *(
                    f"{_pct(p4[t].rate)} ({p4[t].n})" if t in p4 else "—"
                    for t in ("delete_step", "negate", "swap_policy")
                ),
                *(
                    f"{_pct(p3[k].rate)} ({p3[k].n})" if k in p3 else "—"
                    for k in ("unobserved", "fabricated")
                ),
            ]
        )
    return rows


def render_subtype_table(report: BenchReport) -> Table | None:
    """P4 by sub-type and P3 by split, as the Markdown report has them (a newcomer
    found them only there), None when no judge has any."""
    if not any(r.p4_by_type or r.p3_by_split for r in report.judges.values()):
        return None
    return _console_table(
        "P4 by sub-type and P3 by split (rate, n)", SUBTYPE_HEADERS, _subtype_rows(report)
    )


def render_paraphrase_table(report: BenchReport) -> Table | None:
    """The P2p/P4p rows (corruptions made on paraphrases), None when there are none."""
    if not _has_paraphrase_bases(report):
        return None
    return _console_table(
        "Corruptions made on paraphrases (penalty rate, n)",
        PARAPHRASE_HEADERS,
        _paraphrase_rows(report),
    )


PASSED_BASE_KEYS = ("P2p", "P4p", "P4p.delete_step", "P4p.negate", "P4p.swap_policy")
PASSED_BASE_HEADERS = [
    "judge",
    "P2p ↑",
    "P4p ↑",
    "P4p delete_step",
    "P4p negate",
    "P4p swap_policy",
]


def _passed_base_rows(report: BenchReport) -> list[list[str]]:
    rows = []
    for name, r in report.judges.items():
        ob = r.on_passed_base
        if not ob:
            continue
        cells = [
            f"{_pct(ob[k].caught.rate)} ({ob[k].caught.penalized}/{ob[k].caught.n}; "
            f"{ob[k].base_flagged} left out, base flagged)"
            if k in ob
            else "—"
            for k in PASSED_BASE_KEYS
        ]
        rows.append([name, *cells])
    return rows


def render_passed_base_table(report: BenchReport) -> Table | None:
    """P2p/P4p counted only where the judge passed the uncorrupted base, None when
    no paraphrase corruption had its base judged."""
    if not any(r.on_passed_base for r in report.judges.values()):
        return None
    return _console_table(
        "Corruptions on paraphrases the judge passed uncorrupted (rate, caught/counted)",
        PASSED_BASE_HEADERS,
        _passed_base_rows(report),
    )


ESCALATION_HEADERS = [
    "judge",
    "family",
    "items",
    "escalated",
    "wrong",
    "wrong, escalated",
    "correctable",
    "penalised → with a right LLM tier",
    "penalised on settled verdicts",
    "uncertain verdict kinds (items)",
]


def _escalation_rows(report: BenchReport) -> list[list[str]]:
    rows = []
    for name, r in report.judges.items():
        for fam, e in r.escalation.items():
            rows.append(
                [
                    name,
                    fam,
                    str(e.items),
                    f"{e.escalated} ({_pct(e.share)})",
                    str(e.wrong),
                    str(e.wrong_escalated),
                    str(e.correctable),
                    f"{_pct(r.families[fam].rate if fam in r.families else None)} → "
                    f"{_pct(e.right_llm)}",
                    _pct(e.settled),
                    ", ".join(f"{k} {n}" for k, n in e.kinds.items()) or "—",
                ]
            )
    return rows


def render_escalation_table(report: BenchReport) -> Table | None:
    """The share of each family a hybrid judge would escalate, None without verdicts."""
    if not any(r.escalation for r in report.judges.values()):
        return None
    return _console_table(
        "Escalation of uncertain verdicts (LLM cost share per family)",
        ESCALATION_HEADERS,
        _escalation_rows(report),
        left=("judge", "family"),
    )


def _gate_headers_rows(report: BenchReport) -> tuple[list[str], list[list[str]]]:
    """The gate table: P1 acceptance (and P1q's, when the seeds have question
    paraphrases) and P5 rejection of the fixed, margin and calibrated gates."""
    asked = report.gate.fixed.n_p1q > 0
    headers = ["gate", "P1 accept", *(["P1q accept"] if asked else []), "P5 reject", "note"]
    rows = [
        [
            kind,
            _pct(g.p1_accept),
            *([_pct(g.p1q_accept)] if asked else []),
            _pct(g.p5_reject),
            g.note,
        ]
        for kind, g in (
            ("fixed", report.gate.fixed),
            ("margin", report.gate.margin),
            ("calibrated", report.gate.calibrated),
        )
    ]
    return headers, rows


def render_gate_table(report: BenchReport) -> Table:
    """The gate table as in the Markdown report, the pair counts in its title."""
    g = report.gate.fixed
    pairs = f"{g.n_p1} P1, {g.n_p5} P5" + (f", {g.n_p1q} P1q" if g.n_p1q else "")
    headers, rows = _gate_headers_rows(report)
    return _console_table(
        f"Gate (embedder {report.embedder}): {pairs} pairs",
        headers,
        rows,
        left=("gate", "note"),
    )


def _extra_markdown(report: BenchReport) -> list[str]:
    """P2p/P4p, the unverifiable counts and the worst items (issue 19 points 3, 4, 6)."""
    lines: list[str] = []
    if _has_paraphrase_bases(report):
        lines += _markdown_table(
            "The same corruptions on the seeds' paraphrases (P2p, P4p: not near-copies of "
            "the golden answer); DI on paraphrases = TP(P2p+P4p) − FP:",
            PARAPHRASE_HEADERS,
            _paraphrase_rows(report),
        )
    if any(r.on_passed_base for r in report.judges.values()):
        lines += _markdown_table(
            "The same, counted only where the judge passed the corruption's base (the "
            "paraphrase uncorrupted, same values, same draw: that draw's P6 item); a catch "
            "on a base the judge already penalised is not a catch. Each cell: rate "
            "(caught/counted; left out because the base was penalised):",
            PASSED_BASE_HEADERS,
            _passed_base_rows(report),
        )
    if any(r.verdicts for r in report.judges.values()):
        lines += [
            "",
            "Verdicts per family (every successful repeat): claims and steps, "
            "how many `unverifiable`:",
            "",
            "| judge | family | items | claims | unverifiable claims | steps "
            "| unverifiable steps | claims by status | steps by status |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for name, r in report.judges.items():
            for fam, v in r.verdicts.items():
                nc, ns = sum(v.claims.values()), sum(v.steps.values())

                def share(k: int, n: int) -> str:
                    return f"{k} ({k / n:.2f})" if n else "0"

                lines.append(
                    f"| {name} | {fam} | {v.items} | {nc} | {share(v.claims_unverifiable, nc)} "
                    f"| {ns} | {share(v.steps_unverifiable, ns)} "
                    f"| {', '.join(f'{k} {c}' for k, c in v.claims.items()) or '—'} "
                    f"| {', '.join(f'{k} {c}' for k, c in v.steps.items()) or '—'} |"
                )
    if any(r.escalation for r in report.judges.values()):
        lines += _markdown_table(
            "Escalation (`--judge hybrid --judge-escalate uncertain`): items with at least "
            "one `uncertain` verdict, which that judge sends to its LLM tier — the share is "
            "its LLM cost; of the items judged wrong, how many are escalated, and how many "
            "an LLM tier right on every item it sees would correct (not those a settled "
            "verdict also penalises); the penalty rate now and with such a tier (a bound, "
            "not a figure of any real LLM); the penalty rate on settled verdicts alone "
            "(what the `SettledPenaltySpike` alert watches):",
            ESCALATION_HEADERS,
            _escalation_rows(report),
        )
    if any(r.false_penalties for r in report.judges.values()):
        lines += _markdown_table(
            "What penalised the items that should pass (by the rule of the penalising "
            "verdict, from its cue; an item penalised by more than one rule counts under "
            "several rules): on a new domain, the rule to look at first:",
            ["judge", "family", "penalised", "items by rule"],
            [
                [
                    name,
                    fam,
                    str(sum(rules.values())),
                    "; ".join(f"{n} × {rule}" for rule, n in rules.items()).replace("|", "\\|"),
                ]
                for name, r in report.judges.items()
                for fam, rules in r.false_penalties.items()
            ],
        )
    if any(r.worst for r in report.judges.values()):
        lines += [
            "",
            "Worst items (wrong against the target, farthest from the 0.5 line first; "
            "`bench run --items` has every item with its verdicts):",
            "",
            "| judge | item | target | penalised | correctness | fidelity | why |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, r in report.judges.items():
            for w in r.worst:
                why = w.why.replace("|", "\\|")
                lines.append(
                    f"| {name} | `{w.id}` | {'penalise' if w.target_penalize else 'pass'} "
                    f"| {'yes' if w.penalized else 'no'} | {_pct(w.correctness)} "
                    f"| {_pct(w.fidelity)} | {why} |"
                )
    return lines


def render_markdown(report: BenchReport, figures: Mapping[str, str] | None = None) -> str:
    """The report as Markdown; ``figures`` (key -> image file name, from
    :func:`bench_figures`) adds a section that shows them."""
    inst = report.instances
    lines = [
        "# Cargo-Bench report",
        "",
        f"Instances: {inst.n} from {counted(inst.seeds, 'seed')} ({inst.source}, gen seed "
        f"{inst.gen_seed}, {counted(inst.draws, 'draw')}; by family "
        + ", ".join(f"{k} {v}" for k, v in sorted(inst.by_family.items()))
        + f"); repeats {report.repeats}; bootstrap {report.bootstrap_resamples}.",
        "",
        "Penalty rate per family (lower is better for P1/P3/P6, higher for P2/P4); "
        "TP = P2+P4 pooled, FP = P1+P3+P6 pooled, DI = TP − FP.",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in _rows(report)]
    missing = not_built_line(report)
    if missing:
        lines += ["", missing]
    lines += [
        "",
        "P4 by sub-type and P3 by split:",
        "",
        "| judge | delete_step | negate | swap_policy | P3 unobserved | P3 fabricated |",
        "|---|---|---|---|---|---|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in _subtype_rows(report)]
    lines += _extra_markdown(report)
    asked = report.gate.fixed.n_p1q > 0
    lines += _markdown_table(
        f"Gate (embedder {report.embedder}): P1 acceptance with its own reference, P5 rejection"
        + (
            "; P1q = P1 asked with the seeds' question paraphrases "
            f"({report.gate.fixed.n_p1q} pairs)."
            if asked
            else "."
        ),
        *_gate_headers_rows(report),
    )
    lines += _paper_layout(report)
    if any(r.usage.input_tokens or r.errors for r in report.judges.values()):
        lines += [
            "",
            "Judge usage (all repeats, failed calls included):",
            "",
            "| judge | input tokens | output tokens | est. cost (USD) | errors by kind |",
            "|---|---|---|---|---|",
        ]
        for name, r in report.judges.items():
            u = r.usage
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(r.error_kinds.items())) or "—"
            lines.append(
                f"| {name} | {u.input_tokens} | {u.output_tokens} | {u.cost_usd:.4f} | {kinds} |"
            )
    if report.paired:
        lines += [
            "",
            "Paired ΔDI (b − a, paired bootstrap):",
            "",
            "| a | b | n | ΔDI [95% CI] |",
            "|---|---|---|---|",
        ]
        for p in report.paired:
            ci = p.ci
            d = (
                "—"
                if p.delta_di is None
                else f"{p.delta_di:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")
            )
            lines.append(f"| {p.a} | {p.b} | {p.n} | {d} |")
    lines += figure_lines(figures or {})
    return "\n".join(lines) + "\n"


def _paper_layout(report: BenchReport) -> list[str]:
    """Tables 1-3 of the paper for the LLM rows of a report (empty when there are none)."""
    llm = {n: (r, r.llm) for n, r in report.judges.items() if r.llm is not None}
    if not llm:
        return []

    def row(name: str, r: JudgeReport, lead: list[str]) -> str:
        f = r.families
        return (
            "| "
            + " | ".join([*lead, *(_pct(f[x].rate) for x in ("P1", "P3", "P2", "P4")), _di_cell(r)])
            + " |"
        )

    out: list[str] = []
    default_rubric = [(n, r, lb) for n, (r, lb) in llm.items() if lb.rubric is None]
    for title, conds in (
        ("Table 1 — headline conditions", TABLE1),
        ("Table 2 — component ablations", TABLE2),
    ):
        rows = [row(n, r, [n]) for c in conds for n, r, lb in default_rubric if lb.condition == c]
        if rows:
            out += [
                "",
                f"{title} (penalty rate; lower is better for P1/P3, higher for P2/P4):",
                "",
                "| judge | P1 | P3 | P2 | P4 | DI [95% CI] |",
                "|---|---|---|---|---|---|",
                *rows,
            ]
    swapped = [(n, r, lb) for n, (r, lb) in llm.items() if lb.rubric is not None]
    if swapped:
        out += [
            "",
            "Table 3 — rubric swap (prompt x rubric):",
            "",
            "| prompt | rubric | P1 | P3 | P2 | P4 | DI [95% CI] |",
            "|---|---|---|---|---|---|---|",
        ]
        out += [row(n, r, [lb.condition, lb.rubric or ""]) for n, r, lb in swapped]
    return out


# --------------------------------------------------------------------------- figures

# Cargo's penalty rates as published (Chhabra, Patel, Medrano, "Cargo: Context-Aware
# Retrieval-Gated Evaluation of Agentic AI in Production", arXiv 2609.30471): Table 1,
# condition "Cargo", both judge models; P4 by corruption type from §6.1 (gpt-oss-120b:
# 10/26 step deletions, 0/10 negations, 0/14 policy swaps). The paper has no P6 family.
PAPER_SOURCE = (
    "Chhabra et al., arXiv 2609.30471: Table 1 (condition Cargo) and §6.1 "
    "(P4 by corruption type, gpt-oss-120b)"
)
PAPER_CARGO: dict[str, dict[str, float]] = {
    "gpt-oss-120b": {"P1": 0.00, "P3": 0.03, "P2": 1.00, "P4": 0.20},
    "gpt-oss-20b": {"P1": 0.00, "P3": 0.02, "P2": 0.98, "P4": 0.16},
}
PAPER_CARGO_P4 = {"delete_step": 10 / 26, "negate": 0 / 10, "swap_policy": 0 / 14}
FAMILY_NAMES = {
    "P1": "P1 transplant",
    "P2": "P2 contradiction",
    "P3": "P3 extra facts",
    "P4": "P4 procedure",
    "P6": "P6 paraphrase",
}
SHOULD_PENALIZE = ("P2", "P4")
SHOULD_NOT = ("P1", "P3", "P6")


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """Wilson score interval of a proportion k/n (95% by default); ``None`` when n = 0."""
    if n == 0:
        return None
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def _rates_panel(
    ax: Any,
    cats: Sequence[str],
    labels: Sequence[str],
    judges: Mapping[str, Mapping[str, Rate]],
    paper: Mapping[str, Mapping[str, float]],
) -> None:
    """Penalty rate and 95% Wilson interval of every judge per category, side by side,
    with the paper's figures as horizontal marks across each category."""
    k = len(judges)
    width = min(0.7, 0.18 * k)
    for j, (name, cells) in enumerate(judges.items()):
        off = (j - (k - 1) / 2) * (width / max(k - 1, 1)) if k > 1 else 0.0
        xs, ys, lo, hi = [], [], [], []
        for x, c in enumerate(cats):
            cell = cells.get(c)
            if not cell or not cell.n:
                continue
            ci = wilson(cell.penalized, cell.n)
            assert ci is not None
            rate = cell.penalized / cell.n
            xs.append(x + off)
            ys.append(rate)
            lo.append(max(0.0, rate - ci[0]))
            hi.append(max(0.0, ci[1] - rate))
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=5, capsize=3, lw=1.2, label=name, zorder=3)
    styles = (("black", "-"), ("dimgrey", "--"))
    for (src, rates), (color, ls) in zip(paper.items(), styles, strict=False):
        first = True
        for x, c in enumerate(cats):
            if c in rates:
                ax.hlines(
                    rates[c],
                    x - 0.45,
                    x + 0.45,
                    colors=color,
                    linestyles=ls,
                    lw=1.4,
                    zorder=2,
                    label=f"paper: Cargo, {src}" if first else None,
                )
                first = False
    ax.set_xticks(range(len(cats)), labels)
    ax.set_xlim(-0.6, len(cats) - 0.4)
    ax.set_ylim(-0.04, 1.04)
    ax.grid(axis="y", alpha=0.3)


def bench_figures(report: BenchReport) -> dict[str, bytes]:
    """PNG pictures of a bench report: ``families`` (penalty rate per family, 95% CIs,
    should-penalise families above the line, should-not below) and ``p4`` (P4 by
    corruption type); the paper's Cargo figures are drawn as reference marks."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    judges = report.judges
    by_family = report.instances.by_family
    out: dict[str, bytes] = {}

    def png(fig: Any) -> bytes:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        return buf.getvalue()

    fams = {name: r.families for name, r in judges.items()}
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.0, 6.4))
    _rates_panel(
        top,
        SHOULD_PENALIZE,
        [f"{FAMILY_NAMES[f]}\n(n {by_family.get(f, 0)})" for f in SHOULD_PENALIZE],
        fams,
        PAPER_CARGO,
    )
    top.set_title("Should be penalised — higher is better", fontsize=10)
    top.set_ylabel("penalty rate")
    _rates_panel(
        bottom,
        SHOULD_NOT,
        [f"{FAMILY_NAMES[f]}\n(n {by_family.get(f, 0)})" for f in SHOULD_NOT],
        fams,
        PAPER_CARGO,
    )
    bottom.set_title("Should not be penalised — lower is better", fontsize=10)
    bottom.set_ylabel("penalty rate")
    fig.suptitle(
        f"Cargo-Bench: penalty rate per family, 95% Wilson CI ({report.instances.n} instances)",
        fontsize=11,
    )
    fig.tight_layout(h_pad=2.5)
    # The line between the panels: midway between the upper panel's tick labels and the
    # lower panel's title.
    fig.draw_without_rendering()
    upper = top.get_tightbbox().transformed(fig.transFigure.inverted()).y0
    lower = bottom.get_tightbbox().transformed(fig.transFigure.inverted()).y1
    y = (upper + lower) / 2
    fig.add_artist(Line2D([0.02, 0.98], [y, y], transform=fig.transFigure, color="k", lw=1))
    handles, labels = top.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=8)
    out["families"] = png(fig)

    types = ("delete_step", "negate", "swap_policy")
    first = next(iter(judges.values()), None)
    counts = {t: first.p4_by_type[t].n for t in types} if first else {}
    fig, ax = plt.subplots(figsize=(7.0, 3.8))
    _rates_panel(
        ax,
        types,
        [f"{t.replace('_', ' ')}\n(n {counts.get(t, 0)})" for t in types],
        {name: r.p4_by_type for name, r in judges.items()},
        {"gpt-oss-120b (§6.1)": PAPER_CARGO_P4},
    )
    ax.set_title(
        "P4 procedural corruptions by type — higher is better (95% Wilson CI)", fontsize=10
    )
    ax.set_ylabel("penalty rate")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    out["p4"] = png(fig)
    return out


FIGURE_CAPTIONS = {
    "families": (
        "Penalty rate per family",
        "Each dot is one judge's penalty rate on a family, with its 95% Wilson interval; "
        "judges sit side by side. Above the line are the families a judge should penalise "
        "(P2 contradictions, P4 procedural corruptions: higher is better), below it the "
        "ones it should not (P1 entity transplants, P3 unobserved or fabricated extra "
        "facts, P6 paraphrases: lower is better). Horizontal marks are the paper's Cargo "
        "judge. ",
    ),
    "p4": (
        "P4 by corruption type",
        "Which procedural corruptions each judge catches: a deleted step, a negated "
        "condition, a swapped policy. The mark is the paper's Cargo judge (gpt-oss-120b). ",
    ),
}


def figure_lines(figures: Mapping[str, str]) -> list[str]:
    """A Markdown section showing the bench figures (``figures``: key -> file name)."""
    if not figures:
        return []
    out = ["", "## Figures"]
    for key, name in figures.items():
        title, how = FIGURE_CAPTIONS[key]
        out += ["", f"![{title}]({name})", "", f"*{title}.* {how}Paper: {PAPER_SOURCE}."]
    return out


# --------------------------------------------------------------------------- diff

DIFF_HEADERS = ["judge", "family", "compared", "right before", "right now", "fixed", "broken"]
_KIND_ORDER = {"broken": 0, "undecided": 1, "fixed": 2}


def _diff_rows(d: ItemsDiff) -> list[list[str]]:
    rows = []
    for (judge, fam), f in sorted(d.families.items()):
        rows.append(
            [
                judge,
                fam,
                str(f.compared),
                f"{f.right_old} ({f.right_old / f.compared:.2f})",
                f"{f.right_new} ({f.right_new / f.compared:.2f})",
                str(f.fixed),
                str(f.broken) + (f" (+{f.undecided} undecided)" if f.undecided else ""),
            ]
        )
    return rows


def _decision_word(v: bool | None) -> str:
    return "error" if v is None else ("penalised" if v else "passed")


def _move_line(m: Move) -> str:
    target = "penalise" if m.target_penalize else "pass"
    why = m.new_why if m.new else m.old_why
    return (
        f"{m.kind:9} {m.judge} {m.id} ({m.family}, should {target}): "
        f"{_decision_word(m.old)} -> {_decision_word(m.new)}" + (f" — {why}" if why else "")
    )


def bench_diff(
    old: str,
    new: str,
    *,
    judges: tuple[str, ...] = (),
    show: int = 20,
    json_out: str | None = None,
    fail_on_broken: bool = False,
) -> int:
    """``bench diff``: the items whose decision moved between two ``--items`` runs."""
    console = bench_console()
    check_writable(json_out, "JSON")
    d = diff_items(read_items(old), read_items(new), judges or None)
    if not d.families:
        raise ConfigError(
            f"no item is in both {old} and {new}"
            + (f" for judge {', '.join(judges)}" if judges else "")
            + ": compare runs of the same instances (same seeds, --draws, --gen-seed)"
        )
    console.print(
        _console_table(
            f"bench diff — {counted(d.compared, 'item')} in both runs: "
            f"{d.count('fixed')} fixed, {d.count('broken')} broken"
            + (f", {d.count('undecided')} undecided" if d.count("undecided") else ""),
            DIFF_HEADERS,
            _diff_rows(d),
            left=("judge", "family"),
        )
    )
    if d.only_old or d.only_new:
        console.print(
            f"not compared: {counted(d.only_old, 'item')} only in {old}, "
            f"{counted(d.only_new, 'item')} only in {new}"
        )
    moves = sorted(d.moves, key=lambda m: (_KIND_ORDER[m.kind], m.family, m.id))
    for m in moves[:show]:
        console.print(_move_line(m), markup=False, highlight=False)
    if len(moves) > show > 0 or (show == 0 and moves):
        console.print(f"… {counted(len(moves) - show, 'more moved item')} (--show, --json)")
    if json_out:
        payload = {
            "old": old,
            "new": new,
            "compared": d.compared,
            "only_old": d.only_old,
            "only_new": d.only_new,
            "families": [
                {"judge": j, "family": fam, **dataclasses.asdict(f)}
                for (j, fam), f in sorted(d.families.items())
            ],
            "moves": [{**dataclasses.asdict(m), "kind": m.kind} for m in moves],
        }
        write_output(json_out, json.dumps(payload, indent=2, ensure_ascii=False) + "\n", "JSON")
        console.print(f"report: {json_out}")
    return 1 if fail_on_broken and d.count("broken") else 0


def bench_table(
    reports: Sequence[str],
    *,
    judge: str | None = None,
    groups: Sequence[str] = (),
    out: str | None = None,
) -> int:
    """``bench table``: one Markdown table from ``bench run --json`` reports. A report
    is ``LABEL=PATH`` (or a path, labelled by its file name without ``.json``); a
    group is ``NAME=LABEL,LABEL,...`` and adds a row of each column's range."""
    from monitor.bench.table import figures, markdown, read_report

    check_writable(out, "Markdown")
    rows = []
    for spec in reports:
        label, sep, path = spec.partition("=")
        if not sep:
            label, path = Path(spec).name.removesuffix(".json"), spec
        if not label or not path:
            raise ConfigError(f"report {spec!r}: give LABEL=PATH or a path")
        rows.append(figures(label, read_report(path, judge)))
    labels = [r.label for r in rows]
    if len(set(labels)) != len(labels):
        raise ConfigError(f"two reports are labelled alike ({', '.join(labels)}): use LABEL=PATH")
    parsed: dict[str, list[str]] = {}
    for g in groups:
        name, sep, members = g.partition("=")
        names = [m.strip() for m in members.split(",") if m.strip()]
        if not sep or not name.strip() or not names:
            raise ConfigError(f"group {g!r}: give NAME=LABEL,LABEL,...")
        parsed[name.strip()] = names
    text = markdown(rows, parsed)
    if out:
        write_output(out, text, "Markdown")
        bench_console().print(f"table: {out}")
    else:
        sys.stdout.write(text)
    return 0
