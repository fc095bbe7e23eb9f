"""Prometheus adapter: turns judgments into counters and histograms.

This is an edge adapter (the evaluation core never imports it). The registry is
created at the entry point and passed in. Labels are bounded: intent and agent
come from the golden set (anything else is ``other``), statuses and reasons are
closed vocabularies. No trace id, question text or reference id ever becomes a
label. Ratios (coverage, contradiction rate) are left to PromQL recording rules
so that many workers aggregate correctly.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info, start_http_server

from monitor.citations import FINDING_CATEGORIES, SUPPORT_STATUSES
from monitor.errors import ConfigError, JudgeError
from monitor.judges.structural import penalty_evidence, penalty_evidence_of
from monitor.schemas import DIMENSIONS, GoldenSet, Judgment
from monitor.traces import INVALID_REASONS

UNIT_BUCKETS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
SIM_BUCKETS = (0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)
MARGIN_BUCKETS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
LATENCY_BUCKETS = (0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120)
JUDGE_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60)
NONE = "none"
CITATIONS = "citations"  # the judge label of per-citation LLM support checks
OTHER = "other"

log = logging.getLogger(__name__)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_metrics_tls(certfile: str | Path | None, keyfile: str | Path | None) -> None:
    """:class:`ConfigError` unless both TLS files are given and exist, or neither."""
    if (certfile is None) != (keyfile is None):
        raise ConfigError("TLS for /metrics needs both a certificate and a key file")
    for name, path in (("certificate", certfile), ("key", keyfile)):
        if path is not None and not Path(path).is_file():
            raise ConfigError(f"metrics TLS {name} file not found: {path}")


def serve_metrics(
    registry: CollectorRegistry,
    *,
    host: str,
    port: int,
    certfile: str | Path | None = None,
    keyfile: str | Path | None = None,
) -> str:
    """Serve ``/metrics`` of ``registry`` on ``host:port`` (a daemon thread); its URL.

    One place for ``run`` and ``stream``. The default host is loopback; binding
    elsewhere is an explicit choice (``--metrics-host``) and is logged. With
    ``certfile`` and ``keyfile`` the endpoint speaks HTTPS through prometheus_client's
    own TLS support; basic auth belongs in a reverse proxy (docs/security.md). A port
    that cannot be bound, or a certificate that cannot be loaded, is a
    :class:`ConfigError` naming it.
    """
    check_metrics_tls(certfile, keyfile)
    try:
        start_http_server(
            port,
            addr=host,
            registry=registry,
            certfile=None if certfile is None else str(certfile),
            keyfile=None if keyfile is None else str(keyfile),
        )
    except (OSError, socket.gaierror) as exc:  # ssl.SSLError is an OSError
        raise ConfigError(
            f"cannot serve metrics on {host}:{port}: {exc} (use --metrics-port to pick "
            "another port, 0 to disable)"
        ) from exc
    if not _is_loopback(host):
        log.warning(
            "/metrics is served on %s, reachable beyond this machine%s",
            host,
            "" if certfile else " without TLS",
        )
    scheme = "https" if certfile else "http"
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port}/metrics"


class MonitorMetrics:
    def __init__(
        self, registry: CollectorRegistry, golden: GoldenSet, *, gate_kind: str, judge_name: str
    ) -> None:
        self._intents = set(golden.intents)
        self._agents = set(golden.agents)
        self.gate_kind = gate_kind
        self.judge_name = judge_name
        r = registry
        self.traces = Counter(
            "cargo_traces", "Traces processed, by judgment status.", ["status"], registry=r
        )
        self.invalid = Counter(
            "cargo_invalid_traces", "Invalid traces, by reason.", ["reason"], registry=r
        )
        self.gate = Counter(
            "cargo_gate_decisions",
            "Gate decisions.",
            ["gate", "decision", "reason", "intent"],
            registry=r,
        )
        self.similarity = Histogram(
            "cargo_gate_similarity",
            "Top-1 cosine similarity s*.",
            ["gate", "decision"],
            buckets=SIM_BUCKETS,
            registry=r,
        )
        self.margin = Histogram(
            "cargo_gate_margin",
            "Top-2 margin Δ = s1 − s2.",
            ["gate", "decision"],
            buckets=MARGIN_BUCKETS,
            registry=r,
        )
        self.probability = Histogram(
            "cargo_gate_probability",
            "Calibrated P̂(reference appropriate) of accepted traces.",
            ["gate", "decision"],
            buckets=UNIT_BUCKETS,
            registry=r,
        )
        self.judgments = Counter(
            "cargo_judgments", "Evaluated judgments.", ["judge", "intent", "penalized"], registry=r
        )
        self.penalties = Counter(
            "cargo_penalties",
            "Penalised judgments, by what the penalty rests on: settled (a verdict backed "
            "by evidence), uncertain (only verdicts marked uncertain, no LLM decided) or "
            "llm (the LLM judge or a hybrid's LLM tier).",
            ["judge", "intent", "evidence"],
            registry=r,
        )
        self.claims = Counter(
            "cargo_claims",
            "Claims in evaluated judgments, by status.",
            ["status", "intent"],
            registry=r,
        )
        self.contradictions = Counter(
            "cargo_contradictions",
            "Contradicted claims, by intent and actual agent.",
            ["intent", "agent"],
            registry=r,
        )
        self.steps = Counter(
            "cargo_procedure_steps",
            "Exemplar procedure-step verdicts (covered, missing, negated, altered).",
            ["verdict", "intent", "required"],
            registry=r,
        )
        self.judge_errors = Counter(
            "cargo_judge_errors", "Failed evaluations, by kind.", ["judge", "kind"], registry=r
        )
        self.judge_duration = Histogram(
            "cargo_judge_duration_seconds",
            "Wall time of one judge call.",
            ["judge"],
            buckets=JUDGE_BUCKETS,
            registry=r,
        )
        self.scores = Histogram(
            "cargo_dimension_score",
            "Dimension scores of evaluated judgments (not-assessed dimensions are not observed).",
            ["dimension", "judge"],
            buckets=UNIT_BUCKETS,
            registry=r,
        )
        self.response_types = Counter(
            "cargo_response_types", "Response types.", ["response_type", "source"], registry=r
        )
        self.planner = Counter(
            "cargo_planner_verdicts",
            "Planner routing vs expected agent.",
            ["verdict", "intent"],
            registry=r,
        )
        self.replans = Counter("cargo_replans", "Replanner steps observed.", registry=r)
        self.guards = Counter(
            "cargo_guard_violations", "Language/length guard violations.", ["guard"], registry=r
        )
        self.latency = Histogram(
            "cargo_trace_latency_seconds",
            "End-to-end latency of the assistant, from the trace.",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.last_judgment = Gauge(
            "cargo_last_judgment_timestamp_seconds",
            "Unix time of the last judgment recorded.",
            registry=r,
        )
        self.judge_tokens = Counter(
            "cargo_judge_tokens",
            "Tokens used by LLM judge calls (failed calls included).",
            ["judge", "direction"],
            registry=r,
        )
        self.judge_cost = Counter(
            "cargo_judge_cost_usd",
            "Estimated LLM judge cost in USD (failed calls included).",
            ["judge"],
            registry=r,
        )
        self.llm_calls = Counter(
            "cargo_judge_llm_calls",
            "LLM tier decisions per accepted trace: sampled (called, in the blind sample), "
            "escalated (called, the structural verdict uncertain) or skipped.",
            ["judge", "decision"],
            registry=r,
        )
        self.llm_attempts = Counter(
            "cargo_judge_llm_attempts",
            "HTTP attempts made by the LLM judge (retries included).",
            ["judge"],
            registry=r,
        )
        self.citation_findings = Counter(
            "cargo_citation_findings",
            "Deterministic citation-contract findings, by category.",
            ["category"],
            registry=r,
        )
        self.citation_support = Counter(
            "cargo_citation_support",
            "Per-citation support checks, by status (not_run = integrity failed first).",
            ["status"],
            registry=r,
        )
        self.citation_claims = Counter(
            "cargo_citation_claims",
            "Citation-requiring claims, by whether at least one "
            "cited passage supports them (coverage = covered / all).",
            ["covered"],
            registry=r,
        )
        self.citation_traces = Counter(
            "cargo_citation_traces",
            "Traces carrying a citation contract, by integrity and quote result.",
            ["integrity", "quotes"],
            registry=r,
        )
        info = Info("cargo_golden_set", "The golden set in use.", registry=r)
        info.info(
            {
                "version": golden.version,
                "content_hash": golden.content_hash(),
                "items": str(len(golden.items)),
            }
        )
        # Pre-create the status series so that rates start at 0, not absent.
        for status in ("evaluated", "abstained", "judge_error", "invalid"):
            self.traces.labels(status=status)
        # Bounded series that dashboards and alerts divide by or plot even when
        # nothing has happened yet (0, not "no data").
        for kind in sorted(JudgeError.KINDS):
            self.judge_errors.labels(judge=judge_name, kind=kind)
        for guard in ("language", "too_short", "too_long"):
            self.guards.labels(guard=guard)
        for reason in INVALID_REASONS:
            self.invalid.labels(reason=reason)
        for direction in ("input", "output"):
            self.judge_tokens.labels(judge=judge_name, direction=direction)
        self.judge_cost.labels(judge=judge_name)
        for decision in ("sampled", "escalated", "skipped"):
            self.llm_calls.labels(judge=judge_name, decision=decision)
        self.llm_attempts.labels(judge=judge_name)
        for category in FINDING_CATEGORIES:
            self.citation_findings.labels(category=category)
        for status in SUPPORT_STATUSES:
            self.citation_support.labels(status=status)
        for covered in ("true", "false"):
            self.citation_claims.labels(covered=covered)
        # The series the contradiction and settled-penalty alerts read, per intent of
        # the golden set (bounded by it): a series born at its first increment loses
        # that increment to rate(), which needs a sample before it.
        evidence = penalty_evidence_of(judge_name)
        for intent in golden.intents:
            for penalized in ("true", "false"):
                self.judgments.labels(judge=judge_name, intent=intent, penalized=penalized)
            for e in evidence:
                self.penalties.labels(judge=judge_name, intent=intent, evidence=e)
            self.claims.labels(status="contradicted", intent=intent)

    def _intent(self, intent: str | None) -> str:
        if intent is None:
            return NONE
        return intent if intent in self._intents else OTHER

    def _agent(self, agent: str | None) -> str:
        if agent is None:
            return NONE
        return agent if agent in self._agents else OTHER

    def _observe_llm(self, judge: str, j: Judgment) -> None:
        call = j.llm
        assert call is not None
        decision = "skipped" if not call.sampled else "escalated" if call.escalated else "sampled"
        self.llm_calls.labels(judge=judge, decision=decision).inc()
        if not call.sampled:
            return
        self.llm_attempts.labels(judge=judge).inc(call.attempts)
        self.judge_tokens.labels(judge=judge, direction="input").inc(call.usage.input_tokens)
        self.judge_tokens.labels(judge=judge, direction="output").inc(call.usage.output_tokens)
        self.judge_cost.labels(judge=judge).inc(call.cost_usd)
        if call.error is not None:  # an LLM-tier failure that the judgment survived
            self.judge_errors.labels(judge=judge, kind=call.error.kind).inc()

    def _observe_citations(self, j: Judgment) -> None:
        c = j.citations
        assert c is not None
        self.citation_traces.labels(integrity=c.integrity, quotes=c.quotes).inc()
        if c.llm is not None:  # LLM support checks: accounted like judge calls
            self.judge_tokens.labels(judge=CITATIONS, direction="input").inc(
                c.llm.usage.input_tokens
            )
            self.judge_tokens.labels(judge=CITATIONS, direction="output").inc(
                c.llm.usage.output_tokens
            )
            self.judge_cost.labels(judge=CITATIONS).inc(c.llm.cost_usd)
            for kind, n in c.llm.failed.items():
                self.judge_errors.labels(judge=CITATIONS, kind=kind).inc(n)
        for f in c.findings:
            self.citation_findings.labels(category=f.category).inc()
        for claim in c.claims:
            for s in claim.support:
                self.citation_support.labels(status=s.status).inc()
            if claim.requires_citation:
                self.citation_claims.labels(covered="true" if claim.supported else "false").inc()

    def observe(self, j: Judgment) -> None:
        self.traces.labels(status=j.status).inc()
        if j.citations is not None:
            self._observe_citations(j)
        self.last_judgment.set(j.evaluated_at.timestamp())
        if j.status == "invalid":
            self.invalid.labels(reason=j.reason).inc()
            return
        intent = self._intent(j.gate.intent if j.gate else None)
        if j.gate is not None:
            g = j.gate
            decision = g.status
            self.gate.labels(gate=g.kind, decision=decision, reason=g.reason, intent=intent).inc()
            if g.similarity is not None:
                self.similarity.labels(gate=g.kind, decision=decision).observe(g.similarity)
            if g.margin is not None:
                self.margin.labels(gate=g.kind, decision=decision).observe(g.margin)
            if g.probability is not None:
                self.probability.labels(gate=g.kind, decision=decision).observe(g.probability)
        d = j.diagnostics
        if d is not None:
            self.response_types.labels(
                response_type=d.response_type, source=d.response_type_source
            ).inc()
            self.planner.labels(verdict=d.planner_verdict, intent=intent).inc()
            if d.replans:
                self.replans.inc(d.replans)
            for v in d.guard_violations:
                self.guards.labels(guard=v).inc()
            if d.latency_ms is not None:
                self.latency.observe(d.latency_ms / 1000.0)
        judge = j.judge.name if j.judge else self.judge_name
        if j.duration_ms is not None:
            self.judge_duration.labels(judge=judge).observe(j.duration_ms / 1000.0)
        if j.status == "judge_error" and j.error is not None:
            self.judge_errors.labels(judge=judge, kind=j.error.kind).inc()
        if j.llm is not None:
            self._observe_llm(judge, j)
        if j.status != "evaluated":
            return
        self.judgments.labels(
            judge=judge, intent=intent, penalized="true" if j.penalized else "false"
        ).inc()
        evidence = penalty_evidence(j)
        if evidence != "none":
            self.penalties.labels(judge=judge, intent=intent, evidence=evidence).inc()
        agent = self._agent(d.actual_agent if d else None)
        for c in j.claims:
            self.claims.labels(status=c.status, intent=intent).inc()
            if c.status == "contradicted":
                self.contradictions.labels(intent=intent, agent=agent).inc()
        for s in j.steps:
            self.steps.labels(
                verdict=s.status, intent=intent, required="true" if s.required else "false"
            ).inc()
        for dim in DIMENSIONS:
            v = getattr(j.scores, dim)
            if v is not None:
                self.scores.labels(dimension=dim, judge=judge).observe(v)
