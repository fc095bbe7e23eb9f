"""The citation contract: deterministic reference integrity first, then per-citation support.

Four contracts that break for different reasons and have different owners, each
reported on its own:

1. **Reference integrity** (deterministic, no model): every marker resolves to a
   source of the snapshot the generator saw (``unknown_source``), the snapshot has
   no ambiguous ids (``duplicate_source``), numeric footnotes resolve through the
   saved map (``unresolved_footnote``) and the UI showed what that map says
   (``render_mismatch``), and the same source id has the same content hash at every
   stage (``hash_mismatch``: an evidence-transport defect, e.g. a stale copy at the
   evaluator).
2. **Exact quotes** (deterministic): a quotation of three words or more must occur
   in the passage its claim *cites* (case and whitespace normalised)
   (``quote_mismatch``). An answer without quotes is ``not_applicable``, not a pass.
3. **Per-citation support**: the claim is checked against the passage it cites, not
   against the whole retrieval set, with the structural judge's step verifier
   (covered -> supported, negated/altered -> contradicted, missing -> unsupported).
   Where integrity failed for a citation, its support is ``not_run`` with the reason
   -- never 0.
4. **Coverage**: the share of citation-requiring claims with at least one supporting
   citation (``uncited_claim`` lists those with none), kept apart from citation
   precision (supported / checked), so "wrong source" and "no source" never blend.

Marker grammar for prose answers (used when a trace has no structured claims):

* a marker is ``[id]`` where ``id`` starts with a letter or digit and continues
  with letters, digits and ``_ . : / # -``; ``[a, b]`` and ``[a; b]`` cite several
  ids, adjacent markers ``[a][b]`` too, and a repeated id counts once per claim;
* ``\\[`` is a literal bracket; ``[text](url)`` is a link, not a marker; text with
  spaces (``[citation needed]``) is not a marker;
* markers inside fenced (```` ``` ````) or inline (`` ` ``) code are ignored;
* a claim is a sentence; markers right after its final punctuation
  (``... 30 days. [1]``) belong to it;
* a prose sentence requires a citation unless it is a question, has fewer than
  four words, or is conversational ("thanks", "hope this helps", ...).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from monitor.errors import JudgeError
from monitor.judges.prompts import PromptLibrary, PromptRenderer
from monitor.llm import LLMClient, OutputSchema, extract_json, strict_schema
from monitor.schemas import (
    CitationBundle,
    CitationFinding,
    CitationLLMUsage,
    CitationReport,
    CitationSource,
    CitationSupport,
    CitedClaim,
    ClaimCitations,
    FindingCategory,
    GoldenItem,
    LLMCall,
    QuoteCheck,
    QuoteStatus,
    StepVerdict,
    SupportStatus,
    TokenUsage,
    Trace,
)
from monitor.steps import StepVerifier
from monitor.text import fold_case_space, split_sentences
from monitor.text.lexicon import CONVERSATIONAL_OPENERS

FINDING_CATEGORIES: tuple[FindingCategory, ...] = (
    "unknown_source",
    "duplicate_source",
    "uncited_claim",
    "unresolved_footnote",
    "hash_mismatch",
    "render_mismatch",
    "quote_mismatch",
)
SUPPORT_STATUSES: tuple[SupportStatus, ...] = (
    "supported",
    "contradicted",
    "unsupported",
    "not_run",
)
QUOTE_MIN_WORDS = 3
# Step verdict of "the claim, as a step, against the cited passage" -> support status.
_SUPPORT_OF_STEP: dict[str, SupportStatus] = {
    "covered": "supported",
    "negated": "contradicted",
    "altered": "contradicted",
    "missing": "unsupported",
}

_ID = r"[A-Za-z0-9][\w.:/#-]*"
_MARKER = re.compile(rf"(?<!\\)\[\s*({_ID}(?:\s*[,;]\s*{_ID})*)\s*\](?!\()")
_LEADING_MARKERS = re.compile(rf"^(?:\s*(?<!\\)\[\s*{_ID}(?:\s*[,;]\s*{_ID})*\s*\](?!\())+")
_TRAILING = re.compile(rf"([.!?])((?:\s*(?<!\\)\[\s*{_ID}(?:\s*[,;]\s*{_ID})*\s*\](?!\())+)")
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_INLINE = re.compile(r"`[^`\n]*`")
_QUOTE = re.compile(r"\"([^\"\n]+)\"|\u201c([^\u201d\n]+)\u201d")
_CONVERSATIONAL = re.compile(r"^\s*(" + "|".join(CONVERSATIONAL_OPENERS) + r")\b", re.IGNORECASE)


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _norm_hash(h: str) -> str:
    h = h.strip().lower()
    return h.split(":", 1)[1] if h.startswith("sha256:") else h


# --------------------------------------------------------------------------- marker grammar


@dataclass(frozen=True, slots=True)
class ParsedClaim:
    claim_id: str
    text: str
    citation_ids: tuple[str, ...]
    requires_citation: bool


def _ids(group: str) -> list[str]:
    return [x.strip() for x in re.split(r"[,;]", group) if x.strip()]


def _dedup(xs: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(xs))


def parse_markers(answer: str) -> list[ParsedClaim]:
    """Claims and their markers from a prose answer (grammar in the module docstring)."""
    # Code is set aside behind placeholders (no brackets, no sentence ends inside)
    # and put back into the claim text afterwards.
    code: list[str] = []

    def stash(m: re.Match[str]) -> str:
        code.append(m.group(0))
        return f"\ue000{len(code) - 1}\ue001"

    text = _INLINE.sub(stash, _FENCED.sub(stash, answer))
    # "... 30 days.[1] Next" / "... 30 days. [1] Next": the markers belong to the
    # sentence they follow; move them before its punctuation so that it ends there.
    text = _TRAILING.sub(lambda m: f"{m.group(2)}{m.group(1)}", text)
    sents = [s.text for s in split_sentences(text)]
    merged: list[tuple[str, list[str]]] = []
    for sent in sents:
        body = sent
        lead = _LEADING_MARKERS.match(sent)
        if lead and merged:
            merged[-1][1].extend(
                i for m in _MARKER.finditer(lead.group(0)) for i in _ids(m.group(1))
            )
            body = sent[lead.end() :].strip()
            if not body:
                continue
        merged.append((body, [i for m in _MARKER.finditer(body) for i in _ids(m.group(1))]))
    out: list[ParsedClaim] = []
    for k, (body, ids) in enumerate(merged, start=1):
        prose = " ".join(_MARKER.sub(" ", body).split())
        prose = re.sub(r"\s+([.,;:!?])", r"\1", prose)
        if not _PLACEHOLDER.sub("", prose).strip(" .,;:!?"):
            continue  # a code block on its own is not a claim
        claim_text = _PLACEHOLDER.sub(lambda m: code[int(m.group(1))], prose).replace("\\[", "[")
        out.append(
            ParsedClaim(
                f"s{k}",
                claim_text,
                _dedup(ids),
                bool(ids) or _needs_citation(_PLACEHOLDER.sub("code", prose)),
            )
        )
    return out


def _needs_citation(sentence: str) -> bool:
    if sentence.rstrip().endswith("?") or _CONVERSATIONAL.match(sentence):
        return False
    return len(re.findall(r"\w+", sentence)) >= 4


def quotes_in(text: str) -> list[str]:
    """Quoted spans of at least three words, surrounding punctuation stripped."""
    out = []
    for m in _QUOTE.finditer(text):
        q = (m.group(1) or m.group(2) or "").strip().strip(".,;:!?")
        if len(q.split()) >= QUOTE_MIN_WORDS:
            out.append(q)
    return out


# --------------------------------------------------------------------------- the checker


def _claim_item(claim: str, sid: str) -> GoldenItem:
    """A claim as the one step of a reference, to align with a cited passage."""
    return GoldenItem(
        id=f"claim:{sid}",
        intent="citation",
        agent="citation",
        question="",
        answer=claim,
        steps=(claim,),
    )


def _support_of(sid: str, verdict: StepVerdict) -> CitationSupport:
    return CitationSupport(
        source_id=sid,
        status=_SUPPORT_OF_STEP[verdict.status],
        reason=f"{verdict.status} in the cited passage: {verdict.cue}",
        matched=verdict.matched_sentence,
    )


def _supported(support: Sequence[CitationSupport]) -> bool | None:
    """At least one cited passage supports the claim; None when no check ran."""
    if not any(s.status != "not_run" for s in support):
        return None
    return any(s.status == "supported" for s in support)


def _finish(
    mode: Literal["structured", "markers"],
    findings: list[CitationFinding],
    results: list[ClaimCitations],
    llm: CitationLLMUsage | None,
) -> CitationReport:
    requiring = [r for r in results if r.requires_citation]
    covered = sum(bool(r.supported) for r in requiring)
    ran = [s for r in results for s in r.support if s.status != "not_run"]
    ok = sum(s.status == "supported" for s in ran)
    statuses = {r.quotes_status for r in results}
    quotes: Literal["pass", "fail", "not_applicable"] = (
        "fail" if "fail" in statuses else "pass" if "pass" in statuses else "not_applicable"
    )
    integrity_categories = set(FINDING_CATEGORIES) - {"uncited_claim", "quote_mismatch"}
    return CitationReport(
        mode=mode,
        integrity="fail" if any(f.category in integrity_categories for f in findings) else "pass",
        findings=tuple(findings),
        claims=tuple(results),
        quotes=quotes,
        requiring=len(requiring),
        covered=covered,
        coverage=round(covered / len(requiring), 6) if requiring else None,
        citations_checked=len(ran),
        citations_supported=ok,
        precision=round(ok / len(ran), 6) if ran else None,
        llm=llm,
    )


@dataclass
class _State:
    findings: list[CitationFinding] = field(default_factory=list)

    def add(
        self,
        category: FindingCategory,
        claim_id: str | None,
        source_ids: Sequence[str],
        detail: str,
    ) -> None:
        self.findings.append(
            CitationFinding(
                category=category, claim_id=claim_id, source_ids=tuple(source_ids), detail=detail
            )
        )


# --------------------------------------------------------------------------- LLM support


class SupportOut(BaseModel):
    """What the per-citation support check must return."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    status: Literal["supported", "contradicted", "unsupported"]
    rationale: str


