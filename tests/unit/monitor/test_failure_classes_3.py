"""The failure classes found on the third held-out set's tuning half (issue 19), on
hand-written cases from invented domains (freight depots, ski passes, lockers, hostel
kiosks, allotments, piano tuning; none is a bench seed): paraphrases that must pass,
real changes that must be caught.

Most cases fail on the judge before these changes; the others are controls (a
paraphrase that must stay uncaught, a change that must stay caught).
"""

from __future__ import annotations

import pytest

from monitor.claims import extract_candidates
from monitor.judges.base import JudgeRequest
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from monitor.steps import StepVerifier
from monitor.text.polarity import polarity_flip
from monitor.text.quantities import counted_nouns
from monitor.text.sentences import split_sentences
from tests.conftest import ACCEPTED, item_with_params
from tests.unit.monitor.test_failure_classes import item, wrong
from tests.unit.monitor.test_failure_classes_2 import judge

# (1) "The {kind} crate ...": a parameter after a bare function word locates nothing
# unless the word after it is there too; the reference's own procedure is no value.
CRATE = item_with_params(
    "crate_shipping",
    "The standard crate at depot 4471 ships on 2026-03-01. "
    "Return the customs form in the portal within 5 days. "
    "If the driver marked the crate as damaged, we will not ship it.",
    {
        "kind": {
            "type": "enum",
            "value": "standard",
            "values": ["standard", "express", "economy"],
            "label": "crate type",
        },
        "depot": {"type": "digits", "value": "4471", "label": "depot"},
        "ships": {"type": "date", "value": "2026-03-01", "label": "ship date"},
    },
)
CRATE_ANSWER = (
    "The {kind} crate at depot 9921 ships on 2026-05-14. "
    "Return the customs form in the portal within 5 days. "
    "If the driver marked the crate as damaged, we will not ship it."
)


def test_a_function_word_before_a_parameter_locates_no_value() -> None:
    answer = CRATE_ANSWER.format(kind="express")
    cands = extract_candidates(answer, CRATE, {"kind": "express"})
    assert [c.value for c in cands if c.field == "kind"] == ["express"]
    assert not judge(CRATE, answer, {"kind": "express", "depot": "9921"})


def test_a_value_in_the_reference_slot_is_still_a_claim() -> None:
    answer = CRATE_ANSWER.format(kind="economy")
    assert judge(CRATE, answer, {"kind": "express", "depot": "9921"})
    # Out of the vocabulary, found by the words on both sides of the slot.
    cands = extract_candidates(CRATE_ANSWER.format(kind="oversize"), CRATE, {})
    assert [c.value for c in cands if c.field == "kind"] == ["oversize"]


# (2) Words after a label that names no field are procedure, not an entity value: they
# are compared with the steps.
SKI = item(
    "ski_pass",
    "Passes are collected at the ticket office. Refunds after the first run are not given.",
    ["Passes are collected at the ticket office."],
)


def test_words_after_a_free_label_are_compared_with_the_steps() -> None:
    answer = "Ski pass:\n- Pick-up: the ticket office\n- Refunds after the first run: given."
    trace = Trace(trace_id="t", question="q", answer=answer, context={})
    r = StructuralJudge().judge_sync(JudgeRequest(trace, SKI, ACCEPTED))
    assert [s.status for s in r.steps] == ["covered", "negated"]
    kept = answer.replace("given.", "not given.")
    trace = Trace(trace_id="t", question="q", answer=kept, context={})
    r = StructuralJudge().judge_sync(JudgeRequest(trace, SKI, ACCEPTED))
    assert [s.status for s in r.steps] == ["covered", "covered"]


