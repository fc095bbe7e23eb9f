"""Strangers' golden sets, a fifth round (issue 19): misreadings found by new users'
trials (a charity's donor care, a pension scheme, student halls, a domain registrar),
on hand-written cases from invented domains (none is a bench seed).

1. The one-to-one assignment weighed a declared step and an exemplar sentence of the
   instance's facts alike: "Account 7731042 ends on 2026-04-30" took the one answer
   sentence that also stated the required step ("For account 6650291 (ending 10 July
   2026) you've got 30 days from the contract end date to get the router back to us"),
   and the step was read from a consequence clause ("If it's not returned you'll be
   charged £75"), a negation. Such sentences are now placed after the others. (Placing
   every declared step before all other sentences was tried first: it let a deleted
   step take a sentence that another exemplar sentence states better, and lost 19
   deletion catches on an unread bench set.)
2. A condition that points back ("...; if you don't, they'll give you 24 hours' notice")
   was read without its negation even where it is the step's own "unless" ("Unless you
   give permission, staff will give 24 hours' notice").
3. A declared term that ends in an adverb ("restarts automatically", "paid
   automatically") was read as a modifier and its head noun: "resumes automatically"
   was a replaced term.
4. "Someone else's name" for "another person's name" was a replaced modifier ("else").
5. "Whichever comes first" said as "if that's sooner", and "at any time" as "whenever
   you like", were replaced terms.
6. "X isn't refundable, and neither are Y" counted two negations against the step's
   one ("X and Y are not refundable"), a flip; and against "X and Y are refundable" it
   counted none, so the real flip went unseen.
7. An "only" on the step's own time bound was read as an obligation against its "can":
   "can be refunded in full within 30 days" / "allows a full refund only within 30
   days" was a modal flip.
8. "No earlier than 30 days after" bounded nothing (a span after something was read as a
   deadline of no way), so against "within 30 days" the limit turned around went
   unseen; "no earlier than 2 days before" is now a most-ahead bound, "after" a least.
9. "Same" and "different" were no antonyms: "swaps are allowed between rooms in
   different price bands" for "only ... in the same price band" went unseen (and "rooms in
   different price bands cannot be swapped" read as a flip).
10. A label that opens a numbered list ("Here is what to do:" and "1. Call us" on the
   next line) was read as a field with the list's first number as its value.
"""

from __future__ import annotations

import numpy as np
import pytest

from monitor.claims import extract_candidates
from monitor.steps import Segment, _anchors
from monitor.text.polarity import polarity_flip
from tests.conftest import item_with_params
from tests.unit.monitor.test_failure_classes_35 import _check


def _segs(*sentences: str) -> list[Segment]:
    return [Segment(s, s, "sentence", s, (i,)) for i, s in enumerate(sentences)]


# A broadband provider, a dentist, a car hire desk: the answer states the required
# step in the sentence that also carries the instance's fact.
FACT_BESIDE_THE_STEP = [
    (
        (
            "If it's not returned you'll be charged £75 on your final bill.",
            "For account 6650291 (ending 10 July 2026) you've got 30 days from the "
            "contract end date to get the router back to us.",
        ),
        # (You must return the router within 30 days ... ; Account 7731042 ends on ...)
        [[0.27, 0.79], [0.0, 0.75]],
    ),
    (
        (
            "Missed appointments cost £20.",
            "Your check-up on 3 May (booking D-4471) can be moved up to 24 hours before.",
        ),
        [[0.3, 0.82], [0.0, 0.7]],
    ),
    (
        (
            "Late returns are charged by the hour.",
            "Bring the car back to the Leeds desk by 10:00 on 14 June, as booked under RX-99120.",
        ),
        [[0.31, 0.77], [0.05, 0.72]],
    ),
]


@pytest.mark.parametrize(("sentences", "score"), FACT_BESIDE_THE_STEP)
def test_a_declared_step_is_placed_before_the_exemplars_other_sentences(
    sentences: tuple[str, str], score: list[list[float]]
) -> None:
    segs = _segs(*sentences)
    # Row 0: the declared step; row 1: the exemplar's instance fact, placed after.
    got = _anchors(np.array(score), segs, 0.25, [True, False], 0.35)
    assert got[0] == 1, got
    # The same scores placed together: one assignment, the larger total.
    assert _anchors(np.array(score), segs, 0.25, [True, True], 0.35) == [0, 1]


