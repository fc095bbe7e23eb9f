"""Times and fractions written another way are the same quantity (issue 19, class 5),
on hand-written cases from invented domains (a car wash, a theatre, a hostel, a
furniture deposit, a ferry desk, a gym, a loan; none is a bench seed).

A time written without am or pm before noon ("by 5:30", "at 5 o'clock") may be the
afternoon's, so it states "5:30 pm" as well as "5:30 am"; a time with a leading zero
("08:30"), a four-digit one ("1000 hrs") or one in a text that writes 24-hour times is
the morning's only. A four-digit time ("0900 hrs", "at 0930", "0800-1800") is a time,
not the number 900 (not a phone number); a bare "8.30" or "0830" is a way of writing
8:30, and so are "half-past eight" and "eight thirty" (not the number 38); a bare "half
eight" also reads as 8:30, as another reading. A fraction states the whole percentage
it rounds to ("a third" / "33%"); two percentages otherwise compare exactly. A time or
a share really changed is still caught, and so is a half hour's bare hour ("at 7" for
7:30).
"""

from __future__ import annotations

import pytest

from monitor.steps import StepVerifier
from monitor.text.quantities import quantities
from tests.unit.monitor.test_failure_classes_12 import _one_step

CARWASH = "Collect your car by 5:30 pm on the day of the valet."
THEATRE = "Doors open at 7:30 and latecomers wait for the interval."
HOSTEL = "Reception opens at 0900 and check-in starts at 1400 hrs."
DEPOSIT = "A third of the deposit is kept if you cancel within a week."
FERRY = "The ticket desk is staffed from 08:30 to 17:00 every day."
REFUND = "Refunds reach your account within 10 working days of the return."
GYM = "The gym opens at 1000 hrs on Sundays."
LOAN = "Interest is charged at 1.4% per month on late balances."


def _status(step: str, answer: str) -> str:
    v = StepVerifier().verify(_one_step("q", step), f"{answer} Ask at the desk if unsure.", [])
    return v[0].status


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (CARWASH, "Please collect your car by 5:30 on the day of the valet."),
        (CARWASH, "Collect your car by half past five on the day of the valet."),
        (CARWASH, "Collect your car by five-thirty on the day of the valet."),
        (THEATRE, "Doors open at 7:30 pm and latecomers wait for the interval."),
        (THEATRE, "Doors open at 7.30 in the evening; latecomers wait for the interval."),
        (THEATRE, "Doors open half seven and latecomers wait for the interval."),
        (HOSTEL, "Reception opens at 9 am and check-in starts at 2 pm."),
        (DEPOSIT, "33% of the deposit is kept if you cancel within a week."),
        (FERRY, "The ticket desk is staffed from 8.30 am to 5 pm every day."),
        (FERRY, "The ticket desk is staffed 8.30-5 every day."),  # bare numbers
        (FERRY, "The ticket desk is staffed 0830-1700 every day."),
    ],
)
def test_a_time_or_share_written_another_way_is_covered(step: str, answer: str) -> None:
    assert _status(step, answer) == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (CARWASH, "Collect your car by 6:30 on the day of the valet."),
        (CARWASH, "Collect your car by six-thirty on the day of the valet."),
        (THEATRE, "Doors open at 8:30 pm and latecomers wait for the interval."),
        (THEATRE, "Doors open at 8 and latecomers wait for the interval."),
        (THEATRE, "Doors open at 7 and latecomers wait for the interval."),  # the bare hour
        (CARWASH, "Collect your car by 5 on the day of the valet."),
        (GYM, "The gym opens at 10 pm on Sundays."),  # a 24-hour time has no pm reading
        (LOAN, "Interest is charged at 1% per month on late balances."),  # not a fraction
        (LOAN, "Interest is charged at 1.9% per month on late balances."),
        (HOSTEL, "Reception opens at 10:00 and check-in starts at 1400 hrs."),
        (DEPOSIT, "A quarter of the deposit is kept if you cancel within a week."),
        (FERRY, "The ticket desk is staffed from 8.30 pm to 5 pm every day."),
        (FERRY, "The ticket desk is staffed 9.30-5 every day."),
        (REFUND, "Refunds reach your account within 10 days of the return."),
    ],
)
def test_a_time_or_share_changed_is_still_caught(step: str, answer: str) -> None:
    assert _status(step, answer) == "altered"


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("at 2:30", {"clock:150", "~clock:870"}),
        ("by 5 o'clock", {"clock:300", "~clock:1020"}),
        ("at 08:30", {"clock:510"}),  # a leading zero: the morning's
        ("at 14:00", {"clock:840"}),
        ("0900 hrs", {"clock:540"}),
        ("at 1400 hrs", {"clock:840"}),
        ("0800-1800", {"clock:480", "clock:1080"}),
        ("in 2019-2020", {"n:2019", "n:2020"}),  # years, not times
        ("at 1930", {"n:1930"}),  # a year as likely as a time
        ("service every 1000 hours", {"every:min:60000"}),  # a span
        ("half-past eight", {"clock:510", "~clock:1230"}),  # hyphened
        ("from half eight onwards", {"clock:510", "~clock:1230"}),
        ("doors open half eight", {"n:8", "~clock:510", "~clock:1230"}),  # other readings
        ("at 1000 hrs", {"clock:600"}),  # a 24-hour time: no pm reading
        ("08:00-10:00", {"clock:480", "clock:600"}),  # ... nor in a 24-hour text
        ("from 0930 until 1130", {"clock:570", "clock:690"}),
        ("call us at 0800 123 4567", {"n:800", "n:123", "n:4567"}),  # a phone number
        ("book four fifteen minute slots", {"min:15"}),  # not 4:15
        ("a third", {"pct:33.3", "~pct:33"}),
        ("a quarter-to 5", {"clock:285", "~clock:1005"}),  # not a quarter of a year
        ("at eight thirty", {"clock:510", "~clock:1230"}),  # not the number 38
        ("six forty-five", {"clock:405", "~clock:1125"}),
        ("twenty thirty", set()),  # no single number
        ("two fifteen-minute breaks", {"min:15"}),  # not a time
        # a number word before "times weekly" (written "3  times" once read as digits)
        ("three times weekly", {"every:min:3360", "~every:min:10080", "~n:3"}),
    ],
)
def test_time_and_frequency_readings(text: str, readings: set[str]) -> None:
    assert set(quantities(text)) == readings


