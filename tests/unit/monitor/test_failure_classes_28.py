"""A clause of the answer that another step states is that step's, and one negator
over a coordination is one negation however the other text words its first verb
(issue 19, class 4), on hand-written cases from invented domains (a bike repair shop,
a tailor, a language app, a soft-play centre, a boat hire, a kennel; none is a bench
seed).

- A sentence that states two steps, one in each clause, is read for each step without
  the clause the other step stands on, where that clause negates: "repairs asked for after collection are charged
  at £30 an hour; those asked for before are done free of charge" covers both "repairs
  after collection are charged at £30 per hour" and "repairs before collection are
  free" (the "free" of the second clause is no negation of the first step). A negation
  in the step's own clause is still read ("... after collection are never charged").
- "No extra play time and no refund" is "we cannot extend your play time or refund the
  session": the second negation repeats the one negator over the "or", though the
  first verb is reworded ("extend" / "extra") where its object is kept.
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip
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


SOFT_PLAY = (
    "If you arrive more than 15 minutes late, we cannot extend your play time or refund the visit."
)


@pytest.mark.parametrize(
    "answer",
    [
        "15+ mins late = no extra play time and no refund.",
        "Arrive over 15 minutes late and there's no extra play time and no refund.",
        "Late by more than 15 minutes? We will not extend your play time or refund the visit.",
    ],
)
def test_one_negator_over_a_reworded_coordination_is_one_negation(answer: str) -> None:
    assert polarity_flip(SOFT_PLAY, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (SOFT_PLAY, "15+ mins late = extra play time and a refund."),
        (SOFT_PLAY, "More than 15 minutes late? We can extend your play time or refund the visit."),
        (
            "Boats cannot be taken past the weir or moored overnight.",
            "Boats can go past the weir and can be moored overnight.",
        ),
    ],
)
def test_a_coordination_without_its_negator_is_still_a_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


def test_one_negator_over_two_participles_is_one_negation() -> None:
    # (Both heads kept as nouns: the rule that was there before.)
    step = "Kennel stays cannot be extended or refunded after check-in."
    assert polarity_flip(step, "After check-in there are no extensions and no refunds.") is None
