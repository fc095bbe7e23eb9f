"""Canonical quantities: one policy number however it is written."""

from __future__ import annotations

import pytest

from monitor.text.quantities import (
    conflict,
    counted_nouns,
    main_readings,
    quantities,
    same_quantity,
    stated,
)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("within 14 days", "in the next two weeks"),
        ("14 days", "a fortnight"),
        ("15 minutes early", "a quarter of an hour early"),
        ("10 business days", "ten working days"),
        ("24 hours", "twenty-four hours"),
        ("a day", "24 hours"),
        ("six weeks", "6 weeks"),
        ("3%", "3 percent"),
        ("2 changes", "two changes"),
        ("$259.01", "USD 259.01"),
        ("one academic year", "12 months"),
        # money written out, thousands separators, number words of any size
        ("The fee is 50 dollars.", "The fee is $50."),
        ("It costs £15.", "It costs fifteen pounds."),
        ("It costs €15 per night.", "It costs 15 euros a night."),
        ("$50/month", "USD 50 per month"),
        ("A maximum of 1,000 points.", "Up to 1000 points."),
        ("every 10,000 miles", "every ten thousand miles"),
        ("every 10,000 miles", "every 10k miles"),
        ("up to seventeen days", "up to 17 days"),
        ("two hundred and fifty guests", "250 guests"),
        ("a dozen eggs", "12 eggs"),
        ("Up to 100 GB", "up to 100GB"),
        ("Up to 100 GB", "up to 100 gigabytes"),
        # distances, masses, volumes
        ("service every 100,000 km", "service every 100,000 kilometres"),
        ("bags up to 23kg", "bags up to 23 kilograms"),
        ("a 2 litre bottle", "a bottle of 2000 ml"),
        # halves, fractions, "in full"
        ("90 minutes", "an hour and a half"),
        ("1.5 hours", "ninety minutes"),
        ("two and a half days", "60 hours"),
        ("Pay 50% now.", "Pay half now."),
        ("Pay 25% up front.", "Pay a quarter up front."),
        ("a 10% discount", "a ten per cent discount"),
        ("a 100% refund", "a refund in full"),
        # times of day
        ("opens at 3 pm", "opens at 15:00"),
        ("by 11am", "by 11:00"),
        ("by 12:00", "by noon"),
        ("closes at 17:00", "closes at 5 in the afternoon"),
        ("by 10.30 a.m.", "by 10:30"),
        # how often
        ("every 12 months", "annually"),
        ("every 12 months", "once a year"),
        ("monthly", "each month"),
        ("twice a year", "every 6 months"),
        ("every other week", "fortnightly"),
        # ordinals, the next business day, a number at the end of a sentence
        ("after the 3rd attempt", "after the third attempt"),
        ("on the next business day", "within 1 business day"),
        ("payable net 30.", "payable net thirty."),
        ("closes at midnight", "closes at 12 at night"),
        ("at 3:30 pm", "at half past three in the afternoon"),
        ("at 3:15 pm", "at a quarter past three in the afternoon"),
        ("at 3:45", "at a quarter to four"),
        ("opens at 10:30", "opens at 10.30"),
        ("on the 5th of each month", "on the fifth of each month"),
        # the last minute of a day is its end, as a deadline
        ("entries close by 11:59 pm", "entries close before midnight"),
        ("deadline: 11:59 pm", "by midnight"),
    ],
)
def test_same_quantity(a: str, b: str) -> None:
    assert main_readings(quantities(a)) == main_readings(quantities(b)) != set()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("climbers aged 8 to 11", "8 to 11-year-olds"),
        ("riders must be 16 or older", "riders must be at least 16 years old"),
        ("open to ages 14 to 17", "open to anyone aged 14 to 17 years"),
        ("puppies 8 weeks old", "puppies aged 8 weeks"),
    ],
)
def test_an_age_is_stated_by_its_years(a: str, b: str) -> None:
    qa, qb = main_readings(quantities(a)), main_readings(quantities(b))
    assert qa and qb
    assert all(stated(q, qb) for q in qa) and all(stated(q, qa) for q in qb)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("14 days", "14 business days"),
        ("3 months", "3 weeks"),
        ("$40", "$4"),
        ("$40", "EUR 40"),
        ("per month", "per week"),
        ("2 hours", "5 hours"),
        ("50 dollars", "$40"),
        ("opens at 3 pm", "opens at 14:00"),
        ("every 12 months", "every month"),
        ("twice a year", "once a year"),
        ("every 10,000 miles", "every 15,000 miles"),
        ("Pay 25% up front.", "Pay half up front."),
        ("the third attempt", "the 2nd attempt"),
        ("every 10,000 km", "every 10,000 miles"),
        ("bags up to 23kg", "bags up to 32 kg"),
        # an age is no duration
        ("valid for 12 years", "for 12-year-olds"),
        ("members aged 16", "members aged 18"),
        ("closes at 11:58 pm", "closes at midnight"),
        ("opens at 11:59 pm", "opens at midnight"),
        ("under 2 years old", "under 2 months old"),
        ("a 5-year warranty", "5 years old"),
    ],
)
def test_different_quantity(a: str, b: str) -> None:
    assert main_readings(quantities(a)) != main_readings(quantities(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("up to 3 withdrawals per month", "up to 3 times a month"),
        ("2 refills each year", "twice a year"),
        ("one visit per week", "once a week"),
    ],
)
def test_a_count_per_period_is_stated_by_times_a_period(a: str, b: str) -> None:
    # "3 times a month" also reads as 3 per month: each of a's quantities is stated by b.
    assert all(stated(q, quantities(b)) for q in main_readings(quantities(a)))


