"""Polarity cues without a polarity change (issue 19, class 4), on hand-written cases
from invented domains (a phone repair counter, a cycle hire shop, a hotel, a removals
firm, a boat yard, a language school; none is a bench seed).

(1) A "free" said twice in one text is one "free" against a text that says "free" once
and puts a cost on nothing: "every repair includes a free screen protector, fitted at no
charge" = "screen protectors are fitted free with every repair". Against a text that
does put a cost on something ("parking is free, but Wi-Fi costs £5"), the count stands.
(2) "Except" and "including" are opposites: "refunded in full except the £30 deposit" /
"refunded in full, including the £30 deposit" changes what is kept; "not including" says
"except" again.
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        # (1) a "free" said again in the same text
        (
            "Screen protectors are fitted free with every repair.",
            "Every repair includes a free screen protector, fitted at no charge.",
            False,
        ),
        (
            "Bike locks are lent free of charge.",
            "We lend bike locks at no charge, free to every rider.",
            False,
        ),
        (
            "Warranty repairs are free of charge and we return the phone by courier at no "
            "cost, while other repairs are quoted first and the return then costs £8.",
            "Warranty repairs and the courier return are provided free of charge.",
            False,
        ),
        # ... but not where the other text puts a cost on something
        (
            "Breakfast is free, and parking is free.",
            "Breakfast is free, and parking costs £10 a night.",
            True,
        ),
        # ... and a "not" stays a "not"
        (
            "Packing boxes are free, and we deliver them at no charge.",
            "Packing boxes are not free.",
            True,
        ),
        # (2) "except" against "including"
        (
            "Cancelled courses are refunded in full, except the £30 deposit.",
            "Cancelled courses are refunded in full, including the £30 deposit.",
            True,
        ),
        (
            "Moorings are billed monthly, including electricity.",
            "Moorings are billed monthly, except electricity.",
            True,
        ),
        (
            "Cancelled courses are refunded in full, except the £30 deposit.",
            "Cancelled courses are refunded in full, not including the £30 deposit.",
            False,
        ),
        (
            "Cancelled courses are refunded in full, except the £30 deposit.",
            "If a course is cancelled you get everything back apart from the £30 deposit.",
            False,
        ),
        (
            "All fees, including VAT, are shown at checkout.",
            "All fees are shown at checkout, VAT included.",
            False,
        ),
        (
            "Every room except the attic has a sea view.",
            "Every room has a sea view, excluding the attic.",
            False,
        ),
    ],
)
def test_polarity_cues_without_a_change(step, answer, flip):
    assert bool(polarity_flip(step, answer)) is flip
