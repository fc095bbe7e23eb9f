"""A "Label: value" line whose label says a field's label of two words or more in its
own forms names that field ("Next scheduled shipment: 2026-03-03" for the field
``nextShipDate``), when one field only fits, the label ends on one of the field's words
and says no other word but a neutral one ("Last shipment", "Next shipment cut-off" and
"Late check out" name another thing). Hand-written cases from invented
domains (a meal-kit box, a boiler service, a hotel stay, a library loan; none is a
bench seed)."""

from __future__ import annotations

import pytest

from monitor.schemas import GoldenItem
from tests.unit.monitor.test_open_slot_claims import _claims, _item

MEALKIT = _item(
    "Your next box ships on 2026-04-20.",
    nextShipDate={"value": "2026-04-20", "type": "date"},
)
BOILER = _item(
    "The service visit for boiler BX2291 is on 2026-06-02.",
    boilerId={"value": "BX2291", "type": "alnum", "length": 6, "label": "boiler"},
    serviceVisitDate={"value": "2026-06-02", "type": "date"},
)
HOTEL = _item(
    "Stay H7731 runs from 2026-05-01 to 2026-05-03.",
    stayRef={"value": "H7731", "type": "alnum", "length": 5, "label": "stay"},
    checkInDate={"value": "2026-05-01", "type": "date"},
    checkOutDate={"value": "2026-05-03", "type": "date"},
)
LOAN = _item(
    "Loan LN88231 is due back on 2026-03-11.",
    loanId={"value": "LN88231", "type": "alnum", "length": 7, "label": "loan"},
    renewalDueDate={"value": "2026-03-11", "type": "date"},
)


@pytest.mark.parametrize(
    ("item", "answer", "observed", "field", "value"),
    [
        (
            MEALKIT,
            "Next scheduled shipment: 2026-03-03.",
            {"nextShipDate": "2026-04-20"},
            "nextShipDate",
            "2026-03-03",
        ),
        (
            BOILER,
            "- Boiler: BX2291\n- Booked service visit: 2026-07-15",
            {"boilerId": "BX2291", "serviceVisitDate": "2026-06-02"},
            "serviceVisitDate",
            "2026-07-15",
        ),
        (
            HOTEL,
            "Checking out: 2026-05-04.",
            {"stayRef": "H7731", "checkInDate": "2026-05-01", "checkOutDate": "2026-05-03"},
            "checkOutDate",
            "2026-05-04",
        ),
    ],
)
def test_a_label_in_other_forms_names_its_field(
    item: GoldenItem, answer: str, observed: dict[str, str], field: str, value: str
) -> None:
    assert _claims(item, answer, observed).get(field) == value


@pytest.mark.parametrize(
    ("item", "answer", "observed"),
    [
        # another instance of the field
        (MEALKIT, "Last shipment: 2026-03-03.", {"nextShipDate": "2026-04-20"}),
        (
            BOILER,
            "Previous service visit: 2025-06-02.",
            {"boilerId": "BX2291", "serviceVisitDate": "2026-06-02"},
        ),
        # words beside the field's that name another thing
        (MEALKIT, "Next shipment cut-off: 2026-04-17.", {"nextShipDate": "2026-04-20"}),
        (
            BOILER,
            "Service visit cancellation deadline: 2026-05-30.",
            {"boilerId": "BX2291", "serviceVisitDate": "2026-06-02"},
        ),
        (
            HOTEL,
            "Late check out: 2026-05-04.",
            {"stayRef": "H7731", "checkInDate": "2026-05-01", "checkOutDate": "2026-05-03"},
        ),
        # a short word of the field's label said only inside a longer one ("in")
        (
            HOTEL,
            "Check insurance: 2026-04-29.",
            {"stayRef": "H7731", "checkInDate": "2026-05-01", "checkOutDate": "2026-05-03"},
        ),
        # a label that says only part of the field's label
        (LOAN, "Due: 2026-03-18.", {"loanId": "LN88231", "renewalDueDate": "2026-03-11"}),
        # two fields fit the label's words: none is chosen
        (
            HOTEL,
            "Check dates: 2026-05-04.",
            {"stayRef": "H7731", "checkInDate": "2026-05-01", "checkOutDate": "2026-05-03"},
        ),
    ],
)
def test_a_label_of_another_instance_or_of_part_of_a_field_names_none(
    item: GoldenItem, answer: str, observed: dict[str, str]
) -> None:
    claims = _claims(item, answer, observed)
    assert not set(claims) & {
        "nextShipDate",
        "serviceVisitDate",
        "renewalDueDate",
        "checkOutDate",
        "checkInDate",
    }
