"""Generate the bundled sample traffic from a golden set (deterministic per seed).

The mix exercises every outcome of the monitor: correct answers on new
entities, injected contradictions with an observed fact, extra unverifiable
fields, policy answers (some mis-routed or replanned), off-topic questions that
must abstain, clarification and guardrail responses, answers citing a
knowledge-base snapshot (clean, and one of each citation-contract defect), and
malformed lines.
Every generated trace carries its construction label under
``metadata.sample_kind`` so that tests and demos can check outcomes.
"""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from monitor.golden import load_golden
from monitor.schemas import GoldenItem, ParamSpec
from monitor.settings import DEFAULT_GOLDEN

OFF_TOPIC = [
    "What will the weather be like in Lisbon tomorrow?",
    "Can you recommend a good recipe for banana bread?",
    "Who won the football match last night?",
    "Write me a short poem about autumn leaves.",
    "What is the capital city of Australia?",
    "How many calories are in a cup of rice?",
    "Translate 'good morning' into Japanese.",
    "What's a good name for a golden retriever puppy?",
    "Explain the rules of chess castling.",
    "Which films are showing at the cinema this weekend?",
    "How do I get a stain out of a cotton shirt?",
    "What is the best time of year to visit Iceland?",
]
OFF_TOPIC_ANSWER = "I can only help with technical support questions about your products."
CLARIFY_ANSWERS = [
    "Could you provide the case number so I can look it up?",
    "Could you please confirm the service tag of the device?",
    "Which work order do you mean? Please provide the work order number.",
]
GUARD_ANSWERS = [
    "I'm unable to share details of cases that belong to another customer.",
    "I cannot help with that request because it is outside the scope of technical support.",
]
NAMES = ["Ana Souza", "Jonas Berg", "Priya Nair", "Tom Walsh", "Keiko Ito", "Omar Haddad"]
MODELS = ["Latitude 5550", "Precision 3680", "OptiPlex 7020", "XPS 14", "PowerEdge R760"]
EXTRA_FIELDS = [
    ("Created", "date"),
    ("Last contact", "date"),
    ("Site", "site"),
    ("Contract", "contract"),
]
PREFIXES = ["", "", "Hi, ", "Hello! ", "Quick question: "]


class Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.start = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)

    def uid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def value(self, spec: ParamSpec, *, avoid: str | None = None) -> str:
        for _ in range(100):
            v = self._value(spec)
            if v not in (avoid, spec.value):
                return v
        raise RuntimeError(f"cannot sample a fresh value for {spec}")

    def _value(self, spec: ParamSpec) -> str:
        r = self.rng
        if spec.type == "digits":
            n = spec.length or len(spec.value)
            return str(r.randint(1, 9)) + "".join(str(r.randint(0, 9)) for _ in range(n - 1))
        if spec.type == "alnum":
            if "-" in spec.value:
                head, tail = spec.value.split("-", 1)
                return f"{head}-{r.randint(10 ** (len(tail) - 1), 10 ** len(tail) - 1)}"
            n = spec.length or len(spec.value)
            letters, digits = "ABCDEFGHJKLMNPQRSTVWXYZ", "0123456789"
            chars = [r.choice(letters + digits) for _ in range(n)]
            chars[r.randrange(n)] = r.choice(digits)
            chars[r.randrange(n)] = r.choice(letters)
            if not any(c.isdigit() for c in chars):
                chars[0] = r.choice(digits)
            return "".join(chars)
        if spec.type == "date":
            return (date(2024, 1, 1) + timedelta(days=r.randint(0, 1200))).isoformat()
        if spec.type == "enum":
            return r.choice(list(spec.values or [spec.value]))
        if spec.type == "money":
            return f"${r.randint(20, 2000)}.{r.choice(['00', '50', '99'])}"
        if spec.type == "integer":
            return str(r.randint(int(spec.min or 1), int(spec.max or 100)))
        if spec.type == "time":
            minutes = r.randrange(8 * 60, 19 * 60, 15)
            return f"{minutes // 60:02d}:{minutes % 60:02d}"
        pool = MODELS if "model" in (spec.label or "") else NAMES
        return r.choice(pool)

    def extra_value(self, kind: str) -> str:
        if kind == "date":
            return (date(2025, 1, 1) + timedelta(days=self.rng.randint(0, 600))).isoformat()
        if kind == "site":
            return self.rng.choice(["Dublin plant", "Austin HQ", "Penang lab"])
        return self.rng.choice(["Gold", "Silver", "Enterprise"])

    def base(
        self,
        n: int,
        question: str,
        answer: str,
        agent: str | None,
        context: dict[str, Any],
        kind: str,
        **extra: Any,
    ) -> dict[str, Any]:
        ts = self.start + timedelta(seconds=17 * n)
        plan_ms = round(self.rng.uniform(80, 400), 1)
        agent_ms = round(self.rng.uniform(300, 4000), 1)
        tool_ms = round(self.rng.uniform(50, 1500), 1)
        obs: list[dict[str, Any]] = [
            {
                "kind": "planner",
                "name": "planner",
                "duration_ms": plan_ms,
                "status": "ok",
                "decision": agent,
            },
            {"kind": "agent", "name": agent or "none", "duration_ms": agent_ms, "status": "ok"},
            {"kind": "tool", "name": "crm_lookup", "duration_ms": tool_ms, "status": "ok"},
        ]
        if extra.pop("replan", False):
            obs.insert(
                1, {"kind": "replanner", "name": "replanner", "duration_ms": 120.0, "status": "ok"}
            )
        trace: dict[str, Any] = {
            "trace_id": self.uid(),
            "timestamp": ts.isoformat(),
            "question": question,
            "answer": answer,
            "context": context,
            "agent": agent,
            "observations": obs,
            "latency_ms": round(plan_ms + agent_ms + tool_ms + self.rng.uniform(5, 60), 1),
            "language": "en",
            "metadata": {"channel": self.rng.choice(["web", "teams"]), "sample_kind": kind},
        }
        trace.update(extra)
        return trace


def render(template: str, item: GoldenItem, values: dict[str, str]) -> str:
    out = template
    for name, spec in sorted(item.parameters.items(), key=lambda kv: -len(kv[1].value)):
        out = out.replace(spec.value, f"\x00{name}\x00")
    for name, v in values.items():
        out = out.replace(f"\x00{name}\x00", v)
    return out


def _id_field(item: GoldenItem) -> str:
    # The first parameter identifies the instance and is always observed.
    return next(iter(item.parameters))


CITED_KINDS = (
    "cited_ok",
    "cited_prose_ok",
    "cited_unknown_source",
    "cited_duplicate_source",
    "cited_uncited_claim",
    "cited_render_mismatch",
    "cited_unresolved_footnote",
    "cited_wrong_chunk",
    "cited_hash_mismatch",
    "cited_quote_mismatch",
    "cited_quote_ok",
)


