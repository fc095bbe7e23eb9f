"""Cargo-Bench generator: perturbation families with labels that hold by construction.

Families (paper §4, plus P6):

* **P1 transplant** — every parameter resampled (never the golden value); the
  live context is a non-empty random subset of the observed fields. Target: not
  penalised.
* **P2 contradiction** — one value that is observed *and* in the context is
  rewritten in the answer to a distinct value of the same type. Target: penalised.
* **P3 neutral** — k=2 ``extra_fields`` absent from the context appended as
  "Label: value." sentences; split ``unobserved`` (the live instance's hidden
  values) and ``fabricated`` (fresh values). Target: not penalised.
* **P4 procedural** — ``delete_step``, ``negate`` (general English rules over
  modal/eligibility phrasing plus the seed's ``negations``) or ``swap_policy``
  (the seed's ``policy_alternatives``). Target: penalised.
* **P5 intent shift** — another intent's question rendered with this seed's
  entities. Target: the gate rejects (this question, this seed's reference).
* **P6 paraphrase** — one of the seed's ``paraphrases`` with the transplant
  values. Target: not penalised.
* **P2p / P4p on paraphrase bases** — for a seed whose paraphrases carry span
  markup (``docs/seed-format.md``), *every* paraphrase gets P2's contradicted
  observed value and P4's ``delete_step`` / ``negate`` / ``swap_policy`` (on its
  marked step, rule and policy spans). Real wrong answers are not near-copies of
  the golden answer; these are not either. Target: penalised. They come after
  the draw's other instances and draw from their own random stream (seeded by
  generation seed, seed id and draw), so adding them leaves every older
  instance byte-identical; seeds without markup yield none.
* **P1q questions as users ask them** — the P1 transplant asked with each of the
  seed's ``question_paraphrases`` (rendered with the transplant values). Not
  judged: the gates should accept it (``bench gate`` and ``bench run`` report P1
  acceptance on it beside the template question's). Made after the others, no
  random draw; seeds without question paraphrases yield none.

Every instance passes the consistency checks below or is dropped (and
counted) / fails the run. The output is byte-identical for the same seeds and
generation seed.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from monitor.bench.seeds import (
    PLACEHOLDER,
    MarkedText,
    Seed,
    SeedParam,
    Span,
    SpanKind,
    bench_golden_set,
)
from monitor.errors import CargoError, first_problem
from monitor.schemas import GoldenSet

BENCH_FORMAT = "cargo-bench/1"
Family = Literal["P1", "P2", "P3", "P4", "P5", "P6", "P2p", "P4p", "P1q"]
FAMILIES: tuple[Family, ...] = ("P1", "P2", "P3", "P4", "P5", "P6", "P2p", "P4p", "P1q")
# The families made on paraphrase bases, and the golden-wording family each mirrors.
PARAPHRASE_FAMILIES: dict[Family, Family] = {"P2p": "P2", "P4p": "P4"}
P4_TYPES = ("delete_step", "negate", "swap_policy")
P3_SPLITS = ("unobserved", "fabricated")
_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
_CURRENCY_SYMBOL = {"USD": "$", "EUR": "€", "GBP": "£"}

# General English polarity flips, tried on procedure sentences first. Each
# pattern flips one modal, eligibility or coverage phrase.
_BE = r"(?P<be>is|are|was|were)"
_STATE = (
    r"(?P<state>eligible|covered|available|required|included|supported|allowed|"
    r"permitted|entitled|refundable|valid|needed|necessary|mandatory)"
)
NEGATION_RULES: tuple[tuple[str, str], ...] = (
    (r"\b" + _BE + r" not " + _STATE + r"\b", r"\g<be> \g<state>"),
    (r"\b" + _BE + r" " + _STATE + r"\b", r"\g<be> not \g<state>"),
    (r"\bmust not\b", "must"),
    (r"\bmust\b", "must not"),
    (r"\bshould not\b", "should"),
    (r"\bshould\b", "should not"),
    (r"\bcannot\b", "can"),
    (r"\bcan\b", "cannot"),
    (r"\bwill not\b", "will"),
    (r"\bwill\b", "will not"),
    (r"\bdo not\b", "do"),
    (r"\bdoes not\b", "does"),
    (r"\bneed to\b", "do not need to"),
    (r"\bneeds to\b", "does not need to"),
    (r"\brequires\b", "does not require"),
    (r"\brequire\b", "do not require"),
    (r"\bnever\b", "always"),
    (r"\balways\b", "never"),
    (r"\bno longer\b", "still"),
)
_SENTENCES = re.compile(r"[^.!?]+[.!?]?")


class GenerationError(CargoError):
    """Instances failed the consistency checks and --drop-invalid was not given."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(
            f"{len(problems)} instances failed consistency checks:\n  " + "\n  ".join(problems[:50])
        )