# (3) A declared term that is a negation ("not accepted") is kept by a sentence that
# negates in its own words; turning it positive is still caught.
KIOSK = item(
    "hostel_kiosk",
    "Pay for your bed at the kiosk by card. Cash is not accepted at the kiosk.",
    ["Pay for your bed at the kiosk by card."],
    ("not accepted", "by card"),
)
ALLOTMENT = item(
    "allotment_plot",
    "Plots are inspected every spring. If the plot is not cultivated, the lease is not renewed.",
    ["Plots are inspected every spring."],
    ("not cultivated", "not renewed"),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (KIOSK, "Pay for the bed by card at the kiosk; I'm afraid we can't take cash there."),
        (KIOSK, "You pay at the kiosk by card. The kiosk won't take cash."),
        (
            ALLOTMENT,
            "Every spring the plots get inspected, and if yours hasn't been worked, you "
            "won't get the lease again.",
        ),
    ],
)
def test_a_negated_term_in_other_words_is_kept(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (KIOSK, "Pay for the bed by card at the kiosk; cash is welcome at the kiosk too."),
        (KIOSK, "Pay for your bed at the kiosk by card. Cash is accepted at the kiosk."),
    ],
)
def test_a_negated_term_turned_positive_is_caught(ref: GoldenItem, answer: str) -> None:
    assert wrong(ref, answer)


# (4) "failed to" is a negation.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "If the locker failed to open, call the hotline.",
            "If the locker didn't open, call the hotline.",
            False,
        ),
        (
            "If the tuner fails to arrive, we refund the visit.",
            "If the tuner does not arrive, we refund the visit.",
            False,
        ),
        (
            "If the locker failed to open, call the hotline.",
            "If the locker opened, call the hotline.",
            True,
        ),
    ],
)
def test_failed_to_is_a_negation(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (5) A duration's unit is no counted noun in any form ("every 5 minutes" against
# "56 minutes after closing"); nor is a function word ("$10 for").
def test_minutes_are_a_unit_not_a_counted_noun() -> None:
    assert counted_nouns("charged at $10 for every 5 minutes or part thereof") == {}
    assert counted_nouns("3 lockers and one key") == {"locker": {3.0}, "key": {1.0}}


TUNING = item(
    "piano_tuning",
    "A late cancellation is charged at $15 for every 10 minutes of the slot. "
    "Book the tuner in the app.",
    ["Book the tuner in the app."],
)


def test_an_instance_duration_is_no_changed_count() -> None:
    answer = (
        "Your tuner waited 40 minutes before the slot was cancelled. A late cancellation "
        "costs $15 for every 10 minutes of the slot. Book the tuner in the app."
    )
    assert not wrong(TUNING, answer)
    changed = answer.replace("every 10 minutes", "every 30 minutes")
    assert wrong(TUNING, changed)


# (6) "Not ... until" against an "only" is the same time, not a negation.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "The scooter was not parked until 18:40.",
            "The scooter was recorded as parked only at 18:40.",
            False,
        ),
        (
            "You can collect the skis only from 9 am.",
            "You can't collect the skis until 9 am.",
            False,
        ),
        # Against another negation, or with no "only", it stays one.
        (
            "Work must not start until the permit is issued.",
            "Work must start until the permit is issued.",
            True,
        ),
        (
            "Work must not start until the permit is issued.",
            "Starting work before the permit is issued is not allowed.",
            False,
        ),
    ],
)
def test_not_until_against_only(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (7) A number that fills the exemplar's slot by the words after it is the field's.
KITCHEN = item_with_params(
    "kitchen_hire",
    "Booking 7731 ran 20 minutes over the hire slot, so an overrun fee applies.",
    {
        "booking": {"type": "digits", "value": "7731", "label": "booking"},
        "overrun": {"type": "integer", "value": "20", "label": "overrun"},
    },
)


def test_a_number_in_the_slot_by_the_words_after_it_is_a_claim() -> None:
    answer = "The kitchen on booking 4410 was used 35 minutes over the hire slot."
    cands = extract_candidates(answer, KITCHEN, {"overrun": "50"})
    assert [c.value for c in cands if c.field == "overrun"] == ["35"]
    assert judge(KITCHEN, answer, {"booking": "4410", "overrun": "50"})
    assert not judge(KITCHEN, answer, {"booking": "4410", "overrun": "35"})


# (8) A sentence that is a step word for word states no other step: its clauses do not
# stand in for a step the answer left out.
LOCKER = item(
    "locker_pause",
    "Pause the locker rental in the app. "
    "While the locker rental is paused in the app you pay no fee, but the key stays with you.",
    ["Pause the locker rental in the app."],
)


def test_a_verbatim_sentence_states_only_its_own_step() -> None:
    answer = (
        "While the locker rental is paused in the app you pay no fee, but the key stays with you."
    )
    assert StepVerifier().verify(LOCKER, answer, [])[0].status == "missing"
    full = "Pause the locker rental in the app. " + answer
    assert [s.status for s in StepVerifier().verify(LOCKER, full, [])] == ["covered"] * 2


# (9) A negated modal is read against the same modal affirmed, whatever verb each uses;
# and a part of a two-part step is read from the clause the other part leaves over.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        ("You cannot choose the tuning date.", "You can pick the tuning day.", True),
        ("Guests may not bring pets.", "Guests may bring along their dogs.", True),
        ("You cannot choose the tuning date.", "You can't pick the tuning day.", False),
        # Another modal, or none: the negation is still judged by its words.
        ("You cannot choose the tuning date.", "We will pick the tuning day.", False),
    ],
)
def test_a_negated_modal_against_the_same_modal(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


HUT = item(
    "ski_hut",
    "Book the hut online. The hut sleeps up to 8 guests, and you cannot choose your bunk beds.",
    ["Book the hut online."],
)


def test_the_part_left_over_is_read_from_the_clause_left_over() -> None:
    assert wrong(HUT, "Book the hut online. It sleeps up to 8 guests, and you can pick the beds.")
    assert not wrong(
        HUT, "Book the hut online. It sleeps up to 8 guests, and you can't pick the beds."
    )


# (10) A short abbreviation before a number ends no sentence ("max. 5 working days").
@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("Sign the form, max. 5 working days after the offer.", 1),
        ("Stay min. 2 nights. Max. 4 guests.", 2),
        ("It takes approx. 3 weeks. Then we call.", 2),
        # A sentence that ends on a word and is followed by a number still ends.
        ("The tuner comes in two days. 3 keys are needed.", 2),
    ],
)
def test_an_abbreviation_before_a_number_ends_no_sentence(text: str, n: int) -> None:
    assert len(split_sentences(text)) == n


