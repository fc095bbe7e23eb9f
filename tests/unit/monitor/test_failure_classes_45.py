"""A swapped span whose new word only looks like a word of the reference, and a
longer swapped span in a long step kept word for word (issue 19, point 1(c)), on
hand-written cases from invented domains (a bike workshop, a tool hire counter, a
council's bulky-waste collection, a clinic's booking deposit, driving lessons; none
is a bench seed or a trial's trace).

A step kept word for word but for one short span of policy words, the lost ones
nowhere in the answer and the new ones nowhere in the reference, is a policy swap
(:func:`monitor.steps._substitution`). "Nowhere in the reference" was read with the
judge's four-letter stem, so a new word that merely began like a reference word was
taken for it: "refurbished" for the "refund" the reference promises elsewhere,
"depot" for its "deposit", "college" for its "collection", and the swap read
``covered``.
New and lost words are now read by word family (:func:`monitor.text.tokens.
same_family`): a shared beginning counts only where each word goes on from it with
an ending ("apply" / "applied", "arrive" / "arrival"; not "refund" / "refurbished").

The swapped span was one to three words a side (stop words aside); a policy said
in more words ("goes back to your original payment method" -> "is issued as clinic
credit") was read ``covered``. Up to six words a side are now a swap where the step
keeps at least twice as many content words around the span as the span has words.

Still a paraphrase: the same words in another form of their family ("arrive" /
"arrival", "apply" / "applies", "deliver" / "delivery"), a reworded sentence, and a
longer span said the same way ("refunded to the card you paid with", "for a day and
time you pick").
"""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from monitor.steps import StepVerifier, _substitution
from monitor.text.tokens import content, same_family, same_word, tokens
from tests.unit.monitor.test_failure_classes import item

WORKSHOP = item(
    "bike_workshop",
    "Book the repair online and drop the bike off before 10 am. "
    "A cracked frame is replaced with a like-for-like frame at no cost. "
    "If we cannot fix it, you get a refund of the booking fee.",
    [
        "Book the repair online and drop the bike off before 10 am.",
        "A cracked frame is replaced with a like-for-like frame at no cost.",
        "If we cannot fix it, you get a refund of the booking fee.",
    ],
)
TOOL_HIRE = item(
    "tool_hire",
    "Pay the £40 deposit when you collect the tools. "
    "Return the tools to the hire counter by 5 pm on the last day. "
    "The deposit is refunded once the tools are checked.",
    [
        "Pay the £40 deposit when you collect the tools.",
        "Return the tools to the hire counter by 5 pm on the last day.",
        "The deposit is refunded once the tools are checked.",
    ],
)
BULKY_WASTE = item(
    "bulky_waste",
    "Book the collection online and pay the £25 fee. "
    "Put the items out at the kerbside by 7 am on the collection day. "
    "If we miss your collection, we refund the fee in full.",
    [
        "Book the collection online and pay the £25 fee.",
        "Put the items out at the kerbside by 7 am on the collection day.",
        "If we miss your collection, we refund the fee in full.",
    ],
)

CLINIC = item(
    "clinic_deposit",
    "Book online. If the clinic cancels your appointment, the £30 booking deposit goes "
    "back to your original payment method within five working days of the cancellation. "
    "Arrive 10 minutes early.",
    [
        "Book online.",
        "If the clinic cancels your appointment, the £30 booking deposit goes back to your "
        "original payment method within five working days of the cancellation.",
        "Arrive 10 minutes early.",
    ],
)
LESSONS = item(
    "driving_lessons",
    "Book with the office. Lessons that the instructor cancels because of bad weather or "
    "illness are rebooked at a time that suits you, with no charge for the missed lesson. "
    "Bring your licence.",
    [
        "Book with the office.",
        "Lessons that the instructor cancels because of bad weather or illness are rebooked "
        "at a time that suits you, with no charge for the missed lesson.",
        "Bring your licence.",
    ],
)