@pytest.mark.parametrize(
    "text",
    ["Refunds take a few days.", "Call 5 on weekdays.", "a handful of hours"],
)
def test_only_known_words_stand_between_a_number_and_its_unit(text: str) -> None:
    assert not any(q.startswith(("min:", "bday:")) for q in quantities(text))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("within 30 days", "within a month", True),
        ("every 12 months", "every 365 days", True),
        ("3 months", "90 days", True),
        ("within 14 days", "within a month", False),
        # A business day is not a calendar day: an answer may state both rules.
        ("10 business days", "14 days", False),
        ("2 hours", "90 minutes", False),
    ],
)
def test_spans_in_days_and_months_compare_by_length(a: str, b: str, same: bool) -> None:
    (qa,), (qb,) = quantities(a), quantities(b)
    assert same_quantity(qa, qb) is same
    assert stated(qa, quantities(b)) is same


@pytest.mark.parametrize(
    ("lost", "new", "changed"),
    [
        ("within 14 days", "within 30 days", True),
        ("within 4 hours", "within 5 business days", True),  # durations in any units
        ("a GBP 30 fee", "a $30 fee", True),  # money in any currency
        ("within 30 days", "net 90", True),  # a bare number that is no reading of it
        ("within 30 days", "net 30", False),  # ... and one that is
        ("by 5 pm", "by 5", False),
        ("a 20% deposit", "within 14 days", False),  # different kinds: no evidence
        ("within 14 days", "net 3", True),
    ],
)
def test_what_counts_as_a_changed_number(lost: str, new: str, changed: bool) -> None:
    (a,), (b,) = quantities(lost), quantities(new)
    assert conflict(a, b) is changed


@pytest.mark.parametrize(
    "text",
    [
        "once the form is approved, one of us calls",
        "set up two-factor login",
        "a third change needs a call",  # an ordinal, not a third of something
    ],
)
def test_words_that_are_no_amounts(text: str) -> None:
    assert not any(q.startswith(("n:", "pct:", "min:")) for q in quantities(text))


def test_words_that_are_not_counts() -> None:
    assert quantities("once the form is approved, one of us calls") == set()


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("with one guest", {"guest": {1.0}}),
        ("with three guests", {"guest": {3.0}}),
        ("rent 2 lockers per season", {"locker": {2.0}}),
        ("show a single card", {"card": {1.0}}),
        ("within one business day", {}),  # a unit: quantities() reads it
        ("one of our stores", {}),
        ("a guest", {}),  # an article is no count
        ("one more step", {}),
    ],
)
def test_counted_nouns(text: str, counts: dict[str, set[float]]) -> None:
    assert counted_nouns(text) == counts


@pytest.mark.parametrize("text", ["fıve days", "within 3 busıness days", "ONE GUEST", "İki gün"])
def test_letters_that_casefold_or_match_loosely_never_raise(text: str) -> None:
    # The patterns run on casefolded text without IGNORECASE: under it, a dotless "ı"
    # matched "i" and the matched word was then missing from the value tables.
    quantities(text)
    counted_nouns(text)


def test_a_fraction_is_not_an_ordinal_after_the() -> None:
    assert main_readings(quantities("the third of May")) == {"ord:3"}
    assert main_readings(quantities("a third of the deposit")) == {"pct:33.3"}
    assert main_readings(quantities("a rate of 10.30")) == {"n:10.3"}


