"""Zero amounts, deadlines said as a duty, and short parts said in a sentence of their
own (issue 19, class 4), on hand-written cases from invented domains (a van hire, a pet
insurer, a tram company, a dentist, a climbing gym, a library, a kayak hire, a pottery
class, a museum, a piano tuner; none is a bench seed).

- A zero amount is "nothing to pay" wherever the text talks of what is paid, an excess,
  a deductible, a fare or a premium as well as a fee or a price ("Zero Excess cover: $0"
  for "with Zero Excess cover you pay nothing"; "the fee is reduced to $0"); a zero
  that a balance comes down to, that is compared or read out, or that starts a range is
  no price ("pay the balance down to $0", "above $0", "the card shows $0", "$0-$20"). An
  amount that was not zero and now is stays a flip.
- A permission of the step said as an obligation on the same act, one a deadline is put
  on (cancel, change, reschedule, return, ...), both with the same deadline (a length
  or a clock time after a bound word or said as notice, counted the same way from the
  same event), is one rule ("you can cancel up to 24 hours before" / "you need to
  cancel at least 24 hours before"); at another time, from another event, on another
  act or with a second duty, or an obligation turned into a permission, the flip
  stays.
- A part of a step of two or three content words that states something on its own (a
  verb of being, an auxiliary or a modal; no quantity), all of its words together in a
  sentence no other step holds and with no condition ("if", "only", "unless", ...), is
  read there as a part of four words or more is: a negation lost or added, or a
  negative prefix dropped or added ("the deposit is non-refundable" / "Heads up: the
  deposit is fully refundable"), is a flip; said the same way, it is covered. A list's
  item cut from its negation is not read so.
- "Non-refundable", "non-exchangeable" (a "non-" on an "-able" or "-ible" word) is "not
  refundable" where the other text does not say "refundable" itself (there the antonym
  pair reads it) and neither text has an exception ("unless", "except", which count as
  a negation too), so "can be refunded" flips it; "are optional" is one negation, no longer
  also an antonym of "required" ("compulsory", "mandatory"), which cancelled the two
  ("helmets are compulsory" / "helmets are optional" was no flip).
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier, _about_term
from monitor.text.polarity import polarity_flip
from monitor.text.tokens import tokens
from tests.unit.monitor.test_failure_classes import item


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "With standard cover you pay an excess of up to $900, while with Zero Excess "
            "cover you pay nothing.",
            "- Excess: standard cover up to $900; Zero Excess cover $0",
        ),
        ("With lifetime cover you pay no excess on vet bills.", "Lifetime cover: excess £0"),
        ("Children under 5 travel free on every tram.", "Tram fare for under-5s: €0"),
        ("Check-ups are free for members.", "Members pay $0 for a check-up."),
        ("Your deductible for a cleaning is nothing.", "Cleaning: deductible USD 0"),
        # a price brought to zero is free
        ("Members pay no booking fee.", "For members the booking fee is reduced to $0."),
        ("Members pay no booking fee.", "For members the booking fee goes from $5 to $0."),
        # not a price: a balance brought down to zero, compared with it or read out, and
        # a range that starts at zero
        ("Pay off the van hire balance before you return it.", "Pay the balance down to $0."),
        (
            "Make sure your bakery card is topped up before you pay.",
            "Make sure your bakery card balance is above $0 before you pay.",
        ),
        ("Top up the card before you pay.", "If the card shows $0, top it up before you pay."),
        ("Tips range from $0 to $20 per visit.", "Tips: $0-$20 per visit."),
    ],
)
def test_a_zero_amount_is_nothing_to_pay(step: str, answer: str) -> None:
    assert polarity_flip(step, answer, context=answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        ("With standard cover you pay an excess of £250.", "Standard cover: excess £0"),
        ("Adults pay the full tram fare.", "Adult tram fare: €0"),
        ("Check-ups cost members $40.", "Members pay $0 for a check-up."),
        ("You pay no excess with lifetime cover.", "Lifetime cover: excess £120"),
    ],
)
def test_a_price_made_zero_or_a_zero_made_a_price_is_caught(step: str, answer: str) -> None:
    assert polarity_flip(step, answer, context=answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "You can cancel a climbing class free of charge up to 24 hours before it starts.",
            "You need to cancel the climbing class at least 24 hours before it starts.",
        ),
        (
            "You can change the kayak booking until 6 pm the day before.",
            "Booking changes: you have to change it by 6 pm the day before.",
        ),
        (
            "You can reschedule a pottery class until 6 pm the day before.",
            "You must reschedule no later than 6 pm the day before.",
        ),
        (
            "You can cancel the car wash with 48 hours' notice.",
            "You must cancel with 48 hours' notice.",
        ),
    ],
)
def test_a_deadline_granted_then_said_as_a_duty_is_one_rule(step: str, answer: str) -> None:
    assert polarity_flip(step, answer, context=answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # another time
        (
            "You can cancel a climbing class free of charge up to 24 hours before it starts.",
            "You need to cancel the climbing class at least 48 hours before it starts.",
        ),
        # counted from another event
        (
            "You can cancel a climbing class up to 24 hours before it.",
            "You must cancel within 24 hours of booking it.",
        ),
        # another verb
        (
            "You can change the kayak booking until 6 pm the day before.",
            "You have to pay for the kayak by 6 pm the day before.",
        ),
        # no time at all
        ("You can pay for the kayak by card or in cash.", "You need to pay for the kayak by card."),
        # a duty turned into a permission loses the duty, deadline or not
        ("Loans must be returned within 21 days.", "You can return your loans within 21 days."),
        # a length the act lasts, or comes late by, is no deadline
        (
            "Patients must fast for 8 hours before sedation.",
            "Patients can fast for 8 hours before sedation.",
        ),
        (
            "You can arrive up to 15 minutes before your lesson.",
            "You must arrive up to 15 minutes late for your lesson.",
        ),
        # a denied permission against the duty: the negation decides
        (
            "You can change the kayak booking until 6 pm the day before.",
            "You can't change the kayak booking after 6 pm the day before.",
        ),
        # a second duty beside the deadline
        (
            "You can cancel the ferry up to 24 hours before, and you can bring a bike.",
            "You must cancel at least 24 hours before, and you must bring a bike.",
        ),
        # not an act a deadline is put on: the earliest time, how long
        (
            "You can check in for the ferry up to 2 hours before departure.",
            "You must check in at least 2 hours before departure.",
        ),
        ("Pupils can stay at the museum until 3 pm.", "Pupils must stay at the museum until 3 pm."),
        # the last stretch before the event, and another event
        (
            "You can cancel the school trip up to 24 hours before it.",
            "You must cancel the school trip within 24 hours before it.",
        ),
        (
            "You can cancel the dentist visit within 24 hours of booking.",
            "You must cancel the dentist visit within 24 hours of the appointment.",
        ),
        # another day; a time in another act's clause
        (
            "You can change the ferry booking until 6 pm on Friday.",
            "You must change the ferry booking by 6 pm on Thursday.",
        ),
        (
            "You can cancel the cake order, and pay within 2 days.",
            "You must cancel the cake order and pay within 2 days.",
        ),
        # no bound word and no notice: a time, not a deadline
        (
            "Patients can drink water 2 hours before the procedure.",
            "Patients must drink water 2 hours before the procedure.",
        ),
    ],
)
def test_a_deadline_at_another_time_or_on_another_verb_stays_a_flip(step: str, answer: str) -> None:
    assert polarity_flip(step, answer, context=answer) is not None


POTTERY = item(
    "pottery_course",
    "Book the course online. Pay the deposit of £40 to hold your place; the deposit is "
    "non-refundable. Bring an apron to the first class.",
    [
        "Book the course online.",
        "Pay the deposit of £40 to hold your place; the deposit is non-refundable.",
        "Bring an apron to the first class.",
    ],
)
MUSEUM = item(
    "museum_tickets",
    "Buy tickets at the door or online. Entry closes at 4 pm, and tickets are not "
    "transferable. Audio guides cost £3.",
    [
        "Buy tickets at the door or online.",
        "Entry closes at 4 pm, and tickets are not transferable.",
        "Audio guides cost £3.",
    ],
)
PIANO = item(
    "piano_tuning",
    "We tune the piano at your home. A visit lasts about an hour, and parking is "
    "unavailable. The tuner texts you on the day.",
    [
        "We tune the piano at your home.",
        "A visit lasts about an hour, and parking is unavailable.",
        "The tuner texts you on the day.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "answer", "expected"),
    [
        (
            POTTERY,
            "Book the course online. Pay the £40 deposit to hold your place. Heads up: the "
            "deposit is fully refundable. Bring an apron to the first class.",
            {0: "covered", 1: "negated", 2: "covered"},
        ),
        (
            MUSEUM,
            "Buy your tickets online or at the door. Entry to the museum closes at 4 pm. "
            "Audio guides are £3. Tickets are transferable, too.",
            {0: "covered", 1: "negated", 2: "covered"},
        ),
        (
            PIANO,
            "We come to your home to tune the piano. A visit lasts about an hour. The tuner "
            "texts you on the day. Good news: parking is available.",
            {0: "covered", 1: "negated", 2: "covered"},
        ),
    ],
)
def test_a_short_part_turned_in_a_sentence_of_its_own_is_caught(ref, answer, expected):
    verdicts = {v.index: v for v in StepVerifier().verify(ref, answer, [])}
    assert {k: v.status for k, v in verdicts.items()} == expected
    assert "in another sentence" in verdicts[1].cue, verdicts[1].cue


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            POTTERY,
            "Book the course online. Pay the £40 deposit to hold your place. Heads up: the "
            "deposit is non-refundable. Bring an apron to the first class.",
        ),
        (
            MUSEUM,
            "Buy your tickets online or at the door. Entry to the museum closes at 4 pm. "
            "Audio guides are £3. Tickets are not transferable, sorry.",
        ),
        (
            PIANO,
            "We come to your home to tune the piano. A visit lasts about an hour. The tuner "
            "texts you on the day. Sadly, parking is unavailable.",
        ),
    ],
)
def test_a_short_part_kept_in_a_sentence_of_its_own_is_covered(ref, answer):
    verdicts = StepVerifier().verify(ref, answer, [])
    assert [v.status for v in verdicts] == ["covered"] * 3, [v.cue for v in verdicts]


PRINTSHOP = item(
    "print_originals",
    "Upload the file in the portal. We do not print from a screenshot, a fax or a "
    "photocopy, and posters are trimmed by hand. Collect the order at the counter.",
    [
        "Upload the file in the portal.",
        "We do not print from a screenshot, a fax or a photocopy, and posters are trimmed by hand.",
        "Collect the order at the counter.",
    ],
)


@pytest.mark.parametrize(
    "answer",
    [
        # a list's item cut from its negation, said with one
        "Upload the file in the portal. Posters are trimmed by hand. Collect the order at "
        "the counter. From a screenshot / fax / photocopy: not possible.",
    ],
)
def test_a_short_part_is_not_read_from_a_list_item(answer):
    verdicts = StepVerifier().verify(PRINTSHOP, answer, [])
    assert "in another sentence" not in verdicts[1].cue, verdicts[1].cue


def test_a_short_part_is_not_read_from_a_condition():
    # the exception said on its own, conditionally, beside the rule kept
    answer = (
        "Book the course online. Pay the £40 deposit to hold your place; you won't get it "
        "back. Bring an apron to the first class. If we cancel the course, the deposit is "
        "refundable."
    )
    verdicts = StepVerifier().verify(POTTERY, answer, [])
    assert "in another sentence" not in verdicts[1].cue, verdicts[1].cue


# A declared negated term is judged in a sentence that talks about its own clause: a
# sentence sharing only words the step's other clauses have too, and stating one of
# those, is about that clause when another sentence has a word of the term's own.
SWIM = (
    "Until the end of the first week of lessons you get 50% back; from the second week "
    "onwards no refund is given."
)
CINEMA = (
    "There is no cancellation fee, but if you cancel before your third month, the joining "
    "discount is charged back."
)
BIKES = (
    "Bikes can be returned to any dock in the city, but e-bikes cannot be returned to the "
    "riverside docks."
)


@pytest.mark.parametrize(
    ("step", "term", "sentence", "other", "about"),
    [
        (
            SWIM,
            "no refund is given",
            "- Until end of week one: 50%",
            "- Week two onwards: nothing",
            False,
        ),
        (
            CINEMA,
            "no cancellation fee",
            "Cancel before month three = joining discount charged back",
            "- Fee: none.",
            False,
        ),
        (
            BIKES,
            "cannot be returned",
            "Bikes go back to any dock in the city.",
            "E-bikes: not at the riverside docks.",
            False,
        ),
        # no other sentence has a word of the term's clause's own with a negator: this
        # one judges it
        (
            SWIM,
            "no refund is given",
            "You get 50% back if you cancel in any week of lessons.",
            "Refunds are paid to the card you used.",
            True,
        ),
        (
            SWIM,
            "no refund is given",
            "You get 50% back in any week of lessons.",
            "Book at reception.",
            True,
        ),
        (
            CINEMA,
            "no cancellation fee",
            "Cancel before month three = joining discount charged back",
            "Book online.",
            True,
        ),
        # a word of the term's own clause
        (
            SWIM,
            "no refund is given",
            "- Second week onwards: refund given",
            "- Week one: 50%",
            True,
        ),
        (
            BIKES,
            "cannot be returned",
            "E-bikes can go to the riverside docks too.",
            "Bikes go back to any dock in the city.",
            True,
        ),
        # a clause with no word of its own: any shared word ties the sentence to it
        (
            "Cash is not accepted at the kiosk; cash refunds are not given.",
            "not accepted",
            "We take cash.",
            "Cash refunds: none.",
            True,
        ),
    ],
)
def test_a_negated_term_is_judged_where_its_own_clause_is_stated(
    step, term, sentence, other, about
):
    assert _about_term(step, term, tokens(sentence), 5, [tokens(other)]) is about


POOL = item(
    "pool_course",
    "Book the course at reception. Until the end of the first week of lessons you get 50% "
    "back; from the second week onwards no refund is given. Bring a towel.",
    [
        "Book the course at reception.",
        "Until the end of the first week of lessons you get 50% back; from the second week "
        "onwards no refund is given.",
        "Bring a towel.",
    ],
    ("no refund is given",),
)


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        (
            "Book at reception.\n- Until end of week one: 50%\n- Week two onwards: nothing\n"
            "Bring a towel.",
            "covered",
        ),
        (
            "Book at reception.\n- Until end of week one: 50%\n- From the second week "
            "onwards: a refund is given\nBring a towel.",
            "negated",
        ),
    ],
)
def test_a_line_that_states_the_other_clause_keeps_the_negated_term(answer, status):
    verdicts = StepVerifier().verify(POOL, answer, [])
    assert verdicts[1].status == status, verdicts[1].cue


# "Non-refundable" is "not refundable", against "can be refunded" as against
# "refundable"; "are optional" is one negation, not an antonym of "required" as well
# (the two cancelled: "required" / "optional" read as no flip).
@pytest.mark.parametrize(
    ("step", "answer"),
    [
        ("The £30 bakery deposit is non-refundable.", "The £30 bakery deposit can be refunded."),
        ("Ferry tickets are non-exchangeable.", "Ferry tickets can be exchanged for another day."),
        ("Car wash vouchers are nonrefundable.", "Car wash vouchers are refunded on request."),
        ("Helmets are compulsory on the school trip.", "Helmets are optional on the school trip."),
        (
            "A deposit is required for every dentist booking.",
            "A deposit is optional for every dentist booking.",
        ),
        ("Goggles are mandatory in the pool.", "Goggles are optional in the pool."),
    ],
)
def test_a_non_able_word_and_an_optional_against_a_duty_are_flips(step: str, answer: str) -> None:
    assert polarity_flip(step, answer, context=answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        ("The £30 bakery deposit is non-refundable.", "The £30 bakery deposit cannot be refunded."),
        ("Ferry tickets are non-transferable.", "Ferry tickets are not transferable."),
        (
            "Non-members pay £5 for the car wash.",
            "Visitors who are not members pay £5 for the car wash.",
        ),
        (
            "Helmets are optional on the school trip.",
            "Helmets are not required on the school trip.",
        ),
        ("Goggles are required in the pool.", "Goggles are mandatory in the pool."),
    ],
)
def test_a_non_able_word_and_an_optional_said_again_are_no_flips(step: str, answer: str) -> None:
    assert polarity_flip(step, answer, context=answer) is None


# Beside an exception ("unless", "except") a "non-" word is read as before: the
# "unless" counts as a negation too, and a "not" beside it would cancel a flip or make
# one of an answer that leaves the exception out.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Tickets are non-refundable unless the event is cancelled.",
            "In all other cases the tickets are refundable.",
            True,
        ),
        (
            "Gift cards are non-exchangeable except for faulty ones.",
            "Gift cards cannot be exchanged.",
            False,
        ),
    ],
)
def test_a_non_word_beside_an_exception_is_read_as_before(
    step: str, answer: str, flip: bool
) -> None:
    assert (polarity_flip(step, answer, context=answer) is not None) is flip
