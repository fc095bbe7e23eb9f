"""A rule said of the group outside an "only", a reply that says how sure it is, an
exception on both sides of a "non-...able", a warning under a heading, a part of a
step found past its negative prefix (issue 19, class 4), and a deleted step not read
from a neighbour's clause (class 3), on hand-written cases from invented domains (a
climbing wall, a ferry, a print shop, a dog groomer, a bike repair shop, a concert
hall, a coworking space, a pottery studio, a tool library, a car wash, an escape room,
a ski locker, a vet surgery; none is a bench seed).

- "Only members can book" is "non-members cannot book": the restriction of one text
  and the negation of the other, said of those outside the group by a negative prefix
  ("non-" on any word, "non" / "un" on a participle or an "-able" word), are one
  rule; "non-members can book too" is a flip, as is the group itself denied ("members
  cannot book"). "Nonstop", "unlock", "unit", "until" name no outside group.
- "Normally, no: ...", "Sadly not.", "I'm afraid not -" reply to the question, as "No:"
  does, where the clause after them says the negation again; the clause is then read
  as written. Before a clause that does not ("Usually not, but guide dogs are
  allowed"), the reply is the negation ("Normally no refunds are given" is no reply).
- "Non-refundable unless ..." against "can be refunded unless ..." is a flip where both
  texts state the same exception (a word shared; "can't be refunded unless ..." is
  not); where only one does, or the two name different things, the "unless" still
  counts as a negation and the antonym pair reads the prefix. A "non-...able" word no
  antonym pair has is "not ...able" ("non-transferable" / "transferable" is a flip).
- "Casing: do not open (voids warranty)" is the warning "do not open the casing" for
  "opening the casing voids the warranty", no flip.
- A step of several parts read clause by clause finds the clause that states a part past
  its negative prefix: "the deposit is non-refundable, but it comes off the final bill"
  against "Just so you know, the deposit can be refunded, but we take it off your final
  bill" is a flip.
- A step matched weakly (under 0.5) is not read from the part of the answer that
  carries another step scoring 0.2 more: a deleted step is not found in the clause of
  its neighbour that shares a few of its words (issue 19, class 3); two steps stated
  in one sentence, each in its own clause, are both covered.
"""

from __future__ import annotations

import numpy as np
import pytest

from monitor.schemas import GoldenItem
from monitor.steps import Segment, StepVerifier
from monitor.text import tokens
from monitor.text.polarity import polarity_flip
from tests.unit.monitor.test_failure_classes import item, statuses


def _status(step: str, answer: str) -> str:
    golden = item("t", step, [step])
    (v,) = StepVerifier().verify(golden, answer, [])
    return v.status


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Only members can book the bouldering wall after 6 pm.",
            "Non-members cannot book the bouldering wall after 6 pm.",
        ),
        (
            "Only registered drivers may take the car onto the 7:40 ferry.",
            "Unregistered drivers may not take the car onto the 7:40 ferry.",
        ),
        (
            "We only reprint unopened boxes of business cards.",
            "Opened boxes of business cards are not reprinted.",
        ),
        (
            "Only vaccinated dogs are groomed in the shared room.",
            "Unvaccinated dogs are never groomed in the shared room.",
        ),
        (
            "Non-members cannot borrow the tile saw.",
            "The tile saw can only be borrowed by members.",
        ),
    ],
)
def test_a_rule_said_of_those_outside_the_only_is_no_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Only members can book the bouldering wall after 6 pm.",
            "Non-members can book the bouldering wall after 6 pm too.",
        ),
        (
            "Only registered drivers may take the car onto the 7:40 ferry.",
            "Unregistered drivers may also take the car onto the 7:40 ferry.",
        ),
        (
            "We only reprint unopened boxes of business cards.",
            "Opened boxes of business cards are reprinted as well.",
        ),
        (
            "Only vaccinated dogs are groomed in the shared room.",
            "Vaccinated dogs are not groomed in the shared room.",
        ),
        (
            "Non-members cannot borrow the tile saw.",
            "The tile saw can be borrowed by non-members.",
        ),
    ],
)
def test_the_outside_group_granted_the_rule_is_a_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Only members can book the bouldering wall after 6 pm.",
            "Non-members can book the bouldering wall after 6 pm too.",
        ),
        (
            "Only insured drivers can rent the moving van.",
            "Uninsured drivers can rent the moving van for an extra fee.",
        ),
    ],
)
def test_the_outside_group_granted_the_rule_is_a_negated_step(step: str, answer: str) -> None:
    assert _status(step, answer) == "negated"


