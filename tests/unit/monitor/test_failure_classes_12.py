"""Polarity cues without a polarity change and numbers written another way (issue 19,
classes 4 and 5), on hand-written cases from invented domains (a gym, a passport office,
a bike shop, a cake shop, a theatre, a garden centre, an electronics shop, a dance
school, a dive school, a boiler engineer, a museum, a sports club, a soft-play centre, a
hostel, a cinema, a yoga studio, a car share, a parcel locker; none is a bench seed):
paraphrases that must pass, real changes that must be caught.

(1) A condition said with a second negator is the "not ... until" of the other text:
"not active until you sign the waiver" = "isn't active without a signed waiver" =
"can't be processed unless the fee is paid". (2) What must happen "or" something
"can't" happen is what must happen "so" that it can: "approve the design within 48 hours
or we can't start baking" = "... so we can start baking". (3) "Out of" negates the noun
after it as "without" does: "left without water" = "left out of water". (4) "No
problem!", "no worries:", "no stress:" reassure; they negate nothing ("if no problem is
found" still does). (5) A thing "free to use" costs nothing; it grants no permission
against a "must" ("the cloakroom is free to use"), where a person "free to use" it does
("members are free to use the sauna"). (6) A strict bound on a whole number is the
inclusive one a step further ("under 8" = "7 or under", "more than 10 people" = "11 or
more"), not on what is measured ("more than 2 hours" is not "3 hours or more"), and not
the same number bounded the other way ("7 or older"). (7) The "and" of "an hour and a
half" is no clause break. (8) Dimensions are read however spaced: "45x35x30 cm" = "45 x
35 x 30 cm" (the eighth set's "60x40x40 cm"). The last group is what a helper review of
the first version found (cases the code before it judged right); (9) holds two misreads
read on the fifteenth set, (10) what a second review found, (11) what a third review of
that mend found.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import polarity_flip
from tests.unit.monitor.test_failure_classes import item


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        # (1) "not ... until" / "not ... without" / "not ... unless"
        (
            "Your membership is not active until you sign the waiver.",
            "Your membership isn't active without a signed waiver.",
            False,
        ),
        (
            "The passport application is not processed until the fee is paid.",
            "We can't process the application unless the fee is paid.",
            False,
        ),
        (
            "You cannot collect the bike until the balance is paid.",
            "You can't take the bike away without paying the balance.",
            False,
        ),
        (
            "Tickets are not refunded unless the show is cancelled.",
            "Tickets are refunded without the show being cancelled.",
            True,
        ),
        # (2) "or ... can't" / "so ... can"
        (
            "Approve the design within 48 hours so we can start baking.",
            "Approve the design within 48 hours or we can't start baking.",
            False,
        ),
        (
            "Send the signed form by Friday or we cannot book your appointment.",
            "Send the signed form by Friday so that we can book your appointment.",
            False,
        ),
        (
            "Arrive 30 minutes early so we can seat you before the show.",
            "Arrive 30 minutes early or we won't be able to seat you before the show.",
            False,
        ),
        (
            "Approve the design within 48 hours so we can start baking.",
            "Approve the design within 48 hours so we can't start baking.",
            True,
        ),
        (
            "Send the signed form by Friday or we cannot book your appointment.",
            "Send the signed form by Friday or we can book your appointment.",
            True,
        ),
        (
            "Pay by card or cash, not by cheque.",
            "You can pay by card or cash but not by cheque.",
            False,
        ),
        (
            "Tickets that are lost or damaged cannot be refunded, so keep them safe.",
            "Just so you know, we can refund tickets that are lost or damaged.",
            True,
        ),
        (
            "Book the court by 6 pm so we can light it for you.",
            "Book the court by 6 pm or the lights won't be on.",
            False,
        ),
        # (3) "out of" / "without"
        (
            "Plants left without water are not covered by the guarantee.",
            "Plants left out of water aren't covered by the guarantee.",
            False,
        ),
        (
            "Plants left without water are not covered by the guarantee.",
            "Plants left out of water are covered by the guarantee.",
            True,
        ),
        (
            "Items sold without a warranty cannot be returned.",
            "Items sold out of warranty cannot be returned.",
            False,
        ),
        (
            "Items sold without a warranty cannot be returned.",
            "Items sold out of warranty can be returned.",
            True,
        ),
        # (4) reassurances
        (
            "You can move your class once at no cost.",
            "No problem! You can move your class once at no cost.",
            False,
        ),
        (
            "If you are not fit to dive in time, you can move the course once for free.",
            "If you're not fit in time, no stress: you can move the course once for free.",
            False,
        ),
        (
            "If you are not fit to dive in time, you can move the course once for free.",
            "If you're not fit in time, no worries, you can move the course once for free.",
            False,
        ),
        (
            "If a problem is found, we charge a £30 inspection fee.",
            "If no problem is found, we charge a £30 inspection fee.",
            True,
        ),
        ("The engineer found a problem with the boiler.", "The engineer found no problem.", True),
        # (5) a thing "free to use"
        (
            "School bags are not allowed in the galleries and must be left in the cloakroom, "
            "which is free.",
            "School bags can't go into the galleries, but the cloakroom is free to use.",
            False,
        ),
        (
            "Visitors must sign in at reception; the lockers are free.",
            "Sign in at reception - lockers free to use.",
            False,
        ),
        (
            "Members must book the sauna at the desk.",
            "Members are free to use the sauna without booking.",
            True,
        ),
        (
            "You must book the court at least a day ahead.",
            "You are free to use the court without booking.",
            True,
        ),
    ],
)
def test_polarity_cues_without_a_change(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


@pytest.mark.xfail(
    strict=True,
    reason="'without' is counted as a negator of the clause, not of its condition: "
    "'cannot collect until paid' / 'can collect without paying' is one negation each",
)
def test_a_condition_denied_instead_of_the_clause():
    assert polarity_flip(
        "You cannot collect the bike until the balance is paid.",
        "You can collect the bike without paying the balance.",
    )


def _first(ref, answer):
    return StepVerifier().verify(ref, answer, [])[0].status


def _penalised(step, answer):
    """Whether a one-step item's step is penalised by an answer that restates it."""
    status = _first(_one_step("review", step), f"{answer} Ask at the desk if unsure.")
    return status != "covered"