@pytest.mark.parametrize("text", ["receipt " + "9" * 400, "hundred " * 2200, "1e999 days"])
def test_absurd_numbers_never_raise(text: str) -> None:
    quantities(text)


def test_a_number_too_large_for_any_policy_is_no_quantity() -> None:
    assert quantities("reference " + "9" * 400) == frozenset()
    assert quantities("within 14 days, reference " + "9" * 400) == {"min:20160"}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("you get half off", "a 50% discount"),
        ("half-price entry", "50% of the price"),
        ("at least 14 days before the start", "14+ days before the start"),
        ("4+ hours after spraying", "4 hours after spraying"),
        ("up to 10x the cleaning price", "up to 10 times the cleaning price"),
        ("keep it 2 wks", "keep it two weeks"),
        ("a 3 mth trial", "a three-month trial"),
        ("valid for 1 yr", "valid for a year"),
        ("2 or more days ahead", "2 days ahead"),
    ],
)
def test_half_plus_and_times_are_read(a: str, b: str) -> None:
    assert quantities(a) == quantities(b) != frozenset()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("£50 + VAT", {"money:GBP:50"}),
        ("call +43 5412 6630", {"n:43", "n:5412", "n:6630"}),
        ("code AB10X", set()),
        ("a 2x4 board", set()),
        ("v2+ of the app", set()),
    ],
)
def test_a_sum_a_phone_number_or_a_code_is_no_plus_or_times(text: str, expected: set[str]) -> None:
    assert quantities(text) == expected


def test_abbreviated_units_are_ages_too() -> None:
    assert quantities("puppies from 8 wks old") == quantities("puppies from 8 weeks old")
    assert quantities("aged 3 yrs") == quantities("aged 3 years")


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        # a period counted begun or whole is that period (a bicycle rental's late fee,
        # a hotel's extra night, a parking garage, a storage unit)
        ("£12 per started hour", "every:min:60"),
        ("£12 for each commenced hour", "every:min:60"),
        ("€40 per additional night", "every:night:1"),
        ("$5 per full day", "every:min:1440"),
        ("billed per calendar month", "every:month:1"),
        ("each extra day", "every:min:1440"),
        # ... before its count too (a parking garage, a sauna, a locker hire)
        ("£2.50 per additional 15 minutes", "every:min:15"),
        ("each further 2 hours costs £3", "every:min:120"),
        ("£1 for every extra 30 minutes", "every:min:30"),
    ],
)
def test_a_period_counted_begun_or_whole_is_a_rate(text: str, rate: str) -> None:
    assert rate in quantities(text)


def test_a_rate_whose_period_changed_is_caught() -> None:
    from monitor.steps import StepVerifier
    from tests.unit.monitor.test_failure_classes import item

    step = "Late returns cost £12 per started hour, up to 3 days."
    [kept] = StepVerifier().verify(item("t", step, [step]), "Late returns are £12 an hour.", [])
    [swapped] = StepVerifier().verify(
        item("t", step, [step]), "Late returns cost £12 per day, up to 3 days.", []
    )
    assert kept.status == "covered"
    assert (swapped.status, swapped.cue) == ("altered", "quantity changed: every hour -> every day")


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        # two words between a number and its unit (a music school's notice period, a
        # courier's working days, a gym's consecutive days)
        ("give one full calendar month's notice", "month:1"),
        ("within two full working days", "bday:2"),
        ("for 3 consecutive calendar days", "min:4320"),
    ],
)
def test_two_words_between_a_number_and_its_unit(text: str, reading: str) -> None:
    assert reading in quantities(text)


def test_a_notice_period_in_two_words_changed_is_caught() -> None:
    from monitor.steps import StepVerifier
    from tests.unit.monitor.test_failure_classes import item

    step = (
        "To cancel enrolment, give one full calendar month's notice in writing by email "
        "to the school office."
    )
    ref = item("t", step, [step], ("one full calendar month's notice",))
    [changed] = StepVerifier().verify(
        ref,
        "To cancel enrolment, give two weeks' notice in writing by email to the school office.",
        [],
    )
    [kept] = StepVerifier().verify(
        ref, "To cancel, email the school office a month's notice in writing.", []
    )
    assert (changed.status, changed.cue) == ("altered", "quantity changed: 1 month -> 2 weeks")
    assert kept.status == "covered"
