"""Polarity cues without a polarity change (issue 19, class 4), on hand-written cases
from invented domains (a spa, a hair salon, a car hire desk, a freezer repair service, a
swimming pool, a climbing wall, a bakery, a tool library, a music school; none is a bench
seed): paraphrases that must pass, real changes that must be caught.

(1) A "free" both texts say is one "free", whichever of them also says "included":
"towels are included free of charge" = "towels are all free", and "not free" against it
keeps its "not". (2) A bound said after its number or noun is the bound the step writes
with a negator: "no more than 2 children" = "two children at most", "no fewer than 3
nights" = "3 nights at least", and on a day or an event, "no later than Friday" = "by
Friday". (3) A "can" of a clause of time or purpose grants
nothing: "we'll need the balance paid before we can release the car" obliges as "the
balance must be paid before we release the car" does (read with and without such a
"can": a flip only when both readings show one, as the other text may word its own
"can" another way, "and then we can"). (4) One negator over two verbs
joined by "or" is the two negations the other text writes ("do not force the door or
restart the cycle" = "the door must not be forced and the cycle must not be
restarted"); a text that keeps one verb denied and says the other without a negator
changes the rule ("... must not be unplugged, but you can open the lid").
"""

from __future__ import annotations

import pytest

from monitor.text.polarity import polarity_flip
from tests.unit.monitor.test_failure_classes_12 import _first, _one_step


@pytest.mark.parametrize(
    ("step", "answer", "flip"),
    [
        # (1) "free" said in both texts
        (
            "Towels are included free of charge, while robes cost £5 each.",
            "Towels are all free; robes are £5 each.",
            False,
        ),
        (
            "A wash is included free with every cut, but a colour costs £30.",
            "Wash free with every cut. Colour: £30.",
            False,
        ),
        (
            "Child seats are included free of charge with every booking.",
            "Every booking comes with a free child seat.",
            False,
        ),
        (
            "Towels are included free of charge, while robes cost £5 each.",
            "Towels are not free; robes are £5 each.",
            True,
        ),
        (
            "Child seats are included free of charge with every booking.",
            "Child seats are not included free with every booking.",
            True,
        ),
        (
            "Towels are included free of charge, while robes cost £5 each.",
            "Towels are included, while robes cost £5 each.",
            False,
        ),
        (
            "Breakfast is included, and parking is free.",
            "Breakfast is included, and parking is charged.",
            True,
        ),
        # "complimentary" and "included" without a "free" still say it
        ("Guests get a complimentary drink.", "Guests get a free drink.", False),
        ("Towels are included.", "Towels are free.", False),
        # (3) a "can" of a clause of time or purpose
        (
            "The balance must be paid before we release the car.",
            "We'll need the balance paid before we can release the car.",
            False,
        ),
        (
            "Your deposit must be paid before we book the engineer.",
            "We need your deposit first, so that we can book the engineer.",
            False,
        ),
        (
            "The balance must be paid before we release the car.",
            "You can pay the balance before we release the car.",
            True,
        ),
        (
            "The waiver must be signed before you climb.",
            "The waiver can be signed before you climb.",
            True,
        ),
        # (against a "so that ... can", a bare "so ... can" is that purpose too)
        (
            "You must register your bike so that we can insure it.",
            "Register your bike so we can insure it.",
            False,
        ),
        (
            "You must register your bike so that we can insure it.",
            "You can register your bike so we can insure it.",
            True,
        ),
        # (a "can" of such a clause in one text, said another way in the other)
        (
            "You must send the form before we can book you in.",
            "Send the form, and then we can book you in.",
            False,
        ),
        (
            "You must send the form before we can book you in.",
            "You can send the form, and then we can book you in.",
            True,
        ),
        # (a bare "so" is as often "therefore")
        (
            "Lessons end at 6 pm, so you must leave the hall by then.",
            "Lessons end at 6 pm, so you can stay in the hall after that.",
            True,
        ),
        # (4) one negator over two verbs joined by "or"
        (
            "Do not unplug the freezer or open the lid.",
            "The freezer must not be unplugged and the lid must not be opened.",
            False,
        ),
        (
            "Do not unplug the freezer or open the lid.",
            "Never unplug the freezer, and never open the lid.",
            False,
        ),
        (
            "Do not unplug the freezer or open the lid.",
            "Don't unplug the freezer or open the lid.",
            False,
        ),
        (
            "Missed lessons are not refunded or taken off the fee.",
            "Missed lessons: no refund, nothing off the fee.",
            False,
        ),
        (
            "Borrowed tools must not be lent on or taken abroad.",
            "Borrowed tools must not be lent to anyone else and must not be taken abroad.",
            False,
        ),
        # ("or" between objects: the other text's clause negates them all)
        (
            "Don't throw away the receipt, the labels or the box before the return.",
            "The receipt, the labels and the box should not be thrown away before the return.",
            False,
        ),
        (
            "Do not unplug the freezer or open the lid.",
            "The freezer must not be unplugged, but you can open the lid.",
            True,
        ),
        (
            "Missed lessons are not refunded or taken off the fee.",
            "Missed lessons are not refunded, but they are taken off the fee.",
            True,
        ),
        (
            "Borrowed tools must not be lent on or taken abroad.",
            "Borrowed tools must not be lent on, but they may be taken abroad.",
            True,
        ),
        (
            "Do not unplug the freezer or open the lid.",
            "Unplug the freezer and open the lid.",
            True,
        ),
        # ("without" joins nouns, and a second part with its own "do" is a clause)
        (
            "We are not liable for shoes left without a box or marked do not polish, "
            "or for laces that cannot be replaced.",
            "We are not liable for shoes left without a box or marked do polish, "
            "or for laces that cannot be replaced.",
            True,
        ),
    ],
)
def test_polarity_cues_without_a_change(step, answer, flip):
    assert (polarity_flip(step, answer) is not None) is flip