def _one_step(ident, step, terms=()):
    return item(
        ident, f"{step} Ask at the desk if unsure.", [step, "Ask at the desk if unsure."], terms
    )


SOFTPLAY = _one_step("softplay_adults", "Children under 8 must be with an adult at all times.")
HOSTEL = _one_step("hostel_groups", "Groups of more than 10 people pay a deposit of 20%.")
CINEMA = _one_step("cinema_age", "Only guests aged 18 or over can see late screenings.")
YOGA = _one_step("yoga_class", "The beginners' class lasts 90 minutes.")
CARSHARE = _one_step("carshare_late", "Cars kept out for more than 2 hours are charged double.")


# (6) A strict bound on a whole number and the inclusive one a step further; (7) the
# "and" of "an hour and a half" is no clause break.
@pytest.mark.parametrize(
    ("ref", "answer", "status"),
    [
        (SOFTPLAY, "Children aged 7 or under must be with an adult at all times.", "covered"),
        (SOFTPLAY, "Kids of 7 or younger must be with an adult at all times.", "covered"),
        (HOSTEL, "Groups of 11 or more people pay a deposit of 20%.", "covered"),
        (HOSTEL, "Groups of 11+ people pay a deposit of 20%.", "covered"),
        (CINEMA, "Only guests over 17 can see late screenings.", "covered"),
        (CINEMA, "Only guests over 18 can see late screenings.", "covered"),
        (YOGA, "The beginners' class lasts an hour and a half.", "covered"),
        (YOGA, "The beginners' class takes one and a half hours.", "covered"),
        # real changes
        (SOFTPLAY, "Children under 7 must be with an adult at all times.", "altered"),
        (SOFTPLAY, "Children aged 9 or under must be with an adult at all times.", "altered"),
        (SOFTPLAY, "Children aged 7 or older must be with an adult at all times.", "altered"),
        (HOSTEL, "Groups of 12 or more people pay a deposit of 20%.", "altered"),
        (HOSTEL, "Groups of more than 11 people pay a deposit of 20%.", "altered"),
        (CINEMA, "Only guests aged 17 or over can see late screenings.", "altered"),
        (CARSHARE, "Cars kept out for 3 hours or more are charged double.", "altered"),
        (YOGA, "The beginners' class lasts an hour and a quarter.", "altered"),
    ],
)
def test_bounds_on_whole_numbers_and_number_ands(ref, answer, status):
    assert _first(ref, f"{answer} Ask at the desk if unsure.") == status


