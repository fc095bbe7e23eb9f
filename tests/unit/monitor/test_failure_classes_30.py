"""A part of a step whose one denial is lost in a clause the step was not aligned
with (issue 19, class 4), on hand-written cases from invented domains (a removals
firm, a tool-hire branch, a piano teacher; none is a bench seed).

A paraphrase states a two-part step in one sentence of two clauses, and the step is
aligned with the clause of its first part: the clause of the second part is never
read against it. Where that part denies one thing with a verb negation ("we cannot
load your belongings while any amount is outstanding") and the one clause of the
answer with the denied word says it with no "not" of any kind ("if anything is
still owing, the crew will still load your things"), the part is flipped. Read only
where that clause is the aligned clause's sibling in one sentence, or has half of
the part's other words; not where the clause says the "not" its own way ("only",
"refused", a negative prefix), nor where both state a bound ("cannot be moved more
than twice" / "may be moved a maximum of two times").
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import denial_affirmed, denied_word
from monitor.text.tokens import tokens
from tests.unit.monitor.test_failure_classes import item

MOVE = item(
    "removals",
    "The balance must be paid in full three working days before your move, and we cannot "
    "load your belongings while any amount is outstanding. Label each box.",
    [
        "The balance must be paid in full three working days before your move, and we cannot "
        "load your belongings while any amount is outstanding.",
        "Label each box.",
    ],
)
TOOLS = item(
    "tool_hire",
    "Hired tools must be returned clean to the branch by 6 pm on the last day of hire, and "
    "returns are not accepted after the branch has closed. Keep the hire agreement.",
    [
        "Hired tools must be returned clean to the branch by 6 pm on the last day of hire, "
        "and returns are not accepted after the branch has closed.",
        "Keep the hire agreement.",
    ],
)
PIANO = item(
    "piano_lessons",
    "A lesson missed without 24 hours' notice is charged in full at the normal term rate, "
    "and missed lessons are not rescheduled. Bring your music book.",
    [
        "A lesson missed without 24 hours' notice is charged in full at the normal term "
        "rate, and missed lessons are not rescheduled.",
        "Bring your music book.",
    ],
)
MOVE_START = (
    "Label each box. The balance has to be paid in full three working days before the move; "
)
TOOLS_START = (
    "Keep the hire agreement. Hired tools have to come back clean to the branch by 6 pm on "
    "the last hire day; "
)
PIANO_START = (
    "Bring your music book. Any lesson missed without 24 hours' notice is charged in full at "
    "the normal term rate; "
)
FLIPPED = "polarity flipped in a part stated in another clause (negation)"


@pytest.mark.parametrize(
    ("ref", "answer", "flipped"),
    [
        (
            MOVE,
            MOVE_START + "if anything is still owing, the crew will still load your things.",
            True,
        ),
        (MOVE, MOVE_START + "if anything is still owing, the crew won't load your things.", False),
        (MOVE, MOVE_START + "if anything is still owing, your things stay put.", False),
        (MOVE, MOVE_START + "the crew loads your things only once nothing is owing.", False),
        (TOOLS, TOOLS_START + "once the doors shut, late drop-offs are still accepted.", True),
        (TOOLS, TOOLS_START + "once the doors shut, late drop-offs are turned away.", False),
        (PIANO, PIANO_START + "we will still reschedule it for you.", True),
        (PIANO, PIANO_START + "it is rescheduled for another week.", True),
        (PIANO, PIANO_START + "we won't reschedule it for you.", False),
        (PIANO, PIANO_START + "it is gone for good.", False),
        (PIANO, PIANO_START + "we reschedule it only for illness.", False),
    ],
)
def test_a_denial_lost_in_a_sibling_clause(ref, answer, flipped):
    verdicts = StepVerifier().verify(ref, answer, [])
    assert [v.status for v in verdicts] == (
        ["negated", "covered"] if flipped else ["covered", "covered"]
    )
    if flipped:
        assert verdicts[0].cue == FLIPPED


def test_the_word_a_denial_governs():
    assert denied_word(tokens("missed lessons are not rescheduled")) == "rescheduled"
    assert denied_word(tokens("we cannot load your belongings")) == "load"
    assert denied_word(tokens("lessons are rescheduled")) is None


@pytest.mark.parametrize(
    ("step", "clause", "affirmed"),
    [
        ("we cannot load your belongings", "the crew will still load your things", True),
        ("returns are not accepted after closing", "late drop-offs are still accepted", True),
        # The "not" said another way.
        ("we cannot load your belongings", "we load only what is paid for", False),
        ("the deposit is not refundable", "the deposit is non-refundable", False),
        ("returns are not accepted after closing", "late returns are rejected", False),
        ("returns are not accepted after closing", "late returns are never accepted", False),
        # A bound said from the other side.
        ("a booking cannot be moved more than twice", "it may be moved at most two times", False),
        # Two denials: one lost of two is read by the part rules, not here.
        ("we cannot load anything without payment", "we load things after payment", False),
    ],
)
def test_a_denial_affirmed(step, clause, affirmed):
    assert denial_affirmed(step, clause) is affirmed