class BenchInstance(BaseModel):
    """One labelled evaluation instance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["instance"] = "instance"
    id: str
    seed: str
    family: Family
    subtype: str | None = None
    draw: int
    question: str
    answer: str
    context: dict[str, str]
    reference_id: str
    question_seed: str
    target_penalize: bool | None
    target_gate_accept: bool | None
    detail: dict[str, Any] = {}


class BenchHeader(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["header"] = "header"
    format: Literal["cargo-bench/1"] = "cargo-bench/1"
    gen_seed: int
    draws: int
    seeds_hash: str
    seeds: list[str]
    dropped: dict[str, int]
    golden: GoldenSet


@dataclass
class Generated:
    header: BenchHeader
    instances: list[BenchInstance]
    problems: list[str] = field(default_factory=list)

    def to_jsonl(self) -> str:
        lines = [self.header.model_dump_json()]
        lines += [i.model_dump_json() for i in self.instances]
        return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- sampling


class Sampler:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def value(self, spec: SeedParam, avoid: set[str] | frozenset[str] = frozenset()) -> str:
        for _ in range(200):
            v = self._draw(spec)
            if v not in avoid:
                return v
        raise CargoError(f"cannot draw a value distinct from {sorted(avoid)} for {spec}")

    def _draw(self, spec: SeedParam) -> str:
        r = self.rng
        if spec.type == "digits":
            n = spec.length or 6
            return str(r.randint(1, 9)) + "".join(str(r.randint(0, 9)) for _ in range(n - 1))
        if spec.type == "alnum":
            n = spec.length or 7
            chars = [r.choice(_LETTERS + "0123456789") for _ in range(n)]
            i, j = r.sample(range(n), 2)
            chars[i] = r.choice("0123456789")
            chars[j] = r.choice(_LETTERS)
            return "".join(chars)
        if spec.type == "date":
            start = date.fromisoformat(spec.start) if spec.start else date(2020, 1, 1)
            end = date.fromisoformat(spec.end) if spec.end else date(2028, 12, 31)
            return (start + timedelta(days=r.randint(0, max(0, (end - start).days)))).isoformat()
        if spec.type == "enum":
            return r.choice(list(spec.values or ()))
        if spec.type == "integer":
            return str(r.randint(int(spec.min or 0), int(spec.max or 100)))
        if spec.type == "time":
            # (Office hours, on the quarter hour, as a booking system writes them.)
            minutes = r.randrange(8 * 60, 19 * 60, 15)
            return f"{minutes // 60:02d}:{minutes % 60:02d}"
        # money
        cents = r.randint(int((spec.min or 0) * 100), int((spec.max or 1000) * 100))
        amount = f"{cents // 100}.{cents % 100:02d}"
        cur = spec.currency or "USD"
        sym = _CURRENCY_SYMBOL.get(cur)
        return f"{sym}{amount}" if sym else f"{amount} {cur}"


def _label(name: str, spec: SeedParam) -> str:
    if spec.label:
        return spec.label[:1].upper() + spec.label[1:]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|_", " ", name).split()
    return " ".join(words).capitalize()


def _tidy(text: str) -> str:
    return re.sub(r"\s{2,}", " ", text).strip()


def negation_candidates(sentence: str) -> list[str]:
    """Every single-phrase polarity flip of ``sentence`` the general rules allow."""
    out: list[str] = []
    for pattern, repl in NEGATION_RULES:
        for m in re.finditer(pattern, sentence, re.IGNORECASE):
            flipped = m.expand(repl)
            if m.group(0)[:1].isupper():
                flipped = flipped[:1].upper() + flipped[1:]
            cand = sentence[: m.start()] + flipped + sentence[m.end() :]
            if cand != sentence and cand not in out:
                out.append(cand)
    return out


# --------------------------------------------------------------------------- checks


def _golden_leaks(seed: Seed, text: str, live: dict[str, str]) -> list[str]:
    live_values = set(live.values())
    leaks = []
    for name, gval in seed.golden.items():
        if gval in live_values or len(gval) < 3:
            continue
        if re.search(r"(?<![\w])" + re.escape(gval) + r"(?![\w])", text):
            leaks.append(f"golden value {gval!r} of {name} survives")
    return leaks


_IDENT = re.compile(r"(?<![\w])(?=[\w-]*\d)[\w-]{4,}(?![\w])")


def repeated_identifier(text: str) -> str | None:
    """An identifier-like token repeated immediately ("work order 123 123 ..."),
    the template defect the paper's author spot-check found."""
    toks = text.split()
    for a, b in itertools.pairwise(toks):
        a2, b2 = a.strip(".,;:()"), b.strip(".,;:()")
        if a2 == b2 and _IDENT.fullmatch(a2):
            return a2
    return None