PARCEL = item(
    "locker_parcel_size",
    "Pack the item in a box no larger than 45 x 35 x 30 cm and weighing no more than 15 kg. "
    "Ask at the desk if unsure.",
    [
        "Pack the item in a box no larger than 45 x 35 x 30 cm and weighing no more than 15 kg.",
        "Ask at the desk if unsure.",
    ],
    ("no larger than 45 x 35 x 30 cm",),
)


# (8) Dimensions however spaced.
@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("Pack it in a box, max 45x35x30 cm and 15 kg.", "covered"),
        ("Pack it in a box no bigger than 45x35x30cm, 15 kg max.", "covered"),
        ("Pack it in a box, max 55x35x30 cm and 15 kg.", "altered"),
        ("Pack it in a box at least 45x35x30 cm and 15 kg max.", "altered"),
    ],
)
def test_dimensions_however_spaced(answer, status):
    assert _first(PARCEL, f"{answer} Ask at the desk if unsure.") == status


# What a helper review of the first version found (invented cases; the first version
# got each wrong, the code before it right): must-catch, then must-pass.
@pytest.mark.parametrize(
    ("step", "answer", "penalised"),
    [
        (
            "Don't pay until you've collected the cake.",
            "Don't collect the cake without paying.",
            True,
        ),
        (
            "Don't board until the crew has checked your ticket.",
            "The crew won't check your ticket unless you have boarded.",
            True,
        ),
        (
            "You won't be charged until the treatment is finished.",
            "The treatment won't be finished unless you've paid.",
            True,
        ),
        (
            "Tell us about any damaged or missing items so we can replace them.",
            "Damaged or missing items can't be replaced.",
            True,
        ),
        (
            "Book online so you can skip the queue.",
            "Paying at the door or booking online won't let you skip the queue.",
            True,
        ),
        (
            "There are no hours when the car park is locked.",
            "The car park is locked out of hours.",
            True,
        ),
        (
            "Children must not go without a life jacket.",
            "Children must not go out of the life jacket area.",
            True,
        ),
        ("The check-up came back: no problems.", "The check-up came back with problems.", True),
        (
            "Your dog passed its check-up, no problems.",
            "Your dog passed its check-up but there were some problems.",
            True,
        ),
        ("Passengers are free to use the sun deck.", "Passengers must use the sun deck.", True),
        ("Residents are free to use the pool.", "Residents have to use the pool.", True),
        (
            "Books overdue by more than 2 weeks are charged a fine.",
            "Books 3 or more weeks overdue are charged a fine.",
            True,
        ),
        ("Parcels under 10 lb go by bike.", "Parcels of 9 lb or less go by bike.", True),
        (
            "Trips are cancelled if the wind is over 20 knots.",
            "Trips are cancelled if the wind is 21 knots or more.",
            True,
        ),
        ("Boats carry no more than 12 passengers.", "Boats carry up to 13 passengers.", True),
        ("Rooms sleep not more than 4 guests.", "Rooms sleep up to 5 guests.", True),
        ("Children under 8 sail free.", "Children aged 7 or younger sail for £5.", True),
        (
            "Fast your dog for twelve hours and a half dose of sedative will be given.",
            "Fast your dog for twelve hours; no sedative will be given.",
            True,
        ),
        # must pass
        (
            "We won't start the operation until you sign the consent form.",
            "We won't start the operation without your signed consent form.",
            False,
        ),
        (
            "Your pet can't go home until the vet has seen it.",
            "Your pet can't go home without being seen by the vet.",
            False,
        ),
        (
            "Tell us your arrival time so we can have your room ready.",
            "Tell us your arrival time or we won't be able to have your room ready.",
            False,
        ),
        ("Books not in stock can be ordered.", "Books out of stock can be ordered.", False),
        (
            "Patients over 65 get a 10% discount.",
            "Patients aged 66 or over get a 10% discount.",
            False,
        ),
        (
            "Cakes for more than 20 guests need 5 days' notice.",
            "Cakes for 21 guests or more need 5 days' notice.",
            False,
        ),
        (
            "Children under 12 can borrow 5 books.",
            "Children aged 11 or under can borrow 5 books.",
            False,
        ),
    ],
)
def test_the_reviews_cases(step, answer, penalised):
    assert _penalised(step, answer) is penalised