def _status(step, answer, terms=()):
    return _first(_one_step("review", step, terms), f"{answer} Ask at the desk if unsure.")


POOL = (
    "One adult can supervise no more than 2 children in the pool.",
    ("no more than 2 children",),
)
STRETCH = ("Stretch for no fewer than 5 minutes before the class.", ("no fewer than 5 minutes",))
CABIN = ("Cabins are let for no fewer than 3 nights in summer.", ("no fewer than 3 nights",))
BAKERY = ("Order a celebration cake no later than Friday.", ("no later than Friday",))
CABIN_KEY = ("Hand the cabin key in no later than check-out.", ("no later than check-out",))


# (2) a bound said after its number or noun, or on no number; the step verifier on one
# step
@pytest.mark.parametrize(
    ("ref", "answer", "penalised"),
    [
        (POOL, "One adult can look after two children at most in the pool.", False),
        (POOL, "One adult can watch 2 children at the most in the pool.", False),
        (CABIN, "In summer, cabins are let for 3 nights at least.", False),
        (CABIN, "In summer, cabins are let for three nights minimum.", False),
        (STRETCH, "Stretch for 5 minutes minimum before the class.", False),
        (BAKERY, "Order a celebration cake by Friday at the latest.", False),
        (BAKERY, "Celebration cakes have to be ordered by Friday.", False),
        (CABIN_KEY, "Hand the cabin key in by check-out.", False),
        (CABIN_KEY, "Drop the cabin key off before check-out at the latest.", False),
        # real changes
        (POOL, "One adult can look after 2 children at least in the pool.", True),
        (POOL, "One adult can look after 3 children at most in the pool.", True),
        (CABIN, "In summer, cabins are let for 3 nights at most.", True),
        (CABIN, "In summer, cabins are let for more than 3 nights at least.", True),
        (STRETCH, "Stretch for 5 minutes before the class.", True),
        (BAKERY, "Order a celebration cake after Friday.", True),
        (BAKERY, "Order a celebration cake later than Friday.", True),
        (CABIN_KEY, "Hand the cabin key in after check-out.", True),
    ],
)
def test_a_bound_said_after_its_number(ref, answer, penalised):
    step, terms = ref
    assert (_status(step, answer, terms) != "covered") is penalised
