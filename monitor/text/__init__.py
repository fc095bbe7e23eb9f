"""Text utilities shared by claim extraction, step verification and citations.

* :mod:`monitor.text.lexicon` -- the English word lists (stop words, light words,
  common verbs, negation and polarity cues, number words, month names);
* :mod:`monitor.text.tokens` -- tokenisers and word comparison;
* :mod:`monitor.text.sentences` -- sentence and clause splitting;
* :mod:`monitor.text.polarity` -- negation, antonym and modal flips;
* :mod:`monitor.text.normalize` -- normalised forms for comparison.
"""

from __future__ import annotations

from monitor.text.normalize import fold_case_space, normalize_text
from monitor.text.polarity import polarity, polarity_flip
from monitor.text.sentences import Sentence, split_clauses, split_sentences
from monitor.text.tokens import (
    canon,
    contains_run,
    content,
    policy_terms,
    raw_words,
    same_word,
    singular,
    tokens,
    words,
)

__all__ = [
    "Sentence",
    "canon",
    "contains_run",
    "content",
    "fold_case_space",
    "normalize_text",
    "polarity",
    "polarity_flip",
    "policy_terms",
    "raw_words",
    "same_word",
    "singular",
    "split_clauses",
    "split_sentences",
    "tokens",
    "words",
]
