"""``cargo-monitor bench generate|gate|run|diff|table``: Cargo-Bench (judge quality, not speed)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from monitor.settings import CargoSettings
from pipelines.cli.base import (
    add_settings_flags,
    option_group,
    settings_from_args,
    share,
    whole_at_least,
)

# Settings bench run takes from the environment and flags: the LLM endpoint and the judge's
# own knobs. Gate and embedder are the command's own flags (bench defaults differ).
_RUN_SETTINGS = [
    name
    for name, field in CargoSettings.model_fields.items()
    if isinstance(field.json_schema_extra, dict)
    and field.json_schema_extra.get("group") == "LLM endpoint"
] + [
    "judge_timeout_s",
    "judge_sample_rate",
    "judge_sample_rates",
    "judge_escalate",
    "citation_support",
    "embedder_runtime",
]


# ``--draws``: 0 would judge nothing and report dashes.
_draws = whole_at_least(1, "draw per seed")


def _register_generate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seeds", required=True, help="seed YAML file or directory")
    p.add_argument("--out", required=True, help="instances JSONL to write")
    p.add_argument("--draws", type=_draws, default=5, help="transplants per seed (default 5)")
    p.add_argument("--gen-seed", type=int, default=2027, help="generation seed")
    p.add_argument(
        "--drop-invalid",
        action="store_true",
        help="drop (and count) instances failing consistency checks instead of failing the run",
    )


def _run_generate(args: argparse.Namespace) -> int:
    from pipelines.reports.bench import bench_generate

    return bench_generate(
        args.seeds,
        args.out,
        draws=args.draws,
        gen_seed=args.gen_seed,
        drop_invalid=args.drop_invalid,
    )


def _register_gate(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seeds", required=True, help="seed YAML file or directory")
    p.add_argument("--draws", type=_draws, default=5, help="draws per seed (default 5)")
    p.add_argument(
        "--fit-gen-seed",
        type=int,
        default=2027,
        help="generation seed of the pairs the gates are fitted on (default 2027)",
    )
    p.add_argument(
        "--eval-gen-seed",
        type=int,
        default=3141,
        help="generation seed of the pairs they are evaluated on (default 3141)",
    )
    p.add_argument(
        "--p1-coverage",
        type=share,
        default=0.95,
        help="operating point: thresholds chosen on the fit pairs so that at "
        "least this share of P1 (P1q with --questions asked) is accepted (default 0.95)",
    )
    p.add_argument(
        "--method",
        choices=["isotonic", "logistic"],
        help="calibration method (default: lower out-of-fold log-loss)",
    )
    p.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    p.add_argument("--cache-dir", default=None)
    p.add_argument("--out", default="out/gate-demo", help="report directory")
    p.add_argument(
        "--questions",
        choices=["template", "asked"],
        default="template",
        help="fit and evaluate on template questions (P1/P5; P1q beside) or on "
        "questions as users ask them (P1q/P5q, from the seeds' question_paraphrases; "
        "template P1 beside)",
    )
    p.add_argument(
        "--split",
        choices=["questions", "seeds"],
        default=None,
        help="with --questions asked: fit and evaluate on different phrasings of the same "
        "seeds (one deployment; the default) or on different seeds, each half with its "
        "own golden set (two deployments; needs 4 seeds or more)",
    )
    add_settings_flags(p, CargoSettings, ["embedder_runtime"])


def _run_gate(args: argparse.Namespace) -> int:
    from pipelines.reports.bench import bench_console
    from pipelines.reports.gate_demo import GateDemoOptions, main_gate_demo

    opts = GateDemoOptions(
        seeds=args.seeds,
        draws=args.draws,
        fit_gen_seed=args.fit_gen_seed,
        eval_gen_seed=args.eval_gen_seed,
        p1_coverage=args.p1_coverage,
        method=args.method,  # argparse choices: isotonic | logistic
        embedder=args.embedder,
        embedder_runtime=settings_from_args(CargoSettings, args).embedder_runtime,
        cache_dir=args.cache_dir,
        out=args.out,
        questions=args.questions,
        split=args.split,
    )
    return main_gate_demo(opts, bench_console())


def _register_run(p: argparse.ArgumentParser) -> None:
    inp = option_group(p, "input")
    src = inp.add_mutually_exclusive_group(required=True)
    src.add_argument("--instances", help="instances JSONL from 'bench generate'")
    src.add_argument("--seeds", help="seed YAML file or directory (generated on the fly)")
    inp.add_argument("--draws", type=_draws, default=5)
    inp.add_argument("--gen-seed", type=int, default=2027)
    judge = option_group(p, "judge")
    judge.add_argument(
        "--judge",
        action="append",
        dest="judges",
        help="judge name; repeat for several (default: structural). Sanity "
        "judges: always-penalize, never-penalize",
    )
    judge.add_argument(
        "--repeats",
        type=whole_at_least(1),
        default=1,
        help="judge calls per item (an LLM judge uses seeds seed, seed+1, ...; "
        "the penalty rule applies to the per-item mean)",
    )
    judge.add_argument(
        "--condition",
        action="append",
        dest="conditions",
        help="LLM judge prompt condition; repeat for several (noref, direct, "
        "direct_ctx, cargo, cargo_unv, cargo_noex, cargo_noctx, cargo_auth)",
    )
    judge.add_argument(
        "--rubric",
        action="append",
        dest="rubrics",
        help="dimension rubric; repeat for a rubric swap (context_grounded, "
        "reference_grounded). Default: each condition's own",
    )
    gate = option_group(p, "gate")
    gate.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    gate.add_argument("--tau", type=float, default=0.80)
    gate.add_argument("--delta", type=float, default=0.02)
    gate.add_argument("--gamma", type=float, default=0.80)
    gate.add_argument("--gate-model", help="calibrated gate model (else cross-fitted)")
    gate.add_argument("--cache-dir", default=None)
    out = option_group(p, "output")
    out.add_argument("--json", help="write the report as JSON")
    out.add_argument(
        "--markdown", help="write the report as Markdown (its figures as PNGs next to it)"
    )
    out.add_argument(
        "--html", help="write the report as one self-contained HTML page (figures embedded)"
    )
    out.add_argument(
        "--items",
        help="write one JSONL row per judged instance: family, subtype, target, "
        "penalised, scores, claim and step verdicts with their evidence",
    )
    out.add_argument(
        "--bootstrap",
        type=whole_at_least(1),
        help="bootstrap resamples (default 10000)",
    )
    add_settings_flags(p, CargoSettings, _RUN_SETTINGS)


def _run_run(args: argparse.Namespace) -> int:
    from pipelines.reports.bench import BenchRunOptions, bench_run

    opts = BenchRunOptions(
        instances=args.instances,
        seeds=args.seeds,
        draws=args.draws,
        gen_seed=args.gen_seed,
        judges=tuple(args.judges or ("structural",)),
        repeats=args.repeats,
        conditions=tuple(args.conditions or ()),
        rubrics=tuple(args.rubrics or ()),
        json=args.json,
        markdown=args.markdown,
        html=args.html,
        items=args.items,
        embedder=args.embedder,
        tau=args.tau,
        delta=args.delta,
        gamma=args.gamma,
        gate_model=args.gate_model,
        cache_dir=args.cache_dir,
        **({} if args.bootstrap is None else {"bootstrap": args.bootstrap}),
    )
    return bench_run(opts, settings_from_args(CargoSettings, args))


def _register_diff(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", help="items JSONL of the earlier run ('bench run --items')")
    p.add_argument("new", help="items JSONL of the later run, of the same instances")
    p.add_argument(
        "--judge",
        action="append",
        dest="judges",
        help="compare only this judge's rows; repeat for several (default: all)",
    )
    p.add_argument(
        "--show",
        type=whole_at_least(0),
        default=20,
        help="moved items listed, broken ones first (default 20; 0 lists none)",
    )
    p.add_argument("--json", help="also write every moved item and the counts as JSON")
    p.add_argument(
        "--fail-on-broken",
        action="store_true",
        help="exit 1 when an item the old run judged right is judged wrong now",
    )


def _run_diff(args: argparse.Namespace) -> int:
    from pipelines.reports.bench import bench_diff

    return bench_diff(
        args.old,
        args.new,
        judges=tuple(args.judges or ()),
        show=args.show,
        json_out=args.json,
        fail_on_broken=args.fail_on_broken,
    )


def _register_table(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "reports",
        nargs="+",
        metavar="[LABEL=]REPORT",
        help="'bench run --json' reports, one row each in this order (label: the file "
        "name without .json, or LABEL=)",
    )
    p.add_argument(
        "--judge", help="the judge whose figures to show (default: each report's only one)"
    )
    p.add_argument(
        "--group",
        action="append",
        default=[],
        metavar="NAME=LABEL,LABEL,...",
        help="add a row with each column's range over these reports; repeat for several",
    )
    p.add_argument("--out", help="write the Markdown table here (default: stdout)")


def _run_table(args: argparse.Namespace) -> int:
    from pipelines.reports.bench import bench_table

    return bench_table(args.reports, judge=args.judge, groups=args.group, out=args.out)


_Sub = tuple[str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
SUBCOMMANDS: dict[str, _Sub] = {
    "generate": ("generate labelled instances from seeds", _register_generate, _run_generate),
    "gate": (
        "calibrated vs fixed vs margin gates: fit on P1/P5 "
        "pairs of one generation seed, evaluate on another",
        _register_gate,
        _run_gate,
    ),
    "run": ("judge instances and report DI", _register_run, _run_run),
    "diff": (
        "compare two 'bench run --items' files of the same instances: the items whose "
        "decision moved, fixed or broken, per family",
        _register_diff,
        _run_diff,
    ),
    "table": (
        "one Markdown table from 'bench run --json' reports: a row per report, a "
        "column per family, bold where the target is met, group rows of ranges",
        _register_table,
        _run_table,
    ),
}


class BenchCommand:
    name = "bench"
    help = "Cargo-Bench: generate instances, run judges"

    def register(self, parser: argparse.ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="bench_command", required=True)
        for name, (text, register, _) in SUBCOMMANDS.items():
            register(sub.add_parser(name, help=text, description=text))

    def run(self, args: argparse.Namespace) -> int:
        return SUBCOMMANDS[args.bench_command][2](args)


COMMAND = BenchCommand()
