"""A declared bound or "no ..." term said in other words, an exception's way out said
as the instruction, an exception said as "the only exception is", and an "or" between
two acts under one rule (issue 19, classes 4 and 5), on hand-written cases from invented
domains (a library, a theatre box office, a gym, a car-park permit office, a council tax
office, a bike hire, a currency exchange, a bakery, a streaming service, a meal-kit
box, a language school, a yoga studio, a boat hire, a hotel; none is a bench seed).

- A declared bound written with a negator ("no more than twice") is kept by the same
  bound said on a multiplicative word ("twice at most", "up to two times") and, for an
  upper bound, by the allowance said per unit the step names ("two exchanges per
  ticket"); not by "more than twice", "at least twice", "twice per day", nor beside an
  open top ("unlimited", "or more").
- A declared "no X" / "without X" term is kept by "X-free" or "free of X" ("no
  interest" / "an interest-free plan"); not by "with interest", a denied "X-free", nor
  an "X-free" beside X named again or before a noun the step does not name.
- "Costs nothing" is "free" (one "free" with a "free" said beside it); "the only
  exception is if" is an "unless", "the only exception is" before a noun and "with the
  exception of" an "except", and an "except" against an "unless" one exception word.
- "A happens unless you do B" is not negated by a sentence that only tells you to do
  B ("your plan renews each month unless you cancel at least 24 hours before the
  renewal date" / "cancel at least a day before the renewal date"): the sentence states
  the way out, not the rule. Kept as a flip where the sentence speaks of the rule's own
  words ("your plan renews each month if you cancel ..."), negates, restricts, goes on
  to a result of its own, or says another particle, order word or number.
- An "or" between two regular participles ("may be cancelled or moved") offers no
  alternative to a rule said from the other side of its threshold; "used or forfeited"
  does.
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.polarity import _WAY_OUT_WORDS, _plain, _way_out, polarity_flip
from tests.unit.monitor.test_failure_classes import item


def _verdict(step: str, term: str, answer: str) -> tuple[str, str]:
    golden = item("t", step, [step], (term,))
    (v,) = StepVerifier().verify(golden, answer, [])
    return v.status, v.cue


@pytest.mark.parametrize(
    ("step", "term", "answer"),
    [
        (
            "Each ticket can be exchanged no more than twice, for a show within 30 days.",
            "no more than twice",
            "You can exchange a ticket twice at most, for a show within 30 days.",
        ),
        (
            "Each ticket can be exchanged no more than twice, for a show within 30 days.",
            "no more than twice",
            "A ticket can be exchanged up to two times, for a show within 30 days.",
        ),
        (
            "Each ticket can be exchanged no more than twice, for a show within 30 days.",
            "no more than twice",
            "Two exchanges per ticket, for a show within 30 days.",
        ),
        (
            "A library loan can be renewed no more than 3 times online.",
            "no more than 3 times",
            "You can renew a loan online up to three times.",
        ),
        (
            "Members may bring no more than two guests per visit to the gym.",
            "no more than two guests",
            "Two guests per visit for each gym member.",
        ),
        (
            "A parking permit can be suspended no more than once a year.",
            "no more than once",
            "You can suspend your parking permit once a year at most.",
        ),
    ],
)
def test_a_negated_bound_said_in_other_words_is_kept(step: str, term: str, answer: str) -> None:
    assert _verdict(step, term, answer)[0] == "covered"


@pytest.mark.parametrize(
    ("step", "term", "answer"),
    [
        (
            "Each ticket can be exchanged no more than twice, for a show within 30 days.",
            "no more than twice",
            "Each ticket can be exchanged more than twice, for a show within 30 days.",
        ),
        (
            "Each ticket can be exchanged no more than twice, for a show within 30 days.",
            "no more than twice",
            "Each ticket can be exchanged at least twice, for a show within 30 days.",
        ),
        (
            "A library loan can be renewed no more than 3 times online.",
            "no more than 3 times",
            "You can renew a loan online at least three times.",
        ),
    ],
)
def test_a_negated_bound_turned_is_still_caught(step: str, term: str, answer: str) -> None:
    assert _verdict(step, term, answer)[0] != "covered"


@pytest.mark.parametrize(
    ("step", "term", "answer"),
    [
        (
            "If you cannot pay in full by the due date, contact us before it passes to set "
            "up an instalment plan of up to 6 months with no interest.",
            "no interest",
            "Contact us before the due date for an interest-free instalment plan of up "
            "to 6 months.",
        ),
        (
            "Bikes can be hired with no deposit when you register a card.",
            "no deposit",
            "Register a card and your bike hire is deposit-free.",
        ),
        (
            "Currency is exchanged with no commission for account holders.",
            "no commission",
            "Account holders exchange currency free of commission.",
        ),
        (
            "The sourdough loaves are baked without gluten.",
            "without gluten",
            "Our sourdough loaves are baked gluten-free.",
        ),
    ],
)
def test_a_no_term_said_as_free_of_it_is_kept(step: str, term: str, answer: str) -> None:
    assert _verdict(step, term, answer)[0] == "covered"


@pytest.mark.parametrize(
    ("step", "term", "answer"),
    [
        (
            "Contact us before the due date to set up an instalment plan of up to 6 months "
            "with no interest.",
            "no interest",
            "Contact us before the due date to set up an instalment plan of up to 6 months "
            "with interest.",
        ),
        (
            "Bikes can be hired with no deposit when you register a card.",
            "no deposit",
            "Bikes can be hired when you register a card, but a deposit is taken.",
        ),
        (
            "Currency is exchanged with no commission for account holders.",
            "no commission",
            "Account holders pay a small commission when exchanging currency.",
        ),
    ],
)
def test_a_no_term_lost_is_still_caught(step: str, term: str, answer: str) -> None:
    assert _verdict(step, term, answer)[0] != "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Your streaming plan renews on the same date each month unless you cancel at "
            "least 24 hours before the renewal date.",
            "Cancel at least a day before the renewal date.",
        ),
        (
            "Your streaming plan renews on the same date each month unless you cancel at "
            "least 24 hours before the renewal date.",
            "Just cancel 24 hours before renewal.",
        ),
        (
            "The meal-kit box is delivered every Friday unless you skip the week in the app "
            "by Tuesday noon.",
            "To skip a week, do it in the app by Tuesday noon.",
        ),
        (
            "The course place goes to the next student on the waiting list unless you pay "
            "the deposit within 5 days.",
            "Pay the deposit within 5 days of the offer.",
        ),
    ],
)
def test_the_way_out_said_as_the_instruction_is_no_negation(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # the rule's own words, turned
        (
            "Your streaming plan renews on the same date each month unless you cancel at "
            "least 24 hours before the renewal date.",
            "Your plan renews each month if you cancel at least 24 hours before the renewal date.",
        ),
        # the way out denied its effect
        (
            "The meal-kit box is delivered every Friday unless you skip the week in the app "
            "by Tuesday noon.",
            "The box is delivered every Friday, even if you skip the week in the app by "
            "Tuesday noon.",
        ),
        # the way out said of the rule it lifts
        (
            "The course place goes to the next student on the waiting list unless you pay "
            "the deposit within 5 days.",
            "Pay the deposit within 5 days and the place goes to the next student.",
        ),
    ],
)
def test_the_way_out_does_not_hide_a_turned_rule(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        # "costs nothing" is one "free" with the "free" beside it
        (
            "Samples from the free box cost nothing and are not returnable.",
            "Free samples, no returns.",
        ),
        (
            "Gifts from the free table at the fair cost nothing and cannot be returned.",
            "Free gifts from the fair have no returns.",
        ),
        ("Taster sessions cost you nothing.", "Taster sessions are free."),
        # "the only exception is" is an "unless"
        (
            "Concert tickets cannot be refunded or exchanged for a change of plans unless a "
            "doctor has stopped you from attending.",
            "Concert tickets can't be refunded or exchanged for a change of plans; the only "
            "exception is a doctor's note.",
        ),
        (
            "Orders cannot be cancelled once dispatched unless we miss the delivery slot.",
            "Just so you know, we don't do cancellations once orders are dispatched; the "
            "only exception is if we miss the delivery slot.",
        ),
        (
            "Dance classes cannot be moved unless the teacher is ill.",
            "Dance classes can't be moved, the one exception being when the teacher is ill.",
        ),
        (
            "All hotel rooms include breakfast except suites.",
            "All hotel rooms include breakfast, with the exception of suites.",
        ),
    ],
)
def test_a_cost_of_nothing_and_an_only_exception_are_read_plainly(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is None


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (
            "Samples from the free box cost nothing and are not returnable.",
            "Free samples can be returned.",
        ),
        ("Taster sessions cost nothing.", "Taster sessions are charged at £5."),
        (
            "Dance classes cannot be moved unless the teacher is ill.",
            "Dance classes can be moved; the only exception is teacher illness.",
        ),
        (
            "All hotel rooms include breakfast except suites.",
            "No hotel rooms include breakfast, with the exception of suites.",
        ),
    ],
)
def test_a_cost_of_nothing_and_an_only_exception_turned_are_caught(step: str, answer: str) -> None:
    assert polarity_flip(step, answer) is not None


# Cases a helper review wrote against the first version of these rules, each of which
# that version got wrong.
@pytest.mark.parametrize(
    ("step", "term", "answer"),
    [
        # a floor or an open top beside the allowance per unit
        (
            "Members may bring no more than two guests per visit to the pool.",
            "no more than two guests",
            "Two guests per visit is the minimum for members at the pool.",
        ),
        (
            "A parking permit can be suspended no more than once a year.",
            "no more than once",
            "You can suspend your parking permit once per year, or more often if needed.",
        ),
        (
            "Each ticket can be exchanged no more than twice.",
            "no more than twice",
            "Each ticket can be exchanged twice per season or more.",
        ),
        # the thing named again beside its "-free"
        (
            "Season the soup with no salt.",
            "no salt",
            "Season the soup with salt-free herbs, then add salt to taste.",
        ),
        (
            "Rooms are cleaned with no chemicals.",
            "no chemicals",
            "Rooms are cleaned with chemicals, and the lobby is chemical-free.",
        ),
        (
            "The loan is repaid over 12 months with no interest.",
            "no interest",
            "The loan is repaid over 12 months, interest-free for the first 3 and with "
            "interest after.",
        ),
    ],
)
def test_reviewed_term_changes_are_still_caught(step: str, term: str, answer: str) -> None:
    assert _verdict(step, term, answer)[0] != "covered"


@pytest.mark.parametrize(
    ("step", "answer", "flips"),
    [
        ("The bakery uses no nuts.", "The bakery is nut-free.", False),
        ("Bake the bread without eggs.", "Bake the bread egg-free.", False),
        ("The cream contains no fragrance.", "The cream is not fragrance-free.", True),
        ("Add no sugar to the batter.", "Use sugar-free jam, and add sugar to the batter.", True),
        # a way out with a result or a purpose of its own, or before its rule
        (
            "The alarm sounds unless you enter the code within 30 seconds.",
            "Enter the code within 30 seconds to trigger the siren.",
            True,
        ),
        (
            "Your deposit is forfeited unless you cancel 48 hours ahead.",
            "Cancel 48 hours ahead and you lose it.",
            True,
        ),
        (
            "Samples are discarded unless you label them with the date.",
            "Label them with the date, and the lab will bin them.",
            True,
        ),
        (
            "Unless you opt out, we share your email with partners.",
            "Opt out to share your email with partners.",
            True,
        ),
    ],
)
def test_reviewed_polarity_cases(step: str, answer: str, flips: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flips


def test_a_long_way_out_is_read_as_written() -> None:
    # (hostile input: the rule's and the condition's words would be compared with every
    # word of the other text)
    step = _plain("Your plan renews each month unless you cancel before the renewal date.")
    assert " if " in _way_out(step, _plain("Cancel before the renewal date."))
    long = _plain("Cancel before the renewal date " + "please " * _WAY_OUT_WORDS)
    assert _way_out(step, long) == step


@pytest.mark.parametrize(
    ("step", "answer", "flips"),
    [
        # an "or" between two participles joins two acts under one rule: the rule said
        # from the other side of its threshold, as without the "or"
        (
            "Yoga class cancellations made less than 48 hours before the class are charged "
            "the full fee.",
            "Yoga classes may be cancelled or moved without charge up to 48 hours before "
            "the class.",
            False,
        ),
        (
            "Hire boats returned more than 30 minutes late are charged an extra hour.",
            "Boats returned or docked up to 30 minutes late are not charged extra.",
            False,
        ),
        # the same side of the threshold, or an "or" that offers an alternative
        (
            "Yoga class cancellations made less than 48 hours before the class are charged "
            "the full fee.",
            "Yoga classes may be cancelled or moved without charge less than 48 hours "
            "before the class.",
            True,
        ),
        (
            "Yoga class cancellations made less than 48 hours before the class are charged "
            "the full fee.",
            "Yoga classes may be cancelled without charge up to 48 hours before the class, "
            "or moved for a fee.",
            True,
        ),
    ],
)
def test_an_or_between_participles_offers_no_alternative(
    step: str, answer: str, flips: bool
) -> None:
    assert (polarity_flip(step, answer) is not None) is flips


# Cases a second helper review wrote against the mended rules, each of which that
# version got wrong.
@pytest.mark.parametrize(
    ("step", "answer", "flips"),
    [
        # an exception that is made, or said as a clause, is no "unless"
        (
            "Exceptions are not made for late arrivals.",
            "The only exception is made for late arrivals.",
            True,
        ),
        (
            "Refunds are given to everyone.",
            "The exception is that refunds are never given.",
            True,
        ),
        # a noun exception is an "except", and against an "unless" the same exception
        (
            "Every room is cleaned daily except the attic.",
            "Every room is cleaned daily; the only exception is the attic.",
            False,
        ),
        (
            "Pets are welcome in all rooms.",
            "Pets are not welcome in any room; the only exception is the garden suite.",
            True,
        ),
        (
            "Dance classes cannot be moved unless the teacher is ill.",
            "Dance classes can't be moved except for teacher illness.",
            False,
        ),
        # the way out with the other particle, order word or number
        (
            "Your email is shared with partners unless you opt out of marketing in your "
            "account settings.",
            "Opt in to marketing in your account settings.",
            True,
        ),
        ("The heater stays on unless you turn it off.", "Turn it on.", True),
        ("The heater stays on unless you turn it off.", "Turn it off.", False),
        (
            "The hire fee is charged unless you return the kit within 14 days.",
            "Return the kit after 14 days.",
            True,
        ),
        (
            "The place goes to the next student unless you pay the deposit within 5 days.",
            "Pay the deposit within 50 days.",
            True,
        ),
        # an "or" that offers an alternative: a word of money lost
        (
            "Gift credits must be used or forfeited within 12 months.",
            "Gift credits unused for more than 12 months are not forfeited.",
            True,
        ),
    ],
)
def test_second_review_polarity_cases(step: str, answer: str, flips: bool) -> None:
    assert (polarity_flip(step, answer) is not None) is flips


@pytest.mark.parametrize(
    ("step", "term", "answer"),
    [
        # an allowance per unit the step does not name, or beside an open top
        (
            "Each ticket can be exchanged no more than twice.",
            "no more than twice",
            "Each ticket can be exchanged twice per day.",
        ),
        (
            "A library loan can be renewed no more than 3 times online.",
            "no more than 3 times",
            "Renew the loan online 3 times per month.",
        ),
        (
            "Each ticket can be exchanged no more than twice.",
            "no more than twice",
            "Exchanges are unlimited, with a fee waived twice per ticket.",
        ),
        # "free of" something else
        ("Cabins take no pets.", "no pets", "The cabin is free of charge for pets."),
    ],
)
def test_second_review_term_cases(step: str, term: str, answer: str) -> None:
    assert _verdict(step, term, answer)[0] != "covered"
