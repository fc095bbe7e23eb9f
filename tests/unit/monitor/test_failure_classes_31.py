"""Quantities and polarity said the way people write them (issue 19, classes 4 and
5), on hand-written cases from invented domains (a hotel, a parcel depot, a phone
shop, a skip-hire permit office, a library, a bank, a bakery, a car park, a school
trip, a money-transfer desk; none is a bench seed). Found with the paraphrase probe
(tests/data/paraphrase_probe/, docs/bench-results.md).

- A step whose quantity is written another way ("a week", "a fortnight") is found.
- A step read across the clauses of its sentence leaves out the clauses that belong
  to another statement: the "won't" of "if it sits on your driveway you won't" is not
  read against "a permit is required for skips on the road".
- "Exempt from the <money> paper bill fee" shuts out the paper bill fee (the masked
  amount is no word).
- "Fine-free", "interest-free" said of the thing, and "free from nuts", are denials
  ("no fine"); not "sugar-free jam" beside another thing, "hassle-free", "free of
  charge" or "free from 6 pm".
- Lengths ("2 metres" = "200 cm") and calendar dates ("by 1 March" = "on or before
  the 1st of March") are quantities.
- A bound word after a unit of two words is read ("5 working days minimum").
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier, _bounds
from monitor.text.polarity import freed, polarity_flip
from monitor.text.quantities import quantities
from monitor.text.tokens import tokens
from tests.unit.monitor.test_failure_classes import item


def _statuses(steps: list[str], answer: str) -> list[str]:
    ref = item("t", " ".join(steps), steps)
    return [v.status for v in StepVerifier().verify(ref, answer, [])]


@pytest.mark.parametrize(
    ("steps", "answer"),
    [
        (
            ["Parcels are held at the depot for 7 days."],
            "The depot keeps your parcel for a week.",
        ),
        (
            ["You can cancel within 14 days for a full refund."],
            "Cancel within a fortnight and you get a full refund.",
        ),
    ],
)
def test_a_step_whose_quantities_are_written_another_way_is_found(
    steps: list[str], answer: str
) -> None:
    assert set(_statuses(steps, answer)) == {"covered"}


def test_a_step_whose_quantity_changed_is_still_caught() -> None:
    statuses = _statuses(
        ["Parcels are held at the depot for 7 days."],
        "The depot keeps your parcel for a fortnight.",
    )
    assert statuses == ["altered"]


@pytest.mark.parametrize(
    ("step", "sentence", "unit"),
    [
        (
            "A permit is required for skips placed on the road.",
            "If the skip goes on the street you'll need a permit; if it sits on your own "
            "driveway you won't.",
            "If the skip goes on the street you'll need a permit",
        ),
        (
            "Guests must sign in at reception.",
            "Every guest signs in at the front desk; nobody may swim alone in the pool.",
            "Every guest signs in at the front desk",
        ),
        (
            # A bare refusal states nothing of its own: it says its "no" to the step.
            "Bike boxes are accepted as hold luggage on the evening ferry.",
            "As for bike boxes on the ferry, I'm afraid we can't.",
            "As for bike boxes on the ferry, I'm afraid we can't.",
        ),
        (
            # A step spread over clauses that all share its words is read whole.
            "Refunds for late cancellations are never given by the school.",
            "Cancel late, and no refund is given.",
            "Cancel late, and no refund is given.",
        ),
    ],
)
def test_another_statements_clause_is_left_out_of_the_steps_reading(
    step: str, sentence: str, unit: str
) -> None:
    got = StepVerifier()._polarity_unit(tokens(step), sentence, "sentence")
    assert got == unit
    assert (polarity_flip(step, got) is None) is ("can't" not in unit)


@pytest.mark.parametrize(
    ("step", "answer", "flips"),
    [
        (
            "Customers who pay by direct debit are not charged the <money> paper bill fee.",
            "Since you pay by direct debit, you're exempt from the <money> paper bill fee.",
            False,
        ),
        (
            "Customers who pay by direct debit are charged the <money> paper bill fee.",
            "Since you pay by direct debit, you're exempt from the <money> paper bill fee.",
            True,
        ),
        # "X-free" said of the thing, and "free from X"
        ("Overdue children's books are not fined.", "Children's books are fine-free.", False),
        ("Overdue children's books are fined.", "Children's books are fine-free.", True),
        ("No interest is charged on the first £100.", "The first £100 is interest-free.", False),
        ("Interest is charged on the first £100.", "The first £100 is interest-free.", True),
        ("All our cakes are gluten-free.", "None of our cakes contain gluten.", False),
        ("All our cakes are gluten-free.", "All our cakes contain gluten.", True),
        (
            "We cannot guarantee the meal will be free from nuts.",
            "We can't promise the meal will be nut-free.",
            False,
        ),
        (
            "We cannot guarantee the meal will be free from nuts.",
            "We can promise the meal will be nut-free.",
            True,
        ),
        # before a noun (read by freed()): an adverb after it is no noun it frees
        (
            "Books borrowed over the holidays are not fined.",
            "Borrow fine-free even over the holidays.",
            False,
        ),
        ("Snacks we sell contain no gluten.", "We sell snacks free from gluten.", False),
        # a word before a cost noun names the cost: "free" already says it is nothing
        (
            "There are no roaming charges in the EU.",
            "Use your phone in the EU free from roaming charges.",
            False,
        ),
        ("The contract has no exit fees.", "You can leave free from exit fees.", False),
        # a "free from" denied in its clause is no freed thing
        ("Our cakes contain no nuts.", "We can't guarantee our cakes come free from nuts.", True),
        (
            "The premium app has no adverts.",
            "The premium app doesn't come free from adverts.",
            True,
        ),
        # not another thing's, nor ease, a cost or a time
        ("Add no sugar to the batter.", "Use sugar-free jam, and add sugar to the batter.", True),
        ("Returns are hassle-free.", "Returns are easy.", False),
        ("Cancellation is free of charge.", "Cancelling is fee-free.", False),
        ("Parking is free from 6 pm.", "There is no parking charge after 6 pm.", False),
        # a source, an adverb or a noun is no denial (a review's cases)
        (
            "Download the app from the App Store.",
            "Download the app free from the App Store.",
            False,
        ),
        ("Passengers can buy duty-free goods on board.", "You can shop duty-free on board.", False),
        ("Try the bike for 30 days.", "Try the bike risk-free for 30 days.", False),
        (
            "Gluten-free bases are available on request.",
            "Gluten-free is available on request.",
            False,
        ),
        # what follows is read up to the end of the sentence
        (
            "Our café is nut-free. Staff will check allergens.",
            "Our café is nut-free. We will check allergens.",
            False,
        ),
    ],
)
def test_exemptions_and_free_of_things(step: str, answer: str, flips: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flips


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("Vehicles taller than 2 metres cannot park.", "nothing over 200 cm tall", True),
        ("a 2.5 m marquee", "a 250 cm marquee", True),
        ("bikes up to 6 feet long", "bikes up to 72 inches long", True),
        ("Vehicles taller than 2 metres cannot park.", "nothing over 2 feet tall", False),
        ("The deposit must be paid by 1 March.", "on or before the 1st of March", True),
        ("The balance is due by 15 April.", "no later than April 15th", True),
        ("Slips back by Friday 10 May.", "by Friday the 10th of May", True),
        ("The balance is due by 15 April.", "no later than the 15th of May", False),
    ],
)
def test_lengths_and_dates_are_quantities(one: str, other: str, same: bool) -> None:
    assert (quantities(one) == quantities(other)) is same


def test_a_date_is_no_count_and_may_stays_a_verb() -> None:
    assert quantities("by 1 March") == {"date:301"}
    assert quantities("on 2026-05-10") == {"date:510"}
    assert quantities("A maximum of 10 may attend") == {"n:10"}
    assert quantities("on the 1st of each month") == {"every:month:1", "ord:1"}
    # a month before a number that counts something else (a review's cases)
    assert quantities("Orders in May 10 days ahead get 5% off.") == {"min:14400", "pct:5"}
    assert quantities("Only 2 may at a time.") == {"n:2"}
    assert quantities("by March 1.") == {"date:301"}


def test_a_bound_word_after_a_unit_of_two_words() -> None:
    assert dict(_bounds("International: 5 working days minimum")) == {5.0: {"min"}}
    assert dict(_bounds("Refunds: 10 business days max")) == {10.0: {"max"}}
    assert dict(_bounds("Delivery: 3 days min")) == {3.0: {"min"}}


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("children's books are fine-free even when overdue", ("fine",)),
        ("the jam is free from nuts", ("nuts",)),
        ("free of any added sugar", ("sugar",)),
        ("parking is free from 6 pm", ()),
        ("parking is free from monday", ()),
        ("entry is free from april", ()),
        ("children travel free from age five", ()),
        ("you can transfer free from admin charges", ()),
        ("we can't promise the room stays free from dust", ()),
        ("download it free from the App Store", ()),
        ("salt-free herbs, then add salt", ()),
    ],
)
def test_what_a_text_says_it_is_free_of(text: str, things: tuple[str, ...]) -> None:
    assert freed(tokens(text)) == things