LOYALTY = _one_step("car_wash_loyalty", "Your loyalty card gets one stamp per wash.")
CLIMBING = _one_step(
    "climbing_party",
    "A party needs at least 8 climbers and no more than 20, and the balance is due 5 days before.",
)


# (9) Settled false penalties read on the fifteenth set after its clean run: "don't forget"
# beside a "gets" (the litotes check matched "forget" to "gets" as a compound's tail), and
# counts moved by a coordination.
@pytest.mark.parametrize(
    ("ref", "answer", "status"),
    [
        (LOYALTY, "Don't forget your loyalty card: one stamp per wash.", "covered"),
        (LOYALTY, "Your loyalty card gets no stamp per wash.", "negated"),
        (
            CLIMBING,
            "Parties need a minimum of 8 and a maximum of 20 climbers, and the balance is "
            "due 5 days before.",
            "covered",
        ),
        (
            CLIMBING,
            "Parties need a minimum of 10 and a maximum of 20 climbers, and the balance is "
            "due 5 days before.",
            "altered",
        ),
        (
            CLIMBING,
            "Parties need at least 20 climbers, and the balance is due 5 days before.",
            "altered",
        ),
    ],
)
def test_settled_misreads_from_the_fifteenth_set(ref, answer, status):
    assert _first(ref, f"{answer} Ask at the desk if unsure.") == status


def test_a_litotes_verb_is_matched_from_its_start():
    assert polarity_flip("You can skip the warm-up.", "You cannot skip the warm-up.")
    assert polarity_flip("Bring your card; it gets a stamp.", "Don't forget your card.") is None


# (10) What a second helper review found (invented cases; the version before it got each
# wrong): counts swapped between two nouns, a strict bound left strict on the next
# number, units of size and weight, "out of" idioms, "free" as an adjective, a "so" of
# consequence, and a verb matched to a function word.
@pytest.mark.parametrize(
    ("step", "answer", "penalised"),
    [
        (
            "Each booth takes 2 adults and up to 3 children.",
            "Each booth takes 3 adults and up to 2 children.",
            True,
        ),
        (
            "You can borrow 10 books and 4 DVDs at a time.",
            "You can borrow 4 books and 10 DVDs at a time.",
            True,
        ),
        (
            "Bookings for more than 10 people need a deposit.",
            "Bookings for larger than 11 people need a deposit.",
            True,
        ),
        ("Children under 5 ride free.", "Children below the age of 4 ride free.", True),
        ("Riders must be over 7 years old.", "Riders must be older than 8 years.", True),
        ("Bags over 20 kilograms pay a fee.", "Bags of 21 kilograms or more pay a fee.", True),
        (
            "Boats longer than 30 feet need a permit.",
            "Boats of 31 feet or more need a permit.",
            True,
        ),
        (
            "Children under 4 feet must ride with an adult.",
            "Children 3 feet or under must ride with an adult.",
            True,
        ),
        (
            "Riders over 100 kilograms cannot ride the ponies.",
            "Riders of 101 kilograms or more cannot ride the ponies.",
            True,
        ),
        # must pass
        (
            "Each booth takes 2 adults and up to 3 children.",
            "Up to 3 children and 2 adults fit in each booth.",
            False,
        ),
        (
            "Bookings for more than 10 people need a deposit.",
            "Bookings for 11 people or more need a deposit.",
            False,
        ),
        ("Children under 5 ride free.", "Children aged 4 or under ride free.", False),
        ("Riders must be over 7 years old.", "Riders must be 8 years old or older.", False),
    ],
)
def test_the_second_reviews_cases(step, answer, penalised):
    assert _penalised(step, answer) is penalised


