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


def test_never_against_always_flips_whatever_the_verb() -> None:
    # The answer rewords the verb, so the negation's scope word is not in the step;
    # "never" is still the opposite of the step's "always".
    assert (
        polarity_flip(
            "Abnormal results are always discussed with you by phone.",
            "Abnormal findings: we never talk them through with you over the phone.",
        )
        == "negation"
    )
    assert (
        polarity_flip(
            "Keys are always returned at the front desk.",
            "You never hand keys back at the front desk.",
        )
        == "negation"
    )
    # "never" on both sides, or "always" reworded, is no flip.
    assert (
        polarity_flip("Fees are never charged on weekends.", "On weekends we never bill.") is None
    )
    assert polarity_flip("Staff always check your ID.", "Your ID is checked every time.") is None
