"""Polarity of English clauses: negation, antonyms and obligation vs permission."""

from __future__ import annotations

from monitor.text.lexicon import (
    ANTONYM_PAIRS,
    ANTONYM_TRIGGERS,
    NEGATIVE_PHRASES,
    NEGATORS,
    OBLIGATION,
    PERMISSION,
)
from monitor.text.tokens import tokens


def polarity(text: str) -> int:
    """Parity of negations in a clause: 0 affirmative, 1 negative."""
    low = " " + " ".join(tokens(text)) + " "
    n = 0
    for phrase in NEGATIVE_PHRASES:
        k = low.count(" " + phrase + " ")
        n += k
        low = low.replace(" " + phrase + " ", " ")
    ws = low.split()
    n += sum(w in NEGATORS for w in ws)
    return n % 2


def _has(words_: str, phrase: str) -> bool:
    return f" {phrase} " in words_


def _sides(text: str) -> list[tuple[bool, bool]]:
    """For each antonym pair: does the text use its left side, its right side?"""
    padded = " " + text + " "
    return [
        (any(_has(padded, w) for w in left), any(_has(padded, w) for w in right))
        for left, right in ANTONYM_PAIRS
    ]


def polarity_flip(step: str, answer: str) -> str | None:
    """Why ``answer`` has the opposite polarity of ``step`` (``negation``, ``antonym``,
    ``modal``, joined by `` + ``), or None."""
    st, at = " ".join(tokens(step)), " ".join(tokens(answer))
    s, a = f" {st} ", f" {at} "
    flips = (polarity(step) + polarity(answer)) % 2
    reasons = ["negation"] if flips else []
    if (set(st.split()) | set(at.split())) & ANTONYM_TRIGGERS:
        for (sl, sr), (al, ar) in zip(_sides(st), _sides(at), strict=True):
            if (sl and not sr and ar and not al) or (sr and not sl and al and not ar):
                flips += 1
                reasons.append("antonym")
    oblig_s = any(_has(s, w) for w in OBLIGATION)
    oblig_a = any(_has(a, w) for w in OBLIGATION)
    perm_a = any(_has(a, w) for w in PERMISSION)
    perm_s = any(_has(s, w) for w in PERMISSION)
    if (oblig_s and not oblig_a and perm_a) or (perm_s and not perm_a and oblig_a):
        flips += 1
        reasons.append("modal")
    return " + ".join(reasons) if flips % 2 else None
