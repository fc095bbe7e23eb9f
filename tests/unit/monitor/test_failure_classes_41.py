"""Negations of a rule in a reworded sentence (issue 19): P4p negations the judge
missed because the sentence's negations were counted whole, on hand-written cases from
invented domains (a parcel depot, a dive school, a library, a spa, a permit desk, a
utility, a courier; none is a bench seed or a trial's trace).

1. A modal turned ("we can take parcels ..." for "we cannot accept parcels ...") where
   another clause of each text has a negation of its own ("... without a label ..."):
   counted over the whole sentence, the negations balanced and no flip was read. Now a
   modal that a clause of one text affirms and a clause of the other denies is a flip
   (``negated``, not settled: a hybrid judge asks its LLM) where, in clauses with no
   other negation and no restricting word, what it is said of is the same and at least
   two words of what it governs are.
2. Not where a restriction or condition words it ("can only move a booking twice" for
   "cannot be moved more than twice", "if the meter cannot be read"), where what it is
   said of differs ("parcels that have left the depot cannot be redirected" / "we can
   redirect your parcel"), nor where one text says it both ways ("you can't renew it
   online, but you can renew it at the desk").
"""

from __future__ import annotations

import pytest

from monitor.steps import _denial_granted, _modal_object_turned
from tests.unit.monitor.test_failure_classes_35 import _check, _status

# A parcel depot, a dive school, a library, a spa.
TURNED_BESIDE_ANOTHER_NEGATION = [
    (
        "We cannot accept parcels dropped off after 6 pm, and a parcel without a label "
        "will not be sent.",
        [
            "We can't take parcels dropped off after 6 pm, I'm afraid, so anything without "
            "a label would have to wait."
        ],
        [
            "We can take parcels dropped off after 6 pm, I'm afraid, so anything without a "
            "label would have to wait."
        ],
    ),
    (
        "Library staff cannot renew laptops over the phone, and a laptop not returned on "
        "time is blocked.",
        [
            "Library staff can't extend laptop loans over the phone; late laptops get "
            "blocked, not fined."
        ],
        [
            "Library staff can extend laptop loans over the phone; late laptops get "
            "blocked, not fined."
        ],
    ),
    (
        "Trainee instructors cannot sign off dive logs, and divers without a medical are "
        "not allowed in open water.",
        ["Trainee instructors can't sign your dive log, and no medical means no open water."],
        ["Trainee instructors can sign your dive log, and no medical means no open water."],
    ),
    (
        "Members can bring two guests to the spa on weekdays, but guests are not allowed "
        "in the pool without a member.",
        [
            "Members can take two guests into the spa on weekdays; no guests in the pool "
            "without a member."
        ],
        [
            "Members cannot take two guests into the spa on weekdays, and no guests in the "
            "pool without a member."
        ],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), TURNED_BESIDE_ANOTHER_NEGATION)
