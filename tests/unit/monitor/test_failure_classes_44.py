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

What the grant is said of is read with the label of its list line: the text before
the colon, back to a ";" or the sentence's start ("- By text, or by telling the crew
on the day: accepted"; "- Give notice: app (phone is fine too)"), a word of the
denial's own still in the granting clause itself.

Not a flip: the same verdict denied ("not accepted"), a verdict that is no last word
("- Accepted payment: card or cash", "- Print jobs by email: accepted formats PDF"), a
grant about something else ("email is fine for questions" beside "Print jobs go
through the portal"; "email support: available" after "; "), a grant beside a clause
that states the denial, or a restricted grant ("only ... accepted").
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.steps import StepVerifier, _denial_granted
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

# (golden item, the denying step's position, answers that grant what it denies; the
# first list is read by this rule alone, the second by the polarity rules too, pinned)
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
            "- Slot: book online, 20 kg of apples minimum\n"
            "- Bruised fruit, or windfall apples on the day: accepted\n"
            "- Bottles: 1 litre, £1.20 each",
        ],
    ),
]
ALSO_FLIPPED = [
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
        assert "said as granted" in got.cue, got.cue
        assert got.uncertain, got
        others = [v.status for i, v in enumerate(verdicts) if i != k]
        assert set(others) <= {"covered"}, (answer, others)


@pytest.mark.parametrize(("golden", "k", "answers"), ALSO_FLIPPED)
def test_a_verdict_the_polarity_rules_read_stays_a_flip(
    golden: GoldenItem, k: int, answers: list[str]
) -> None:
    for answer in answers:
        got = statuses(golden, answer)
        assert got[k] == "negated", (answer, got)


CREW = "Cancellations cannot be made by text message or by telling the crew on the day."
NOTICE = "Give notice in the app under My Unit > Move out; notice given by phone is not accepted."
JOBS = "Print jobs cannot be sent by email."


@pytest.mark.parametrize(
    ("step", "sentence", "word"),
    [
        # The label says what the verdict is about; the clause alone says too little.
        (CREW, "- By text, or by telling the crew on the day: accepted.", "accepted"),
        (CREW, "by telling the crew on the day: accepted.", None),
        (NOTICE, "- Give notice: app, My Unit > Move out (phone is fine too)", "fine"),
        (NOTICE, "- Give notice: app, My Unit > Move out (email is fine too)", None),
        (JOBS, "- Print jobs by email: accepted", "accepted"),
        (JOBS, "- Opening 10:30, print jobs by email: accepted", "accepted"),
        # A verdict that is no last word; a grant of something else, with no label or
        # after a ";" that starts another label.
        (JOBS, "- Print jobs by email: accepted formats PDF", None),
        (JOBS, "Print jobs go through the portal, email is fine for questions.", None),
        (JOBS, "- Print jobs: portal only; email support: available", None),
        (JOBS, "- Print jobs: portal, email support: available", None),
        (JOBS, "- Print jobs by email: not accepted", None),
    ],
)
def test_what_a_grant_is_said_of_is_read_with_its_label(
    step: str, sentence: str, word: str | None
) -> None:
    assert _denial_granted(step, sentence, 5) == word


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
            "Upload in the portal. Print jobs go through the portal, email is fine for "
            "questions. Collect at the front counter before 6 pm.",
            "- Upload: print portal\n- Print jobs: portal only; email support: "
            "available\n- Collection: front counter, before 6 pm",
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