def test_a_declared_step_under_the_threshold_gives_way() -> None:
    # A gym: "Cancel classes in the app at least 12 hours ahead" left out, a required
    # fee step stated, and the reminder sentence the procedure does not require.
    segs = _segs(
        "Cancel in the app, otherwise the late fee is thirty pounds.",
        "Members are reminded by email.",
    )
    score = np.array([[0.0, 0.1], [1.0, 0.0], [0.0, 0.75]])
    got = _anchors(score, segs, 0.25, [True, True, False], 0.35)
    assert got[1] == 0 and got[2] == 1, got
    assert got[0] is None  # (read from its best segment anywhere, as before)


# Student halls, a garage, a library.
UNLESS_AS_IF_NOT = [
    (
        "Unless you give permission to enter in your report, maintenance staff will give "
        "at least 24 hours' notice before entering your room.",
        [
            "If you give permission to enter in the report, they can come straight in; if "
            "you don't, they'll give you at least 24 hours' notice before entering your room.",
        ],
        [
            "Even if you give permission to enter in your report, maintenance staff will "
            "give at least 24 hours' notice before entering your room.",
        ],
    ),
    (
        "Unless you approve the quote, we will not start the repair work.",
        [
            "If you approve the quote we start at once; if you don't, we won't start the "
            "repair work."
        ],
        ["Once you approve the quote, we will not start the repair work."],
    ),
    (
        "Unless you renew it online, the book must be returned within 21 days.",
        ["You can renew it online, and if you don't, the book must be returned within 21 days."],
        ["If you renew it online, the book must be returned within 21 days."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), UNLESS_AS_IF_NOT)
def test_a_pointing_back_if_not_is_the_steps_unless(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


# A charity, a broadband provider, a gym: a term that ends in an adverb.
ADVERB_TERMS = [
    (
        "Your regular gift restarts automatically at the end of the pause.",
        ["Your regular gift resumes automatically at the end of the pause."],
        ["Your regular gift does not restart at the end of the pause."],
        ("restarts automatically",),
    ),
    (
        "Compensation is paid automatically as a credit on your next bill.",
        ["Compensation is added automatically as a credit on your next bill."],
        ["Compensation is not paid as a credit on your next bill."],
        ("paid automatically",),
    ),
    (
        "Your membership renews automatically every 12 months.",
        ["Your membership is extended automatically every 12 months."],
        ["Your membership renews automatically every 6 months."],
        ("renews automatically",),
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed", "terms"), ADVERB_TERMS)
def test_a_term_ending_in_an_adverb_has_no_modifier_to_swap(
    step: str, kept: list[str], changed: list[str], terms: tuple[str, ...]
) -> None:
    _check(step, kept, changed, terms)


# A charity's receipts, a car hire desk, a bank.
SOMEONE_ELSE = [
    (
        "We cannot issue a receipt in another person's name.",
        ["We can't issue a receipt in someone else's name."],
        ["We can issue a receipt in another person's name."],
        ("another person's name",),
    ),
    (
        "The driver cannot use another driver's licence at the desk.",
        ["At the desk, the driver can't use somebody else's licence."],
        ["The driver can use another driver's licence at the desk."],
        ("another driver's licence",),
    ),
    (
        "Standing orders cannot be paid into another customer's account.",
        [
            "Standing orders can't be paid into anyone else's account.",
            "You can't pay a standing order into someone else's account.",
        ],
        ["Standing orders can be paid into another customer's account."],
        ("another customer's account",),
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed", "terms"), SOMEONE_ELSE)
def test_someone_else_is_no_modifier_swap(
    step: str, kept: list[str], changed: list[str], terms: tuple[str, ...]
) -> None:
    _check(step, kept, changed, terms)


# Student halls, a car warranty, a charity; a newsletter.
IDIOMS = [
    (
        "You remain liable for rent until a replacement moves in or until your licence "
        "ends, whichever comes first.",
        [
            "Keep paying rent until your replacement moves in, or until your licence ends "
            "if that's sooner.",
            "Rent is due until a replacement moves in or your licence ends, whichever is earlier.",
        ],
        [
            "You remain liable for rent until a replacement moves in or until your licence "
            "ends, whichever comes last.",
        ],
        ("whichever comes first",),
    ),
    (
        "The warranty lasts 3 years or 60,000 miles, whichever comes first.",
        ["The warranty runs for 3 years or 60,000 miles, whichever happens sooner."],
        ["The warranty lasts 5 years or 60,000 miles, whichever comes first."],
        ("whichever comes first",),
    ),
    (
        "You can cancel your Gift Aid declaration at any time by phone or by email.",
        [
            "You can cancel your Gift Aid declaration whenever you like, by phone or by email.",
            "Cancel your Gift Aid declaration anytime by phone or by email.",
        ],
        ["You can cancel your Gift Aid declaration only in January by phone or by email."],
        ("at any time",),
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed", "terms"), IDIOMS)
def test_everyday_terms_said_in_other_words(
    step: str, kept: list[str], changed: list[str], terms: tuple[str, ...]
) -> None:
    _check(step, kept, changed, terms)


# A web host, a shop, a theatre.
NEITHER = [
    (
        "Domain registrations, setup fees and SSL certificates are not refundable.",
        "The domain registration isn't refundable, and neither are setup fees or SSL certificates.",
        "Domain registrations, setup fees and SSL certificates are refundable.",
    ),
    (
        "Gift cards and sale items cannot be returned.",
        "Gift cards can't be returned, nor are sale items, I'm afraid.",
        "Gift cards and sale items can be returned.",
    ),
    (
        "Programmes and drinks are not included in the ticket price.",
        "Programmes aren't included in the ticket price, and neither are drinks.",
        "Programmes and drinks are included in the ticket price.",
    ),
]


@pytest.mark.parametrize(("negative", "answer", "positive"), NEITHER)
def test_neither_is_the_negation_said_again(negative: str, answer: str, positive: str) -> None:
    assert polarity_flip(negative, answer) is None
    assert polarity_flip(positive, answer) is not None


# A web host, a library, a parking office.
ONLY_ON_THE_BOUND = [
    (
        "Hosting plans can be refunded in full within 30 days of purchase.",
        [
            "Our money-back guarantee allows a full refund of a hosting plan only within 30 "
            "days of purchase."
        ],
        [
            "Hosting plans must be refunded in full within 30 days of purchase.",
            "Hosting plans cannot be refunded within 30 days of purchase.",
        ],
    ),
    (
        "Books can be renewed online before the due date.",
        ["Renewals are done online, only before the due date."],
        ["Books must be renewed online before the due date."],
    ),
    (
        "Visitor permits can be used during term time.",
        ["The visitor permit is valid only during term time."],
        ["You must use the visitor permit during term time."],
    ),
]


@pytest.mark.parametrize(("step", "allowed", "changed"), ONLY_ON_THE_BOUND)
def test_only_on_the_steps_own_bound_is_no_duty(
    step: str, allowed: list[str], changed: list[str]
) -> None:
    for answer in allowed:
        assert polarity_flip(step, answer) is None, answer
    for answer in changed:
        assert polarity_flip(step, answer) is not None, answer


# A charity, a web host, student halls.
LIST_AFTER_A_LABEL = [
    (
        "Here is what to do:\n1. Call Supporter Care on 0300 123 4567.\n2. Quote D7745310.",
        "Guests: 2. Check-in from 15:00.",
    ),
    (
        "Steps:\n1) Unlock the domain.\n2) Request the EPP code.",
        "Nameservers: 2. Both are set.",
    ),
    (
        "A few things to know:\n 1. Swaps open on 12 October.\n 2. Both of you must apply.",
        "Rooms left: 3. Apply soon.",
    ),
]


@pytest.mark.parametrize(("listed", "labelled"), LIST_AFTER_A_LABEL)
def test_a_list_number_is_no_value_of_the_label_before_it(listed: str, labelled: str) -> None:
    ref = item_with_params(
        "x", "Reference 1234567.", {"ref": {"type": "digits", "value": "1234567"}}
    )
    numbers = [c for c in extract_candidates(listed, ref, {}) if c.value in ("1", "1)", "2")]
    assert not [c for c in numbers if c.cue == "label"], numbers
    # A value on the label's own line is still read after it.
    assert any(c.cue == "label" for c in extract_candidates(labelled, ref, {}))


# A pension scheme, a removals firm, a festival.
AT_THE_EARLIEST = [
    (
        "Your employer refunds the contributions through payroll within 30 days.",
        [
            "Your employer pays the contributions back through payroll no later than 30 days "
            "after we receive a valid notice."
        ],
        [
            "Your employer pays back the £56.90 deducted so far no earlier than 30 days after "
            "we receive a valid notice."
        ],
    ),
    (
        "You can collect the van keys no earlier than 2 days before the move.",
        ["The van keys can be collected at most 2 days before the move."],
        ["The van keys can be collected at least 2 days before the move."],
    ),
    (
        "Refunds are paid no earlier than 14 days after the festival.",
        [
            "Refunds are paid at least 14 days after the festival.",
            "We pay refunds 14 days or more after the festival.",
        ],
        ["Refunds are paid at most 14 days after the festival."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), AT_THE_EARLIEST)
def test_no_earlier_than_bounds_a_span_before_or_after(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


# Student halls, a phone contract, a dentist.
SAME_DIFFERENT = [
    (
        "Swaps are only allowed between rooms in the same price band.",
        [
            "You can only swap between rooms in the same price band.",
            "Rooms in different price bands cannot be swapped.",
        ],
        ["Swaps are allowed between rooms in different price bands."],
    ),
    (
        "Your bill is taken on the same day each month.",
        ["Each month your bill is taken on the same day."],
        ["Your bill is taken on a different day each month."],
    ),
    (
        "A follow-up visit must be with the same dentist.",
        ["You can't see a different dentist for the follow-up visit."],
        ["A follow-up visit must be with a different dentist."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), SAME_DIFFERENT)
def test_same_and_different_are_antonyms(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


def test_a_long_run_of_nor_is_is_read_whole() -> None:
    # Thousands of "nor is ..." after a negation, each the negation said of one more
    # thing: all are rewritten (one negation against the negative step, a flip against
    # the positive one), in one pass over the text.
    from tests.support.liveness import finishes

    code = (
        "from monitor.text.polarity import polarity_flip\n"
        "a = 'Gift cards are not refundable' + ', nor is this one' * 6000 + '.'\n"
        "assert polarity_flip('Gift cards are not refundable.', a) is None\n"
        "assert polarity_flip('Gift cards are refundable.', a) is not None\n"
    )
    finishes(code, 60, "reading a long run of 'nor is'")


# A reviewer's cases: each rule above kept to its own ground.
@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # "nor is" with a predicate of its own is a second negation.
        (
            "Under-5s don't pay, and the deposit is refundable.",
            "Under-5s don't pay, nor is the deposit refundable.",
        ),
        (
            "Tickets can't be exchanged, and drinks are included.",
            "Tickets can't be exchanged, and neither are drinks included.",
        ),
    ],
)
def test_nor_with_its_own_predicate_is_a_second_negation(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Claims must be made within 30 days of the incident.",
            "Claims can be made only within 30 days of the incident.",
        ),
        (
            "You must return the item within 30 days.",
            "You may return the item, but only within 30 days.",
        ),
    ],
)
def test_only_on_a_bound_is_the_steps_own_obligation(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer", "terms"),
    [
        (
            "Bereavement leave covers your immediate family.",
            "Bereavement leave covers your extended family.",
            ("immediate family",),
        ),
        (
            "You pay rent until a replacement moves in or your licence ends, whichever comes "
            "first.",
            "You pay rent until a replacement moves in or your licence ends, whichever is "
            "later; if one moves in earlier you still pay.",
            ("whichever comes first",),
        ),
        ("You can cancel at any time.", "You can cancel whenever we agree.", ("at any time",)),
    ],
)
def test_terms_outside_the_new_readings_are_still_replaced(
    step: str, answer: str, terms: tuple[str, ...]
) -> None:
    _check(step, [], [answer], terms)


def test_a_value_on_the_line_after_its_label_is_still_read() -> None:
    ref = item_with_params(
        "x", "Reference 1234567.", {"ref": {"type": "digits", "value": "1234567"}}
    )
    got = extract_candidates("Nights:\n3.\nCheck-in is from 15:00.", ref, {})
    assert any(c.cue == "label" and c.value == "3" for c in got), got