def check_instance(
    inst: BenchInstance, seed: Seed, p1_answer: str, live: dict[str, str]
) -> list[str]:
    """The appendix's consistency checks, plus ours for P6 and for rendering."""
    out: list[str] = []
    for where, text in (("question", inst.question), ("answer", inst.answer)):
        if PLACEHOLDER.search(text):
            out.append(f"{where} has an unrendered placeholder")
        rep = repeated_identifier(text)
        if rep:
            out.append(f"{where} repeats identifier {rep!r}")
    if inst.family != "P5":
        out += _golden_leaks(seed, inst.answer, live)
    for f, v in inst.context.items():
        if live.get(f) != v:
            out.append(f"context {f}={v!r} is not the transplant value")
    if not inst.context and seed.parameters:
        out.append("empty context")
    d = inst.detail
    if inst.family in ("P2p", "P4p"):
        out += _check_paraphrase_corruption(inst, seed, live)
    if inst.family == "P2":
        if d["stated"] not in inst.answer:
            out.append("P2 stated value absent")
        if re.search(r"(?<![\w])" + re.escape(d["true"]) + r"(?![\w])", inst.answer):
            out.append("P2 true value still present")
        if d["field"] not in inst.context:
            out.append("P2 contradicted field is not observed")
    if inst.family == "P3":
        for f in d["added"]:
            if f in inst.context:
                out.append(f"P3 added field {f} is observed")
    if inst.family == "P4" and inst.answer == p1_answer:
        out.append("P4 did not change the text")
    if inst.family == "P6":
        for f, v in inst.context.items():
            if f in d.get("fields", []) and v not in inst.answer:
                out.append(f"P6 paraphrase lost observed value {f}")
    return out


def _whole(value: str, text: str) -> bool:
    return re.search(r"(?<![\w])" + re.escape(value) + r"(?![\w])", text) is not None


