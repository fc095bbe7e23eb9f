"""A sentence that states one part of a two-part step, told by the words only that
part has (issue 19, class 4), on hand-written cases from invented domains (a dance
studio, a driving school, a climbing wall; none is a bench seed).

- The parts of a step often share words ("classes cancelled with less than 48 hours'
  notice are charged at half the class fee, and classes missed with no notice are
  charged in full": "classes", "notice", "charged"). A terse answer line that states
  the first part ("- Less than 48h notice: half the class fee.") keeps few of that part's
  words, so it was read against the whole step, and the second part's "no notice"
  read as a negation the line had lost. The line is now read against the one part
  two or more of whose own words (those no other part has) it keeps, where it keeps
  none of another part's own words and each of its clauses that speaks of the step
  keeps a word of that part's own.
- A clause that states the other part in the words both parts share is still read
  against the whole step ("..., and classes with no notice are not charged").
"""

from __future__ import annotations

import pytest

from tests.unit.monitor.test_failure_classes import item, statuses

DANCE = item(
    "dance_late_cancel",
    "Cancel in the studio app under My Classes. Classes cancelled with less than 48 "
    "hours' notice are charged at half the class fee, and classes missed with no notice "
    "are charged in full.",
    [
        "Cancel in the studio app under My Classes.",
        "Classes cancelled with less than 48 hours' notice are charged at half the class "
        "fee, and classes missed with no notice are charged in full.",
    ],
)
DRIVING = item(
    "driving_late_cancel",
    "Call the office to cancel a lesson. Lessons cancelled with under 24 hours' warning "
    "cost 50% of the lesson price, and a lesson missed with no warning costs the whole "
    "price.",
    [
        "Call the office to cancel a lesson.",
        "Lessons cancelled with under 24 hours' warning cost 50% of the lesson price, and a "
        "lesson missed with no warning costs the whole price.",
    ],
)
CLIMB = item(
    "climb_late_cancel",
    "Book sessions on the wall's website. Sessions cancelled with less than 12 hours' "
    "notice are charged at 30% of the session price, and sessions missed with no notice "
    "are charged in full.",
    [
        "Book sessions on the wall's website.",
        "Sessions cancelled with less than 12 hours' notice are charged at 30% of the "
        "session price, and sessions missed with no notice are charged in full.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            DANCE,
            "- Cancel: studio app > My Classes\n"
            "- Less than 48h notice: half the class fee. No-show: full fee.",
        ),
        (
            DRIVING,
            "- To cancel: call the office\n"
            "- Under 24 hours' warning: 50% of the lesson price. No-show: whole price.",
        ),
        (
            DRIVING,
            "- To cancel: call the office\n"
            "- Cancelled with less than 24 hours' warning: 50% of the lesson price. "
            "No-show: whole price.",
        ),
        (
            CLIMB,
            "- Booking: on the wall's website\n"
            "- Under 12 hours' notice: 30% of the session price. No-show: full price.",
        ),
    ],
)
def test_a_line_that_states_one_part_is_read_against_that_part(ref: object, answer: str) -> None:
    assert set(statuses(ref, answer).values()) == {"covered"}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        # The other part stated in words both parts share, beside the part told by its
        # own words, and negated.
        (
            DANCE,
            "You cancel in the studio app under My Classes. Classes cancelled with less "
            "than 48 hours' notice are charged at half the class fee, and classes with no "
            "notice are not charged.",
        ),
        (
            DRIVING,
            "Call the office to cancel. Lessons cancelled with under 24 hours' warning cost "
            "50% of the lesson price, and a lesson with no warning costs no price.",
        ),
        (
            CLIMB,
            "Book on the wall's website. Sessions cancelled with less than 12 hours' notice "
            "are charged at 30% of the session price, and sessions with no notice are not "
            "charged.",
        ),
    ],
)
def test_a_clause_in_the_words_both_parts_share_is_still_read(ref: object, answer: str) -> None:
    assert statuses(ref, answer)[1] == "negated"  # type: ignore[arg-type]