DESK = item(
    "desk_hire",
    "Hire the desk in the app. A hot desk costs $12 per month and includes coffee.",
    ["Hire the desk in the app."],
)


def test_a_quantity_replaced_by_words_in_an_unchanged_sentence_is_caught() -> None:
    assert wrong(
        DESK,
        "Hire the desk in the app. A hot desk costs your full monthly fee and includes coffee.",
    )
    # The same quantity in other words, or a reworded sentence, is no swap.
    assert not wrong(
        DESK,
        "Hire the desk in the app. A hot desk costs twelve dollars a month and includes coffee.",
    )


# (11) A negation the other text writes with a negative prefix ("if you don't use it" =
# "unused") is the same statement, whatever else either text negates.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        (
            "Unused ski credit does not roll over to the next season.",
            "Ski credit carries over to next season if you don't use it.",
            True,
        ),
        (
            "Unused ski credit does not roll over to the next season.",
            "Ski credit you don't use doesn't carry over to next season.",
            False,
        ),
    ],
)
def test_a_negation_written_with_a_prefix_is_one_statement(
    step: str, answer: str, flip: bool
) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


# (12) A name that opens a sentence in the possessive is a claim ("Nala's booking");
# a count label with another tail word names the count field ("Lessons remaining: 2").
ROVER = item_with_params(
    "dog_daycare",
    "Booking 5512 for Rex has 3 sessions left.",
    {
        "booking": {"type": "digits", "value": "5512", "label": "booking"},
        "dog": {"type": "enum", "value": "Rex", "values": ["Rex", "Nala", "Bo"], "label": "dog"},
        "left": {"type": "integer", "value": "3", "label": "sessions left"},
    },
)


def test_a_possessive_name_opening_a_sentence_is_a_claim() -> None:
    answer = "Nala's booking 7781 has 2 sessions left."
    assert [c.value for c in extract_candidates(answer, ROVER, {}) if c.field == "dog"] == ["Nala"]
    assert judge(ROVER, answer, {"dog": "Bo", "booking": "7781"})
    # A capitalised word that opens a sentence without the possessive stays no claim.
    cands = extract_candidates("Rex the booking in the app.", ROVER, {})
    assert [c.value for c in cands if c.field == "dog"] == []


