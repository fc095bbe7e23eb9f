"""A part of a step whose one denial is lost in a clause the step was not aligned
with (issue 19, class 4), on hand-written cases from invented domains (a removals
firm, a tool-hire branch, a piano teacher, and a review's gym, car hire, ferry, vet,
pottery, library, campsite and gift cards; none is a bench seed).

A paraphrase states a two-part step in one sentence of two clauses, and the step is
aligned with the clause of its first part: the clause of the second part is never
read against it. Where that part denies one thing with a verb negation ("we cannot
load your belongings while any amount is outstanding") and the one clause of the
answer with the denied word says it with no "not" of any kind ("if anything is
still owing, the crew will still load your things"), the part is flipped. Read only
where that clause is the aligned clause's sibling in one sentence, or has half of
the part's other words (two at least) in a sentence no other step is aligned with. A
sibling clause must share a word with the part or say that the denied thing holds all
the same ("still", "even"), and one that names a time or condition ("we load once it
is cleared", "after payment") only the latter. Not where the clause says the "not" its
own way ("only", "refused", a negative prefix), nor where both state a bound ("cannot
be moved more than twice" / "may be moved a maximum of two times"), nor where the
denied word is only the end of another ("download" for "load").
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from monitor.steps import RefStep, Segment, StepVerifier
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
        # A sibling clause that shares no word with the part and does not say the
        # denied thing holds all the same ("still") is not read: as often another
        # statement ("late vehicles miss the sailing; drivers board by the rear ramp").
        (PIANO, PIANO_START + "it is rescheduled for another week.", False),
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


# Correct paraphrases a helper review wrote against the rule's first version (each
# read as a flip there): a sibling clause with no word of the part, a time or
# condition said as the grant's other side, another word's family ("download" for
# "load"), a sentence another step is aligned with.
REVIEWED_STEPS = {
    "gym": [
        (
            "Your membership fee must be paid by direct debit on the first day of each month, and"
            " we cannot admit you to the gym while a payment has failed."
        ),
        ("Bring a towel."),
    ],
    "car": [
        (
            "The car must be returned with a full tank of fuel by noon on the return date, and we"
            " cannot refund unused rental days."
        ),
        ("Check the tyres."),
    ],
    "ferry": [
        (
            "Vehicle tickets must be booked online at least 48 hours before departure, and we "
            "cannot board vehicles that arrive after check-in closes."
        ),
        ("Print your ticket."),
    ],
    "vet": [
        (
            "Your pet must fast for twelve hours before the surgery appointment, and we cannot "
            "operate on animals that have eaten that morning."
        ),
        ("Bring the vaccination card."),
    ],
    "pottery": [
        (
            "Glazed pieces must be left on the drying shelf for a full week before kiln day, and "
            "we cannot fire pieces that are still damp."
        ),
        ("Wear an apron."),
    ],
    "library": [
        (
            "Borrowed books must be returned to the front desk within 21 days of checkout, and "
            "damaged books cannot be renewed online."
        ),
        ("Keep your library card."),
    ],
    "camp": [
        (
            "Campers must check in at the reception hut before 8 pm on the day of arrival, and "
            "campfires are not allowed outside the marked fire rings."
        ),
        ("Pack a torch."),
    ],
    "gift": [
        (
            "Gift cards must be activated at the till within 30 days of purchase, and gift cards "
            "cannot be used for online orders."
        ),
        ("Keep the receipt."),
    ],
    "move": [
        (
            "The balance must be paid in full three working days before your move, and we cannot "
            "load your belongings while any amount is outstanding."
        ),
        ("Label each box."),
    ],
}
REVIEWED = [
    (
        "gym",
        (
            "Bring a towel, and once a failed payment is cleared we admit you to the gym again. "
            "The membership fee has to be paid by direct debit on the first day of every month."
        ),
    ),
    (
        "car",
        (
            "Check the tyres. The car has to come back with a full tank of fuel by noon on the "
            "return date; if you bring the car back early, the refund covers the fuel deposit "
            "alone."
        ),
    ),
    (
        "car",
        (
            "Check the tyres. The car has to come back with a full tank of fuel by noon on the "
            "return date; if you bring the car back early, we refund the deposit and keep the "
            "rest."
        ),
    ),
    (
        "ferry",
        (
            "Print your ticket. Vehicle tickets have to be booked online at least 48 hours before"
            " departure; late vehicles miss the sailing, and foot passengers board by the side "
            "ramp."
        ),
    ),
    (
        "ferry",
        (
            "Print your ticket. Vehicle tickets have to be booked online at least 48 hours before"
            " departure; late vehicles miss the sailing; drivers board by the rear ramp."
        ),
    ),
    (
        "vet",
        (
            "Bring the vaccination card. Your pet has to fast for twelve hours before the surgery"
            " appointment; a fed pet is sent home; the operating theatre opens at eight."
        ),
    ),
    (
        "vet",
        (
            "Bring the vaccination card, and we operate on animals in the order they arrive that "
            "morning. Your pet has to fast for twelve hours before the surgery appointment; a pet"
            " that has eaten is sent home."
        ),
    ),
    (
        "pottery",
        (
            "Wear an apron, and we fire pieces in the order they were glazed. Glazed pieces have "
            "to sit on the drying shelf for a full week before kiln day; damp pieces wait."
        ),
    ),
    (
        "pottery",
        (
            "Wear an apron. Glazed pieces have to sit on the drying shelf for a full week before "
            "kiln day; damp pieces wait. Pieces are fired in the order they dried."
        ),
    ),
    (
        "library",
        (
            "Keep your library card, and damaged books are renewed at the desk. Borrowed books "
            "have to go back to the front desk within 21 days of checkout."
        ),
    ),
    (
        "camp",
        (
            "Pack a torch, and campfires are allowed in the marked fire rings. Campers have to "
            "check in at the reception hut before 8 pm on the day of arrival."
        ),
    ),
    (
        "gift",
        (
            "Keep the receipt; we use its number to replace a lost gift card. Gift cards have to "
            "be activated at the till within 30 days of purchase; they are for in-store "
            "purchases."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; the crew downloads the inventory "
            "to a tablet."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; download the inventory app before "
            "the day."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; the crew brings a loading ramp."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; boxes heavier than 20 kg overload "
            "the trolley."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; we are happy to load your things "
            "once it is cleared."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; we load your things as soon as it "
            "is cleared."
        ),
    ),
    (
        "move",
        (
            "Label each box. The balance has to be paid in full three working days before the "
            "move; if anything is owing, everything stays put; loading resumes after payment."
        ),
    ),
]


@pytest.mark.parametrize(("domain", "answer"), REVIEWED)
def test_no_flip_where_the_clause_does_not_state_the_part(domain, answer):
    steps = REVIEWED_STEPS[domain]
    ref = item(domain, " ".join(steps), steps)
    assert [v.status for v in StepVerifier().verify(ref, answer, [])] == ["covered", "covered"]


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


STEP = RefStep(
    0,
    "The crate must be booked a day ahead, and we cannot ship crates that are not sealed.",
    "The crate must be booked a day ahead, and we cannot ship crates that are not sealed.",
    True,
)
ONE_DENIAL = RefStep(
    0,
    "Pallets must be booked a day ahead, and we cannot ship open pallets to islands.",
    "Pallets must be booked a day ahead, and we cannot ship open pallets to islands.",
    True,
)


def _affirmed(step: RefStep, sentences: list[str], aligned: str, held=frozenset()) -> bool:
    """The rule on its own, where the step is aligned with the clause ``aligned`` of
    the answer's first sentence: the answer given as its sentences."""
    al = SimpleNamespace(
        sentences=tuple(((i,), tokens(text), text) for i, text in enumerate(sentences))
    )
    seg = Segment(aligned, aligned, "clause", sentences[0], (0,))
    return StepVerifier()._affirmed_part(step, seg, al, frozenset(held))


