"""Negation, antonym and modal flips."""

from __future__ import annotations

from monitor.text import polarity, polarity_flip


def test_polarity_helpers() -> None:
    assert polarity("You must not pay.") == 1
    assert polarity("You can no longer pay.") == 1
    assert polarity("You don't pay and never will.") == 0
    assert polarity_flip("Do not throw away the receipt.", "Keep the receipt.") is None
    assert polarity_flip("Parts are covered.", "Parts are excluded.") == "antonym"
    assert polarity_flip("You must bring ID.", "You may bring ID.") == "modal"


def test_a_negated_antonym_is_two_flips() -> None:
    assert polarity_flip("Parts are covered.", "Parts are not covered.") == "negation"
    assert polarity_flip("Parts are covered.", "Parts are not excluded.") is None
