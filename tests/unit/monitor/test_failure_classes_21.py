"""A negation settles a flipped step only where it is an edit in place (issue 19,
class 4), on hand-written cases from invented domains (a boiler service, a ferry, a
sauna, a food bank, a seed library; none is a bench seed).

A sentence that keeps a step's words and adds or drops a negation among them, in a
changed run of at most two words ("are [not] refunded", "can" -> "cannot"), says the
opposite: ``negated``, settled. A sentence
that rewords the step around its negation ("food banks won't take vouchers" for "vouchers
are accepted"), or has it in a clause of its own beside the step, is still read as a
flip by the polarity rules, but what the negation governs is open: the verdict is
``uncertain``, so that a hybrid judge asks its LLM instead of counting it.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier, _negation_in_place
from monitor.text import tokens
from tests.unit.monitor.test_failure_classes_12 import _one_step

BOILER = "Opening the boiler cover yourself voids the service guarantee."
FERRY = "Foot passengers can board up to 10 minutes before departure."
SAUNA = "Towels are included in the entry price for every guest."
FOODBANK = "Referral vouchers are accepted at every food bank in the district."
SEEDS = "Seed packets are returned to the library within two weeks of the harvest."


def _verdict(step: str, answer: str) -> tuple[str, bool]:
    v = StepVerifier().verify(_one_step("neg", step), f"{answer} Ask at the desk if unsure.", [])
    return v[0].status, v[0].uncertain


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (FERRY, FERRY.replace("can board", "cannot board")),
        (SAUNA, SAUNA.replace("are included", "are not included")),
        (FOODBANK, FOODBANK.replace("are accepted", "are not accepted")),
        (SEEDS, SEEDS.replace("are returned", "are not returned")),
        (BOILER, "Opening the boiler cover yourself never voids the service guarantee."),
    ],
)
def test_a_negation_in_place_is_settled(step: str, answer: str) -> None:
    assert _verdict(step, answer) == ("negated", False)


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # the step reworded around its negation: a flip by the rules, but open (the
        # step said through a warning, "don't open the cover yourself: that voids the
        # guarantee", is no flip at all: test_failure_classes_23)
        (FOODBANK, "Food banks in the district won't take referral vouchers."),
    ],
)
def test_a_negation_away_from_the_step_s_words_is_uncertain(step: str, answer: str) -> None:
    assert _verdict(step, answer) == ("negated", True)


@pytest.mark.parametrize(
    ("step", "sentence", "in_place"),
    [
        ("refunds are given", "refunds are not given", True),
        ("you can apply online", "you cannot apply online", True),
        ("open the casing", "do not open the casing", True),  # at the start
        ("the fee is charged", "the fee is charged; it is not refundable", False),  # 4 words
        ("the fee is charged", "the fee is charged for nothing", True),  # (beside it)
        ("opening the casing voids it", "please don't open up the casing - that voids it", False),
        ("the pass must be shown", "the pass does not need to be shown", False),  # 4 words
        ("the pass is free", "the pass is free", False),  # no negation changed
    ],
)
def test_negation_in_place(step: str, sentence: str, in_place: bool) -> None:
    assert _negation_in_place(tokens(step), tokens(sentence)) is in_place
