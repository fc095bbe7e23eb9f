"""Procedure steps of an exemplar and a lexical coverage check.

Entity values are masked into typed slots on both sides, so that a different
case number or date never counts as a procedural difference.
"""

from __future__ import annotations

import re

from monitor.claims import split_sentences, words
from monitor.models import GoldenItem, StepVerdict
from monitor.values import find_typed_values

# Function words carry no procedure; they are ignored when measuring coverage.
STOPWORDS = frozenset(
    """a an the and or but if then than of to in on at by for from with without as is are
    was were be been being it its this that these those there here you your we our they
    their he she his her i me my can will would should shall may might must do does did
    has have had not no so such into onto over under about please also just only""".split()
)
COVERAGE_THRESHOLD = 0.6


def mask_values(text: str, values: list[str] | None = None) -> str:
    """Replace entity values with typed slots: ``Case <digits> is <enum>``."""
    out = text
    for v in sorted(values or [], key=len, reverse=True):
        if v.strip():
            out = re.sub(re.escape(v), "<value>", out, flags=re.IGNORECASE)
    pieces: list[str] = []
    pos = 0
    for f in find_typed_values(out):
        if f.type == "integer":
            continue  # small numbers are usually procedure ("5 business days")
        pieces.append(out[pos:f.start])
        pieces.append(f"<{f.type}>")
        pos = f.end
    pieces.append(out[pos:])
    return "".join(pieces)


def reference_steps(item: GoldenItem) -> list[str]:
    """The exemplar's required steps: annotated ``steps`` when given."""
    return list(item.steps)


def content_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in STOPWORDS and not w.startswith("<")}


def lexical_step_verdicts(item: GoldenItem, answer: str,
                          observed_values: list[str]) -> list[StepVerdict]:
    """Covered when most content words of the masked step occur in one answer sentence."""
    ref_values = [p.value for p in item.parameters.values()]
    sentences = [s.text for s in split_sentences(answer)] or [answer]
    masked_sents = [mask_values(s, observed_values) for s in sentences]
    verdicts: list[StepVerdict] = []
    for idx, step in enumerate(reference_steps(item)):
        need = content_words(mask_values(step, ref_values))
        best, best_sent = 0.0, None
        for raw, masked in zip(sentences, masked_sents, strict=True):
            have = content_words(masked)
            score = len(need & have) / len(need) if need else 1.0
            if score > best:
                best, best_sent = score, raw
        covered = best >= COVERAGE_THRESHOLD
        verdicts.append(StepVerdict(
            index=idx, step=step, status="covered" if covered else "missing",
            matched_sentence=best_sent if covered else None, similarity=round(best, 4),
            cue=f"lexical overlap {best:.2f} {'>=' if covered else '<'} {COVERAGE_THRESHOLD}",
        ))
    return verdicts