def cited_case(kind: str, item: GoldenItem, other: GoldenItem) -> tuple[str, dict[str, Any]]:
    """An answer citing a knowledge-base snapshot, with one citation-contract defect
    (or none) of the given kind. The snapshot holds the answer's own sentences as
    chunks plus one chunk of another article (the "wrong source")."""
    from monitor.citations import content_hash
    from monitor.text import split_sentences

    sents = [x.text for x in split_sentences(item.answer)]
    doc = f"kb-{item.id.removeprefix('g_')}"
    sources: list[dict[str, Any]] = [
        {
            "source_id": f"{doc}#{k}",
            "document_version": "2026-10-01",
            "chunk_id": str(k),
            "rank": k,
            "text": t,
            "content_hash": f"sha256:{content_hash(t)}",
        }
        for k, t in enumerate(sents)
    ]
    wrong_text = split_sentences(other.answer)[0].text
    wrong = f"kb-{other.id.removeprefix('g_')}#0"
    sources.append(
        {
            "source_id": wrong,
            "document_version": "2026-10-01",
            "chunk_id": "0",
            "rank": len(sents),
            "text": wrong_text,
        }
    )
    claims: list[dict[str, Any]] = [
        {"claim_id": f"c{k + 1}", "text": t, "citation_ids": [f"{doc}#{k}"]}
        for k, t in enumerate(sents)
    ]
    out: dict[str, Any] = {"sources": sources, "claims": claims}
    answer = item.answer
    first = claims[0]
    if kind == "cited_prose_ok":
        del out["claims"]
        answer = " ".join(f"{t} [{doc}#{k}]" for k, t in enumerate(sents))
    elif kind == "cited_unknown_source":
        first["citation_ids"] = [f"{doc}-2019#0"]
        claims.append(
            {
                "claim_id": "cx",
                "text": "This rule also applies to refurbished products.",
                "citation_ids": [],
            }
        )
        answer += " This rule also applies to refurbished products."
    elif kind == "cited_duplicate_source":
        sources.append(
            {
                **sources[0],
                "chunk_id": "0-old",
                "text": wrong_text,
                "content_hash": f"sha256:{content_hash(wrong_text)}",
            }
        )
    elif kind == "cited_uncited_claim":
        first["citation_ids"] = []
        claims.append(
            {
                "claim_id": "cz",
                "text": "Let me know if there is anything else.",
                "citation_ids": [],
                "requires_citation": False,
            }
        )
        answer += " Let me know if there is anything else."
    elif kind in ("cited_render_mismatch", "cited_unresolved_footnote"):
        out["footnotes"] = {str(k + 1): f"{doc}#{k}" for k in range(len(sents))}
        for k, c in enumerate(claims):
            c["citation_ids"] = [str(k + 1)]
        if kind == "cited_render_mismatch":
            # The UI sorted its source cards after generation: [1] now opens another chunk.
            out["footnotes"][str(len(sents) + 1)] = wrong
            out["rendered_footnotes"] = {
                "1": wrong,
                str(len(sents) + 1): f"{doc}#0",
                **{str(k + 1): f"{doc}#{k}" for k in range(1, len(sents))},
            }
        else:
            first["citation_ids"] = [str(len(sents) + 7)]
    elif kind == "cited_wrong_chunk":
        first["citation_ids"] = [wrong]
    elif kind == "cited_hash_mismatch":
        # The evaluator was handed a stale copy of the first chunk.
        h = content_hash(sents[0])
        out["stage_hashes"] = {
            "retrieval": {f"{doc}#0": h},
            "generation": {f"{doc}#0": h},
            "evaluation": {f"{doc}#0": content_hash(sents[0] + " (2024)")},
        }
    elif kind == "cited_quote_mismatch":
        quote = " ".join(wrong_text.rstrip(".").split()[:6])
        first["text"] = f'{sents[0]} The article says "{quote}".'
        answer = f'{answer} The article says "{quote}".'
    elif kind == "cited_quote_ok":
        quote = " ".join(sents[0].rstrip(".").split()[:6])
        first["text"] = f'{sents[0]} As the article puts it, "{quote}".'
        answer = f'{answer} As the article puts it, "{quote}".'
    return answer, out