# (golden item, the swapped step's position, an answer, the swap the cue names)
SWAPPED = [
    (
        WORKSHOP,
        1,
        "Book the repair online and drop the bike off before 10 am. "
        "A cracked frame is replaced with a refurbished frame at no cost. "
        "If we cannot fix it, you get a refund of the booking fee.",
        "like-for-like -> refurbished",
    ),
    (
        TOOL_HIRE,
        1,
        "Pay the £40 deposit when you collect the tools. "
        "Return the tools to the depot by 5 pm on the last day. "
        "The deposit is refunded once the tools are checked.",
        "hire counter -> depot",
    ),
    (
        BULKY_WASTE,
        1,
        "Book the collection online and pay the £25 fee. "
        "Put the items out at the college by 7 am on the collection day. "
        "If we miss your collection, we refund the fee in full.",
        "kerbside -> college",
    ),
]
LONGER = [
    (
        CLINIC,
        1,
        "Book online. If the clinic cancels your appointment, the £30 booking deposit is "
        "issued as clinic credit within five working days of the cancellation. "
        "Arrive 10 minutes early.",
        "goes back original payment method -> issued clinic credit",
    ),
    (
        LESSONS,
        1,
        "Book with the office. Lessons that the instructor cancels because of bad weather "
        "or illness are rebooked on the next free weekday slot we choose, with no charge "
        "for the missed lesson. Bring your licence.",
        "time suits -> next free weekday slot choose",
    ),
]

# (golden item, answer): the same steps in other forms of their words, or reworded
KEPT = [
    (
        WORKSHOP,
        "Book your repair online and drop off the bike before 10 am. "
        "A cracked frame gets replaced with a like-for-like frame, at no cost to you. "
        "If we can't fix it, we refund the booking fee.",
    ),
    (
        TOOL_HIRE,
        "Pay a £40 deposit on collection of the tools. "
        "Tools go back to the hire counter by 5 pm on your last day. "
        "Once we've checked the tools, your deposit is refunded.",
    ),
    (
        BULKY_WASTE,
        "Book your collection online and pay the £25 fee. "
        "Items must be out at the kerbside by 7 am on collection day. "
        "Should we miss the collection, the fee is refunded in full.",
    ),
    (
        CLINIC,
        "Book online. If the clinic cancels your appointment, the £30 booking deposit is "
        "refunded to the card you paid with within five working days of the cancellation. "
        "Arrive 10 minutes early.",
    ),
    (
        LESSONS,
        "Book with the office. Lessons that the instructor cancels because of bad weather "
        "or illness are rebooked for a day and time you pick, with no charge for the "
        "missed lesson. Bring your licence.",
    ),
]


@pytest.mark.parametrize(("golden", "k", "answer", "swap"), SWAPPED + LONGER)
def test_a_swapped_span_is_caught(golden: GoldenItem, k: int, answer: str, swap: str) -> None:
    verdicts = StepVerifier().verify(golden, answer, [])
    got = verdicts[k]
    assert got.status == "altered", (answer, [(v.status, v.cue) for v in verdicts])
    assert got.cue == f"policy term replaced: {swap}", got.cue
    assert got.uncertain, got
    assert [v.status for i, v in enumerate(verdicts) if i != k] == ["covered"] * 2


@pytest.mark.parametrize(("golden", "answer"), KEPT)
def test_the_same_steps_reworded_stay_covered(golden: GoldenItem, answer: str) -> None:
    verdicts = StepVerifier().verify(golden, answer, [])
    assert [v.status for v in verdicts] == ["covered"] * 3, [(v.status, v.cue) for v in verdicts]


def test_the_swap_rests_on_the_word_family_not_on_four_letters() -> None:
    # The cue: each swapped-in word shares four letters with a word of its reference.
    assert same_word("refurbished", "refund", 4)
    assert same_word("depot", "deposit", 4)
    assert same_word("college", "collection", 4)
    for golden, k, answer, _ in SWAPPED:
        step = tokens(golden.steps[k])
        said = next(s for s in answer.split(". ") if s.split()[:2] == golden.steps[k].split()[:2])
        ref = content(tokens(golden.answer))
        assert _substitution(step, tokens(said), content(tokens(answer)), ref, 4) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("apply", "applied"),
        ("arrive", "arrival"),
        ("charge", "charging"),
        ("refund", "refunded"),
        ("cancel", "cancellation"),
        ("deliver", "delivery"),
        ("store", "storage"),
        ("policy", "policies"),
        ("id", "identification"),
    ],
)
def test_one_family(a: str, b: str) -> None:
    assert same_family(a, b) and same_family(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("refund", "refurbished"), ("refund", "refuse"), ("deposit", "depot"), ("college", "collect")],
)
def test_a_shared_beginning_alone_is_no_family(a: str, b: str) -> None:
    assert same_word(a, b, 4)
    assert not same_family(a, b) and not same_family(b, a)
