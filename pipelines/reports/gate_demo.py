"""``cargo-monitor bench gate``: does the calibrated gate beat the fixed and margin gates?

The calibrated gate is fitted on the P1/P5 (question, reference) pairs of one
generation seed and all three gates are compared on the pairs of another, so
that no pair is scored by a model fitted on it:

* operating point: each gate's threshold is chosen on the fit pairs to accept at
  least ``--p1-coverage`` of P1 (for the margin gate, the (τ, δ) with the best P5
  rejection among those), then applied unchanged to the evaluation pairs;
* risk-coverage on the evaluation pairs with loss = "the reference is not an
  appropriate exemplar" (P5 accepted), AURC per gate against random sampling and
  an oracle ordering.

Where the seeds carry ``question_paraphrases``, each gate's operating point is also
applied to P1 asked the way users ask (P1q pairs of the evaluation seed): P1 accept
on them sits beside the template questions'. P1q never enters a fit.

``--questions asked`` fits and evaluates on questions as users ask them instead: the
P1 role is played by the P1q pairs, and each P5 pair (this seed's reference, another
seed's question) is asked with one of that other seed's question paraphrases from
the same draw (P5q). With masked template questions every P1 scores s* = 1.0 and the
three gates sit at the oracle; asked questions score below 1.0, so the gates can
differ. The asked texts are the same in every generation seed (only the masked
entity values differ), so fit and evaluation are split: ``--split questions`` (one
deployment, new phrasings: fit on each seed's question paraphrases at even positions
of its list, evaluate on the odd) or ``--split seeds`` (two deployments, each with
its own golden set as the index: fit on the seeds at even positions of the sorted
ids, evaluate on the others; no evaluated question, item or intent is in the fit).
Template P1 acceptance of the evaluated seeds is reported beside, same thresholds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from rich.console import Console
from rich.table import Table

from monitor.bench.generate import BenchInstance, Generated, generate
from monitor.bench.runner import (
    GATE_FAMILIES,
    GateItem,
    calibration_rows,
    retrieve_gate_items,
)
from monitor.bench.seeds import load_seeds
from monitor.calibration import MIN_ROWS, Method, calibrate, predict
from monitor.embeddings import Embedder, Runtime, make_embedder
from monitor.errors import ConfigError, GateModelError
from monitor.gate import save_gate_model
from monitor.io import make_output_dir
from monitor.retrieval import GoldenIndex, Retrieval
from monitor.selective import threshold_for_coverage
from monitor.settings import default_cache_dir
from monitor.text.lexicon import counted
from pipelines.reports.report import Item, html_page, plots, selective, selective_lines


def _op(accept: np.ndarray, fam: np.ndarray, bad: np.ndarray) -> dict[str, float]:
    """P1 acceptance, P5 rejection, coverage and risk (the share of accepted pairs whose
    reference is not appropriate: ``bad``; with template questions exactly the P5
    pairs, with asked ones also a P1q whose nearest item is another seed's)."""
    p1, p5 = fam == "P1", fam == "P5"
    acc_n = int(accept.sum())
    return {
        "p1_accept": float(accept[p1].mean()),
        "p5_reject": float((~accept[p5]).mean()),
        "coverage": float(accept.mean()),
        "risk": float((accept & bad).sum() / acc_n) if acc_n else float("nan"),
    }


def _margin_point(
    s: np.ndarray, d: np.ndarray, fam: np.ndarray, target: float
) -> tuple[float, float]:
    p1 = fam == "P1"
    best: tuple[float, float, float] | None = None
    # (An infinite Δ — no second item to retrieve — passes every δ; the grid is
    # drawn from the finite ones.)
    finite = d[np.isfinite(d)]
    grid = np.quantile(finite, np.linspace(0, 0.9, 19)) if len(finite) else np.array([])
    for dl in np.unique(np.concatenate([[0.0], grid])):
        ok = d >= dl
        if ok[p1].mean() < target:
            continue
        pt = threshold_for_coverage(np.where(ok[p1], s[p1], -np.inf), target)
        if pt is None:
            continue
        acc = (s >= pt.threshold) & ok
        rej = float((~acc[fam == "P5"]).mean())
        if best is None or rej > best[2]:
            best = (pt.threshold, float(dl), rej)
    assert best is not None  # delta 0 always qualifies
    return best[0], best[1]


Questions = Literal["template", "asked"]
Split = Literal["questions", "seeds"]


def asked_gate_items(index: GoldenIndex, instances: list[BenchInstance]) -> list[GateItem]:
    """The gate pairs of questions asked the way users ask, retrieved as production
    retrieves: every P1q question with its nearest golden item (appropriate only when
    that is its own seed's), and the same question once more with its own seed's item
    left out of the index (P5q: a question the golden set does not cover, never
    appropriate). s* and Δ are the real top-1 and top-1 − top-2 of that retrieval."""
    asked = [i for i in instances if i.family == "P1q"]
    if not asked:
        return []
    items = index.golden.items
    ids = [g.id for g in items]
    vecs, plain = index.embed_queries([i.question for i in asked])
    sims = np.clip(index.item_similarities(vecs, plain), -1, 1)
    out: list[GateItem] = []

    def nearest(row: np.ndarray, order: list[int]) -> Retrieval:
        second = float(row[order[1]]) if len(order) > 1 else None
        return Retrieval(items[order[0]], float(row[order[0]]), second)

    for inst, row in zip(asked, sims, strict=True):
        order = [int(k) for k in np.argsort(-row, kind="stable")]
        out.append(GateItem(inst, nearest(row, order)))
        rest = [k for k in order if ids[k] != inst.reference_id]
        if rest:
            uncovered = inst.model_copy(update={"id": f"{inst.id}-uncovered", "family": "P5"})
            out.append(GateItem(uncovered, nearest(row, rest)))
    return out


def deployment_items(
    gen: Generated, seeds: set[str], embedder: Embedder, cache: Path | None = None
) -> list[GateItem]:
    """:func:`asked_gate_items` of ``seeds``' questions against a golden set of
    ``seeds``' items only: one deployment, as if the other seeds did not exist."""
    golden = gen.header.golden
    sub = golden.model_copy(update={"items": tuple(g for g in golden.items if g.id in seeds)})
    insts = [i for i in gen.instances if i.seed in seeds]
    return asked_gate_items(GoldenIndex(sub, embedder, cache_dir=cache), insts)


@dataclass(frozen=True, slots=True)
class GateDemoOptions:
    """``bench gate``: where the pairs come from, the operating point, where to write."""

    seeds: str
    draws: int = 5
    fit_gen_seed: int = 2027
    eval_gen_seed: int = 3141
    p1_coverage: float = 0.95
    method: Method | None = None
    embedder: str = "minilm"
    embedder_runtime: Runtime = "torch"
    cache_dir: str | None = None
    out: str = "out/gate-demo"
    questions: Questions = "template"
    split: Split | None = None  # with questions="asked"; None = "questions"


def _phrasings(run: Generated, parity: int) -> list[BenchInstance]:
    """A run's P1q questions at even (0) or odd (1) positions of their seed's list."""
    return [
        i
        for i in run.instances
        if i.family == "P1q" and int(i.detail.get("template", 0)) % 2 == parity
    ]


def _fit_seeds(ids: list[str]) -> set[str]:
    """The seeds a two-deployment split fits on: even positions of the sorted ids (the
    others are evaluated)."""
    return set(ids[0::2])


def _check_asked(opts: GateDemoOptions, fit: Generated, ev: Generated, ids: list[str]) -> None:
    """``--questions asked`` needs questions asked as users ask in both halves: checked
    on the generated instances (each asked question is one or two gate pairs), so that
    seeds without them fail before anything is embedded."""
    if opts.split == "seeds":
        fit_ids = _fit_seeds(ids)
        halves = [
            [i for i in fit.instances if i.family == "P1q" and i.seed in fit_ids],
            [i for i in ev.instances if i.family == "P1q" and i.seed not in fit_ids],
        ]
        need = (
            "seeds with question_paraphrases in both halves (seeds alternate by "
            "sorted id: even positions fit, odd evaluated)"
        )
    else:
        halves = [_phrasings(fit, 0), _phrasings(ev, 1)]
        need = (
            "seeds with question_paraphrases (two or more each: even "
            "positions of the list fit, odd evaluated)"
        )
    for name, part in zip(("fit on", "evaluate on"), halves, strict=True):
        if not part:
            raise ConfigError(
                f"--questions asked: {opts.seeds} has no question asked as users ask "
                f"to {name}; it needs {need}"
            )


def main_gate_demo(opts: GateDemoOptions, console: Console) -> int:
    if opts.split is not None and opts.questions != "asked":
        raise ConfigError("--split applies to --questions asked only")
    out = make_output_dir(Path(opts.out), "report")  # a bad --out: one line, before the work
    seeds = load_seeds(opts.seeds)
    ids = sorted({s.id for s in seeds})
    if opts.questions == "asked" and opts.split == "seeds" and len(ids) < 4:
        raise ConfigError(
            f"--questions asked --split seeds: {opts.seeds} has {len(ids)} seeds; "
            "it needs at least 4 (each half is a golden set of two or more items)"
        )
    if opts.questions == "asked" and len(ids) < 2:
        raise ConfigError(
            f"--questions asked: {opts.seeds} has one seed; a question the golden "
            "set does not cover needs a second golden item to retrieve"
        )
    fit = generate(seeds, draws=opts.draws, gen_seed=opts.fit_gen_seed, drop_invalid=True)
    ev = generate(seeds, draws=opts.draws, gen_seed=opts.eval_gen_seed, drop_invalid=True)
    if opts.questions == "asked":
        _check_asked(opts, fit, ev, ids)  # before the embedding model is loaded
    else:
        # The calibrated gate is fitted, cross-validated, on the fit draws' P1 and P5
        # pairs: too few is one line before the embedding model is loaded.
        pairs = sum(i.family in GATE_FAMILIES and i.family != "P1q" for i in fit.instances)
        if pairs < MIN_ROWS:
            raise ConfigError(
                f"{opts.seeds}: {counted(pairs, 'P1/P5 pair')} to fit the calibrated gate "
                f"on ({counted(len(ids), 'seed')}, --draws {opts.draws}); it needs at "
                f"least {MIN_ROWS}: add seeds or raise --draws"
            )
    cache = Path(opts.cache_dir) if opts.cache_dir else default_cache_dir()
    embedder = make_embedder(opts.embedder, runtime=opts.embedder_runtime, cache_dir=cache)
    index = GoldenIndex(fit.header.golden, embedder, cache_dir=cache)
    ev_all = retrieve_gate_items(index, ev.instances)
    if opts.questions == "asked":
        # Asked texts are the same in every generation seed (only the masked entity
        # values differ), so fit and evaluation are split by phrasing or by seed.
        if opts.split == "seeds":
            # Two deployments: each half has its own golden set (index), questions and
            # labels, so no evaluated question, item or intent was seen in the fit.
            fit_ids = _fit_seeds(ids)
            ev_ids = set(ids) - fit_ids
            fit_items = deployment_items(fit, fit_ids, embedder, cache)
            ev_items = deployment_items(ev, ev_ids, embedder, cache)
            split_md = (
                f"Two deployments: fit on {len(fit_ids)} seeds (even positions of the sorted "
                f"ids; their golden items are the index) of gen seed {opts.fit_gen_seed}, "
                f"evaluated on the other {len(ev_ids)} (with theirs) of gen seed "
                f"{opts.eval_gen_seed}"
            )
            split_json: dict[str, Any] = {
                "split": "seeds",
                "fit_seeds": sorted(fit_ids),
                "eval_seeds": sorted(ev_ids),
            }
            role = f"two deployments, fit on {len(fit_ids)} seeds, evaluated on {len(ev_ids)}"
        else:
            # One deployment (every seed's item in the index), new phrasings: fit on
            # each seed's question paraphrases at even positions, evaluate on the odd.
            fit_items = asked_gate_items(index, _phrasings(fit, 0))
            ev_items = asked_gate_items(index, _phrasings(ev, 1))
            # The evaluated seeds: those with a second phrasing (a seed with one
            # question paraphrase is fitted on only, and left out of "beside").
            ev_ids = {g.instance.seed for g in ev_items}
            split_md = (
                "One deployment (every seed's golden item is the index): fit on each seed's "
                f"question paraphrases at even positions of its list (gen seed "
                f"{opts.fit_gen_seed}), evaluated on those at odd positions (gen seed "
                f"{opts.eval_gen_seed})"
            )
            split_json = {"split": "questions"}
            role = "one deployment, fit and evaluated on different phrasings"
        ev_asked = [g for g in ev_all if g.instance.family == "P1" and g.instance.seed in ev_ids]
        other_key, other_head = "p1_template_accept", "P1 template accept"
    else:
        fit_all = retrieve_gate_items(index, fit.instances)
        fit_items = [g for g in fit_all if g.instance.family != "P1q"]
        ev_items = [g for g in ev_all if g.instance.family != "P1q"]
        ev_asked = [g for g in ev_all if g.instance.family == "P1q"]
        other_key, other_head = "p1q_accept", "P1q accept"
        role = ""
    try:
        cal = calibrate(
            calibration_rows(fit_items), method=opts.method, embedding_model=embedder.model_id
        )
    except GateModelError as exc:
        raise ConfigError(
            f"{opts.seeds}: cannot fit the calibrated gate: {exc}; add seeds or raise --draws"
        ) from exc
    model = cal.model

    def arrays(items: list[GateItem]) -> tuple[np.ndarray, ...]:
        s = np.array([g.retrieval.similarity for g in items if g.retrieval])
        d = np.array(
            [
                g.retrieval.margin if g.retrieval and g.retrieval.margin is not None else np.inf
                for g in items
            ]
        )
        p = predict(model, calibration_rows(items))
        # In asked mode P1q plays P1 (a covered question, to be accepted).
        fam = np.array(["P1" if g.instance.family == "P1q" else g.instance.family for g in items])
        return s, d, p, fam

    fs, fd, fp, ffam = arrays(fit_items)
    es, ed, ep, efam = arrays(ev_items)
    ebad = np.array([not r.appropriate for r in calibration_rows(ev_items)], dtype=bool)
    p1 = ffam == "P1"
    tau_pt = threshold_for_coverage(fs[p1], opts.p1_coverage)
    gamma_pt = threshold_for_coverage(fp[p1], opts.p1_coverage)
    assert tau_pt is not None and gamma_pt is not None
    m_tau, m_delta = _margin_point(fs, fd, ffam, opts.p1_coverage)
    ops: dict[str, dict[str, Any]] = {
        "fixed": {
            "threshold": f"τ {tau_pt.threshold:.4f}",
            **_op(es >= tau_pt.threshold, efam, ebad),
        },
        "margin": {
            "threshold": f"τ {m_tau:.4f}, δ {m_delta:.4f}",
            **_op((es >= m_tau) & (ed >= m_delta), efam, ebad),
        },
        "calibrated": {
            "threshold": f"γ {gamma_pt.threshold:.4f} ({model.method})",
            **_op(ep >= gamma_pt.threshold, efam, ebad),
        },
    }
    if ev_asked:
        qs, qd, qp, _ = arrays(ev_asked)
        ops["fixed"][other_key] = float((qs >= tau_pt.threshold).mean())
        ops["margin"][other_key] = float(((qs >= m_tau) & (qd >= m_delta)).mean())
        ops["calibrated"][other_key] = float((qp >= gamma_pt.threshold).mean())
    asked = f" | {other_head}" if ev_asked else ""
    p1_head = "P1q accept" if opts.questions == "asked" else "P1 accept"
    p5_head = "P5q reject" if opts.questions == "asked" else "P5 reject"
    items = [
        Item(
            f"{g.instance.id}",
            float(s),
            None if not np.isfinite(d) else float(d),
            float(p),
            None,
            1.0 - float(g.retrieval.item.id == g.instance.question_seed if g.retrieval else 0.0),
            None,
            float(g.retrieval.item.id == g.instance.question_seed) if g.retrieval else 0.0,
        )
        for g, s, d, p in zip(ev_items, es, ed, ep, strict=True)
    ]
    sel = selective(
        items, delta=m_delta, coverages=[0.5, 0.8, opts.p1_coverage * 0.5 + 0.5], ce=0.0001, cj=0.01
    )
    n1, n5 = int((efam == "P1").sum()), int((efam == "P5").sum())
    if opts.questions == "asked":
        wrong = sum(
            g.instance.family == "P1q"
            and g.retrieval is not None
            and g.retrieval.item.id != g.instance.reference_id
            for g in ev_items
        )
        title = (
            f"Gates at P1q coverage ≥ {opts.p1_coverage:.2f}, questions asked as users ask "
            f"({role}; thresholds fitted on gen seed {opts.fit_gen_seed}, evaluated on gen "
            f"seed {opts.eval_gen_seed}): "
            f"{n1} P1q ({wrong} retrieve another seed's item first), {n5} P5q pairs, "
            f"{len(ev_asked)} template P1 pairs beside"
        )
    else:
        title = (
            f"Gates at P1 coverage ≥ {opts.p1_coverage:.2f} (thresholds fitted on gen "
            f"seed {opts.fit_gen_seed}, evaluated on gen seed {opts.eval_gen_seed}: "
            f"{n1} P1, {n5} P5 pairs"
            + (f", {len(ev_asked)} P1q pairs: P1 asked as users ask" if ev_asked else "")
            + ")"
        )
    t = Table(title=title)
    heads = ("gate", "threshold", p1_head, *asked.split(" | ")[1:], p5_head)
    for h in (*heads, "coverage", "risk", "AURC"):
        t.add_column(h, justify="left" if h in ("gate", "threshold") else "right")
    names = {
        "fixed": "fixed (s*)",
        "margin": f"margin (s*, Δ ≥ {m_delta:g})",
        "calibrated": "calibrated (P̂)",
    }
    for k, o in ops.items():
        g = sel["gates"][names[k]]
        o["aurc"] = g["aurc"]
        t.add_row(
            k,
            str(o["threshold"]),
            f"{o['p1_accept']:.3f}",
            *([f"{o[other_key]:.3f}"] if ev_asked else []),
            f"{o['p5_reject']:.3f}",
            f"{o['coverage']:.3f}",
            f"{o['risk']:.3f}",
            f"{g['aurc']:.4f}",
        )
    dash = ["—"] * (4 if ev_asked else 3)
    t.add_row("random", "—", *dash, f"{sel['random']['risk']:.3f}", f"{sel['random']['aurc']:.4f}")
    t.add_row("oracle", "—", *dash, "—", f"{sel['oracle']['aurc']:.4f}")
    console.print(t)
    console.print(
        f"calibration on the fit pairs: {cal.method} ({cal.chosen_by}), out-of-fold "
        f"log-loss "
        + ", ".join(f"{m} {v:.4f}" for m, v in cal.oof_log_loss.items())
        + f", ECE {cal.ece:.3f}"
    )
    # The saved model is the calibrated gate at the operating point reported (one γ).
    save_gate_model(
        model.model_copy(update={"gamma": gamma_pt.threshold, "per_intent_gamma": {}}),
        out / "gate.json",
    )
    rep: dict[str, Any] = {
        "format": "cargo-gate-demo/1",
        "seeds": str(opts.seeds),
        "draws": opts.draws,
        "fit_gen_seed": opts.fit_gen_seed,
        "eval_gen_seed": opts.eval_gen_seed,
        "p1_coverage": opts.p1_coverage,
        "questions": opts.questions,
        **(
            {
                **split_json,
                "p1q_pairs": n1,
                "p1q_nearest_is_another_seed": wrong,
                "p5q_pairs": n5,
            }
            if opts.questions == "asked"
            else {}
        ),
        "embedder": embedder.model_id,
        "operating_points": (
            {
                k: {
                    (
                        "p1q_accept"
                        if f == "p1_accept"
                        else "p5q_reject"
                        if f == "p5_reject"
                        else f
                    ): v
                    for f, v in o.items()
                }
                for k, o in ops.items()
            }
            if opts.questions == "asked"
            else ops
        ),
        "calibration": {"method": cal.method, "oof_log_loss": cal.oof_log_loss, "ece": cal.ece},
        "selective": sel,
        "summary": None,
        "_losses": [i.loss for i in items],
    }
    rep["plots"] = plots(rep, out)
    rep.pop("_losses")
    op_md = [
        "# Gate demo: calibrated vs fixed vs margin",
        "",
        (
            f"Questions asked as users ask (`--questions asked`, {opts.seeds}, "
            f"{counted(opts.draws, 'draw')}, {embedder.model_id}), retrieved as production "
            "retrieves (the nearest golden item; s* and Δ its top-1 and top-1 − top-2). P1q: the "
            "seeds' question paraphrases (a covered question); P5q: the same questions with "
            "their own seed's item left out of the index (a question the golden set does "
            f"not cover). {split_md}: {n1} P1q ({wrong} of them retrieve another "
            f"seed's item first), {n5} P5q pairs. Thresholds reach P1q coverage ≥ "
            f"{opts.p1_coverage:.2f} on the fit pairs. Loss = an inappropriate reference "
            "accepted (a P5q pair, or a P1q whose nearest item is another seed's). Template "
            f"P1 acceptance of the evaluated seeds beside ({len(ev_asked)} pairs), same "
            "thresholds."
            if opts.questions == "asked"
            else f"Fit on gen seed {opts.fit_gen_seed}, evaluated on gen seed "
            f"{opts.eval_gen_seed} ({opts.seeds}, {counted(opts.draws, 'draw')}, "
            f"{embedder.model_id}). "
            f"Thresholds reach P1 coverage ≥ {opts.p1_coverage:.2f} on the fit pairs. Loss = "
            "an inappropriate reference accepted (a P5 pair)."
            + (
                f" P1q: the {len(ev_asked)} P1 pairs asked with the seeds' question "
                "paraphrases (users don't type the template), same thresholds."
                if ev_asked
                else ""
            )
        ),
        "",
        f"| gate | threshold | {p1_head}{asked} | {p5_head} | coverage | risk | AURC |",
        "|---|---|---|---|---|---|---|" + ("---|" if ev_asked else ""),
    ]
    for k, o in ops.items():
        q = f" | {o[other_key]:.3f}" if ev_asked else ""
        op_md.append(
            f"| {k} | {o['threshold']} | {o['p1_accept']:.3f}{q} | {o['p5_reject']:.3f} "
            f"| {o['coverage']:.3f} | {o['risk']:.3f} | {o['aurc']:.4f} |"
        )
    md_dash = " — |" * (5 if ev_asked else 4)
    op_md.append(f"| random |{md_dash} {sel['random']['risk']:.3f} | {sel['random']['aurc']:.4f} |")
    op_md.append(f"| oracle |{md_dash} — | {sel['oracle']['aurc']:.4f} |")
    md = (
        "\n".join([*op_md, "", *selective_lines(sel), "", "Plots: " + ", ".join(rep["plots"])])
        + "\n"
    )
    (out / "report.md").write_text(md, encoding="utf-8")
    (out / "report.json").write_text(
        json.dumps(rep, indent=2, default=float) + "\n", encoding="utf-8"
    )
    (out / "report.html").write_text(html_page(md, out, rep["plots"]), encoding="utf-8")
    console.print(
        f"report: {out / 'report.md'}, {out / 'report.html'}; gate model {out / 'gate.json'}"
    )
    return 0