def _parse_support(text: str) -> SupportOut:
    data = extract_json(text)
    try:
        return SupportOut.model_validate(data)
    except ValidationError as exc:
        e = exc.errors()[0]
        raise JudgeError(
            "schema",
            f"support check output violates its schema: "
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}",
        ) from exc


class LLMSupportCheck:
    """Does this passage support this claim? One LLM call (plus retries) per citation,
    with the ``citation_support`` prompt of the prompt library."""

    def __init__(self, client: LLMClient, *, library: PromptLibrary | None = None) -> None:
        self.client = client
        # The judge's condition and rubric are validated as for the judge; the support
        # prompt itself is the library's one ``citation_support`` task.
        self.renderer = PromptRenderer(client.config.condition, client.config.rubric, library)
        self.schema = OutputSchema("cargo_citation_support", strict_schema(SupportOut))

    @property
    def prompt_version(self) -> str:
        return self.renderer.support_version

    async def check(self, claim: str, passage: str) -> tuple[SupportOut, LLMCall]:
        """The verdict and its call record; ``JudgeError`` (with ``.call``) when the
        endpoint gives no valid answer."""
        prompt = self.renderer.render_support(claim, passage)
        return await self.client.ask(prompt, self.client.config.seed, self.schema, _parse_support)


class CitationChecker:
    """Runs the contract on a trace's ``citations`` bundle.

    With a ``support_llm`` client, :meth:`check_async` re-checks every citation whose
    structural support check ran with the LLM (claim against the cited passage only);
    an LLM failure keeps the structural verdict and is counted.
    """

    def __init__(
        self, verifier: StepVerifier | None = None, support_llm: LLMClient | None = None
    ) -> None:
        self.verifier = verifier or StepVerifier()
        self.support_llm = support_llm
        self.support = LLMSupportCheck(support_llm) if support_llm is not None else None

    async def check_async(self, trace: Trace) -> CitationReport | None:
        report = await self._check_verified(trace)
        if report is None or self.support is None or trace.citations is None:
            return report
        support = self.support
        texts = {s.source_id: s.text for s in trace.citations.sources if s.text is not None}
        jobs = [
            (k, j, c.text, texts.get(sup.source_id, ""))
            for k, c in enumerate(report.claims)
            for j, sup in enumerate(c.support)
            if sup.status != "not_run"
        ]

        async def one(
            claim: str, passage: str
        ) -> tuple[SupportOut | None, LLMCall | None, JudgeError | None]:
            try:
                out, call = await support.check(claim, passage)
                return out, call, None
            except JudgeError as exc:
                return None, exc.call, exc

        answers = await asyncio.gather(*(one(c, p) for _, _, c, p in jobs))
        claims = [list(c.support) for c in report.claims]
        failed: dict[str, int] = {}
        calls: list[LLMCall] = []
        for (k, j, _, _), (out, call, err) in zip(jobs, answers, strict=True):
            if call is not None:
                calls.append(call)
            old = claims[k][j]
            if out is not None:
                claims[k][j] = old.model_copy(
                    update={
                        "status": out.status,
                        "checked_by": "llm",
                        "reason": f"LLM: {out.rationale[:300]} (structural: {old.status})",
                    }
                )
            elif err is not None:
                failed[err.kind] = failed.get(err.kind, 0) + 1
                claims[k][j] = old.model_copy(
                    update={
                        "reason": f"{old.reason} [LLM check failed ({err.kind}); structural "
                        "verdict kept]"
                    }
                )
        results = [
            c.model_copy(update={"support": tuple(s), "supported": _supported(s)})
            for c, s in zip(report.claims, claims, strict=True)
        ]
        usage = TokenUsage(
            input_tokens=sum(c.usage.input_tokens for c in calls),
            output_tokens=sum(c.usage.output_tokens for c in calls),
        )
        llm = CitationLLMUsage(
            prompt_version=support.prompt_version,
            calls=len(jobs),
            failed=failed,
            usage=usage,
            cost_usd=round(sum(c.cost_usd for c in calls), 8),
        )
        return _finish(report.mode, list(report.findings), results, llm)

    async def _check_verified(self, trace: Trace) -> CitationReport | None:
        """:meth:`check` for an event loop: the support checks it can ask for run
        first, concurrently (their embeddings off the loop, in one model call), and
        the report is then assembled from their verdicts."""
        if trace.citations is None:
            return None
        asked: dict[tuple[str, str, str], None] = {}

        def record(claim: str, sid: str, passage: str) -> CitationSupport:
            asked[(claim, sid, passage)] = None
            # "Unsupported" makes the pass also ask for every source a claim could be
            # supported by elsewhere: the superset of the checks the real pass makes.
            return CitationSupport(source_id=sid, status="unsupported", reason="")

        self.check(trace, support=record)
        keys = list(asked)
        verdicts = await asyncio.gather(
            *(self.verifier.verify_async(_claim_item(c, s), p, []) for c, s, p in keys)
        )
        done = {k: _support_of(k[1], v[0]) for k, v in zip(keys, verdicts, strict=True)}
        return self.check(trace, support=lambda c, sid, p: done[(c, sid, p)])

    def check(
        self, trace: Trace, support: Callable[[str, str, str], CitationSupport] | None = None
    ) -> CitationReport | None:
        """The report; ``support`` (claim, source id, passage) -> verdict replaces
        the structural support check (used by :meth:`check_async`)."""
        bundle = trace.citations
        if bundle is None:
            return None
        st = _State()
        by_id, ambiguous = self._manifest(bundle, st)
        transport = self._hashes(bundle, by_id, st)
        mode: Literal["structured", "markers"]
        if bundle.claims is not None:
            claims: list[ParsedClaim | CitedClaim] = list(bundle.claims)
            mode = "structured"
        else:
            claims = list(parse_markers(trace.answer))
            mode = "markers"
        results = [
            self._claim(c, bundle, by_id, ambiguous, transport, st, support or self._support)
            for c in claims
        ]
        return _finish(mode, st.findings, results, None)

    # ------------------------------------------------------------------ integrity

    @staticmethod
    def _manifest(bundle: CitationBundle, st: _State) -> tuple[dict[str, CitationSource], set[str]]:
        by_id: dict[str, CitationSource] = {}
        counts: dict[str, int] = {}
        for s in bundle.sources:
            counts[s.source_id] = counts.get(s.source_id, 0) + 1
            by_id.setdefault(s.source_id, s)
        ambiguous = {sid for sid, n in counts.items() if n > 1}
        for sid in sorted(ambiguous):
            st.add(
                "duplicate_source",
                None,
                [sid],
                f"source id {sid!r} appears {counts[sid]} times in the manifest: a citation "
                "of it cannot be resolved to one passage",
            )
        return by_id, ambiguous

    @staticmethod
    def _hashes(
        bundle: CitationBundle, by_id: dict[str, CitationSource], st: _State
    ) -> dict[str, str]:
        """Sources whose content differs between stages -> why."""
        bad: dict[str, str] = {}
        stages: dict[str, dict[str, str]] = {}
        for stage, hashes in bundle.stage_hashes.items():
            for sid, h in hashes.items():
                stages.setdefault(sid, {})[stage] = _norm_hash(h)
        for sid in sorted(set(stages) - set(by_id)):
            st.add(
                "unknown_source",
                None,
                [sid],
                f"stage hashes name {sid!r}, which is not in the manifest "
                f"({', '.join(sorted(stages[sid]))})",
            )
        for sid, src in by_id.items():
            seen = dict(stages.get(sid, {}))
            if src.content_hash:
                seen["manifest"] = _norm_hash(src.content_hash)
            if src.text is not None and (src.content_hash or seen):
                seen["manifest text"] = content_hash(src.text)
            if len(set(seen.values())) > 1:
                detail = ", ".join(f"{k}={v[:12]}" for k, v in sorted(seen.items()))
                bad[sid] = f"content hash differs between stages ({detail})"
                st.add(
                    "hash_mismatch",
                    None,
                    [sid],
                    f"{sid!r}: {bad[sid]}: the text judged may not be the text the "
                    "generator saw (evidence transport defect)",
                )
        return bad

    # ------------------------------------------------------------------ per claim

    def _claim(
        self,
        claim: ParsedClaim | CitedClaim,
        bundle: CitationBundle,
        by_id: dict[str, CitationSource],
        ambiguous: set[str],
        transport: dict[str, str],
        st: _State,
        check_support: Callable[[str, str, str], CitationSupport],
    ) -> ClaimCitations:
        cid = claim.claim_id
        written = _dedup(claim.citation_ids)
        if claim.requires_citation and not written:
            st.add("uncited_claim", cid, [], f"claim {cid} requires a citation and has none")
        resolved: list[str] = []
        blocked: dict[str, str] = {}
        for marker in written:
            sid = self._resolve(cid, marker, bundle, by_id, st)
            if sid is None:
                continue
            resolved.append(sid)
            if sid in ambiguous:
                blocked[sid] = "not_run: the manifest lists this source id more than once"
            elif sid in transport:
                blocked[sid] = f"not_run: {transport[sid]}"
            elif by_id[sid].text is None:
                blocked[sid] = (
                    "not_run: the manifest has only a text_ref for this source; "
                    "its text is not available to the evaluator"
                )
        usable = [sid for sid in _dedup(resolved) if sid not in blocked]
        support = [
            CitationSupport(source_id=sid, status="not_run", reason=blocked[sid])
            for sid in _dedup(resolved)
            if sid in blocked
        ]
        support += [check_support(claim.text, sid, by_id[sid].text or "") for sid in usable]
        supported = _supported(support)
        elsewhere: tuple[str, ...] = ()
        if claim.requires_citation and not supported:
            elsewhere = tuple(
                sid
                for sid, src in by_id.items()
                if sid not in resolved
                and sid not in ambiguous
                and sid not in transport
                and src.text is not None
                and check_support(claim.text, sid, src.text).status == "supported"
            )
        qstatus, qchecks = self._quotes(cid, claim.text, usable, by_id, st)
        return ClaimCitations(
            claim_id=cid,
            text=claim.text,
            requires_citation=claim.requires_citation,
            citation_ids=written,
            resolved=_dedup(resolved),
            quotes_status=qstatus,
            quotes=tuple(qchecks),
            support=tuple(support),
            supported=supported,
            supported_elsewhere=elsewhere,
        )

    @staticmethod
    def _resolve(
        cid: str, marker: str, bundle: CitationBundle, by_id: dict[str, CitationSource], st: _State
    ) -> str | None:
        fmap = bundle.footnotes
        if fmap is not None and marker in fmap:
            sid = fmap[marker]
            shown = (bundle.rendered_footnotes or {}).get(marker)
            if bundle.rendered_footnotes is not None and shown != sid:
                st.add(
                    "render_mismatch",
                    cid,
                    [sid, *([shown] if shown else [])],
                    f"[{marker}] resolves to {sid!r} through the saved footnote map, but "
                    f"the UI showed {shown!r} (the presentation path re-mapped it)",
                )
            if sid not in by_id:
                st.add(
                    "unknown_source",
                    cid,
                    [sid],
                    f"footnote [{marker}] maps to {sid!r}, which is not in the manifest",
                )
                return None
            return sid
        if marker in by_id:
            return marker
        if marker.isdigit() and fmap is not None:
            st.add(
                "unresolved_footnote",
                cid,
                [marker],
                f"footnote [{marker}] is not in the saved footnote map "
                f"({', '.join(sorted(fmap)) or 'empty'})",
            )
            return None
        hint = (
            " (a numeric marker, but no footnote map was saved: positions are never inferred)"
            if marker.isdigit()
            else ""
        )
        st.add(
            "unknown_source",
            cid,
            [marker],
            f"claim {cid} cites {marker!r}, which is not in the manifest{hint}",
        )
        return None

    def _support(self, claim: str, sid: str, passage: str) -> CitationSupport:
        return _support_of(sid, self.verifier.verify(_claim_item(claim, sid), passage, [])[0])

    @staticmethod
    def _quotes(
        cid: str, text: str, usable: list[str], by_id: dict[str, CitationSource], st: _State
    ) -> tuple[QuoteStatus, list[QuoteCheck]]:
        quotes = quotes_in(text)
        if not quotes:
            return "not_applicable", []
        if not usable:
            return "not_run", []
        passages = {sid: fold_case_space(by_id[sid].text or "") for sid in usable}
        checks = []
        for q in quotes:
            nq = fold_case_space(q)
            hits = tuple(sid for sid, p in passages.items() if nq in p)
            checks.append(
                QuoteCheck(
                    quote=q, status="pass" if hits else "fail", source_ids=hits or tuple(usable)
                )
            )
            if not hits:
                st.add(
                    "quote_mismatch",
                    cid,
                    usable,
                    f'the quotation "{q}" does not occur in the cited passage(s) '
                    f"{', '.join(usable)}",
                )
        status: QuoteStatus = "fail" if any(c.status == "fail" for c in checks) else "pass"
        return status, checks
