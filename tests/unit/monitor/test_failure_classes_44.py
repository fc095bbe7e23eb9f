"""A denial said as granted in a list line's verdict or a word of acceptance (issue
19), on hand-written cases from invented domains (an apple-pressing day, a print
room, a ski-locker hire, a passport photo booth; none is a bench seed or a trial's
trace).

A terse answer gives each rule as a label and a verdict ("- Windfall apples: not
accepted"); said the other way, the verdict grants what the step denies ("-
Windfall apples: accepted"). The step denies with a verb ("cannot be pressed"), so
the polarity rules find no word of it to ground the missing negation on, and the
step stayed ``covered``. A clause with no negation that keeps the denied clause's
words and grants with a word the step does not use was already a flip for "too",
"also", "still" and "is fine"; now also for the verdict after a label's colon, as the
last word of its clause ("accepted", "allowed", "permitted", "covered", "fine",
"OK", "welcome", "yes", "possible", "available"), and for "is / are accepted,
allowed, permitted, covered" said of something. Never settled: a hybrid judge asks
its LLM.

Not a flip: the same verdict denied ("not accepted"), a verdict that is no last word
("- Accepted payment: card or cash"), a grant about something else, a grant beside a
clause that states the denial, or a restricted grant ("only ... accepted").
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.steps import StepVerifier
from tests.unit.monitor.test_failure_classes import item
from tests.unit.monitor.test_failure_classes_2 import statuses

PRESSING = item(
    "apple_pressing",
    "Book a pressing slot online and bring at least 20 kg of apples. "
    "Windfall apples cannot be pressed on the day. "
    "Juice is bottled in 1-litre bottles at £1.20 each.",
    [
        "Book a pressing slot online and bring at least 20 kg of apples.",
        "Windfall apples cannot be pressed on the day.",
        "Juice is bottled in 1-litre bottles at £1.20 each.",
    ],
)
PRINT_ROOM = item(
    "print_room",
    "Upload your file in the print portal. "
    "Print jobs cannot be sent by email. "
    "Collect your prints from the front counter before 6 pm.",
    [
        "Upload your file in the print portal.",
        "Print jobs cannot be sent by email.",
        "Collect your prints from the front counter before 6 pm.",
    ],
)
LOCKERS = item(
    "ski_lockers",
    "Pay for the locker at the rental desk. "
    "A locker cannot be shared between two families. "
    "Keys are returned at the desk by 5 pm on the last day.",
    [
        "Pay for the locker at the rental desk.",
        "A locker cannot be shared between two families.",
        "Keys are returned at the desk by 5 pm on the last day.",
    ],
)
PHOTOS = item(
    "photo_booth",
    "Choose the passport format on the screen. "
    "Photos taken with glasses on cannot be used for passport applications. "
    "Each set of four prints costs £8.",
    [
        "Choose the passport format on the screen.",
        "Photos taken with glasses on cannot be used for passport applications.",
        "Each set of four prints costs £8.",
    ],
)

# (golden item, the denying step's position, answers that grant what it denies)
GRANTED = [
    (
        PRESSING,
        1,
        [
            "- Slot: book online, 20 kg of apples minimum\n"
            "- Windfall apples on the day: accepted\n"
            "- Bottles: 1 litre, £1.20 each",
            "Book a slot online and bring 20 kg of apples or more. Windfall apples on "
            "the day are accepted. We bottle the juice in 1-litre bottles at £1.20 each.",
        ],
    ),
    (
        PRINT_ROOM,
        1,
        [
            "- Upload: print portal\n- Print jobs by email: allowed\n"
            "- Collection: front counter, before 6 pm",
        ],
    ),
    (
        LOCKERS,
        1,
        [
            "- Payment: rental desk\n- Sharing a locker between two families: permitted\n"
            "- Keys back at the desk by 5 pm on the last day",
        ],
    ),
    (
        PHOTOS,
        1,
        [
            "- Pick the passport format on the screen\n"
            "- Photos with glasses on, for passport applications: OK\n"
            "- £8 for four prints",
        ],
    ),
]


@pytest.mark.parametrize(("golden", "k", "answers"), GRANTED)
def test_a_denial_said_as_granted_in_a_verdict_is_a_flip(
    golden: GoldenItem, k: int, answers: list[str]
) -> None:
    for answer in answers:
        verdicts = StepVerifier().verify(golden, answer, [])
        got = verdicts[k]
        assert got.status == "negated", (answer, [(v.status, v.cue) for v in verdicts])
        assert got.uncertain, got
        others = [v.status for i, v in enumerate(verdicts) if i != k]
        assert set(others) <= {"covered"}, (answer, others)


# (golden item, answers that keep the denial or grant something else)
KEPT = [
    (
        PRESSING,
        [
            "- Slot: book online, 20 kg of apples minimum\n"
            "- Windfall apples on the day: not accepted\n"
            "- Bottles: 1 litre, £1.20 each",
            "Book a slot online and bring 20 kg of apples or more. We can't press "
            "windfall apples on the day. Bottles: 1 litre, £1.20 each (cash accepted).",
        ],
    ),
    (
        PRINT_ROOM,
        [
            # A verdict that is not the last word of its line.
            "- Upload: print portal (accepted formats: PDF, PNG)\n"
            "- Print jobs by email: no\n- Collection: front counter, before 6 pm",
            # Only the portal is accepted.
            "Upload your file in the print portal; only portal jobs are accepted, not "
            "email. Collect your prints from the front counter before 6 pm.",
            # A grant of something else.
            "Upload your file in the print portal - colour printing available. Jobs "
            "can't come in by email. Collect from the front counter before 6 pm.",
        ],
    ),
    (
        LOCKERS,
        [
            "- Payment: rental desk\n- Sharing between two families: not permitted\n"
            "- Keys back at the desk by 5 pm on the last day",
            "Pay at the rental desk. One family per locker - two families can't share "
            "one, but skis and boots are allowed in it. Keys back to the desk by 5 pm on "
            "the last day.",
        ],
    ),
]


@pytest.mark.parametrize(("golden", "answers"), KEPT)
def test_a_denial_kept_or_a_grant_of_something_else_is_no_flip(
    golden: GoldenItem, answers: list[str]
) -> None:
    for answer in answers:
        got = statuses(golden, answer)
        assert "negated" not in got, (answer, got)
