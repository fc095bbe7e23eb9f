"""Strangers' golden sets, a sixth round (issue 19): misreadings found by new users'
trials (a student-finance office, a customs broker, a mortgage servicer, a
marketplace's seller support), on hand-written cases from invented domains (none is a
bench seed, none is a trial's trace).

1. "Rather than X" against a step's "... and is not X" (a second predicate of the same
   subject denied) was a flip.
2. "Free of any X" against "without an X" was a flip.
3. "Keep X in place" / "leave X alone" against "do not cancel X" was a flip.
4. A date after "N days from the <field label>, so until" was read as that field's
   value (the date the offset leads to, not the field's), and contradicted.
5. "Already", "still", "yet" and "fresh" were read as new policy words.
6. A declared term's "before" said "ahead of" / "prior to", its "contact" said as one
   way of getting in touch ("ring"), and its verb said as the verb's noun ("arrive" /
   "arrival") were replaced terms.
7. A context value ("2", a year of study) was masked inside a longer number ("£2,000"
   became "£<value>,000", read as 0): a changed quantity.
8. A step's noun said as the entity's own name, the value of the context field the
   noun names ("the shipping line" -> "Maersk"), was absent: the step went missing.
9. "Dated within the last 90 days" bounded nothing, so "at least 90 days old" went
   unseen; it is now at most 90 days old.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from monitor.claims import extract_candidates
from monitor.text.polarity import polarity_flip
from tests.conftest import item_with_params
from tests.unit.monitor.test_failure_classes_35 import _check


def _flips(step: str, kept: list[str], changed: list[str]) -> None:
    """Each of ``kept`` has the step's polarity; each of ``changed`` flips it."""
    for answer in kept:
        assert polarity_flip(step, answer) is None, answer
    for answer in changed:
        assert polarity_flip(step, answer), answer


