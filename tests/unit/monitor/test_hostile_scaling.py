"""Answers that state thousands of values: each is judged in time linear in its length.

An answer states as many values as it has numbers, codes, dates and amounts, and each
becomes a value to mask and a claim to read. Work done once per value over the whole
answer made the structural judge quadratic: 60,000 characters of "Position: {n}" lines
took more than 400 s, of "AB-00012 " codes 300 s, and one such message holds a stream
worker's partition that long. These are liveness checks, not speed targets (the answers
take about a second each); the limit is generous.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest

from monitor.steps import _KnownValues, mask_known
from tests.support.liveness import finishes

SCRIPT = r"""
import datetime
from monitor.judges.base import JudgeRequest
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from tests.conftest import ACCEPTED

ITEM = GoldenItem.model_validate({
    "id": "housing_wait", "intent": "housing_wait", "agent": "a", "question": "where am I?",
    "answer": "Application KX71QD is at position 194 on the waiting list since 2026-01-05. "
    "Offers are made in order; reply within 7 days of an offer. The fee of $25.00 is paid. "
    "Your viewing is at 10:40.",
    "parameters": {
        "application": {"type": "alnum", "value": "KX71QD", "label": "application"},
        "position": {"type": "integer", "value": "194", "label": "waiting list position"},
        "since": {"type": "date", "value": "2026-01-05", "label": "listed since"},
        "fee": {"type": "money", "value": "$25.00", "label": "fee"},
        "viewing": {"type": "time", "value": "10:40", "label": "viewing"},
    },
})
CONTEXT = {
    "application": "QQ12AB", "position": "201", "since": "2026-02-01", "fee": "$30.00",
    "viewing": "14:20",
}
d0 = datetime.date(2026, 1, 1)
PATTERNS = {
    "label lines": lambda i: f"Position: {i}\n",
    "codes with a shared prefix": lambda i: f"AB-{i:05d} ",
    "an id and a position": lambda i: f"KX71QD at position {i}; ",
    "dates": lambda i: f"{d0 + datetime.timedelta(days=i % 3000)} ",
    "amounts": lambda i: f"${i}.50 ",
    "amounts added": lambda i: f"another {i} guests ",
    # Each sentence states the application and one value the open slot reads (it
    # checked the observed value against every value of the answer per sentence).
    "sentences of an id and a number": lambda i: f"KX71QD {i % 9 + 1} places. ",
    "sentences of an id and a date": lambda i: f"KX71QD {d0 + datetime.timedelta(days=i % 3000)}. ",
    # Times of day, against the item's time field (each could be its value).
    "times": lambda i: f"{i % 24}:{i % 60:02d} ",
    "times said with pm": lambda i: f"at {i % 12 + 1}.{i % 60:02d} pm; ",
}
judge = StructuralJudge()
for name in NAMES:
    parts, i, n = [], 0, 0
    while n < 60000:
        parts.append(PATTERNS[name](i)); n += len(parts[-1]); i += 1
    answer = "".join(parts)[:60000]
    trace = Trace(trace_id="t", question="q", answer=answer, context=CONTEXT)
    judge.judge_sync(JudgeRequest(trace, ITEM, ACCEPTED))
"""


@pytest.mark.parametrize(
    "names",
    [
        ["label lines", "codes with a shared prefix", "an id and a position"],
        ["dates", "amounts", "amounts added"],
        ["sentences of an id and a number", "sentences of an id and a date"],
        ["times", "times said with pm"],
    ],
)
def test_an_answer_of_thousands_of_values_is_judged(names: list[str]) -> None:
    code = f"NAMES = {names!r}\n" + SCRIPT
    finishes(code, 90, f"judging {names}")


def _one_scan_per_value(text: str, values: Sequence[str]) -> str:
    """The masking as it was written before the word index: one substitution per value,
    longest first, values of one length in text order (the oracle)."""
    out = text
    for v in sorted({v for v in values if v and v.strip()}, key=lambda v: (-len(v), v)):
        # (A whole token, and no part of a longer number: "2" is not in "2,000".)
        pattern = r"(?<![\w])(?<!\d[.,])" + re.escape(v) + r"(?![\w])(?![.,]\d)"
        out = re.sub(pattern, "<value>", out, flags=re.IGNORECASE)
    return out


def test_masking_by_the_word_index_is_the_one_scan_per_value() -> None:
    tokens = [
        "A1", "a1", "AB-1", "AB-12", "B-2", "12", "1212", "12.50", "$12", "£40.00", "Mill Road",
        "mill", "road", "7", "77", "2026-03-01", "X_Y", "é", "Ü1", "-", ",", ".", "(", ")", "#",
        "no.", "3rd", "12ab",
    ]  # fmt: skip
    rng = random.Random(2027)
    for _ in range(20000):
        text = "".join(
            rng.choice(tokens) + rng.choice(["", "", " ", " ", ", "])
            for _ in range(rng.randint(0, 12))
        )
        values = [
            rng.choice(tokens) + rng.choice(["", "", " road", "-2"])
            for _ in range(rng.randint(0, 5))
        ]
        want = _one_scan_per_value(text, values)
        # The word index itself (which mask_known uses for more than a few values),
        # and mask_known with enough values to use it.
        assert _KnownValues(tuple(values)).mask(text) == want, (text, values)
        assert mask_known(text, values) == want, (text, values)
        many = [*values, *(f"ZZ{k}QQ" for k in range(10))]  # absent: the same result
        assert mask_known(text, many) == want, (text, many)


# A long run of numbers ("1 x 1 x ...", where a bound's unit was looked for past every
# following number, once per number: 280 s at 200,000 characters) and many negations
# (each of which read the whole answer again: 12 s), at the largest answer the limits
# let through.
RUNS = r"""
from monitor.judges.base import JudgeRequest
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from tests.conftest import ACCEPTED

ITEM = GoldenItem.model_validate({
    "id": "locker_parcel", "intent": "locker_parcel", "agent": "a", "question": "parcel?",
    "answer": "Parcel LK4410 is booked. Pack the item in a box no larger than 45 x 35 x 30 cm "
    "and weighing no more than 15 kg. We won't open the locker until you pay.",
    "parameters": {"parcel": {"type": "alnum", "value": "LK4410", "label": "parcel"}},
})
judge = StructuralJudge()
for answer in (
    "Pack the item in a box no larger than 45 x 35 x " + "1 x " * 49960
    + "30 cm and weighing no more than 15 kg.",
    ("Parcel LK9921: we won't open without " * 5400)[:200000],
):
    trace = Trace(trace_id="t", question="q", answer=answer, context={"parcel": "LK9921"})
    judge.judge_sync(JudgeRequest(trace, ITEM, ACCEPTED))
"""


def test_an_answer_of_long_runs_of_numbers_and_negations_is_judged() -> None:
    finishes(RUNS, 90, "judging runs of numbers and negations")
