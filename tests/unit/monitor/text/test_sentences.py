"""Sentence and clause splitting."""

from __future__ import annotations

from monitor.text import split_clauses, split_sentences


def test_split_sentences_keeps_decimals_dates_and_amounts() -> None:
    text = "A refund of $1,200.50 was issued on 2025-07-19. Version 1.5 works! Ok?"
    assert [s.text for s in split_sentences(text)] == [
        "A refund of $1,200.50 was issued on 2025-07-19.",
        "Version 1.5 works!",
        "Ok?",
    ]


def test_sentence_spans_point_into_the_text() -> None:
    text = "  First one.  Second (two)?\nThird"
    for s in split_sentences(text):
        assert text[s.start : s.end] == s.text


def test_split_clauses() -> None:
    assert split_clauses("Bring the receipt, and keep the box; we refund it but not the fee") == [
        "Bring the receipt",
        "keep the box",
        "we refund it",
        "not the fee",
    ]
    assert split_clauses("") == []