def test_the_outside_group_denied_the_rule_is_a_covered_step() -> None:
    step = "Only members can book the bouldering wall after 6 pm."
    assert _status(step, "Non-members cannot book the bouldering wall after 6 pm.") == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # Prefixes that name no group outside another: "nonstop", "unlock", "unit",
        # "until", "unless".
        (
            "The airport shuttle runs nonstop to Terminal 2.",
            "The shuttle only stops at Terminal 2.",
        ),
        ("Members unlock the lockers with the app.", "Only lockers on level 1 open with the app."),
        (
            "Only itemised receipts are accepted for dental claims.",
            "Dental claims need a receipt that shows the unit price of each treatment.",
        ),
        (
            "Only tiles bought from our showroom can be returned.",
            "Keep your receipt until the tiles are fitted; tiles from our showroom can be "
            "returned.",
        ),
    ],
)
def test_a_prefix_that_names_no_outside_group_is_read_as_written(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


def test_the_only_word_kept_on_the_group_is_no_outside_group() -> None:
    # ("unused" on both sides names the same group, not its outside.)
    assert (
        polarity_flip(
            "Returned tools must be unused and in their original case.",
            "Only unused tools in their original case are taken back.",
        )
        is None
    )


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        # (An answer that says "no" and then the opposite is read by its reply: the
        # reply is kept where the clause does not say it again.)
        (
            "Tickets for the concert hall are non-refundable unless the concert is cancelled.",
            "Normally, no: tickets for the concert hall can be refunded at any time unless "
            "the concert is cancelled.",
            False,
        ),
        (
            "Tickets for the concert hall are non-refundable unless the concert is cancelled.",
            "Normally, no: tickets for the concert hall can't be refunded unless the concert "
            "is cancelled.",
            False,
        ),
        (
            "Day passes cannot be transferred to another person.",
            "Sadly not. Day passes can be transferred to another person.",
            False,
        ),
        (
            "Day passes can be transferred to another person.",
            "Sadly not: day passes can't be transferred to another person.",
            True,
        ),
        (
            "Day passes cannot be transferred to another person.",
            "I'm afraid not - day passes can't be transferred to another person.",
            False,
        ),
        (
            "Refunds are given for unused locker days.",
            "Normally no refunds are given for unused locker days.",
            True,
        ),
        # A reply the clause after it does not say again is the negation.
        (
            "Dogs are not allowed in the clinic.",
            "Usually not, but guide dogs are allowed in the clinic.",
            False,
        ),
        (
            "The pharmacy does not deliver on Sundays.",
            "Sadly not: the pharmacy delivers Monday to Saturday.",
            False,
        ),
        (
            "The 9 am spin class usually fills up.",
            "Usually not. The 9 am spin class has spaces most days.",
            True,
        ),
    ],
)
def test_a_reply_with_how_sure_it_is_negates_nothing(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Studio firings are non-refundable unless the kiln breaks down.",
            "Studio firings can be refunded unless the kiln breaks down.",
            True,
        ),
        (
            "Studio firings are non-refundable unless the kiln breaks down.",
            "Studio firings can't be refunded unless the kiln breaks down.",
            False,
        ),
        (
            "Studio firings are non-refundable unless the kiln breaks down.",
            "We cannot refund a studio firing, except when the kiln breaks down.",
            False,
        ),
        (
            "Studio firings are non-refundable unless the kiln breaks down.",
            "Studio firings can't be refunded.",
            False,
        ),
        # Two exceptions that name different things do not cancel.
        (
            "Course fees are non-refundable except for medical reasons.",
            "Course fees can only be refunded for medical reasons, except the $20 admin fee.",
            False,
        ),
        # No antonym pair has the word: the prefix is read as "not".
        (
            "The parking permit is non-transferable.",
            "Your parking permit is transferable.",
            True,
        ),
    ],
)
def test_an_exception_on_both_sides_of_a_non_able_word(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


@pytest.mark.parametrize(
    ("answer", "flip"),
    [
        ("Casing: do not open (voids warranty)", False),
        ("- Casing: never open it yourself (voids the warranty)", False),
        ("Casing: do not open - it voids the warranty", False),
        ("Casing: opening it voids the warranty", False),
    ],
)
def test_a_warning_under_a_heading_is_the_warning(answer: str, flip: bool) -> None:
    step = "Opening the pump casing yourself voids the warranty."
    assert (polarity_flip(step, answer) is not None) is flip


def test_a_headed_warning_lifted_is_still_a_flip() -> None:
    assert polarity_flip("Do not open the pump casing yourself.", "Casing: open it if you like")


@pytest.mark.parametrize(
    ("step", "answer", "status"),
    [
        (
            "The 40 pound deposit you paid is non-refundable, but it comes off the final bill.",
            "Just so you know, the 40 pound deposit can be refunded, but we take it off your "
            "final bill.",
            "negated",
        ),
        (
            "The 40 pound deposit you paid is non-refundable, but it comes off the final bill.",
            "Just so you know, the 40 pound deposit can't be refunded, but we take it off "
            "your final bill.",
            "covered",
        ),
        (
            "The escape room booking is non-transferable, and the team leader must show ID.",
            "Heads up, the escape room booking is transferable to a friend, and the team "
            "leader has to show ID.",
            "negated",
        ),
    ],
)
def test_a_part_found_past_its_negative_prefix(step: str, answer: str, status: str) -> None:
    assert _status(step, answer) == status


# A step read from a neighbour that states another step (the stand-in rule of
# StepVerifier._without_stand_ins): with term recall alone, as the unit tests run.
SKI_LOCKER = item(
    "ski_locker",
    "Rent the locker at the kiosk. Make sure you keep the locker key in a zipped pocket on "
    "the slopes. If a locker key is lost, the kiosk opens the locker and charges a 20 euro "
    "fee.",
    [
        "Rent the locker at the kiosk.",
        "Make sure you keep the locker key in a zipped pocket on the slopes.",
        "If a locker key is lost, the kiosk opens the locker and charges a 20 euro fee.",
    ],
)
CAR_WASH = item(
    "car_wash",
    "Buy the wash code at the pay station. Make sure the car aerial is pushed down in the "
    "wash bay. If a car gets stuck in the wash bay, the attendant resets the machine and "
    "restarts the wash.",
    [
        "Buy the wash code at the pay station.",
        "Make sure the car aerial is pushed down in the wash bay.",
        "If a car gets stuck in the wash bay, the attendant resets the machine and restarts "
        "the wash.",
    ],
)
VET = item(
    "vet_surgery",
    "Book the appointment online. Make sure your dog has an empty stomach on the morning of "
    "the surgery. If your dog is anxious on the morning of the surgery, the nurse gives a "
    "mild sedative.",
    [
        "Book the appointment online.",
        "Make sure your dog has an empty stomach on the morning of the surgery.",
        "If your dog is anxious on the morning of the surgery, the nurse gives a mild sedative.",
    ],
)


def test_a_deleted_step_is_not_read_from_the_clause_of_a_neighbour_step() -> None:
    # (Before the rule: "covered" at 0.38, from "If a locker key is lost on the slopes".)
    answer = (
        "Rent the locker at the kiosk. If a locker key is lost on the slopes, the kiosk opens "
        "the locker and charges a 20 euro fee."
    )
    assert statuses(SKI_LOCKER, answer) == {0: "covered", 1: "missing", 2: "covered"}


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            SKI_LOCKER,
            "Rent the locker at the kiosk. Keep the locker key in a zipped pocket on the "
            "slopes; if a key is lost, the kiosk opens the locker and charges a 20 euro fee.",
        ),
        (
            CAR_WASH,
            "Buy the wash code at the pay station. Push the car aerial down in the wash bay; "
            "if a car gets stuck there, the attendant resets the machine and restarts the "
            "wash.",
        ),
        (
            VET,
            "Book the appointment online. Your dog needs an empty stomach on the morning of the "
            "surgery, and if your dog is anxious, the nurse gives a mild sedative.",
        ),
    ],
)
def test_two_steps_in_one_sentence_are_both_covered(ref: GoldenItem, answer: str) -> None:
    assert statuses(ref, answer) == {0: "covered", 1: "covered", 2: "covered"}