def _check_paraphrase_corruption(
    inst: BenchInstance, seed: Seed, live: dict[str, str]
) -> list[str]:
    """P2p/P4p: the corruption is made on the paraphrase it names and changes it."""
    d = inst.detail
    b = d.get("template")
    if not isinstance(b, int) or not 0 <= b < len(seed.paraphrases):
        return [f"{inst.family} names no paraphrase of the seed ({b!r})"]
    base = _tidy(seed.render(seed.paraphrases[b], live))
    if inst.answer == base:
        return [f"{inst.family} did not change the paraphrase"]
    out: list[str] = []
    if inst.family == "P2p":
        if not _whole(d["stated"], inst.answer):
            out.append("P2p stated value absent")
        if _whole(d["true"], inst.answer):
            out.append("P2p true value still present")
        if not _whole(d["true"], base):
            out.append("P2p contradicted value is not stated by the paraphrase")
        if d["field"] not in inst.context:
            out.append("P2p contradicted field is not observed")
    elif inst.subtype == "delete_step":
        if inst.answer.count(d["step"]) >= base.count(d["step"]):
            out.append("P4p deleted step is still there")
    else:
        rw = d["rewrite"]
        if rw["from"] not in base or rw["to"] not in inst.answer:
            out.append(f"P4p {inst.subtype}: rewrite {rw['from']!r} -> {rw['to']!r} not applied")
    return out


# --------------------------------------------------------------------------- generator


@dataclass
class _Draw:
    """The instances made from one transplant of one seed."""

    seed: Seed
    draw: int
    question: str
    context: dict[str, str]
    made: list[BenchInstance] = field(default_factory=list)

    def add(
        self,
        family: Family,
        ans: str,
        *,
        subtype: str | None = None,
        tag: str | None = None,
        q: str | None = None,
        qseed: str | None = None,
        penal: bool | None,
        gate: bool | None = None,
        **detail: Any,
    ) -> None:
        suffix = (f"-{subtype}" if subtype else "") + (f"-{tag}" if tag else "")
        self.made.append(
            BenchInstance(
                id=f"{self.seed.id}-{family}{suffix}-{self.draw}",
                seed=self.seed.id,
                family=family,
                subtype=subtype,
                draw=self.draw,
                question=self.question if q is None else q,
                answer=_tidy(ans),
                context=dict(self.context),
                reference_id=self.seed.id,
                question_seed=qseed or self.seed.id,
                target_penalize=penal,
                target_gate_accept=gate,
                detail=detail,
            )
        )