@pytest.mark.parametrize(
    ("sentences", "affirmed"),
    [
        # A sibling clause that shares a word with the part.
        (["Book pallets a day ahead; open pallets go to islands by ship."], True),
        # ... that names a time: the other side of a condition, unless "still".
        (["Book pallets a day ahead; open pallets ship to islands once sealed."], False),
        (["Book pallets a day ahead; once booked, open pallets still ship to islands."], True),
        # ... that restricts: refused whatever else it says.
        (["Book pallets a day ahead; open pallets ship only to the mainland."], False),
        # Another sentence, half of the part's other words, two at least.
        (["Book pallets a day ahead.", "We ship open pallets to the islands."], True),
        (["Book pallets a day ahead.", "We ship open crates by air."], False),
        # The denied word in two clauses: which one states the part is open.
        (["Book pallets a day ahead; open pallets ship to islands.", "We ship daily."], False),
        # The aligned clause has a word of the family: it may state the part.
        (["Book pallets a day ahead for shipment; open pallets ship to islands."], False),
    ],
)
def test_where_the_clause_states_the_part(sentences, affirmed):
    aligned = sentences[0].split(";")[0].split(".")[0]
    assert _affirmed(ONE_DENIAL, sentences, aligned) is affirmed


def test_a_sentence_another_step_holds_is_not_read():
    sentences = ["Book pallets a day ahead.", "We ship open pallets to the islands."]
    assert _affirmed(ONE_DENIAL, sentences, sentences[0], held={1}) is False


def test_two_denials_are_not_this_rule():
    # "cannot ship ... not sealed": one negation of two lost is _part_flip's.
    assert (
        _affirmed(
            STEP,
            ["Book crates a day ahead; crates that are not sealed ship."],
            "Book crates a day ahead",
        )
        is False
    )