def test_a_count_label_with_another_tail_names_the_count_field() -> None:
    answer = "Booking 7781 (Nala)\n- Sessions remaining: 2"
    assert [c.value for c in extract_candidates(answer, ROVER, {}) if c.field == "left"] == ["2"]
    assert judge(ROVER, answer, {"left": "4", "booking": "7781"})


# (13) Found by review: controls for the rules above.
@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        # "must not X" said again as "must Y"; the step's own "can" is no affirmation.
        ("You must not leave bags unattended.", "You must keep your bags with you.", False),
        (
            "You can't bring food, but you can buy snacks inside.",
            "Outside food is banned, but snacks can be bought inside.",
            False,
        ),
        ("You can free up a slot by cancelling online.", "You can release a slot online.", False),
        # "only until" is the opposite of "not until"; "failed to" keeps its verb.
        ("The gate does not open until 9 am.", "The gate is open only until 9 am.", True),
        (
            "You cannot collect the skis until 9 am.",
            "You can collect the skis only from 9 am.",
            False,
        ),
        ("If the payment fails to go through, retry.", "If the payment is declined, retry.", False),
    ],
)
def test_review_controls_for_polarity(step: str, answer: str, flip: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flip


def test_a_verbatim_sentence_keeps_the_steps_it_contains() -> None:
    ref = item(
        "gym_join",
        "Bring your photo ID and pay the joining fee at the desk. The induction is booked in "
        "the app.",
        ["Bring your photo ID.", "Pay the joining fee at the desk."],
    )
    statuses = [s.status for s in StepVerifier().verify(ref, ref.answer.split(". ")[0] + ".", [])]
    assert statuses[:2] == ["covered", "covered"]


def test_a_zero_amount_said_in_words_is_no_replaced_quantity() -> None:
    ref = item(
        "car_park",
        "Book the bay in the app. Parking costs $0 for members on weekdays.",
        ["Book the bay in the app."],
    )
    assert not wrong(ref, "Book the bay in the app. Parking costs nothing for members on weekdays.")


def test_a_number_the_reference_states_as_procedure_is_no_slot_claim() -> None:
    ref = item_with_params(
        "kitchen_overrun",
        "Booking 7731 ran 20 minutes over the hire slot. The first 10 minutes over the slot "
        "are free.",
        {
            "booking": {"type": "digits", "value": "7731", "label": "booking"},
            "overrun": {"type": "integer", "value": "20", "label": "overrun"},
        },
    )
    answer = (
        "Booking 4410 ran 35 minutes over the hire slot. "
        "The first 10 minutes over the slot are free."
    )
    assert [c.value for c in extract_candidates(answer, ref, {}) if c.field == "overrun"] == ["35"]
    assert not judge(ref, answer, {"booking": "4410", "overrun": "35"})


# (14) Found on the third set's test half after its clean figure was taken: a bare
# number that reads one of the step's quantities is no new quantity ("24+ hours",
# "Day 30:"); words after a number field's label are no value of it.
STORE = item(
    "kayak_store",
    "At 30 days overdue we send a reminder, and at 60 days the kayak may be sold.",
    ["At 30 days overdue we send a reminder, and at 60 days the kayak may be sold."],
)


def test_a_bare_number_reading_a_step_quantity_is_no_change() -> None:
    assert not wrong(STORE, "- Day 30: reminder sent\n- Day 60: the kayak may be sold")
    assert wrong(STORE, "- Day 30: reminder sent\n- Day 90: the kayak may be sold")


def test_words_after_a_number_fields_label_are_no_value_of_it() -> None:
    ref = item_with_params(
        "locker_contract",
        "Contract 7731 runs month to month.",
        {"contract": {"type": "digits", "value": "7731", "label": "contract number"}},
    )
    answer = "- Contract: month to month\n- Notice: 14 days"
    cands = extract_candidates(answer, ref, {"contract": "5520"})
    assert [c.value for c in cands if c.field == "contract"] == []
    assert not judge(ref, answer, {"contract": "5520"})
