"""Polarity cues without a polarity change (issue 19, class 4) and numbers said another
way (class 5), on hand-written cases from invented domains (a phone repair counter, a
cycle hire shop, a hotel, a removals firm, a boat yard, a language school, a library, a
pharmacy, a gym, a courier, a dance school, a climbing wall, a clock repairer, a paint
shop; none is a bench seed).

1. A "free" said twice in one text is one "free" against a text that says it once and
   puts a cost on nothing ("includes a free screen protector, fitted at no charge" /
   "fitted free"); against a text that prices something, the count stands.
2. "Except" and "including" are opposites; "not including" says "except" again.
3. A denied comparative is the bound the other text states on the same verb: "cannot
   be renewed more than three times" = "a maximum of three times" = "can only renew it
   three times", on what the number counts where the denying text says ("cannot hire
   more than four kayaks" is not "kayaks from a maximum of four centres").
4. The conditions of a permission said as obligations oblige nothing new ("a friend can
   collect if they bring your letter" / "they must bring your letter"); "only if" is the
   condition, and "not verified yet" the other text's "until it is verified".
5. A "not" right after a noun describes which things are meant ("books not returned
   within 28 days are charged" / "if a book is still out after 28 days ...").
6. "Without it" is the other text's negative prefix ("parcels sent without it" / "any
   unlabelled parcel").
7. "Missed with no notice" is a "no-show".
8. A negation of the step stated in another sentence is found past an adverb ("cannot
   subsequently be tinted"); a sentence that shares as many of the step clause's words
   as the matched one states it only with every word the matched one has.
9. "From day 60" is sixty days; "twice weekly" is twice a week.
10. A sentence that says the step's negation in another clause than the step does
    ("free of charge via the link, provided it is done no later than 24 hours before")
    keeps it.
11. A negation in another clause of the sentence that says nothing of the step ("...,
    and late arrivals get neither extra time nor a refund") does not cancel the step's
    own.
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip
from monitor.text.quantities import quantities
from tests.unit.monitor.test_failure_classes_12 import _first, _one_step


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
        # (3) a denied comparative against the bound
        (
            "Library books cannot be renewed more than three times.",
            "A book can be renewed a maximum of three times.",
            False,
        ),
        ("Do not check in more than 2 bags.", "You may check in 2 bags at most.", False),
        (
            "Flu jabs cannot be booked less than 48 hours ahead.",
            "Flu jabs must be booked at least 48 hours ahead.",
            False,
        ),
        (
            "Library books cannot be renewed more than three times.",
            "You can only renew a book three times in all.",
            False,
        ),
        (
            "Library books cannot be renewed more than three times.",
            "Library books can be renewed more than three times.",
            True,
        ),
        (
            "Library books cannot be renewed more than three times.",
            "Library books can be renewed more than three times, but only online.",
            True,
        ),
        (
            "Flu jabs cannot be booked less than 48 hours ahead.",
            "Flu jabs can be booked less than 48 hours ahead.",
            True,
        ),
        # ... on what the number counts where the denying text says: the same noun
        # after the bound's number, not another one, nor a bare amount
        (
            "Members cannot hire more than four kayaks per trip.",
            "Members can hire a maximum of four kayaks on each trip.",
            False,
        ),
        ("Guests cannot stay more than 3 nights.", "Guests can stay 3 nights at most.", False),
        (
            "Members cannot hire more than four kayaks per trip.",
            "Members can hire kayaks from a maximum of four centres.",
            True,
        ),
        (
            "Members cannot hire more than four kayaks per trip.",
            "Members can hire kayaks all season, with a maximum late fee of £4.",
            True,
        ),
        (
            "Pupils cannot enrol in fewer than 2 lessons a week.",
            "Pupils can enrol in lessons from a minimum age of 2.",
            True,
        ),
        (
            "Pupils cannot enrol in fewer than 2 lessons a week.",
            "Pupils can enrol in a minimum of 2 lessons each week.",
            False,
        ),
        # (4) a permission's conditions said as obligations
        (
            "A friend can collect your prescription if they bring your letter and you have "
            "added them to your record.",
            "They must bring your letter, and they have to be added to your record.",
            False,
        ),
        (
            "You can bring a guest to the gym if you book a day pass.",
            "Guests: only if you book a day pass.",
            False,
        ),
        (
            "A friend can collect your prescription if they bring your letter.",
            "If a friend is collecting, make sure they bring your letter.",
            False,
        ),
        # ... and "not verified yet" is the other text's "until it is verified"
        (
            "We cannot deliver to a new address until it is verified.",
            "Address not verified yet = we can't deliver there.",
            False,
        ),
        (
            "We cannot deliver to a new address until it is verified.",
            "Address not verified yet = we can deliver there.",
            True,
        ),
        (
            "A friend can collect your prescription if they bring your letter.",
            "A friend must collect your prescription.",
            True,
        ),
        (
            "You can bring a guest to the gym if you book a day pass.",
            "You must bring a guest to the gym.",
            True,
        ),
        # (5) a "not" that describes which things are meant
        (
            "If a book is still out after 28 days, we charge the replacement cost.",
            "Books not returned within 28 days will be charged at replacement cost.",
            False,
        ),
        (
            "Unused class credits expire.",
            "Class credits not used within a year will expire.",
            False,
        ),
        (
            "Books not returned within 28 days are charged.",
            "Books returned within 28 days are charged.",
            True,
        ),
        (
            "Books are not returned within 28 days.",
            "Books are returned within 28 days.",
            True,
        ),
        # (6) "without it" against a negative prefix
        (
            "Write the order number on each parcel; we return any unlabelled parcel.",
            "The order number must be on every parcel; parcels sent without it are returned.",
            False,
        ),
        (
            "Write the order number on each parcel; we return any unlabelled parcel.",
            "The order number must be on every parcel; parcels sent without it are not returned.",
            True,
        ),
        # (7) "no notice" against "no-show"
        ("Missed classes with no notice are charged in full.", "No-shows pay the full fee.", False),
        (
            "Missed classes with no notice are charged in full.",
            "Missed classes with notice are charged in full.",
            True,
        ),
    ],
)
def test_polarity_cues_without_a_change(step, answer, flip):
    assert bool(polarity_flip(step, answer)) is flip


def test_a_negation_stated_in_another_sentence_past_an_adverb():
    step = (
        "Pastel shades can only be mixed in matt, and we cannot tint or thin a tin once it "
        "has been opened."
    )
    answer = (
        "Your 4 tins may be tinted or thinned to order (pastels in matt only), plus the "
        "mixing charge."
    )
    elsewhere = ("Tins that have been opened cannot subsequently be tinted or thinned.",)
    assert polarity_flip(step, answer) is not None
    assert polarity_flip(step, answer, elsewhere=elsewhere) is None
    # ... not one about something else
    elsewhere = ("Tins that have been opened cannot subsequently be returned.",)
    assert polarity_flip(step, answer, elsewhere=elsewhere) is not None


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        (
            "From day 60 onwards storage costs £1 per item per week.",
            "Once it has been sixty days, storage costs £1 a week per item.",
            True,
        ),
        (
            "From day 60 onwards storage costs £1 per item per week.",
            "Once it has been thirty days, storage costs £1 a week per item.",
            False,
        ),
        ("Water the hedge twice a week.", "The hedge must be watered twice weekly.", True),
        ("Water the hedge twice a week.", "The hedge must be watered weekly.", False),
        ("Take it three times a day.", "Take it 3 times daily.", True),
    ],
)
def test_days_and_frequencies_said_another_way(one, other, same):
    def read(text):
        return {q for q in quantities(text) if not q.startswith("~")}

    assert (read(one) == read(other)) is same


DANCE = _one_step(
    "dance_move",
    "You can move the class to another date free of charge up to 24 hours before it "
    "starts, using the link in your email.",
)
REPAIR = _one_step(
    "repair_free",
    "If the fault is ours, the visit, the labour and the replacement parts are free.",
)


@pytest.mark.parametrize(
    ("ref", "answer", "status"),
    [
        (
            DANCE,
            "Your class may be moved free of charge via the link in your email, provided "
            "this is done no later than 24 hours before the start. Ask at the desk if unsure.",
            "covered",
        ),
        (
            DANCE,
            "Your class may not be moved free of charge via the link in your email, "
            "provided this is done no later than 24 hours before the start. Ask at the "
            "desk if unsure.",
            "negated",
        ),
        # a "free" another clause says of something else stays that clause's
        (
            REPAIR,
            "If the fault is ours, the visit, the labour is free but the replacement parts "
            "are charged. Ask at the desk if unsure.",
            "negated",
        ),
    ],
)
def test_a_negation_said_in_another_clause_of_the_sentence(ref, answer, status):
    assert _first(ref, answer) == status


MATS = _one_step("wall_shoes", "Outdoor shoes are not allowed on the climbing mats.")
CLOCK = _one_step(
    "clock_decline", "If you decline, we reassemble the clock and return it for a £20 fee."
)


@pytest.mark.parametrize(
    ("ref", "answer", "status"),
    [
        # (11) a negation in a clause that says nothing of the step does not cancel the
        # step's own
        (
            MATS,
            "Please note that outdoor shoes are permitted on the climbing mats, and that late "
            "arrivals of more than 10 minutes will receive neither extra time nor a refund. "
            "Ask at the desk if unsure.",
            "negated",
        ),
        (
            MATS,
            "Please note that outdoor shoes are not allowed on the climbing mats, and that "
            "late arrivals of more than 10 minutes will receive neither extra time nor a "
            "refund. Ask at the desk if unsure.",
            "covered",
        ),
        # ... which a reworded condition is not ("rather not go ahead" = "decline")
        (
            CLOCK,
            "If you'd rather not go ahead, no problem: we'll put it back together and return "
            "it for a £20 fee. Ask at the desk if unsure.",
            "not negated",
        ),
    ],
)
def test_a_negation_in_an_unrelated_clause(ref, answer, status):
    if status == "not negated":
        assert _first(ref, answer) != "negated"
    else:
        assert _first(ref, answer) == status


def test_a_negation_elsewhere_on_a_tie_needs_the_words_the_matched_sentence_has():
    step = "Deposits are not refunded."
    answer = "Your deposit of £50 was paid on 3 May."
    assert polarity_flip(step, answer) is not None
    # As many of the clause's words as the matched sentence, and every one of them:
    # stated there.
    elsewhere = ("Deposits paid are not refunded.",)
    assert polarity_flip(step, answer, elsewhere=elsewhere) is None
    # As many, but another one ("refunded" for "deposit"): about something else.
    elsewhere = ("Cancelled sessions are not refunded.",)
    assert polarity_flip(step, answer, elsewhere=elsewhere) is not None
