"""``cargo-monitor run``: the embedded monitor on a file, stdin or a growing file."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from prometheus_client import CollectorRegistry, PlatformCollector, ProcessCollector
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table

from monitor.errors import ConfigError
from monitor.golden import load_golden
from monitor.io import FileSource, JsonlSink, StdinSource, TraceSource, batched, count_lines
from monitor.judges import aclose_judge
from monitor.judges.structural import penalty_evidence
from monitor.metrics import MonitorMetrics, serve_metrics
from monitor.redact import SecretMask, make_redactor
from monitor.schemas import Judgment
from monitor.settings import CargoSettings
from monitor.text.lexicon import counted
from monitor.traces import OTLP_LINE
from pipelines.components import build_components, freeze_startup_heap
from pipelines.otel.run import OtlpRun
from pipelines.otel.settings import OtelSettings

# The summary's rows under "penalized": what each penalty rests on.
PENALTY_ROWS = (
    ("settled", "settled evidence"),
    ("uncertain", "uncertain verdicts only"),
    ("llm", "LLM verdict"),
)


@dataclass
class Summary:
    traces: int = 0
    status: Counter[str] = field(default_factory=Counter)
    abstentions: Counter[str] = field(default_factory=Counter)
    # Penalised judgments by what each penalty rests on (penalty_evidence).
    penalty_evidence: Counter[str] = field(default_factory=Counter)
    contradictions: Counter[str] = field(default_factory=Counter)
    judge_errors: Counter[str] = field(default_factory=Counter)
    invalid: list[tuple[str, str]] = field(default_factory=list)
    otlp_lines: int = 0  # invalid lines that are OTLP/JSON exports, not native traces
    llm: Counter[str] = field(default_factory=Counter)
    llm_cost_usd: float = 0.0
    cited: int = 0
    citation_findings: Counter[str] = field(default_factory=Counter)
    cite_requiring: int = 0
    cite_covered: int = 0
    cite_checked: int = 0
    cite_supported: int = 0

    def add(self, j: Judgment) -> None:
        self.traces += 1
        if j.citations is not None:
            c = j.citations
            self.cited += 1
            self.citation_findings.update(f.category for f in c.findings)
            self.cite_requiring += c.requiring
            self.cite_covered += c.covered
            self.cite_checked += c.citations_checked
            self.cite_supported += c.citations_supported
        if j.llm is not None:
            if not j.llm.sampled:
                self.llm["skipped (not sampled)"] += 1
            else:
                self.llm["calls"] += 1
                if j.llm.escalated:
                    self.llm["escalated (uncertain, not sampled)"] += 1
                self.llm["attempts"] += j.llm.attempts
                self.llm["input tokens"] += j.llm.usage.input_tokens
                self.llm["output tokens"] += j.llm.usage.output_tokens
                self.llm_cost_usd += j.llm.cost_usd
                if j.llm.error is not None:
                    self.llm[f"LLM tier failed, structural kept: {j.llm.error.kind}"] += 1
        self.status[j.status] += 1
        if j.status == "abstained":
            self.abstentions[j.reason] += 1
        elif j.status == "evaluated":
            if j.penalized:
                self.penalty_evidence[penalty_evidence(j)] += 1
            intent = j.gate.intent if j.gate and j.gate.intent else "none"
            n = sum(c.status == "contradicted" for c in j.claims)
            if n:
                self.contradictions[intent] += n
        elif j.status == "judge_error" and j.error:
            self.judge_errors[j.error.kind] += 1
        elif j.status == "invalid":
            line = j.source.line if j.source else None
            where = f"line {line}" if line is not None else f"trace {j.trace_id or '?'}"
            why = f"{j.reason}{f' ({j.invalid_field})' if j.invalid_field else ''}"
            self.invalid.append((where, why))
            self.otlp_lines += OTLP_LINE in j.rationale

    @property
    def penalized(self) -> int:
        return sum(self.penalty_evidence.values())

    @property
    def coverage(self) -> float:
        valid = self.traces - self.status["invalid"]
        return self.status["evaluated"] / valid if valid else 0.0

    def table(self) -> Table:
        t = Table(title="Cargo Monitor — run summary", show_header=True)
        t.add_column("metric")
        t.add_column("value", justify="right")
        valid = self.traces - self.status["invalid"]
        t.add_row("traces", str(self.traces))
        t.add_row("evaluated", str(self.status["evaluated"]))
        t.add_row("coverage (evaluated / valid)", f"{self.coverage:.1%} of {valid}")
        t.add_row("abstained", str(self.status["abstained"]))
        for reason, n in sorted(self.abstentions.items()):
            t.add_row(f"  abstained: {reason}", str(n))
        pen = self.penalized / self.status["evaluated"] if self.status["evaluated"] else 0.0
        t.add_row("penalized", f"{self.penalized} ({pen:.1%} of evaluated)")
        for evidence, label in PENALTY_ROWS:
            if self.penalty_evidence[evidence]:
                t.add_row(f"  penalized: {label}", str(self.penalty_evidence[evidence]))
        t.add_row("contradicted claims", str(sum(self.contradictions.values())))
        for intent, n in sorted(self.contradictions.items()):
            t.add_row(f"  contradictions: {intent}", str(n))
        t.add_row("judge errors", str(self.status["judge_error"]))
        for kind, n in sorted(self.judge_errors.items()):
            t.add_row(f"  judge error: {kind}", str(n))
        if self.llm:
            for key in (
                "calls",
                "escalated (uncertain, not sampled)",
                "skipped (not sampled)",
                "attempts",
                "input tokens",
                "output tokens",
            ):
                t.add_row(f"LLM {key}", str(self.llm[key]))
            t.add_row("LLM estimated cost (USD)", f"{self.llm_cost_usd:.4f}")
            for key, n in sorted(self.llm.items()):
                if key.startswith("LLM tier failed"):
                    t.add_row(f"  {key}", str(n))
        if self.cited:
            t.add_row("traces with citations", str(self.cited))
            cov = (
                f"{self.cite_covered / self.cite_requiring:.1%} of {self.cite_requiring}"
                if self.cite_requiring
                else "n/a"
            )
            prec = (
                f"{self.cite_supported / self.cite_checked:.1%} of {self.cite_checked}"
                if self.cite_checked
                else "n/a"
            )
            t.add_row("  citation coverage (claims)", cov)
            t.add_row("  citation precision (checked)", prec)
            for cat, n in sorted(self.citation_findings.items()):
                t.add_row(f"  citation finding: {cat}", str(n))
        t.add_row("invalid", str(self.status["invalid"]))
        for where, reason in self.invalid[:10]:
            t.add_row(f"  {escape(where)}", escape(reason))  # a field name is input: no markup
        if len(self.invalid) > 10:
            t.add_row("  ...", f"{len(self.invalid) - 10} more")
        if self.otlp_lines:
            t.caption = (
                f"{counted(self.otlp_lines, 'invalid line')}: OpenTelemetry spans (OTLP/JSON), "
                "not native traces; run with --input-format otlp-json (or auto)"
            )
        return t


def _on_sigterm(loop: asyncio.AbstractEventLoop, callback: Callable[[], object]) -> bool:
    try:
        loop.add_signal_handler(signal.SIGTERM, callback)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, ...
        return False
    return True


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).exists() and Path(a).samefile(b)
    except OSError:
        return False


def _source(settings_input: str, follow: bool, max_line_bytes: int) -> TraceSource:
    if settings_input == "-":
        return StdinSource(max_line_bytes=max_line_bytes)
    path = Path(settings_input)
    if not path.exists():
        raise ConfigError(f"input file not found: {path}")
    if not path.is_file():
        raise ConfigError(f"input is not a file: {path}")
    return FileSource(path, follow=follow, max_line_bytes=max_line_bytes)


async def run_monitor(
    settings: CargoSettings,
    *,
    input_path: str,
    output: str,
    follow: bool,
    keep_serving: bool,
    progress: bool,
    console: Console,
    otel: OtelSettings | None = None,
    events_out: str | None = None,
) -> Summary:
    otel = otel or OtelSettings()
    if otel.input_format == "otlp-proto":
        raise ConfigError(
            "run reads lines: --input-format otlp-proto is for stream (Kafka records); "
            "give run OTLP/JSON lines (--input-format otlp-json)"
        )
    golden = load_golden(settings.golden)
    redactor = make_redactor(settings.redact, settings.redact_salt)
    source = _source(input_path, follow, settings.max_payload_bytes)
    for what, path in (("judgments", output), ("events", events_out)):
        if path not in (None, "-") and input_path != "-" and _same_file(path, input_path):
            # Opening the output would empty the input before a line of it is read.
            raise ConfigError(f"the {what} file {path} is the input file: give another path")
    if (
        output not in (None, "-")
        and events_out
        and (
            Path(output).absolute() == Path(events_out).absolute() or _same_file(output, events_out)
        )
    ):
        raise ConfigError(f"the judgments and the events go to one file {output}: give two")
    registry = CollectorRegistry()
    # Worker health (resident memory, CPU, open fds) for the dashboard.
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    metrics = MonitorMetrics(registry, golden, gate_kind=settings.gate, judge_name=settings.judge)
    otlp = OtlpRun.start(
        otel,
        source,
        registry,
        follow=follow,
        events_out=events_out,
        max_record_bytes=settings.max_payload_bytes,
        mask=SecretMask([settings.judge_api_key, settings.redact_salt]),
    )
    if otlp is not None:
        source = otlp.source
    metrics_url = ""
    if settings.metrics_port:
        metrics_url = serve_metrics(
            registry,
            host=settings.metrics_host,
            port=settings.metrics_port,
            certfile=settings.metrics_tls_cert,
            keyfile=settings.metrics_tls_key,
        )
        console.print(f"metrics: {metrics_url}")
    with console.status("loading the embedding model and golden index..."):
        parts = build_components(settings, golden)
        freeze_startup_heap()
    phrasings = sum(len(i.phrasings) for i in golden.items)
    worded = f" ({phrasings} phrasings)" if phrasings > len(golden.items) else ""
    console.print(
        f"golden set {settings.golden.name} v{golden.version}: {len(golden.items)} "
        f"items{worded}, embedder {parts.embedder.model_id} "
        f"({'cached' if parts.index.cache_hit else 'built'} index), "
        f"gate {settings.gate}, judge {parts.judge.info.name}"
    )
    evaluator = parts.evaluator
    mask = SecretMask([settings.judge_api_key, settings.redact_salt])
    sink = JsonlSink(output, mask=mask or None)
    summary = Summary()
    total = count_lines(input_path) if (input_path != "-" and not follow) else None
    bar = Progress(
        SpinnerColumn(),
        TextColumn("[bold]evaluating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        console=console,
        disable=not progress,
        transient=False,
    )
    interrupted, held = False, 0
    # SIGTERM (a service manager, `docker stop`) ends a run as Ctrl-C does: what was
    # judged is written and summarised (asyncio.run cancels this task on Ctrl-C).
    loop = asyncio.get_running_loop()
    this = asyncio.current_task()
    terminable = this is not None and _on_sigterm(loop, this.cancel)
    try:
        with bar:
            task = bar.add_task("run", total=total, status="")
            batches = batched(source, settings.batch_size, settings.batch_window_s)
            async for judgments in evaluator.evaluate_stream(batches):
                written = judgments if redactor is None else [redactor(j) for j in judgments]
                sink.write(written)
                if otlp is not None:
                    otlp.judged(written)  # events carry what the judgments file holds
                for j in judgments:
                    metrics.observe(j)
                    summary.add(j)
                bar.update(
                    task,
                    advance=len(judgments),
                    status=f"cov {summary.coverage:.0%} pen {summary.penalized}",
                )
    except asyncio.CancelledError:
        # Ctrl-C (asyncio.run cancels this task): how a `--follow` run or a piped one
        # ends. What was judged is written and counted; say so before leaving.
        interrupted = True
        # OpenTelemetry traces still open (waiting for more spans, or for their quiet
        # period) get no judgment: say how many, not nothing.
        held = otlp.ingest.buffer.open_traces if otlp is not None else 0
        raise
    finally:
        if terminable:
            loop.remove_signal_handler(signal.SIGTERM)
        sink.close()
        await aclose_judge(parts.judge)
        if otlp is not None:
            await otlp.aclose()
        if interrupted:
            console.print(summary.table())
            if otlp is not None:
                console.print(otlp.table())
            where = f" (in {output})" if output != "-" else ""
            console.print(
                f"interrupted: {counted(summary.traces, 'trace')} judged and written{where}"
            )
            if held:
                console.print(
                    f"not judged: {counted(held, 'OpenTelemetry trace')} still open (spans "
                    "received, the trace not yet complete or quiet); send their spans again "
                    "to have them judged"
                )
    console.print(summary.table())
    if otlp is not None:
        console.print(otlp.table())
    if output != "-":
        console.print(f"judgments: {output}")
    if keep_serving and settings.metrics_port:
        console.print(f"still serving {metrics_url} — press Ctrl-C to stop")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    return summary


def main_run(
    settings: CargoSettings,
    *,
    input_path: str,
    output: str,
    follow: bool,
    keep_serving: bool,
    progress: bool,
    otel: OtelSettings | None = None,
    events_out: str | None = None,
) -> int:
    # Progress and summary go to stderr when judgments stream to stdout.
    # Lines are not wrapped when the output is a file or a pipe (a log line stays whole).
    console = Console(stderr=output == "-", soft_wrap=True)
    try:
        asyncio.run(
            run_monitor(
                settings,
                input_path=input_path,
                output=output,
                follow=follow,
                keep_serving=keep_serving,
                progress=progress,
                console=console,
                otel=otel,
                events_out=events_out,
            )
        )
    except KeyboardInterrupt:
        return 130
    except asyncio.CancelledError:  # SIGTERM (see run_monitor)
        return 128 + signal.SIGTERM
    except ConfigError as exc:
        print(f"cargo-monitor: error: {exc}", file=sys.stderr)
        return 2
    return 0
