"""Normalised forms of text for comparison."""

from __future__ import annotations

import re
import unicodedata


def normalize_text(text: str) -> str:
    """Case-, width- and whitespace-insensitive form with edge punctuation removed."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = re.sub(r"\s+", " ", t).strip()
    return t.strip(" .,;:!?\"'()[]{}«»“”‘’")


def fold_case_space(text: str) -> str:
    """Casefolded, with every run of whitespace one space (quotes against passages)."""
    return " ".join(text.casefold().split())