def test_a_modal_turned_beside_another_negation_is_a_flip(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


def test_the_flip_names_the_modal_and_is_left_open() -> None:
    step, _, [changed] = TURNED_BESIDE_ANOTHER_NEGATION[0]
    status, cue = _status(step, changed)
    assert status == "negated"
    assert cue == "polarity flipped (modal 'can' turned, what it governs kept)"


# A booking desk, a utility, a courier, a permit office.
NO_TURN = [
    ("A booking cannot be moved more than twice.", "You can only move a booking twice."),
    (
        "If the meter cannot be read, we will estimate your bill.",
        "When the meter is unreadable, your bill can be estimated.",
    ),
    (
        "Parcels that have left the depot cannot be redirected to a new address.",
        "We can redirect your parcel to a new address.",
    ),
    (
        "You can renew your permit at the desk.",
        "You can't renew your permit online, but you can renew it at the desk.",
    ),
    (
        "If a window cannot be secured, call us and we will board it up.",
        "Should a window be impossible to secure, our team can board it up.",
    ),
]


@pytest.mark.parametrize(("step", "answer"), NO_TURN)
def test_a_restricted_conditioned_or_other_modal_turns_nothing(step: str, answer: str) -> None:
    assert _modal_object_turned(step, answer, 4) is None
    assert _modal_object_turned(answer, step, 4) is None


# 3. What the step denies said with no negation and a word that grants it ("postal
#    applications accepted too" for "applications cannot be made by post"): the
#    denial is gone, though the sentence's negations count the same as the step's
#    other clauses'. A permit office, a recycling centre, a tutoring service.
DENIAL_GRANTED = [
    (
        "Apply online or at the counter; applications cannot be made by post.",
        ["Apply online or at the counter (no applications by post)."],
        ["Apply online or at the counter (applications by post are fine too)."],
    ),
    (
        "Book a slot in the app before you come; trailers are not admitted on Sundays.",
        ["Book a slot in the app before you come - no trailers on Sundays."],
        ["Book a slot in the app before you come - trailers are admitted on Sundays too."],
    ),
    (
        "Homework handed in late is not marked, and tutors do not reply to messages at weekends.",
        ["Late homework doesn't get marked, and tutors don't answer messages at weekends."],
        ["Late homework still gets marked, and tutors don't answer messages at weekends."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), DENIAL_GRANTED)
def test_a_denial_said_as_granted_is_a_flip(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


def test_the_granted_flip_names_the_granting_word() -> None:
    step, _, [changed] = DENIAL_GRANTED[0]
    assert _status(step, changed) == (
        "negated",
        "polarity flipped (what the step denies said as granted: 'fine')",
    )


# A café, a bus company, a gift shop, a cinema.
NOTHING_GRANTED = [
    # (Only one of the denied clause's words is said.)
    (
        "Dogs are not allowed in the café, but the garden is dog-friendly.",
        "Dogs are welcome in the garden too.",
    ),
    # (A denial said with "no" is not read.)
    (
        "Children under 5 travel free, and no booking is needed.",
        "Under-5s travel free too, no booking needed.",
    ),
    # (What it shares is the step's own words: the app is granted, the phone denied.)
    (
        "Give notice in the app; notice given by phone is not accepted.",
        "- Give notice: app (the app works too)",
    ),
    # (The clause grants with a denying word: "also excluded".)
    ("Gift cards are not refundable.", "Gift cards are also excluded from refunds."),
    # (The granting word is the step's own.)
    (
        "Refunds are not given for missed screenings, but you can also rebook once.",
        "You can also rebook a missed screening once.",
    ),
]


@pytest.mark.parametrize(("step", "answer"), NOTHING_GRANTED)
def test_a_grant_of_something_else_is_no_flip(step: str, answer: str) -> None:
    assert _denial_granted(step, answer, 4) is None


# 4. Correct paraphrases a reviewer wrote against the first versions of both rules (a
#    beach, a hospital, a council, a bank, a gym, a surgery, a ward, a clinic), each
#    read as a flip then: a denial in other words ("banned", "out of order", "still
#    stays shut", "will be left"), a modal of another clause or person, a question, an
#    answer that states the denial beside what it grants.
REVIEWED_NO_FLIP = [
    (
        "Glass bottles are not allowed on the beach at the resort.",
        "Glass bottles are banned on the beach at the resort.",
    ),
    ("The lift is not working in the east wing.", "The lift is out of order in the east wing."),
    (
        "The bins will not be collected on bank holidays by the council.",
        "The bins will be left on bank holidays by the council.",
    ),
    (
        "Your account will stay open after the transfer at the bank.",
        "Your account won't be shut after the transfer at the bank.",
    ),
    (
        "Members can get a refund for the class.",
        "Members who can't attend the class can get a refund for the class.",
    ),
    (
        "Gym classes can't be booked by phone.",
        "Can gym classes be booked by phone? Gym classes can't be booked by phone.",
    ),
    (
        "You can pay the council tax at the post office.",
        "We can't take council tax payments at the town hall, so pay the council tax at the post "
        "office.",
    ),
    (
        "The pool cannot be used during the repairs.",
        "During the repairs the pool still stays shut.",
    ),
    (
        "The membership cannot be paused during the contract.",
        "During the contract the membership still runs and you still pay for it.",
    ),
    (
        "Prescriptions cannot be ordered by phone at the surgery.",
        "Prescriptions can't be ordered by phone, but prescriptions can also be ordered at the "
        "surgery desk.",
    ),
    (
        "Visitors cannot bring food into the ward.",
        "Visitors are welcome to bring flowers into the ward, but not food.",
    ),
    (
        "Children under 8 cannot use the deep end of the pool.",
        "For children under 8 the shallow end of the pool is fine, the deep end of the pool is "
        "off limits.",
    ),
]


@pytest.mark.parametrize(("step", "answer"), REVIEWED_NO_FLIP)
def test_reviewed_paraphrases_are_no_flip(step: str, answer: str) -> None:
    status, cue = _status(step, answer)
    assert "what it governs kept" not in cue and "said as granted" not in cue, (status, cue)
