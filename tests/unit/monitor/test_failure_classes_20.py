"""One span turned in a step kept word for word (issue 19, classes 1 and 5), on
hand-written cases from invented domains (a library, a climbing wall, a cake shop, a
storm-damage claim, a residents' parking permit, a gym; none is a bench seed).

1. A number changed in place to another number the step states elsewhere ("... in 6
   months cannot borrow for the next 2 months" -> "for the next 6 months"; "under 14
   ... aged 18 or over" -> "aged 14 or over") is a changed quantity: the quantity
   rules alone saw no new number, only a lost one.
2. One comparison or order word turned the other way, the rest kept word for word
   ("whichever is lower" -> "whichever is higher", "before" -> "after", "first" ->
   "last"), says the opposite.
Paraphrases of the same steps, and the same numbers written in words, must pass.
"""

from __future__ import annotations

import pytest

from tests.unit.monitor.test_failure_classes_12 import _penalised

LIBRARY = "Members who return 3 books late in 6 months cannot borrow for the next 2 months."
CLIMBING = "Climbers under 14 must be belayed by a staff member aged 18 or over."
CAKES = "A cake for 20 guests needs 5 days' notice, and a cake for 6 guests needs 2 days."
STORM = "Storm damage is paid at the repair cost or the market value, whichever is lower."
PERMIT = "Residents' permits must be renewed before the last day of the month."
GYM = "The first payment is taken on the day you join the gym."


@pytest.mark.parametrize(
    ("step", "answer", "penalised"),
    [
        # (1) a number changed in place to one the step states elsewhere
        (LIBRARY, LIBRARY.replace("next 2 months", "next 6 months"), True),
        (CLIMBING, CLIMBING.replace("aged 18", "aged 14"), True),
        (CAKES, CAKES.replace("needs 2 days", "needs 5 days"), True),
        # ... and the same numbers in words, or the step reworded
        (
            LIBRARY,
            "Members who return three books late in six months cannot borrow for the "
            "next two months.",
            False,
        ),
        (LIBRARY, "Return 3 books late within 6 months and you can't borrow for 2 months.", False),
        (CLIMBING, "Climbers under 14 need a staff member who is 18 or over to belay them.", False),
        (CAKES, "Give us 5 days' notice for a 20-guest cake and 2 days for a 6-guest one.", False),
        # (2) a comparison or order word turned the other way
        (STORM, STORM.replace("is lower", "is higher"), True),
        (PERMIT, PERMIT.replace("before the last", "after the last"), True),
        (GYM, GYM.replace("The first", "The last"), True),
        # ... and the same steps reworded, the word kept
        (
            STORM,
            "For storm damage we pay the lower of the repair cost and the market value.",
            False,
        ),
        (PERMIT, "Renew your residents' permit before the month's last day.", False),
        (GYM, "Your first payment comes out on the day you join the gym.", False),
        # ... and a time written another way, or a word that points in the text
        (
            "Orders over $18 placed before 6pm ship the same day.",
            "Orders over $18 placed before 18:00 ship the same day.",
            False,
        ),
        (
            "Use the booking form below to choose your tasting slot.",
            "Use the booking form above to choose your tasting slot.",
            False,
        ),
        (
            "As explained earlier, cancelled tastings are charged in full.",
            "As explained later, cancelled tastings are charged in full.",
            False,
        ),
    ],
)
def test_one_span_turned_in_a_step_kept_word_for_word(step, answer, penalised):
    assert _penalised(step, answer) is penalised
