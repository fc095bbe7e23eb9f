"""Canonical quantities: one policy number however it is written."""

from __future__ import annotations

import pytest

from monitor.text.quantities import counted_nouns, quantities


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("within 14 days", "in the next two weeks"),
        ("14 days", "a fortnight"),
        ("15 minutes early", "a quarter of an hour early"),
        ("10 business days", "ten working days"),
        ("24 hours", "twenty-four hours"),
        ("a day", "24 hours"),
        ("six weeks", "6 weeks"),
        ("3%", "3 percent"),
        ("2 changes", "two changes"),
        ("$259.01", "USD 259.01"),
        ("one academic year", "12 months"),
    ],
)
def test_same_quantity(a: str, b: str) -> None:
    assert quantities(a) == quantities(b) != set()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("14 days", "14 business days"),
        ("3 months", "3 weeks"),
        ("$40", "$4"),
        ("$40", "EUR 40"),
        ("per month", "per week"),
        ("2 hours", "5 hours"),
    ],
)
def test_different_quantity(a: str, b: str) -> None:
    assert quantities(a) != quantities(b)


def test_words_that_are_not_counts() -> None:
    assert quantities("once the form is approved, one of us calls") == set()


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("with one guest", {"guest": {1.0}}),
        ("with three guests", {"guest": {3.0}}),
        ("rent 2 lockers per season", {"locker": {2.0}}),
        ("show a single card", {"card": {1.0}}),
        ("within one business day", {}),  # a unit: quantities() reads it
        ("one of our stores", {}),
        ("a guest", {}),  # an article is no count
        ("one more step", {}),
    ],
)
def test_counted_nouns(text: str, counts: dict[str, set[float]]) -> None:
    assert counted_nouns(text) == counts


@pytest.mark.parametrize("text", ["fıve days", "within 3 busıness days", "ONE GUEST", "İki gün"])
def test_letters_that_casefold_or_match_loosely_never_raise(text: str) -> None:
    # The patterns run on casefolded text without IGNORECASE: under it, a dotless "ı"
    # matched "i" and the matched word was then missing from the value tables.
    quantities(text)
    counted_nouns(text)