PAYROLL = "Wages are paid every two weeks by bank transfer."
BOILER_CHECK = "The boiler is inspected every six months by our engineer."
SAVINGS = "The saver account pays 3% a year on balances over £500."
FERRY_FARE = "A return ticket costs €15 for foot passengers."


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (PAYROLL, "Wages are paid bi-weekly by bank transfer."),
        (PAYROLL, "Wages are paid biweekly by bank transfer."),
        (BOILER_CHECK, "Our engineer carries out a biannual inspection of the boiler."),
        (BOILER_CHECK, "Our engineer inspects the boiler half-yearly."),
        (SAVINGS, "The saver account pays 3% per annum on balances over £500."),
        (SAVINGS, "The saver account pays 3% p.a. on balances over £500."),
        (FERRY_FARE, "A return ticket costs 15€ for foot passengers."),
        (FERRY_FARE, "A return ticket costs 15 € for foot passengers."),
    ],
)
def test_a_frequency_or_an_amount_written_the_european_way_is_covered(
    step: str, answer: str
) -> None:
    assert _status(step, answer) == "covered"


@pytest.mark.parametrize(
    ("step", "answer"),
    [
        (PAYROLL, "Wages are paid weekly by bank transfer."),
        (BOILER_CHECK, "Our engineer inspects the boiler yearly."),
        (SAVINGS, "The saver account pays 3% a month on balances over £500."),
        (FERRY_FARE, "A return ticket costs 18€ for foot passengers."),
    ],
)
def test_a_frequency_or_an_amount_changed_is_still_caught(step: str, answer: str) -> None:
    assert _status(step, answer) == "altered"


@pytest.mark.parametrize(
    ("text", "quantity"),
    [
        ("paid bi-weekly", "every:min:20160"),
        ("a semi-annual check", "every:month:6"),
        ("5% per annum", "month:12"),
        ("15€", "money:EUR:15"),
        ("1,250.50 €", "money:EUR:1250.5"),
    ],
)
def test_the_reader_reads_them(text: str, quantity: str) -> None:
    assert quantity in quantities(text)


def test_a_euro_sign_before_another_amount_is_that_amount_s() -> None:
    # "15 €20 each": 15 items at €20, not €15
    assert "money:EUR:15" not in quantities("15 €20 each")
