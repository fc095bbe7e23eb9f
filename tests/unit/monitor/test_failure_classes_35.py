"""Two more strangers' golden sets (issue 19), a marina's and a graded music exam
board's, and a party venue's seeds: seven misreadings, on hand-written cases from
invented domains (an airline, a courier, a library, a gym, a climbing wall, a ferry, a
car hire desk, a cinema, a ski school; none is a bench seed).

1. A bound with the verb negated after it ("boats over 12 tonnes cannot be lifted")
   was read as the bound itself, against "the hoist cannot lift boats over 12 tonnes".
2. A condition said in full for "otherwise" ("if it hasn't been paid by then, we
   release the slot") was read as a negation.
3. A verb denied on a comparison ("we can't take more than 30 children") was read as
   a negation against the bound it sets ("holds at most 30 children").
4. Two things joined by "or" under one negation ("cannot change grade or instrument")
   read as two verbs, the second said without its negator, where the answer joins the
   same two things ("grade and instrument stay the same; they can't be changed").
5. The clause that carries the step's negation was set apart as another statement
   when a quantity's words filled it out ("inside that 21-day window there's no
   refund, unless ...").
6. "Back to whichever card or account you paid with" read as leaving the payment
   method open.
7. A span before a deadline said as its last days ("within the last 10 days before
   the exam") against one it must be done by ("no later than 10 days before") went
   unseen: deadlines read either way.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import polarity_flip
from tests.unit.monitor.test_failure_classes import item


def _status(step: str, answer: str, terms: tuple[str, ...] = ()) -> tuple[str, str]:
    [v] = StepVerifier().verify(item("t", step, [step], terms), answer, [])
    return v.status, v.cue


def _check(step: str, kept: list[str], changed: list[str], terms: tuple[str, ...] = ()) -> None:
    for answer in kept:
        assert _status(step, answer, terms)[0] == "covered", (answer, _status(step, answer, terms))
    for answer in changed:
        got = _status(step, answer, terms)
        assert got[0] in ("negated", "altered"), (answer, got)


# A marina, an airline, a courier.
BOUND_DENIED_AFTER = [
    (
        "Boats over 12 tonnes cannot be lifted with the travel hoist.",
        [
            "The travel hoist cannot lift boats over 12 tonnes.",
            "Our hoist can't lift anything over 12 tonnes.",
        ],
        ["The travel hoist cannot lift boats under 12 tonnes."],
    ),
    (
        "Bags over 23 kg are not accepted as checked luggage.",
        ["We don't accept checked bags over 23 kg.", "Checked bags over 23 kg aren't accepted."],
        ["We don't accept checked bags under 23 kg."],
    ),
    (
        "Parcels longer than 120 cm cannot be sent by courier.",
        ["We can't send parcels longer than 120 cm by courier."],
        ["We can't send parcels shorter than 120 cm by courier."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), BOUND_DENIED_AFTER)
def test_a_bound_denied_after_its_noun_reads_as_one_denied_before(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


# A party venue, a library, a gym.
OTHERWISE_IN_FULL = [
    (
        "The balance is due 7 days before the party, otherwise the booking is released.",
        "The balance is due 7 days before the party - if it hasn't been paid by then, "
        "we release the booking.",
        "The balance is due 7 days before the party - if it hasn't been paid by then, "
        "we don't release the booking.",
    ),
    (
        "Return the laptop by 5 pm, otherwise a late fee is charged.",
        "Bring the laptop back by 5 pm; if it isn't returned by then, a late fee is charged.",
        "Bring the laptop back by 5 pm; if it isn't returned by then, no fee is charged.",
    ),
    (
        "Give 14 days' notice to freeze your membership, otherwise the next payment is taken.",
        "Give 14 days' notice to freeze your membership; if the request hasn't reached us "
        "by then, the next payment is taken.",
        "Give 14 days' notice to freeze your membership; if the request hasn't reached us "
        "by then, the next payment is not taken.",
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), OTHERWISE_IN_FULL)
def test_a_denied_condition_said_in_full_is_otherwise(step: str, kept: str, changed: str) -> None:
    assert polarity_flip(step, kept) is None
    assert polarity_flip(step, changed) is not None


# A soft-play room, a library, a climbing wall.
DENIED_COMPARISON = [
    (
        "The room holds at most 30 children.",
        "We can't take more than 30 children in the room.",
        ["We can take more than 30 children in the room.", "The room holds at least 30 children."],
    ),
    (
        "Each member may borrow up to 6 books at a time.",
        "Members can't borrow more than 6 books at a time.",
        ["Members can borrow more than 6 books at a time."],
    ),
    (
        "Each session lasts at least 45 minutes.",
        "Sessions don't run for less than 45 minutes.",
        ["Each session lasts at most 45 minutes."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), DENIED_COMPARISON)
def test_a_verb_denied_on_a_comparison_is_the_bound_it_sets(
    step: str, kept: str, changed: list[str]
) -> None:
    _check(step, [kept], changed)


def test_a_denied_comparison_keeps_its_negator_against_another_text() -> None:
    step = "Flu jabs cannot be booked less than 48 hours ahead."
    assert polarity_flip(step, "Flu jabs must be booked at least 48 hours ahead.") is None
    assert polarity_flip(step, "Flu jabs can be booked less than 48 hours ahead.") is not None
    # (A bound on another thing: "£4" is no count of kayaks.)
    kayaks = "Members cannot hire more than four kayaks per trip."
    assert polarity_flip(kayaks, "Members can hire kayaks, with a maximum late fee of £4.")


# A music exam board, a ferry, a car hire desk.
OR_JOINED_THINGS = [
    (
        "The candidate cannot change grade or instrument when transferring.",
        [
            "Grade and instrument stay the same — they can't be changed on transfer.",
            "You can't change your grade and instrument on transfer.",
        ],
        ["You can't change your grade, but you can change the instrument on transfer."],
    ),
    (
        "Passengers cannot transfer the ticket or the return leg to another person.",
        ["The ticket and the return leg stay in your name; they can't be transferred."],
        ["You can't transfer the ticket, but the return leg can go to another person."],
    ),
    (
        "You cannot add a second driver or a child seat after pick-up.",
        ["A second driver and a child seat are fixed at booking: they can't be added later."],
        ["You can't add a second driver after pick-up, but you can add a child seat."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), OR_JOINED_THINGS)
def test_or_between_two_things_is_not_two_denied_verbs(
    step: str, kept: list[str], changed: list[str]
) -> None:
    for answer in kept:
        assert polarity_flip(step, answer) is None, answer
    for answer in changed:
        assert polarity_flip(step, answer) is not None, answer


# A music exam board, a shop, a cinema.
NEGATED_WITH_A_SPAN = [
    (
        "Withdrawals made less than 21 days before the exam are not refunded unless a "
        "medical certificate is provided.",
        "Inside that 21-day window there's no refund, unless you can send us a medical "
        "certificate.",
        "Inside that 21-day window you still get a refund, even without a medical certificate.",
    ),
    (
        "Items returned after 30 days are not accepted unless they are faulty.",
        "After that 30-day window we won't take returns, unless the item is faulty.",
        "After 30 days, returns are accepted unless the item is faulty.",
    ),
    (
        "Tickets cancelled within 48 hours of the screening are not refunded unless the "
        "screening is cancelled.",
        "In that 48-hour window a ticket isn't refunded, unless we cancel the screening.",
        "In that 48-hour window a ticket is refunded, unless we cancel the screening.",
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), NEGATED_WITH_A_SPAN)
def test_a_span_fills_no_clause_of_its_own(step: str, kept: str, changed: str) -> None:
    _check(step, [kept], [changed])


PAID_WITH = [
    # an exam board, a ski school, a cinema
    "The refund goes back to whichever card or account you paid with, within 10 working days.",
    "We refund onto whatever card you paid with, within 10 working days.",
    "Your money is returned to whichever card you used to pay, within 10 working days.",
]


@pytest.mark.parametrize("answer", PAID_WITH)
def test_whichever_card_you_paid_with_names_it(answer: str) -> None:
    step = "Refunds are paid to the original payment method within 10 working days."
    assert _status(step, answer, ("original payment method",))[0] == "covered"


def test_whatever_card_you_paid_with_still_leaves_it_open_before_a_clause() -> None:
    step = "Refunds are paid to the original payment method within 10 working days."
    answer = (
        "Whatever card you paid with, refunds are issued as store credit within 10 working days."
    )
    assert _status(step, answer, ("original payment method",))[0] == "altered"


# An exam board, a ski school, an escape room.
LAST_DAYS = [
    (
        "Transfer requests must reach the exams office no later than 10 days before the exam.",
        ["Transfer requests have to reach the exams office at least 10 days before the exam."],
        [
            "Transfer requests are only accepted by the exams office within the last 10 days "
            "before the exam."
        ],
    ),
    (
        "Lesson changes must be made by 3 days before the lesson.",
        ["Lesson changes must be made at least 3 days before the lesson."],
        ["Lesson changes can only be made in the last 3 days before the lesson."],
    ),
    (
        "Cancel no later than 48 hours before the game starts.",
        ["Cancel up to 48 hours before the game starts."],
        ["Cancel within the final 48 hours before the game starts."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), LAST_DAYS)
def test_a_deadlines_last_days_against_its_latest_day(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


# A kennel, a dentist, a council office (the dog daycare's "email the front desk" for
# "call the front desk", where the declared term was "front desk").
CHANNELS = [
    (
        "If you are running late, call the front desk; do not text your handler.",
        ["If you're running behind, please ring the front desk rather than texting your handler."],
        ["If you are running late, email the front desk; please don't text your handler."],
    ),
    (
        "If you are running late, call the front desk.",
        ["Running late? Give the front desk a ring.", "If you're late, phone the front desk."],
        ["If you are running late, email the front desk."],
    ),
    (
        "Reschedule your appointment in the app.",
        ["You can move your appointment through our mobile app."],
        ["Reschedule your appointment by phoning the surgery."],
    ),
    (
        "Send the signed form to us by post.",
        ["Post it to us once it's signed: the signed form must come by post."],
        ["Send the signed form to us by email."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), CHANNELS)
def test_a_way_of_contact_swapped_is_a_change(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


def test_the_kennels_channel_swap_names_both_ways() -> None:
    for step, _, [answer] in CHANNELS[:2]:
        assert _status(step, answer) == ("altered", "channel changed: phone -> email")


def test_or_joined_things_granted_with_free_is_still_a_flip() -> None:
    # A farm park: "free to" grants what "must not ... or" denies (and "free" counts as
    # a negator word, so the counts alone do not show it).
    step = "Visitors must not feed the animals or climb the fences."
    assert polarity_flip(step, "Visitors are free to feed the animals or climb the fences.")


def test_the_businesss_own_way_of_reaching_you_is_no_channel_rule() -> None:
    # (As often said loosely: "we'll be in touch by text" for "we'll call you".)
    step = "Once the survey is booked, we will call you to confirm the time."
    assert _status(step, "Once the survey is booked, we'll text you to confirm the time.")[0] == (
        "covered"
    )


def test_ways_of_contact_named_together_are_no_swap() -> None:
    # (A claims desk: "by phone or email" names both; "phone or email us" too.)
    step = "Claims must be made within 30 days, by phone or email."
    assert _status(step, "Make your claim within 30 days: just phone or email us.")[0] == (
        "covered"
    )
