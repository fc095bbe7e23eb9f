"""A clause of the answer that another step states is that step's (issue 19, class
4), on hand-written cases from invented domains (a bike repair shop, a tailor, a
language app, a gym, a zoo, a bike hire; none is a bench seed).

- A sentence that states two steps, one in each clause, is read for each step without
  the clause the other step stands on, where that clause negates: "repairs asked for
  after collection are charged at £30 an hour; those asked for before are done free of
  charge" covers both "repairs after collection are charged at £30 per hour" and
  "repairs before collection are free" (the "free" of the second clause is no negation
  of the first step). A negation in the step's own clause is still read ("... after
  collection are never charged").
"""

from __future__ import annotations

import pytest

from tests.unit.monitor.test_failure_classes import item, statuses

BIKE = item(
    "bike_repairs",
    "Repairs requested after you collect the bike are charged at £30 per hour. "
    "Repairs requested before you collect the bike are free.",
    [
        "Repairs requested after you collect the bike are charged at £30 per hour.",
        "Repairs requested before you collect the bike are free.",
    ],
)
TAILOR = item(
    "tailor_refund",
    "Suits altered to your measurements are refunded as store credit. "
    "Made-to-measure suits are not refunded once cutting has started.",
    [
        "Suits altered to your measurements are refunded as store credit.",
        "Made-to-measure suits are not refunded once cutting has started.",
    ],
)
APP = item(
    "app_refund",
    "Lessons bought with a promo code are refunded as app credit, and lessons included "
    "in a family plan are not refunded one by one. A lesson that has been completed "
    "cannot be refunded.",
    [
        "Lessons bought with a promo code are refunded as app credit, and lessons included "
        "in a family plan are not refunded one by one.",
        "A lesson that has been completed cannot be refunded.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            BIKE,
            "Repairs you ask for after collection are charged at £30 an hour; repairs you "
            "ask for before collection are done free of charge.",
        ),
        (
            TAILOR,
            "Altered suits are refunded in the form of store credit; made-to-measure suits "
            "can't be refunded once the cloth has been cut, and neither can hemming.",
        ),
        (
            APP,
            "Lessons bought with a promo code come back as app credit; lessons in a family "
            "plan are not eligible for a refund one by one, and a completed lesson is no "
            "longer refundable.",
        ),
    ],
)
def test_a_clause_another_step_states_is_not_read_for_this_one(ref: object, answer: str) -> None:
    assert set(statuses(ref, answer).values()) == {"covered"}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ref", "answer", "index"),
    [
        (
            BIKE,
            "Repairs you ask for after collection are never charged; repairs you ask for "
            "before collection are done free of charge.",
            0,
        ),
        (
            TAILOR,
            "Altered suits are not refunded in the form of store credit; made-to-measure "
            "suits can't be refunded once the cloth has been cut.",
            0,
        ),
    ],
)
def test_a_negation_in_the_steps_own_clause_is_still_read(
    ref: object, answer: str, index: int
) -> None:
    assert statuses(ref, answer)[index] == "negated"  # type: ignore[arg-type]


GYM = item(
    "gym_rules",
    "Children cannot use the sauna. Children cannot use the steam room.",
    ["Children cannot use the sauna.", "Children cannot use the steam room."],
)
ZOO = item(
    "zoo_rules",
    "Visitors must not feed the animals. Visitors must not touch the animals.",
    ["Visitors must not feed the animals.", "Visitors must not touch the animals."],
)
BIKE_HIRE = item(
    "bike_hire",
    "Bikes returned late are charged £5 per day. Bikes returned on time are free.",
    ["Bikes returned late are charged £5 per day.", "Bikes returned on time are free."],
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        # (A negator the next clause shares through "or" / "nor" stays.)
        (GYM, "Children cannot use the sauna, or the steam room."),
        (ZOO, "Visitors must not feed the animals, or touch them."),
        # (A clause that starts with an amount is found, as its segment is.)
        (
            BIKE_HIRE,
            "Bikes returned on time cost nothing - £5 per day is charged for late returns.",
        ),
    ],
)
def test_a_shared_negator_and_a_clause_that_starts_with_an_amount(ref: object, answer: str) -> None:
    assert set(statuses(ref, answer).values()) == {"covered"}  # type: ignore[arg-type]
