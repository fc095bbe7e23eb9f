"""The other case of a condition named in other words (issue 19, class 4): "otherwise"
against "if you don't, ...", "failing that" or "without" a pronoun standing for what
the condition names ("bring your permit; without it we charge a fee"). Each names the
case where the condition does not hold; none negates the rule. Hand-written cases from
invented domains (a bicycle rental shop, a ticket office, a dry cleaner, a parking
permit desk, a clinic, a car hire desk; none is a bench seed). Found by a stranger's
trial on a bicycle-rental seed, where "costs nothing; otherwise repairs are charged"
against "the repair is free; without it we charge repairs" was read as a flip.

"Without" a noun still says what is left out and stays a negation ("we can't refund
without a receipt"), and a consequence whose polarity really changed is still caught,
however its case is named. A name of the other case is "otherwise" only where the
clause it governs says what the "otherwise" text says happens in that case, not the
rule itself: "you can borrow books without it" against "bring your card to borrow
books; otherwise use the reading room" says the rule does not hold (found by a review
with 92 invented cases, on which the guard was then designed).
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import polarity_flip
from tests.unit.monitor.test_failure_classes import item


def _statuses(steps: list[str], answer: str) -> list[str]:
    ref = item("t", " ".join(steps), steps)
    return [v.status for v in StepVerifier().verify(ref, answer, [])]


OTHER_CASE_KEPT = [
    # bicycle rental
    (
        "Damage covered by the Ride Protect plan costs nothing; otherwise repairs are "
        "charged up to the deposit.",
        "If you have the Ride Protect plan, the repair is free; without it we charge "
        "repairs up to your deposit.",
    ),
    # ticket office
    (
        "The recipient must accept within 48 hours; otherwise the tickets go back to your account.",
        "Your friend has 48 hours to accept; if they don't, the tickets go back to your account.",
    ),
    # dry cleaner
    (
        "Keep your ticket, otherwise we cannot release the garments.",
        "Keep your ticket, as we cannot release the garments without it.",
    ),
    # parking permit desk
    (
        "Display the permit on the dashboard; otherwise you can't park in the zone.",
        "Display the permit on the dashboard - without it you can't park in the zone.",
    ),
    # clinic
    (
        "Bring your referral letter; otherwise the appointment is rebooked.",
        "Bring your referral letter. Failing that, the appointment is rebooked.",
    ),
    # car hire
    (
        "Return the car with a full tank, otherwise a refuelling charge applies.",
        "Return the car with a full tank; we add a refuelling charge if you come back without one.",
    ),
]


@pytest.mark.parametrize(("step", "answer"), OTHER_CASE_KEPT)
def test_the_other_case_named_in_other_words_is_no_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None
    assert polarity_flip(answer, step) is None


OTHER_CASE_TURNED = [
    # bicycle rental: the charge in the other case is gone
    (
        "Damage covered by the Ride Protect plan costs nothing; otherwise repairs are "
        "charged up to the deposit.",
        "If you have the Ride Protect plan, the repair is free; without it we don't "
        "charge for repairs either.",
    ),
    # dry cleaner: release without the ticket allowed
    (
        "Keep your ticket, otherwise we cannot release the garments.",
        "Keep your ticket, though we can release the garments without it.",
    ),
    # parking permit desk
    (
        "Display the permit on the dashboard; otherwise you can't park in the zone.",
        "Display the permit on the dashboard - without it you can still park in the zone.",
    ),
    # ticket office
    (
        "The recipient must accept within 48 hours; otherwise the tickets go back to your account.",
        "Your friend has 48 hours to accept; if they don't, the tickets don't go back "
        "to your account.",
    ),
]


@pytest.mark.parametrize(("step", "answer"), OTHER_CASE_TURNED)
def test_a_consequence_turned_in_the_other_case_is_still_a_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


# From a review with invented cases: a "without it" or "if you don't" that governs the
# rule itself, not what happens in the other case, says the rule does not hold.
RULE_DENIED = [
    # library
    (
        "Bring your library card to borrow books; otherwise you can use the reading room only.",
        "You can borrow books without it.",
    ),
    # student discount
    (
        "Show your student card to get the discount; otherwise the full price applies.",
        "You get the discount without it.",
    ),
    # restaurant
    (
        "Book by Friday to get the early-bird menu; otherwise the standard menu applies.",
        "Book by Friday; if you don't, you still get the early-bird menu.",
    ),
    # cafe: "without this voucher" is a noun phrase, what is left out
    (
        "You need this voucher to get a free coffee; otherwise coffee costs 3 euros.",
        "You get a free coffee without this voucher.",
    ),
]


@pytest.mark.parametrize(("step", "answer"), RULE_DENIED)
def test_the_other_case_that_governs_the_rule_itself_is_a_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # "without" a noun says what is left out: still a negation
        ("You need a receipt for a refund.", "We can refund you without a receipt."),
        # no "otherwise" on either side: a "without it" keeps its negation
        ("You need the permit to park.", "You can park without it."),
    ],
)
def test_without_a_noun_or_with_no_otherwise_stays_a_negation(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


def test_the_bicycle_rental_paraphrase_passes_and_its_negation_is_caught() -> None:
    steps = [
        "Report the damage at the counter before you return the bike.",
        "Damage covered by the Ride Protect plan costs nothing; otherwise repairs are "
        "charged up to the deposit.",
    ]
    said = "Report the damage at the counter before returning the bike. "
    assert _statuses(
        steps,
        said + "With the Ride Protect plan the repair is free; without it we "
        "charge repairs up to your deposit.",
    ) == ["covered", "covered"]
    assert _statuses(
        steps,
        said + "With the Ride Protect plan the repair is free; without it we "
        "don't charge for repairs either.",
    ) == ["covered", "negated"]


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # as many words shared with the rule as with the other case: the rule denied
        (
            "Bring your library card to borrow books; otherwise you can borrow e-books only.",
            "You can borrow books without it.",
        ),
        # an "Otherwise" that opens its sentence: the rule is the sentence before
        (
            "You get the discount on meals. Otherwise the full price applies to meals.",
            "You get the discount on meals without it.",
        ),
    ],
)
def test_the_rule_denied_is_a_flip_on_a_tie_or_after_a_sentence_break(
    step: str, answer: str
) -> None:
    assert polarity_flip(step, answer) is not None


def test_the_other_case_after_a_sentence_break_is_still_no_flip() -> None:
    assert (
        polarity_flip(
            "Bring your permit. Otherwise we charge a fee.",
            "Bring your permit; without it we charge a fee.",
        )
        is None
    )


def test_a_text_with_many_names_of_the_other_case_is_read_as_written() -> None:
    """Hostile input: each name's clause is read in a window, and more than eight names
    leave the text as it is (reading every clause of a 100k-character text for each of
    thousands of names took minutes)."""
    from monitor.text.polarity import _OTHER_CASE_MAX, _other_case

    other = "Bring your permit; otherwise we charge a fee."
    few = "Bring your permit; without it we charge a fee."
    assert _other_case(few, other) == "Bring your permit; otherwise we charge a fee."
    many = " ".join(["Without it we charge a fee."] * (_OTHER_CASE_MAX + 1))
    assert _other_case(many, other) == many
