"""A part of a step said the other way in a sentence of its own (issue 19), on
hand-written cases from invented domains (a kayak hire, a dental practice, a
co-working space, a removals firm; none is a bench seed or a trial's trace).

1. A paraphrase states a step's parts in sentences of their own, and the step is
   matched to the one that states its first part ("- Bank chargeback: account
   suspended" for "Disputes raised after 72 hours cannot be reviewed, and a chargeback
   suspends your account"). A negation lost in the other sentence ("- Reported after
   72h: still reviewed") went unread: no step was matched to it. Now a sentence no
   step is stated in is read against the step part it is about (a third of the part's
   words and two at least, more than any part of another step has), and a negation
   lost or added there is a flip (``negated``, never settled).
2. The same where the step itself is stated nowhere else: an optional step that was
   ``missing`` is ``negated`` when such a sentence says its part the other way.
3. Not where the sentence says the part the same way in other words, not where it
   says something else about the part's verb ("the charge cannot be paid in
   instalments" / "that charge has to be paid in one go"), not a question ("Pass not
   used?"), not the step's condition restated, and not a sentence that is more about
   another step's part.
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.steps import StepVerifier
from tests.unit.monitor.test_failure_classes import item
from tests.unit.monitor.test_failure_classes_2 import statuses

KAYAK = item(
    "kayak_hire",
    "Collect your kayak from the boathouse on Quay Street. "
    "Life jackets are included in the hire, and kayaks cannot be taken beyond the "
    "harbour wall. Late returns cost £15 per hour.",
    [
        "Collect your kayak from the boathouse on Quay Street.",
        "Life jackets are included in the hire, and kayaks cannot be taken beyond the "
        "harbour wall.",
        "Late returns cost £15 per hour.",
    ],
)
DENTIST = item(
    "dental_cancel",
    "Cancel through the patient app at least 24 hours before your appointment. "
    "Missed appointments are charged £30, and the charge cannot be paid in instalments.",
    [
        "Cancel through the patient app at least 24 hours before your appointment.",
        "Missed appointments are charged £30, and the charge cannot be paid in instalments.",
    ],
)
# The last sentence is not a declared step: an optional one, which a terse answer
# that states only its last part leaves ``missing``.
COWORK = item(
    "cowork_pass",
    "Book a desk in the members app before 9 am. "
    "Day passes cost £20 and include tea and coffee. "
    "Guests must sign in at reception with photo ID and wear a visitor badge all day, "
    "and unused day passes cannot be refunded.",
    [
        "Book a desk in the members app before 9 am.",
        "Day passes cost £20 and include tea and coffee.",
    ],
)
REMOVALS = item(
    "removals_booking",
    "Send us the inventory form at least 7 days before the move. "
    "Our crew does not dismantle wardrobes, and parking permits must be arranged by you. "
    "If your key is not ready on the day, we wait up to 2 hours free of charge.",
    [
        "Send us the inventory form at least 7 days before the move.",
        "Our crew does not dismantle wardrobes, and parking permits must be arranged by you.",
        "If your key is not ready on the day, we wait up to 2 hours free of charge.",
    ],
)

# (golden item, the step's position, answers that say the part the other way)
TURNED_APART = [
    (
        KAYAK,
        1,
        [
            "Pick the kayak up from the Quay Street boathouse. Life jackets come with the "
            "hire. Going past the harbour wall is fine. Bringing it back late is £15 an "
            "hour.",
        ],
    ),
    (
        DENTIST,
        1,
        [
            "Please cancel in the patient app no later than 24 hours ahead. If you miss "
            "the appointment we charge £30. You can pay that charge in instalments.",
        ],
    ),
    (
        COWORK,
        2,
        [
            "Desks: members app, before 9 am. Day pass: £20, tea and coffee included. "
            "Unused day passes: refunded in full.",
            "Book your desk in the members app before 9 am. Day passes are £20 with tea "
            "and coffee. An unused day pass can be refunded.",
        ],
    ),
    (
        REMOVALS,
        1,
        [
            # The step matched to its second part; the first said the other way in a
            # line that is no other step's.
            "Send the inventory form at least 7 days before the move. Parking permits "
            "must be arranged by you. If your key is not ready on the day, we wait up to "
            "2 hours free of charge. Our team will happily dismantle wardrobes.",
        ],
    ),
]


@pytest.mark.parametrize(("golden", "k", "answers"), TURNED_APART)
def test_a_part_said_the_other_way_in_a_sentence_of_its_own_is_a_flip(
    golden: GoldenItem, k: int, answers: list[str]
) -> None:
    for answer in answers:
        verdicts = StepVerifier().verify(golden, answer, [])
        got = verdicts[k]
        assert got.status == "negated", (answer, [(v.status, v.cue) for v in verdicts])
        assert got.uncertain, got
        assert "sentence of its own" in got.cue or "polarity" in got.cue, got.cue
        # The other steps keep their verdicts.
        others = [v.status for i, v in enumerate(verdicts) if i != k]
        assert set(others) <= {"covered"}, (answer, others)


# (golden item, answers that say every part the same way)
KEPT_APART = [
    (
        KAYAK,
        [
            "Pick the kayak up from the Quay Street boathouse. Life jackets come with the "
            "hire. Going past the harbour wall isn't allowed. Bringing it back late is "
            "£15 an hour.",
        ],
    ),
    (
        DENTIST,
        [
            "Please cancel in the patient app no later than 24 hours ahead. If you miss "
            "the appointment we charge £30. That charge has to be paid in one go.",
        ],
    ),
    (
        COWORK,
        [
            "Desks: members app, before 9 am. Day pass: £20, tea and coffee included. "
            "Unused day passes: not refunded.",
            "Book your desk in the members app before 9 am. Day passes are £20 with tea "
            "and coffee. An unused day pass can't be refunded.",
            # A question heading.
            "Book your desk in the members app before 9 am. Day passes are £20 with tea "
            "and coffee. Pass not used? It isn't refundable.",
        ],
    ),
    (
        REMOVALS,
        [
            # The condition said in a line of its own, as its negation.
            "The inventory form needs to reach us 7 days before the move at the latest. "
            "The crew won't take wardrobes apart, and you sort out the parking permits. "
            "Key not ready on the day? We'll wait up to 2 hours at no charge.",
            "Send the inventory form at least 7 days before the move. Parking permits "
            "must be arranged by you. If your key is not ready on the day, we wait up to "
            "2 hours free of charge. Our team won't dismantle wardrobes, sorry.",
            "Inventory form: 7+ days before the move. Wardrobes: we don't dismantle them. "
            "Parking permits: yours to arrange. No key yet on the day: up to 2 hours' wait, "
            "free.",
        ],
    ),
]


@pytest.mark.parametrize(("golden", "answers"), KEPT_APART)
def test_a_part_said_the_same_way_apart_is_no_flip(golden: GoldenItem, answers: list[str]) -> None:
    for answer in answers:
        got = statuses(golden, answer)
        assert "negated" not in got, (answer, got)


def test_a_sentence_more_about_another_steps_part_is_not_read_against_this_one() -> None:
    """ "Late returns can't be waived" shares "returns" with nothing of step 1 and is
    step 2's: its "can't" is no flip of "kayaks cannot be taken beyond the wall"."""
    answer = (
        "Pick the kayak up from the Quay Street boathouse. Life jackets come with the "
        "hire, and you must stay inside the harbour wall. Late returns are £15 an hour. "
        "Late fees for returns can't be waived."
    )
    got = statuses(KAYAK, answer)
    assert "negated" not in got, got