@pytest.mark.parametrize(
    ("step", "answer", "flipped"),
    [
        (
            "Tickets without a date can be used any day.",
            "Tickets out of date can be used any day.",
            True,
        ),
        ("Patients without surgery can go home.", "Patients out of surgery can go home.", True),
        ("Books not in print can be ordered.", "Books out of print can be ordered.", False),
        (
            "Passengers are free to use the sun deck.",
            "Passengers must use the sun deck, and the free shuttle.",
            True,
        ),
        (
            "Residents are free to use the pool.",
            "Residents must use the pool, which is free.",
            False,
        ),
        (
            "The form is signed, so we can process it.",
            "The form is signed or we can't process it.",
            True,
        ),
        (
            "Bring the receipt, so we can refund you.",
            "Bring the receipt or we can't refund you.",
            False,
        ),
        ("Sign the form so we can process it.", "Sign the form or we can't process it.", False),
        ("Don't overlook the form.", "Check the form is over.", False),
    ],
)
def test_the_second_reviews_polarity_cases(step, answer, flipped):
    assert (polarity_flip(step, answer) is not None) is flipped


# (11) What a third review found in the second review's mend (invented cases; that mend
# got the must-pass ones wrong): a strict measure both texts state ("tours under 3
# hours") is no change of bound; "in" after a number is no unit; a requirement stated
# without a modal ("is needed", "is essential") is a request; a statement that opens with
# its noun ("dogs are vaccinated, so ...") is one.
@pytest.mark.parametrize(
    ("step", "answer", "penalised"),
    [
        (
            "Parties of more than 10 people on tours under 3 hours need a guide.",
            "Parties of 11 or more people on tours under 3 hours need a guide.",
            False,
        ),
        (
            "Groups of more than 10 people must hand over 2 forms at the zoo gate.",
            "Groups of 11 or more people must hand over 2 forms at the zoo gate.",
            False,
        ),
        (
            "Bags under 10 kg are free; children under 5 travel free.",
            "Bags under 10 kg are free; children aged 4 or under travel free.",
            False,
        ),
        (
            "Children under 5 in the pool must wear armbands.",
            "Children aged 4 or under in the pool must wear armbands.",
            False,
        ),
        (
            "Dogs over 7 in the pet hotel get a senior check.",
            "Dogs aged 8 or over in the pet hotel get a senior check.",
            False,
        ),
        (
            "Parties of more than 10 people on tours under 3 hours need a guide.",
            "Parties of 11 or more people on tours under 4 hours need a guide.",
            True,
        ),
        (
            "Groups of more than 10 people must hand over 2 forms at the zoo gate.",
            "Groups larger than 11 people must hand over 2 forms at the zoo gate.",
            True,
        ),
    ],
)
def test_the_third_reviews_cases(step, answer, penalised):
    assert _penalised(step, answer) is penalised


@pytest.mark.parametrize(
    ("step", "answer", "flipped"),
    [
        (
            "Your booking reference is needed, so we can find your table.",
            "Your booking reference is needed or we can't find your table.",
            False,
        ),
        (
            "A deposit is essential, so we can hold the room.",
            "A deposit is essential or we can't hold the room.",
            False,
        ),
        (
            "Call us if you are late, so we can hold the table.",
            "Call us if you are late or we can't hold the table.",
            False,
        ),
        (
            "Ski boots not in use must be returned to the rack.",
            "Ski boots out of use must be returned to the rack.",
            False,
        ),
        (
            "Dogs are vaccinated, so we can board them.",
            "Dogs are vaccinated or we can't board them.",
            True,
        ),
        (
            "Today the pool is heated, so you can swim.",
            "Today the pool is heated or you can't swim.",
            True,
        ),
    ],
)
def test_the_third_reviews_polarity_cases(step, answer, flipped):
    assert (polarity_flip(step, answer) is not None) is flipped