def _entities_for(
    other: Seed, seed: Seed, live: dict[str, str], sampler: Sampler
) -> dict[str, str]:
    """Values for ``other``'s question taken from this seed's live entities: same
    field name first, then a field of the same type and length, else a fresh draw."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for n, spec in other.parameters.items():
        if n in live:
            out[n] = live[n]
            used.add(n)
            continue
        same = [
            m
            for m, s in seed.parameters.items()
            if m not in used
            and s.type == spec.type
            and s.length == spec.length
            and s.type != "enum"
        ]
        if same:
            out[n] = live[same[0]]
            used.add(same[0])
        else:
            out[n] = sampler.value(spec, set(other.golden.values()))
    return out


def seeds_hash(seeds: list[Seed]) -> str:
    blob = json.dumps(
        [s.model_dump(mode="json", by_alias=True) for s in seeds],
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def generate(
    seeds: list[Seed], *, draws: int = 5, gen_seed: int = 2027, drop_invalid: bool = False
) -> Generated:
    """All families for every seed and draw. Raises :class:`GenerationError` when an
    instance fails its checks, unless ``drop_invalid`` (then it is counted)."""
    rng = random.Random(gen_seed)
    sampler = Sampler(rng)
    instances: list[BenchInstance] = []
    problems: list[str] = []
    dropped: Counter[str] = Counter()

    for seed in seeds:
        golden_avoid = set(seed.golden.values())
        for d in range(draws):
            live = {
                n: sampler.value(spec, golden_avoid | {seed.golden[n]})
                for n, spec in seed.parameters.items()
            }
            hidden_extra = {n: sampler.value(spec) for n, spec in seed.extra_fields.items()}
            obs = list(seed.observed_fields)
            k = rng.randint(1, len(obs)) if obs else 0
            ctx_fields = sorted(rng.sample(obs, k), key=obs.index)
            context = {f: live[f] for f in ctx_fields}
            question = seed.render(seed.question, live)
            answer = seed.render(seed.answer, live)
            draw = _Draw(seed, d, question, context)
            mk = draw.add
            mk("P1", answer, penal=False, gate=True)

            answer_fields = set(PLACEHOLDER.findall(seed.answer))
            p2_fields = [f for f in ctx_fields if f in answer_fields]
            if p2_fields:
                f = rng.choice(p2_fields)
                wrong = sampler.value(seed.parameters[f], golden_avoid | set(live.values()))
                mk(
                    "P2",
                    seed.render(seed.answer, {**live, f: wrong}),
                    penal=True,
                    field=f,
                    stated=wrong,
                    true=live[f],
                )

            extra_names = list(seed.extra_fields)
            if extra_names:
                kk = min(2, len(extra_names))
                chosen = rng.sample(extra_names, kk)
                for split in P3_SPLITS:
                    vals = {
                        n: hidden_extra[n]
                        if split == "unobserved"
                        else sampler.value(seed.extra_fields[n], {hidden_extra[n]})
                        for n in chosen
                    }
                    tail = " ".join(
                        f"{_label(n, seed.extra_fields[n])}: {vals[n]}." for n in chosen
                    )
                    mk(
                        "P3",
                        f"{answer} {tail}",
                        subtype=split,
                        penal=False,
                        added=chosen,
                        values=vals,
                    )

            if seed.steps:
                step = rng.choice(seed.steps)
                mk(
                    "P4",
                    seed.render(seed.answer.replace(step, " "), live),
                    subtype="delete_step",
                    penal=True,
                    step=seed.render(step, live),
                )
            negs = [(rw.from_, rw.to, "seed") for rw in seed.negations]
            proc_sents = [
                s.strip()
                for s in _SENTENCES.findall(seed.answer)
                if s.strip() and not PLACEHOLDER.search(s)
            ]
            ent_sents = [
                s.strip()
                for s in _SENTENCES.findall(seed.answer)
                if s.strip() and PLACEHOLDER.search(s)
            ]
            for sent in proc_sents or ent_sents:
                negs += [(sent, c, "rule") for c in negation_candidates(sent)]
            if negs:
                frm, to, origin = negs[rng.randrange(len(negs))]
                mk(
                    "P4",
                    seed.render(seed.answer.replace(frm, to, 1), live),
                    subtype="negate",
                    penal=True,
                    rewrite={"from": seed.render(frm, live), "to": seed.render(to, live)},
                    origin=origin,
                )
            if seed.policy_alternatives:
                rw = rng.choice(seed.policy_alternatives)
                mk(
                    "P4",
                    seed.render(seed.answer.replace(rw.from_, rw.to, 1), live),
                    subtype="swap_policy",
                    penal=True,
                    rewrite={"from": seed.render(rw.from_, live), "to": seed.render(rw.to, live)},
                )

            others = [s for s in seeds if s.intent != seed.intent]
            if others:
                other = rng.choice(others)
                other_vals = _entities_for(other, seed, live, sampler)
                mk(
                    "P5",
                    answer,
                    q=other.render(other.question, other_vals),
                    qseed=other.id,
                    penal=None,
                    gate=False,
                )

            if seed.paraphrases:
                para = rng.choice(seed.paraphrases)
                mk(
                    "P6",
                    seed.render(para, live),
                    penal=False,
                    fields=sorted(set(PLACEHOLDER.findall(para))),
                    template=seed.paraphrases.index(para),
                )

            if seed.marked_paraphrases:
                # Its own stream, so that the older families' draws stay as they were.
                prng = random.Random(f"{gen_seed}/{seed.id}/{d}")
                for b, base in enumerate(seed.paraphrase_bases()):
                    _paraphrase_corruptions(
                        draw, base, b, live, ctx_fields, prng, Sampler(prng), golden_avoid
                    )
            for k, asked in enumerate(seed.question_variants(live)):
                mk("P1q", answer, tag=f"q{k}", q=asked, penal=None, gate=True, template=k)

            for inst in draw.made:
                issues = check_instance(inst, seed, _tidy(answer), live)
                if issues:
                    problems.extend(f"{inst.id}: {p}" for p in issues)
                    dropped[inst.family] += 1
                    continue
                instances.append(inst)

    if problems and not drop_invalid:
        raise GenerationError(problems)
    header = BenchHeader(
        gen_seed=gen_seed,
        draws=draws,
        seeds_hash=seeds_hash(seeds),
        seeds=[s.id for s in seeds],
        dropped=dict(sorted(dropped.items())),
        golden=bench_golden_set(seeds),
    )
    return Generated(header=header, instances=instances, problems=problems)


def _paraphrase_corruptions(
    draw: _Draw,
    base: MarkedText,
    b: int,
    live: dict[str, str],
    ctx_fields: list[str],
    rng: random.Random,
    sampler: Sampler,
    golden_avoid: set[str],
) -> None:
    """P2p and P4p (each subtype its markup allows) on paraphrase base ``b``."""
    seed, mk, tag = draw.seed, draw.add, f"b{b}"
    stated = set(PLACEHOLDER.findall(base.text))
    fields = [f for f in ctx_fields if f in stated]
    if fields:
        f = rng.choice(fields)
        wrong = sampler.value(seed.parameters[f], golden_avoid | set(live.values()))
        mk(
            "P2p",
            seed.render(base.text, {**live, f: wrong}),
            tag=tag,
            penal=True,
            field=f,
            stated=wrong,
            true=live[f],
            template=b,
        )
    steps = base.of_kind("step")
    if steps:
        span = rng.choice(steps)
        mk(
            "P4p",
            seed.render(base.delete(span), live),
            subtype="delete_step",
            tag=tag,
            penal=True,
            step=seed.render(span.text, live),
            template=b,
        )
    kinds: tuple[tuple[SpanKind, str], ...] = (("rule", "negate"), ("policy", "swap_policy"))
    for kind, subtype in kinds:
        options: list[tuple[Span, str]] = [
            (span, alt) for span in base.of_kind(kind) for alt in seed.span_rewrites(span)
        ]
        if not options:
            continue
        span, alt = options[rng.randrange(len(options))]
        mk(
            "P4p",
            seed.render(base.replace(span, alt), live),
            subtype=subtype,
            tag=tag,
            penal=True,
            rewrite={"from": seed.render(span.text, live), "to": seed.render(alt, live)},
            template=b,
        )


def read_instances(
    text: str, *, source: str = "<instances>"
) -> tuple[BenchHeader, list[BenchInstance]]:
    # (Blank lines are skipped; an error names the line's number in the file. Lines end
    # at "\n" only: JSON keeps U+2028 and the like raw, which splitlines() breaks on.)
    lines = [(n, x) for n, x in enumerate(text.split("\n"), start=1) if x.strip()]
    if not lines:
        raise CargoError(f"{source}: empty instances file")
    first, head = lines[0]
    try:
        header = BenchHeader.model_validate_json(head)
    except ValidationError as exc:
        raise CargoError(
            f"{source}:{first}: not a {BENCH_FORMAT} header (the first line 'bench generate' "
            f"writes): {first_problem(exc)}"
        ) from None
    out = []
    for n, line in lines[1:]:
        try:
            out.append(BenchInstance.model_validate_json(line))
        except ValidationError as exc:
            raise CargoError(f"{source}:{n}: bad instance: {first_problem(exc)}") from None
    return header, out