def generate(golden_path: Path, seed: int) -> list[str]:
    gs = load_golden(golden_path)
    g = Gen(seed)
    lines: list[str] = []

    def emit(trace: dict[str, Any]) -> None:
        lines.append(json.dumps(trace, ensure_ascii=False))

    n = 0
    entity = [i for i in gs.items if i.entity_bearing]
    policy = [i for i in gs.items if not i.entity_bearing]
    for item in entity:
        for k in range(12):
            n += 1
            values = {name: g.value(spec) for name, spec in item.parameters.items()}
            idf = _id_field(item)
            observed = [idf] + [f for f in item.parameters if f != idf and g.rng.random() < 0.35]
            context = {f: values[f] for f in observed}
            question = g.rng.choice(PREFIXES) + render(item.question, item, values)
            answer = render(item.answer, item, values)
            kind = "correct"
            if k % 4 == 1:
                # Contradiction: restate one observed field with a different value.
                field = g.rng.choice(observed)
                wrong = g.value(item.parameters[field], avoid=values[field])
                answer = render(item.answer, item, {**values, field: wrong})
                kind = "contradiction"
            elif k % 4 == 2:
                extras = g.rng.sample(EXTRA_FIELDS, 2)
                answer += " " + " ".join(f"{label}: {g.extra_value(t)}." for label, t in extras)
                kind = "unverifiable_extra"
            emit(
                g.base(
                    n,
                    question,
                    answer,
                    item.agent,
                    context,
                    kind,
                    response_type="answer" if g.rng.random() < 0.7 else None,
                )
            )
    for item in policy:
        for k in range(5):
            n += 1
            agent = item.agent
            kind = "policy"
            if k == 3:
                agent = g.rng.choice(["case", "asset", "workorder"])
                kind = "policy_misrouted"
            emit(
                g.base(
                    n,
                    g.rng.choice(PREFIXES) + item.question,
                    item.answer,
                    agent,
                    {},
                    kind,
                    replan=k == 4,
                    response_type="answer" if k % 2 else None,
                )
            )
    for q in OFF_TOPIC:
        n += 1
        emit(g.base(n, q, OFF_TOPIC_ANSWER, "policy", {}, "off_topic"))
    for k in range(12):
        n += 1
        item = g.rng.choice(entity)
        values = {name: g.value(spec) for name, spec in item.parameters.items()}
        question = render(item.question, item, values)
        # Drop the identifier so the clarification is warranted.
        question = question.replace(values[_id_field(item)], "my").replace("  ", " ")
        emit(
            g.base(
                n,
                question,
                CLARIFY_ANSWERS[k % 3],
                item.agent,
                {},
                "clarification",
                response_type="clarification" if k % 2 else None,
            )
        )
    for k in range(8):
        n += 1
        item = g.rng.choice(entity)
        values = {name: g.value(spec) for name, spec in item.parameters.items()}
        emit(
            g.base(
                n,
                render(item.question, item, values),
                GUARD_ANSWERS[k % 2],
                item.agent,
                {_id_field(item): values[_id_field(item)]},
                "guardrail",
            )
        )
    for k, kind in enumerate(CITED_KINDS * 2):
        n += 1
        item = policy[(3 * k) % len(policy)]
        other = policy[(3 * k + 1) % len(policy)]
        answer, citations = cited_case(kind, item, other)
        emit(g.base(n, item.question, answer, item.agent, {}, kind, citations=citations))
    # Malformed lines: each must become an `invalid` judgment naming the problem.
    malformed = [
        '{"trace_id": "bad-json-1", "question": "What is the status of case 1',
        json.dumps({"trace_id": "bad-missing-answer", "question": "Status of case 123456789?"}),
        json.dumps({"trace_id": "bad-type-question", "question": 42, "answer": "n/a"}),
        json.dumps(
            {
                "trace_id": "bad-context",
                "question": "q?",
                "answer": "a.",
                "context": ["caseNumber", "123"],
            }
        ),
        json.dumps(["not", "an", "object"]),
        json.dumps({"question": "What is the status of case 215474133?", "answer": "Closed."}),
    ]
    rng = g.rng
    rng.shuffle(lines)
    for bad in malformed:
        lines.insert(rng.randrange(len(lines)), bad)
    return lines


def main_samples(golden: str | None, output: str, seed: int) -> int:
    lines = generate(Path(golden) if golden else DEFAULT_GOLDEN, seed)
    Path(output).parent.mkdir(parents=True, exist_ok=True)
    Path(output).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} traces to {output}")
    return 0