# A gym, a theatre, a water company.
RATHER_THAN_AND_NOT = [
    (
        "The refund goes onto your membership account and is not paid back to your card.",
        [
            "It goes onto your membership account rather than being paid back to your card.",
            "The refund is added to your membership account instead of paid back to your card.",
        ],
        ["The refund goes onto your membership account and is paid back to your card."],
    ),
    (
        "Unused credit is carried into next season and is not refunded in cash.",
        ["Any unused credit carries into next season rather than refunded in cash."],
        ["Unused credit is carried into next season and is refunded in cash."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), RATHER_THAN_AND_NOT)
def test_rather_than_is_the_steps_second_predicate_denied(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _flips(step, kept, changed)


# A letting agent, a loan, a phone plan.
FREE_OF_IS_WITHOUT = [
    (
        "Tenants may leave after six months without an early exit fee.",
        [
            "Tenants may leave after six months free of any early exit fee.",
            "After six months you can leave, free from early exit fees.",
        ],
        ["Tenants may leave after six months with an early exit fee."],
    ),
    (
        "You can repay up to 10% of the loan each year without an early settlement charge.",
        ["You can repay up to 10% of the loan each year free of any early settlement charge."],
        [
            "You can repay up to 10% of the loan each year, but not without an early settlement "
            "charge."
        ],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), FREE_OF_IS_WITHOUT)
def test_free_of_any_is_without(step: str, kept: list[str], changed: list[str]) -> None:
    _flips(step, kept, changed)


# A council tax office, a magazine subscription, an alarm monitoring service.
KEPT_IS_NOT_CANCELLED = [
    (
        "Do not cancel your standing order; we suspend it for you.",
        [
            "Keep your standing order in place: we suspend it for you.",
            "Please leave the standing order alone, we'll suspend it for you.",
        ],
        [
            "Cancel your standing order yourself; we will suspend it for you.",
            "Do not keep your standing order in place; we will suspend it for you.",
        ],
    ),
    (
        "Do not switch off the alarm panel during the test.",
        ["Keep the alarm panel switched on during the test."],
        ["Switch off the alarm panel during the test."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), KEPT_IS_NOT_CANCELLED)
def test_kept_in_place_is_not_cancelled(step: str, kept: list[str], changed: list[str]) -> None:
    _flips(step, kept, changed)


CLOSURE = item_with_params(
    "closure",
    "Your account was closed on 2026-05-01.",
    {"closureDate": {"type": "date", "value": "2026-05-01", "label": "closure date"}},
)


@pytest.mark.parametrize(
    "answer",
    [
        "You have 14 days from the closure date, so until 2026-05-15, to appeal.",
        "Appeals close 30 days after the closure date - that's 31 May 2026.",
    ],
)
def test_a_date_an_offset_from_a_field_leads_to_is_not_the_fields(answer: str) -> None:
    cands = extract_candidates(answer, CLOSURE, {"closureDate": "2026-05-01"})
    dates = [c for c in cands if c.type == "date"]
    assert dates, cands
    assert not [c for c in dates if c.field == "closureDate" and c.cue == "label"], dates


def test_a_date_right_after_the_label_is_still_the_fields() -> None:
    for answer in ("The closure date is 2026-05-15.", "Your closure date, 2026-05-15, stands."):
        cands = extract_candidates(answer, CLOSURE, {"closureDate": "2026-05-01"})
        assert [c for c in cands if c.field == "closureDate" and c.cue == "label"], answer


# A phone insurer, a complaints desk, a customs broker.
ASPECT_WORDS = [
    (
        "Claims are only paid once you have registered the device.",
        ["You must already have registered the device."],
        ["Claims are paid even if you have not registered the device."],
        (),
    ),
    (
        "Do not open a new complaint for the same order.",
        ["Please don't raise a fresh complaint for the same order."],
        ["Please open a new complaint for the same order."],
        ("Do not open a new complaint",),
    ),
    (
        "Do not lodge a new declaration for the same goods.",
        ["Please don't submit a fresh declaration for the same goods."],
        ["Please lodge a new declaration for the same goods."],
        ("Do not lodge a new declaration",),
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed", "terms"), ASPECT_WORDS)
def test_already_and_fresh_are_no_policy_words(
    step: str, kept: list[str], changed: list[str], terms: tuple[str, ...]
) -> None:
    _check(step, kept, changed, terms)


# An import agent, a building permit office, a wedding venue.
DECLARED_TERMS_IN_OTHER_WORDS = [
    (
        "Pay the duty before the goods arrive.",
        [
            "Please pay the duty ahead of the goods' arrival.",
            "Please pay the duty prior to the goods' arrival.",
        ],
        ["Please pay the duty after the goods' arrival."],
        ("before the goods arrive",),
    ),
    (
        "Renew the permit before it expires.",
        ["Renew the permit ahead of its expiry."],
        ["Renew the permit after it expires."],
        ("before it expires",),
    ),
    (
        "Do not contact the venue directly; we speak to them for you.",
        ["Please don't ring the venue directly; we speak to them for you."],
        ["Please contact the venue directly; we don't speak to them for you."],
        ("contact the venue directly",),
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed", "terms"), DECLARED_TERMS_IN_OTHER_WORDS)
def test_declared_terms_said_in_other_words(
    step: str, kept: list[str], changed: list[str], terms: tuple[str, ...]
) -> None:
    _check(step, kept, changed, terms)


def test_a_context_value_is_no_part_of_a_longer_number() -> None:
    """A context value "2" (a year of study) masked inside "£2,000" turned the step's
    amount into "£<value>,000", read as 0: a changed quantity."""
    from monitor.steps import _KnownValues, mask_known

    text = "Grants of up to £2,000 a year, for year 2 students; 1.2 and 2."
    values = ["2", "21877403"]
    want = "Grants of up to £2,000 a year, for year <value> students; 1.2 and <value>."
    assert mask_known(text, values) == want
    assert _KnownValues(tuple(values)).mask(text) == want
    _check(
        "Awards are grants of up to £2,000 per academic year.",
        [],
        ["Awards are grants of up to £3,000 per academic year."],
    )


class _AllClose:
    """A test double: every text the same unit vector."""

    model_id = "all-close"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.ones((len(texts), 4), dtype=np.float32) / 2


def test_the_entity_named_for_the_steps_noun() -> None:
    """A step's noun said as the entity's own name, the value of the context field that
    noun names ("the shipping line" -> "Maersk", ``shippingLine: Maersk``), is present."""
    from monitor.steps import StepVerifier, named_fields
    from tests.unit.monitor.test_failure_classes import item

    step = "Do not contact the port or the shipping line directly; we handle all correspondence."
    answer = (
        "Your container is held at Felixstowe. Please don't ring the port or Maersk yourself "
        "- everything goes via us."
    )
    observed = {"port": "Felixstowe", "shippingLine": "Maersk", "ref": "HB590442"}
    assert named_fields(observed, answer) == {"shipping", "line"}
    # (Codes, dates and amounts are no names.)
    assert named_fields({"ref": "HB590442", "due": "2026-03-03"}, "HB590442 2026-03-03") == set()
    ref = item("hold", f"Your container is held. {step}", [step])
    # (An embedder that finds every sentence close: what is left to decide is whether
    # the step's words are present.)
    verifier = StepVerifier(_AllClose())
    [without] = [v for v in verifier.verify(ref, answer, list(observed.values())) if v.step == step]
    [with_names] = [
        v
        for v in verifier.verify(ref, answer, list(observed.values()), (), observed)
        if v.step == step
    ]
    assert without.status == "missing", without
    assert with_names.status == "covered", with_names


# A marketplace's seller checks, a bank, a letting agent.
RECENT_SPAN = [
    (
        "Upload a photo ID and a bank statement dated within the last 90 days.",
        [
            "Upload a photo ID plus a bank statement that is no more than 90 days old.",
            "Upload a photo ID and a bank statement from the past 90 days.",
        ],
        [
            "Upload a photo ID plus a bank statement that is at least 90 days old.",
            "Upload a photo ID plus a bank statement that's over 90 days old.",
        ],
    ),
    (
        "Send a utility bill issued in the last 3 months.",
        ["Send a utility bill less than 3 months old."],
        ["Send a utility bill more than 3 months old."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), RECENT_SPAN)
def test_within_the_last_n_days_is_an_age_limit(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)
