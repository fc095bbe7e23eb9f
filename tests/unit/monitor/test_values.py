from __future__ import annotations

import itertools
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from monitor.values import (
    compatible_shape,
    find_typed_values,
    mask_entities,
    normalize_date,
    same_value,
    shape_of,
)


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2025-07-19", "2025-07-19"),
        ("July 19, 2025", "2025-07-19"),
        ("19 July 2025", "2025-07-19"),
        ("Jul. 19 2025", "2025-07-19"),
        ("2025/7/19", "2025-07-19"),
        ("2025-02-30", None),
        ("not a date", None),
    ],
)
def test_normalize_date(text: str, iso: str | None) -> None:
    assert normalize_date(text) == iso


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2999, 12, 31)))
def test_dates_in_every_format_denote_the_same_day(d: date) -> None:
    month = d.strftime("%B")
    forms = [
        d.isoformat(),
        f"{month} {d.day}, {d.year}",
        f"{d.day} {month} {d.year}",
        f"{d.year}/{d.month}/{d.day}",
    ]
    assert {normalize_date(f) for f in forms} == {d.isoformat()}
    assert all(same_value(forms[0], f) for f in forms)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("$1,200.00", "1200 USD", True),
        ("$1,200.00", "€1200", False),
        ("$249.00", "$249", True),
        ("9Y0S3VQ", "9y0s3vq", True),
        ("WO-123456", "WO123456", True),
        ("Pending Customer", "pending  customer", True),
        ("Closed", "Open", False),
        ("15", "15.0", True),
        ("2025-07-19", "July 19, 2025", True),
        ("215474133", "215474134", False),
    ],
)
def test_same_value(a: str, b: str, same: bool) -> None:
    assert same_value(a, b) is same


def test_find_typed_values_handles_punctuation_and_order() -> None:
    text = "Case 536762755, due 2026-03-14; refund $249.00 (tag 9Y0S3VQ). Wait 5 days."
    found = [(f.text, f.type) for f in find_typed_values(text)]
    assert found == [
        ("536762755", "digits"),
        ("2026-03-14", "date"),
        ("$249.00", "money"),
        ("9Y0S3VQ", "alnum"),
        ("5", "integer"),
    ]


def test_find_typed_values_unicode_neighbours() -> None:
    found = [(f.text, f.type) for f in find_typed_values("Fall «536762755» für Kundé — 2025-01-02")]
    assert found == [("536762755", "digits"), ("2025-01-02", "date")]


def test_shapes() -> None:
    assert shape_of("215474133") == "digits"
    assert shape_of("9Y0S3VQ") == "alnum"
    assert shape_of("2025-07-19") == "date"
    assert shape_of("$5") == "money"
    assert shape_of("12") == "integer"
    assert shape_of("Pending Customer") == "text"
    assert compatible_shape("536762755", "digits", "491541446")
    assert not compatible_shape("5367627550", "digits", "491541446")


def test_mask_entities_removes_instance_values_only() -> None:
    assert mask_entities("What is the status of case 215474133?") == "What is the status of case?"
    assert (
        mask_entities("Is severity 1 answered within 1 hour?")
        == "Is severity 1 answered within 1 hour?"
    )


@given(st.text(max_size=200))
def test_find_typed_values_never_overlaps(text: str) -> None:
    found = find_typed_values(text)
    for a, b in itertools.pairwise(found):
        assert a.end <= b.start
    for f in found:
        assert text[f.start : f.end] == f.text