def test_a_weak_step_keeps_a_clause_that_does_not_carry_the_strong_one() -> None:
    # Two steps in one sentence: the strong one matched the whole sentence, the weak
    # one the clause the strong one does not need; and a third, weak step matched the
    # clause that carries the strong one, which it only borrows.
    sentence = (
        "Unused days are refunded only for a certified injury, or when the weather closes the lifts"
    )
    first, second = (
        "Unused days are refunded only for a certified injury",
        ("or when the weather closes the lifts"),
    )
    segs = [
        Segment(sentence, sentence, "sentence", sentence, (0,)),
        Segment(first, first, "clause", sentence, (0,)),
        Segment(second, second, "clause", sentence, (0,)),
        Segment("Refunds go to your card.", "Refunds go to your card.", "sentence", "", (1,)),
    ]
    words = [
        tokens("Unused days are refunded only for an injury certified by a doctor."),
        tokens("Weather closures of the lifts are refunded automatically."),
        tokens("Days stay unused if you are injured."),
    ]
    score = np.array(
        [[0.9, 0.8, 0.2, 0.1], [0.5, 0.2, 0.45, 0.1], [0.5, 0.45, 0.1, 0.3]], dtype=float
    )
    picks = [(0, 0.9), (2, 0.45), (1, 0.45)]
    v = StepVerifier()
    out = v._without_stand_ins(picks, score, segs, [0, 0, 0], words)
    assert out[0] == (0, 0.9)
    assert out[1] == (2, 0.45)  # its own clause, not the strong step's
    assert out[2][0] != 1 and out[2][1] < 0.45  # read elsewhere, below the weak score
