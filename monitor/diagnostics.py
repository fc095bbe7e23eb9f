"""Trace-level diagnostics, recorded on every judgment (abstentions included).

Response-type and language inference are small documented heuristics used only
when the trace does not say; a trace's own ``response_type``/``language`` wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from monitor.schemas import (
    Diagnostics,
    GateDecision,
    ObservationTiming,
    ResponseType,
    Trace,
)
from monitor.text.sentences import split_sentences

_CLARIFY = re.compile(
    r"\b(could|can|would) you (please )?(provide|share|confirm|clarify|tell me|specify)"
    r"|\bplease (provide|share|confirm|clarify|specify)\b|\bwhich (one|case|asset|order)\b"
    r"|\bdo you mean\b|\bcan you be more specific\b",
    re.IGNORECASE,
)
_GUARD = re.compile(
    r"\bI(?:'m| am)? (?:not able|unable) to (?:help|assist|answer|share|provide)"
    r"|\bI can(?:not|'t) (?:help|assist|answer|share|provide|discuss)",
    re.IGNORECASE,
)
# Refusals without a first person ("That's outside the scope of this service", "not
# permitted to discuss"): a policy answer says the same words about the customer ("you
# are not permitted to sublet the unit", "damage outside the scope of the cover"), so
# they mark a refusal only in a short answer.
_GUARD_SHORT = re.compile(
    r"\b(?:outside|beyond) (?:the |my )?scope of (?:what I|this (?:service|assistant|chat)|my)\b"
    r"|\b(?:I|we)(?:'m| am| are)? not (?:allowed|permitted) to\b"
    r"|\bagainst (?:our|the) polic(?:y|ies) (?:to|for me)\b",
    re.IGNORECASE,
)
# A short answer (at most two sentences, under 200 characters): a refusal or a request
# for details, not a procedure. An answer under 300 characters that ends in "?" is a
# question back.
SHORT_ANSWER_CHARS = 200
QUESTION_CHARS = 300

# Very small stopword profiles; enough to tell the common European languages
# apart on answers of a sentence or more. Unknown when no profile is clear.
_PROFILES: dict[str, frozenset[str]] = {
    "en": frozenset("the and is are to of for you your with this that be on it not can".split()),
    "de": frozenset("der die das und ist sind zu von für sie ihr mit nicht ein eine den".split()),
    "fr": frozenset("le la les et est sont de des pour vous votre avec ce pas une un du".split()),
    "es": frozenset("el la los las y es son de para usted su con este no una un del".split()),
    "it": frozenset("il lo la gli le e è sono di per lei suo con questo non una un del".split()),
    "pt": frozenset("o a os as e é são de para você seu com este não uma um do".split()),
    "nl": frozenset("de het en is zijn van voor u uw met dit niet een te op".split()),
}
_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)
REPLAN_KINDS = frozenset({"replanner", "replan", "replanning"})


@dataclass(frozen=True, slots=True)
class GuardConfig:
    """Language and length guards. ``languages`` empty disables the language guard."""

    languages: tuple[str, ...] = ("en",)
    min_chars: int = 1
    max_chars: int = 4000
    known_agents: frozenset[str] = field(default_factory=frozenset)


def infer_response_type(answer: str) -> ResponseType:
    """``guardrail``: a first-person refusal ("I can't help with that"), or a refusal
    phrase in a short answer; ``clarification``: a question back to the user (a
    question asking for details, or a short answer ending in "?"); else ``answer``.
    Clarification phrases outside a question ("..., in which case we take back the
    discount", "please confirm the booking from the link") are procedure."""
    text = answer.strip()
    sentences = [s.text for s in split_sentences(text)]
    short = len(text) < SHORT_ANSWER_CHARS and len(sentences) <= 2
    if _GUARD.search(text) or (short and _GUARD_SHORT.search(text)):
        return "guardrail"
    questions = [s for s in sentences if s.endswith("?")]
    if any(_CLARIFY.search(q) for q in questions) or (
        text.endswith("?") and len(text) < QUESTION_CHARS
    ):
        return "clarification"
    if short and _CLARIFY.search(text):
        return "clarification"  # "Please provide the order number."
    return "answer"


def detect_language(text: str) -> str | None:
    toks = [t.casefold() for t in _WORDS.findall(text)]
    if len(toks) < 3:
        return None
    scores = {lang: sum(t in prof for t in toks) for lang, prof in _PROFILES.items()}
    best = max(scores, key=lambda k: scores[k])
    ranked = sorted(scores.values(), reverse=True)
    if ranked[0] == 0 or ranked[0] == ranked[1]:
        return None
    return best


def compute_diagnostics(
    trace: Trace, gate: GateDecision | None, config: GuardConfig
) -> Diagnostics:
    if trace.response_type is not None:
        rtype, rsource = trace.response_type, "trace"
    else:
        rtype, rsource = infer_response_type(trace.answer), "inferred"

    expected = gate.expected_agent if gate is not None and gate.accepted else None
    verdict: Literal["match", "mismatch", "unknown"]
    if expected is None or trace.agent is None:
        verdict = "unknown"
    else:
        verdict = "match" if trace.agent.casefold() == expected.casefold() else "mismatch"

    timings = tuple(
        ObservationTiming(kind=o.kind, name=o.name, duration_ms=o.duration_ms)
        for o in trace.observations
    )
    latency = trace.latency_ms
    if latency is None:
        durations = [t.duration_ms for t in timings if t.duration_ms is not None]
        latency = sum(durations) if durations else None

    language: str | None
    if trace.language:
        language, lsource = trace.language.split("-")[0].casefold(), "trace"
    else:
        language = detect_language(trace.answer)
        lsource = "inferred" if language else "unknown"

    violations: list[Literal["language", "too_short", "too_long"]] = []
    if config.languages and language is not None and language not in config.languages:
        violations.append("language")
    n = len(trace.answer.strip())
    if n < config.min_chars:
        violations.append("too_short")
    if n > config.max_chars:
        violations.append("too_long")

    return Diagnostics(
        response_type=rtype,
        response_type_source=rsource,
        planner_verdict=verdict,
        expected_agent=expected,
        actual_agent=trace.agent,
        replans=sum(o.kind.casefold() in REPLAN_KINDS for o in trace.observations),
        latency_ms=latency,
        observation_latencies=timings,
        language=language,
        language_source=lsource,
        answer_chars=n,
        guard_violations=tuple(violations),
    )
