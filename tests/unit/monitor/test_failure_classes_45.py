"""A swapped span whose new word only looks like a word of the reference (issue 19,
point 1(c)), on hand-written cases from invented domains (a bike workshop, a tool
hire counter, a council's bulky-waste collection, a dental practice, a removals firm;
none is a bench seed or a trial's trace).

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

Still a paraphrase: the same word in another form of its family ("the dental
practice" / "the dentist", "pick-up" / "pickup", "arrive" / "arrival"), and a
reworded sentence.
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

DENTAL = item(
    "dental_recall",
    "Book your check-up online. "
    "If you need to cancel, call the dental practice at least 24 hours before. "
    "Bring a list of your medicines.",
    [
        "Book your check-up online.",
        "If you need to cancel, call the dental practice at least 24 hours before.",
        "Bring a list of your medicines.",
    ],
)
REMOVALS = item(
    "removals_slot",
    "Choose a pick-up slot in your booking. "
    "The crew wraps furniture in blankets at no extra charge. "
    "Pay the balance on the day.",
    [
        "Choose a pick-up slot in your booking.",
        "The crew wraps furniture in blankets at no extra charge.",
        "Pay the balance on the day.",
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
        DENTAL,
        "Book your check-up online. "
        "If you need to cancel, call the dentist at least 24 hours before. "
        "Bring a list of your medicines.",
    ),
    (
        REMOVALS,
        "Choose a pickup slot in your booking. "
        "The crew wraps furniture in blankets at no extra charge. "
        "Pay the balance on the day.",
    ),
]


@pytest.mark.parametrize(("golden", "k", "answer", "swap"), SWAPPED)
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
        ("dental", "dentist"),
        ("signed", "signature"),
        ("eligible", "eligibility"),
        ("pick-up", "pickup"),
        ("parent's", "parental"),
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
