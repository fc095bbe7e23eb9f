"""``cargo-monitor bench generate|run``: Cargo-Bench from seeds to a Table-1 report."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from monitor.bench.generate import BenchHeader, BenchInstance, generate, read_instances
from monitor.bench.runner import (
    BOOTSTRAP_RESAMPLES,
    SANITY_JUDGES,
    judge_items,
    paired_delta,
    retrieve_gate_items,
    summarize,
)
from monitor.bench.seeds import load_seeds
from monitor.embeddings import make_embedder
from monitor.errors import ConfigError
from monitor.gate import CalibratedGate, load_gate_model
from monitor.judges import JUDGES, Judge, JudgeDeps, TraceSampler, aclose_judge, make_judge
from monitor.retrieval import GoldenIndex
from monitor.settings import default_cache_dir
from pipelines.cli.options import add_llm_options, settings_from

REPORT_FORMAT = "cargo-bench-report/1"
LLM_JUDGES = ("llm", "hybrid")
# The paper's layout: Table 1 headline conditions, Table 2 component ablations,
# Table 3 the rubric swap (prompt x rubric).
TABLE1 = ("noref", "direct", "direct_ctx", "cargo", "cargo_auth")
TABLE2 = ("cargo_noctx", "cargo_noex", "cargo_unv")


def add_bench_parser(sub: Any) -> None:
    bench = sub.add_parser("bench", help="Cargo-Bench: generate instances, run judges")
    bsub = bench.add_subparsers(dest="bench_command", required=True)

    gen = bsub.add_parser("generate", help="generate labelled instances from seeds")
    gen.add_argument("--seeds", required=True, help="seed YAML file or directory")
    gen.add_argument("--out", required=True, help="instances JSONL to write")
    gen.add_argument("--draws", type=int, default=5, help="transplants per seed (default 5)")
    gen.add_argument("--gen-seed", type=int, default=2027, help="generation seed")
    gen.add_argument(
        "--drop-invalid",
        action="store_true",
        help="drop (and count) instances failing consistency checks instead of failing the run",
    )

    gate = bsub.add_parser(
        "gate",
        help="calibrated vs fixed vs margin gates: fit on P1/P5 "
        "pairs of one generation seed, evaluate on another",
    )
    gate.add_argument("--seeds", required=True, help="seed YAML file or directory")
    gate.add_argument("--draws", type=int, default=5)
    gate.add_argument("--fit-gen-seed", type=int, default=2027)
    gate.add_argument("--eval-gen-seed", type=int, default=3141)
    gate.add_argument(
        "--p1-coverage",
        type=float,
        default=0.95,
        help="operating point: thresholds chosen on the fit pairs so that at "
        "least this share of P1 is accepted (default 0.95)",
    )
    gate.add_argument(
        "--method",
        choices=["isotonic", "logistic"],
        help="calibration method (default: lower out-of-fold log-loss)",
    )
    gate.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    gate.add_argument("--cache-dir", default=None)
    gate.add_argument("--out", default="out/gate-demo", help="report directory")

    run = bsub.add_parser("run", help="judge instances and report DI")
    src = run.add_mutually_exclusive_group(required=True)
    src.add_argument("--instances", help="instances JSONL from 'bench generate'")
    src.add_argument("--seeds", help="seed YAML file or directory (generated on the fly)")
    run.add_argument("--draws", type=int, default=5)
    run.add_argument("--gen-seed", type=int, default=2027)
    run.add_argument(
        "--judge",
        action="append",
        dest="judges",
        help="judge name; repeat for several (default: structural). Sanity "
        "judges: always-penalize, never-penalize",
    )
    run.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="judge calls per item (an LLM judge uses seeds seed, seed+1, ...; "
        "the penalty rule applies to the per-item mean)",
    )
    run.add_argument(
        "--condition",
        action="append",
        dest="conditions",
        help="LLM judge prompt condition; repeat for several (noref, direct, "
        "direct_ctx, cargo, cargo_unv, cargo_noex, cargo_noctx, cargo_auth)",
    )
    run.add_argument(
        "--rubric",
        action="append",
        dest="rubrics",
        help="dimension rubric; repeat for a rubric swap (context_grounded, "
        "reference_grounded). Default: each condition's own",
    )
    run.add_argument("--json", help="write the report as JSON")
    run.add_argument("--markdown", help="write the report as Markdown")
    run.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    run.add_argument("--tau", type=float, default=0.80)
    run.add_argument("--delta", type=float, default=0.02)
    run.add_argument("--gamma", type=float, default=0.80)
    run.add_argument("--gate-model", help="calibrated gate model (else cross-fitted)")
    run.add_argument(
        "--bootstrap",
        type=int,
        default=BOOTSTRAP_RESAMPLES,
        help="bootstrap resamples (default 10000)",
    )
    run.add_argument("--cache-dir", default=None)
    add_llm_options(run)


def _make_bench_judge(name: str, deps: JudgeDeps) -> Judge:
    if name in SANITY_JUDGES:
        judge: Judge = SANITY_JUDGES[name]()
        return judge
    if name not in JUDGES:
        raise ConfigError(
            f"unknown judge {name!r}; choose from: {', '.join(sorted([*JUDGES, *SANITY_JUDGES]))}"
        )
    return make_judge(name, deps)


def main_bench(args: argparse.Namespace) -> int:
    console = Console(width=None if sys.stdout.isatty() else 160)
    if args.bench_command == "generate":
        seeds = load_seeds(args.seeds)
        out = generate(
            seeds, draws=args.draws, gen_seed=args.gen_seed, drop_invalid=args.drop_invalid
        )
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(out.to_jsonl(), encoding="utf-8")
        counts: dict[str, int] = {}
        for i in out.instances:
            counts[i.family] = counts.get(i.family, 0) + 1
        console.print(
            f"{args.out}: {len(out.instances)} instances from {len(seeds)} seeds "
            f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}); "
            f"dropped {sum(out.header.dropped.values())}"
        )
        for p in out.problems[:20]:
            console.print(f"  dropped: {p}")
        return 0

    if args.bench_command == "gate":
        from pipelines.reports.gate_demo import main_gate_demo

        return main_gate_demo(args, console)

    if args.instances:
        path = Path(args.instances)
        if not path.exists():
            raise ConfigError(f"instances file not found: {path}")
        header, instances = read_instances(path.read_text(encoding="utf-8"), source=str(path))
        source = str(path)
    else:
        gen = generate(
            load_seeds(args.seeds), draws=args.draws, gen_seed=args.gen_seed, drop_invalid=True
        )
        header, instances, source = gen.header, gen.instances, str(args.seeds)
    report = asyncio.run(run_report(header, instances, args, source))
    console.print(render_table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        console.print(f"report: {args.json}")
    if args.markdown:
        Path(args.markdown).write_text(render_markdown(report), encoding="utf-8")
        console.print(f"report: {args.markdown}")
    return 0


async def run_report(
    header: BenchHeader, instances: list[BenchInstance], args: argparse.Namespace, source: str
) -> dict[str, Any]:
    embedder = make_embedder(args.embedder)
    settings = settings_from(args)
    deps = JudgeDeps(
        embedder=embedder,
        procedure=settings.procedure(),
        llm=settings.llm(),
        sampler=TraceSampler(1.0),
    )
    judges: dict[str, Judge] = {}
    labels: dict[str, dict[str, str | None]] = {}
    for n in args.judges or ["structural"]:
        if n not in LLM_JUDGES:
            judges[n] = _make_bench_judge(n, deps)
            continue
        if deps.llm is None:
            raise ConfigError(
                f"--judge {n} needs an endpoint and a model: --judge-base-url "
                "and --judge-model (or CARGO_JUDGE_BASE_URL/CARGO_JUDGE_MODEL)"
            )
        for cond in args.conditions or [settings.judge_condition]:
            for rubric in args.rubrics or [settings.judge_rubric]:
                cfg = dataclasses.replace(deps.llm, condition=cond, rubric=rubric)
                label = f"{n}:{cond}" + (f"/{rubric}" if rubric else "")
                judges[label] = make_judge(n, dataclasses.replace(deps, llm=cfg))
                labels[label] = {"condition": cond, "rubric": rubric}
    names = list(judges)
    cache = Path(args.cache_dir) if args.cache_dir else default_cache_dir()
    index = GoldenIndex(header.golden, embedder, cache_dir=cache)
    from monitor.bench.runner import gate_report

    calibrated = CalibratedGate(load_gate_model(args.gate_model)) if args.gate_model else None
    gate = gate_report(
        retrieve_gate_items(index, instances),
        tau=args.tau,
        delta=args.delta,
        gamma=args.gamma,
        calibrated=calibrated,
    )
    outcomes = {}
    report_judges: dict[str, Any] = {}
    try:
        for name, judge in judges.items():
            res = await judge_items(
                judge,
                instances,
                header.golden,
                repeats=args.repeats,
                concurrency=max(8, settings.judge_max_concurrency),
                timeout_s=settings.judge_timeout_s,
            )
            outcomes[name] = {o.instance.id: o for o in res}
            report_judges[name] = {
                **summarize(res, resamples=args.bootstrap),
                "gate": gate,
                "judge": judge.info.model_dump(),
                **({"llm": labels[name]} if name in labels else {}),
            }
    finally:
        for judge in judges.values():
            await aclose_judge(judge)
    paired = []
    for k, a in enumerate(names):
        for b in names[k + 1 :]:
            paired.append(
                {"a": a, "b": b, **paired_delta(outcomes[a], outcomes[b], resamples=args.bootstrap)}
            )
    fam_counts: dict[str, int] = {}
    for i in instances:
        fam_counts[i.family] = fam_counts.get(i.family, 0) + 1
    return {
        "format": REPORT_FORMAT,
        "instances": {
            "source": source,
            "n": len(instances),
            "by_family": fam_counts,
            "gen_seed": header.gen_seed,
            "draws": header.draws,
            "seeds_hash": header.seeds_hash,
            "seeds": len(header.seeds),
            "dropped": header.dropped,
        },
        "repeats": args.repeats,
        "embedder": embedder.model_id,
        "bootstrap_resamples": args.bootstrap,
        "judges": report_judges,
        "gate": gate,
        "paired": paired,
    }


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _rows(report: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, r in report["judges"].items():
        f = r["families"]
        ci = r["di_ci"]
        di = (
            "—"
            if r["di"] is None
            else f"{r['di']:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
        )
        rows.append(
            [
                name,
                *(_pct(f[x]["rate"]) for x in ("P1", "P2", "P3", "P4", "P6")),
                _pct(r["tp"]),
                _pct(r["fp"]),
                di,
                str(r["errors"]),
            ]
        )
    return rows


HEADERS = ["judge", "P1 ↓", "P2 ↑", "P3 ↓", "P4 ↑", "P6 ↓", "TP", "FP", "DI [95% CI]", "errors"]


def render_table(report: dict[str, Any]) -> Table:
    inst = report["instances"]
    t = Table(
        title=f"Cargo-Bench — {inst['n']} instances, {inst['seeds']} seeds, "
        f"repeats {report['repeats']} (penalty rate per family)"
    )
    for h in HEADERS:
        t.add_column(h, justify="left" if h == "judge" else "right")
    for row in _rows(report):
        t.add_row(*row)
    return t


def render_markdown(report: dict[str, Any]) -> str:
    inst = report["instances"]
    lines = [
        "# Cargo-Bench report",
        "",
        f"Instances: {inst['n']} from {inst['seeds']} seeds ({inst['source']}, gen seed "
        f"{inst['gen_seed']}, {inst['draws']} draws; by family "
        + ", ".join(f"{k} {v}" for k, v in sorted(inst["by_family"].items()))
        + f"); repeats {report['repeats']}; bootstrap {report['bootstrap_resamples']}.",
        "",
        "Penalty rate per family (lower is better for P1/P3/P6, higher for P2/P4); "
        "TP = P2+P4 pooled, FP = P1+P3+P6 pooled, DI = TP − FP.",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "---|" * len(HEADERS),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in _rows(report)]
    lines += [
        "",
        "P4 by sub-type and P3 by split:",
        "",
        "| judge | delete_step | negate | swap_policy | P3 unobserved | P3 fabricated |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in report["judges"].items():
        p4, p3 = r["p4_by_type"], r["p3_by_split"]
        lines.append(
            f"| {name} | "
            + " | ".join(
                f"{_pct(p4[t]['rate'])} ({p4[t]['n']})"
                for t in ("delete_step", "negate", "swap_policy")
            )
            + " | "
            + " | ".join(
                f"{_pct(p3[s]['rate'])} ({p3[s]['n']})" for s in ("unobserved", "fabricated")
            )
            + " |"
        )
    lines += [
        "",
        f"Gate (embedder {report['embedder']}): P1 acceptance with its own "
        "reference, P5 rejection.",
        "",
        "| gate | P1 accept | P5 reject | note |",
        "|---|---|---|---|",
    ]
    for kind, g in report["gate"].items():
        lines.append(
            f"| {kind} | {_pct(g['p1_accept'])} | {_pct(g['p5_reject'])} | {g.get('model', '')} |"
        )
    lines += _paper_layout(report)
    if any(r["usage"]["input_tokens"] or r["errors"] for r in report["judges"].values()):
        lines += [
            "",
            "Judge usage (all repeats, failed calls included):",
            "",
            "| judge | input tokens | output tokens | est. cost (USD) | errors by kind |",
            "|---|---|---|---|---|",
        ]
        for name, r in report["judges"].items():
            u = r["usage"]
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(r["error_kinds"].items())) or "—"
            lines.append(
                f"| {name} | {u['input_tokens']} | {u['output_tokens']} | "
                f"{u['cost_usd']:.4f} | {kinds} |"
            )
    if report["paired"]:
        lines += [
            "",
            "Paired ΔDI (b − a, paired bootstrap):",
            "",
            "| a | b | n | ΔDI [95% CI] |",
            "|---|---|---|---|",
        ]
        for p in report["paired"]:
            ci = p["ci"]
            d = (
                "—"
                if p["delta_di"] is None
                else f"{p['delta_di']:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")
            )
            lines.append(f"| {p['a']} | {p['b']} | {p['n']} | {d} |")
    return "\n".join(lines) + "\n"


def _paper_layout(report: dict[str, Any]) -> list[str]:
    """Tables 1-3 of the paper for the LLM rows of a report (empty when there are none)."""
    llm = {n: r for n, r in report["judges"].items() if "llm" in r}
    if not llm:
        return []

    def row(name: str, r: dict[str, Any], lead: list[str]) -> str:
        f, ci = r["families"], r["di_ci"]
        di = (
            "—"
            if r["di"] is None
            else f"{r['di']:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
        )
        return (
            "| "
            + " | ".join([*lead, *(_pct(f[x]["rate"]) for x in ("P1", "P3", "P2", "P4")), di])
            + " |"
        )

    out: list[str] = []
    default_rubric = [(n, r) for n, r in llm.items() if r["llm"]["rubric"] is None]
    for title, conds in (
        ("Table 1 — headline conditions", TABLE1),
        ("Table 2 — component ablations", TABLE2),
    ):
        rows = [
            row(n, r, [n]) for c in conds for n, r in default_rubric if r["llm"]["condition"] == c
        ]
        if rows:
            out += [
                "",
                f"{title} (penalty rate; lower is better for P1/P3, higher for P2/P4):",
                "",
                "| judge | P1 | P3 | P2 | P4 | DI [95% CI] |",
                "|---|---|---|---|---|---|",
                *rows,
            ]
    swapped = [(n, r) for n, r in llm.items() if r["llm"]["rubric"] is not None]
    if swapped:
        out += [
            "",
            "Table 3 — rubric swap (prompt x rubric):",
            "",
            "| prompt | rubric | P1 | P3 | P2 | P4 | DI [95% CI] |",
            "|---|---|---|---|---|---|---|",
        ]
        out += [row(n, r, [r["llm"]["condition"], r["llm"]["rubric"]]) for n, r in swapped]
    return out
