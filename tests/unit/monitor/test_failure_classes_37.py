"""Strangers' golden sets continued (issue 19): misreadings found by new users' trials,
on hand-written cases from invented domains (none is a bench seed).

1. "A, after which B" against "A before B" was read as an antonym flip (before / after),
   though both put A first: "stays active for up to 90 days, after which you must renew
   it" / "stays active for up to 90 days before it needs renewing".
2. The end of a day as a deadline was midnight only with the time right after "until"
   or "by": "valid until 2026-07-03 at 23:59" (23:59) against "good until 23:59 on 3
   July" (midnight) was a settled "quantity changed: 23:59 -> 00:00".
3. Posting to the business said as a verb ("by posting us the form", "post the signed
   form back to us") was no way of contact: "through the landlord portal" swapped for it
   went unseen (the step was covered from its other clause).
4. "Both parties" said as the two of them ("binding on you and your landlord") was a
   policy term replaced: parties -> landlord.
5. A changed fee ("a £25 protection fee" for "the £15 protection fee") was a claim
   about the only money field the context had (depositAmount, which the item does not
   declare), so the step check never saw the change; now an amount with the exemplar's
   procedure amount's words beside it is that procedure's.
6. A negation in a clause of another statement ("our crews will not carry flammable
   items such as paint, and you'll need to keep cash, jewellery and passports with you
   personally") flips the step the other clauses state without one: still a known gap
   (a rule for it lost negation catches on unread bench sets, so it was taken out).
7. An age bounds a bare number: "aged 18 or over" -> "aged 18 or under" went unseen
   (bounds on bare numbers are not read, as counts are said from either side).
8. "Free to leave" is a permission, not a cost denied: "you're free to leave your
   contract with no early termination fee" counted two negations against "you can leave
   your contract without paying an early termination fee".
9. "At no cost" beside a clause on another fee ("- after that a £30 late change fee
   applies") did not keep the declared term "free of charge".
10. An amount put on what the step says is free ("moved free of charge" -> "move a
    check-up for £15") goes unseen: neither a flip (a cost is no negation) nor a
    quantity changed (the step states none). A known gap: a rule for it penalised
    correct paraphrases on an unread bench set and was taken out.
11. A condition that points back ("..., and if we can't, you're able to end your
    contract") negated the step its clause states ("We then have 30 days to fix the
    problem").
12. A sentence that holds a declared step and little else ("Booking RM60251 can be moved
    ... free of charge once, if you ask ...") was checked again as an optional step of
    its own, so a list heading ("here's how date changes work for RM40077:") read as
    that step altered; and "one date change is free" did not keep "free of charge once".
"""

from __future__ import annotations

import pytest

from monitor.judges.base import JudgeRequest, JudgeResult
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from monitor.steps import reference_steps
from monitor.text.quantities import quantities
from tests.conftest import ACCEPTED
from tests.unit.monitor.test_failure_classes_35 import _check

# A pet registry, a builder's quotes, a parking permit.
AFTER_WHICH = [
    (
        "A lost report stays active for up to 90 days, after which you must renew it.",
        [
            "The report stays active for up to 90 days before it needs renewing.",
            "Your lost report is live for up to 90 days; after that you'll have to renew it.",
        ],
        [
            "A lost report stays active for up to 90 days, before which you must renew it.",
            "You must renew the report before it has been active for 90 days.",
        ],
    ),
    (
        "The quote is valid for 30 days, after which prices may change.",
        ["Prices in the quote hold for 30 days before they may change."],
        ["The quote is valid for 30 days, before which prices may change."],
    ),
    (
        "Your permit lasts 12 months before it has to be renewed.",
        ["Your permit lasts 12 months, after which it has to be renewed."],
        ["Your permit has to be renewed before it has lasted 12 months."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), AFTER_WHICH)
def test_after_which_is_the_order_of_a_plain_before(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


@pytest.mark.parametrize(
    "text",
    [
        "Day pass DP730215 is valid until 2026-07-03 at 23:59.",
        "Your day pass is good until 23:59 on 3 July.",
        "Submit the essay by Friday 3 July at 11:59 pm.",
        "Upload it by the 3rd at 23:59.",
        "The permit runs until today at 11.59pm.",
        "Day pass <value> is valid until <value> at 23:59.",
    ],
)
def test_the_end_of_a_named_day_is_midnight_whichever_comes_first(text: str) -> None:
    assert "clock:0" in quantities(text)
    assert "clock:1439" not in quantities(text)


def test_a_time_that_is_no_deadline_stays_as_written() -> None:
    assert "clock:1439" in quantities("the shop opens at 23:59")
    # (The "at" belongs to another clause, not to the day the deadline names.)
    assert "clock:1439" in quantities("open until 10 pm and the bar at 23:59")


# A bike-share pass, a college's coursework, a council's parking permit.
DAY_END = [
    (
        "Day pass <value> is valid until <date> at 23:59.",
        [
            "Your day pass <value> is good until 23:59 on <date>.",
            "It's valid up until 11:59 pm on <date>.",
        ],
        ["Your day pass <value> is valid until <date> at 22:00."],
    ),
    (
        "Coursework must be uploaded by <date> at 11:59 pm.",
        ["Upload your coursework by 23:59 on <date>."],
        ["Coursework must be uploaded by <date> at 5 pm."],
    ),
    (
        "Visitor permits run until <date> at 23:59.",
        ["Your visitor permit runs until midnight on <date>."],
        ["Your visitor permit runs until noon on <date>."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), DAY_END)
def test_a_day_end_said_either_way_round(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


# A deposit scheme, a lettings agent, an insurer.
POSTED = [
    (
        "Register the deposit through the landlord portal and pay the £15 fee for each deposit.",
        ["Register it on the portal for landlords and pay the £15 fee per deposit."],
        [
            "Register it by posting us a completed paper registration form, and pay the "
            "£15 fee for each deposit."
        ],
    ),
    (
        "Send the signed form back through your online account within 14 days.",
        ["Within 14 days, upload the signed form in your online account."],
        ["Post the signed form back to us within 14 days."],
    ),
    (
        "Return the claim form by post within 30 days.",
        [
            "Within 30 days, post the claim form back to us.",
            "Within 30 days, post us the claim form.",
        ],
        ["Submit the claim form on our website within 30 days."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), POSTED)
def test_posting_to_us_is_a_way_of_contact(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


# An adjudication service, a house sale, an employment mediator.
PARTIES = [
    (
        "The decision is final and binding on both parties.",
        [
            "Their decision is final and binding on you and your landlord.",
            "The decision is final and binding on the tenant and the landlord.",
        ],
        ["The decision is final and binding on the landlord."],
    ),
    (
        "Both parties must sign the contract before completion.",
        ["You and the seller must both sign the contract before completion."],
        ["Only the seller must sign the contract before completion."],
    ),
    (
        "The mediator's fee is split equally between the parties.",
        ["The mediator's fee is split equally between you and your employer."],
        ["The mediator's fee is split equally between the employees."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), PARTIES)
def test_both_parties_said_as_the_two_of_them(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


# A deposit scheme, a storage company, a driving school: the item declares an id, the
# context also carries a money field the item does not declare.
CONTEXT_MONEY = [
    (
        "Landlord 4410382: register the deposit and pay the £15 protection fee for each deposit.",
        ("landlordId", "4410382", "depositAmount", "£1300.00"),
        "Landlord 6641093: register it and pay a £25 protection fee for each deposit.",
        "Your deposit of £1,250.00 is protected. Landlord 6641093: pay the £15 protection fee.",
    ),
    (
        "Unit 5521: the lock change fee is £40, payable at the desk.",
        ("unitId", "5521", "monthlyRent", "£95.00"),
        "Unit 7730: the lock change fee is £60, payable at the desk.",
        "Unit 7730 rents at £85.00 a month, and the lock change fee is £40.",
    ),
    (
        "Pupil 90213: a late cancellation costs £30 per lesson.",
        ("pupilId", "90213", "balance", "£120.00"),
        "Pupil 44817: a late cancellation costs £45 per lesson.",
        "Pupil 44817 has a balance of £150.00, and a late cancellation costs £30 per lesson.",
    ),
]


@pytest.mark.parametrize(("answer", "fields", "changed_fee", "wrong_fact"), CONTEXT_MONEY)
def test_a_changed_fee_is_no_claim_about_a_context_money_field(
    answer: str, fields: tuple[str, str, str, str], changed_fee: str, wrong_fact: str
) -> None:
    id_name, id_value, money_name, money_value = fields
    ref = GoldenItem.model_validate(
        {
            "id": "t", "intent": "t", "agent": "a", "question": "?", "answer": answer,
            "parameters": {id_name: {"value": id_value, "type": "digits", "length": len(id_value)}},
        }
    )  # fmt: skip
    live_id = changed_fee.split(":", maxsplit=1)[0].rsplit(maxsplit=1)[-1]
    context = {id_name: live_id, money_name: money_value}
    judge = StructuralJudge()

    def judged(text: str) -> JudgeResult:
        trace = Trace(trace_id="t", question="q", answer=text, context=context)
        return judge.judge_sync(JudgeRequest(trace, ref, ACCEPTED))

    r = judged(changed_fee)
    assert not [c for c in r.claims if c.field == money_name], r.claims
    assert any("quantity changed" in (s.cue or "") for s in r.steps), r.rationale
    # An amount said about the field itself is still a claim, and a wrong one caught.
    r = judged(wrong_fact)
    assert [c.status for c in r.claims if c.field == money_name] == ["contradicted"]


# A removals firm, a school trip, a hospital.
NEGATION_APART = [
    pytest.param(
        "Cash, jewellery and passports must be carried by you personally.",
        [
            "Our crews will not carry flammable items such as paint, petrol, gas bottles or "
            "aerosols, and you'll need to keep cash, jewellery and passports with you personally."
        ],
        ["Cash, jewellery and passports must not be carried by you personally."],
        marks=pytest.mark.xfail(
            strict=True,
            reason="known gap: a negation in a clause that shares one word with the step "
            '("will not carry flammable items"); the rule that read past such clauses '
            "cost 20 negation catches on two unread bench sets and was taken out",
        ),
    ),
    (
        "Pupils must bring a packed lunch and a waterproof coat.",
        [
            "Phones are not allowed on the coach, and every pupil needs to bring a packed "
            "lunch and a waterproof coat."
        ],
        ["Pupils must not bring a packed lunch or a waterproof coat."],
    ),
    (
        "Visitors must wash their hands before entering the ward.",
        [
            "Flowers aren't permitted on the ward for hygiene reasons, and visitors should "
            "wash their hands before entering the ward."
        ],
        ["Visitors don't need to wash their hands before entering the ward."],
    ),
]


NEGATION_APART.append(
    (
        "The driver must show a licence at the desk and must be at least 21 years old.",
        ["At the desk the driver needs to show a licence, and they must be 21 or older."],
        # (A negating clause that states the step's number is the step's.)
        ["They'll need to show a licence at the desk, and they don't have to be 21 or older."],
    )
)


@pytest.mark.parametrize(("step", "kept", "changed"), NEGATION_APART)
def test_a_negation_in_a_clause_of_another_statement(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


# A broadband installer, a children's ward, an e-bike hire.
AGE_BOUND = [
    (
        "An adult aged 18 or over must be at the property for the whole appointment.",
        ["Someone aged 18 or older must stay at the property for the whole appointment."],
        ["Someone aged 18 or under must be at the property for the whole appointment."],
    ),
    (
        "Children aged 12 or under must be accompanied by an adult.",
        ["Kids aged 12 and under need an adult with them."],
        ["Children aged 12 or over must be accompanied by an adult."],
    ),
    (
        "Riders must be aged 16 or over to hire an e-bike.",
        ["You have to be aged 16 or older to hire an e-bike."],
        ["Riders must be aged 16 or under to hire an e-bike."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), AGE_BOUND)
def test_an_age_bounds_a_bare_number(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


# A broadband contract, a gym, a hotel.
FREE_TO = [
    (
        "If the speed is still low after 30 days, you can leave your contract without paying "
        "an early termination fee.",
        [
            "If it's still slow after those 30 days, you're free to leave your contract with no "
            "early termination fee."
        ],
        [
            "If it's still slow after those 30 days, you can leave your contract but you "
            "must pay an early termination fee."
        ],
    ),
    (
        "You may cancel your membership at any time.",
        ["You're free to cancel your membership at any time."],
        ["You may not cancel your membership at any time."],
    ),
    (
        "Guests can choose any free room on the day.",
        ["Guests are free to choose any free room on the day."],
        ["Guests cannot choose any free room on the day."],
    ),
]


# "Free to" that is the cost: free to the customer, a bullet's "Free to cancel", "it's
# free to move".
FREE_TO += [
    (
        "The inverter is replaced free of charge; call-outs for damage are charged at £120.",
        ["The inverter is replaced free to you; call-outs for damage are charged at £120."],
        ["The inverter is replaced at no cost to you, whereas visits for damage are not charged."],
    ),
    (
        "You can cancel a lesson free of charge up to 48 hours before the start.",
        ["- Free to cancel: until 48h before the start"],
        ["- Cancelling: charged in full, even 48h before the start"],
    ),
    (
        "Moving your service is free while you are in contract.",
        ["It's free to move while you're in contract."],
        ["Moving your service is not free while you are in contract."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), FREE_TO)
def test_free_to_is_a_permission(step: str, kept: list[str], changed: list[str]) -> None:
    _check(step, kept, changed)


# A broadband installer, a dentist, a car hire desk.
NO_COST_BESIDE_A_FEE = [
    (
        "You can reschedule it free of charge in the My Account app up to 48 hours before "
        "the appointment.",
        [
            "You're able to move it at no cost yourself in the My Account app, as long as you "
            "do it at least 48 hours before the appointment - after that a £30 late change "
            "fee applies."
        ],
        [
            "You can move it for £10 in the My Account app, as long as you do it at least 48 "
            "hours before the appointment."
        ],
        ("free of charge", "My Account app"),
    ),
    (
        "Check-ups can be moved free of charge up to 24 hours before.",
        [
            "You can move a check-up at no charge up to 24 hours before; later than that "
            "it's a £15 fee."
        ],
        ["Check-ups can be moved for a fee up to 24 hours before."],
        ("free of charge",),
    ),
    (
        "A second driver is added free of charge at the desk.",
        ["We add a second driver at the desk with no fee, though a young driver costs £12 a day."],
        ["We add a second driver at the desk for £12 a day."],
        ("free of charge",),
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed", "terms"), NO_COST_BESIDE_A_FEE)
def test_no_cost_in_its_own_clause_keeps_free_of_charge(
    step: str, kept: list[str], changed: list[str], terms: tuple[str, ...]
) -> None:
    _check(step, kept, changed, terms)


# A dentist, a gym, a library.
CHARGE_ADDED = [
    (
        "Check-ups can be moved free of charge up to 24 hours before.",
        ["Check-ups can be moved without charge up to 24 hours before."],
        ["You can move a check-up for £15 up to 24 hours before."],
    ),
    (
        "Every new member gets a free induction session with a trainer.",
        ["New members all get an induction session with a trainer at no cost."],
        ["Every new member can book an induction session with a trainer for £20."],
    ),
    (
        "Renewing a loan online is free.",
        ["There's no fee for renewing a loan online."],
        ["Renewing a loan online costs 50p."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), CHARGE_ADDED)
def test_an_amount_on_what_is_free_said_free_is_kept(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, [])


@pytest.mark.xfail(
    strict=True,
    reason="known gap: a charge put on what the step says is free; the rule that read it "
    "penalised correct paraphrases on an unread bench set and was taken out",
)
def test_an_amount_on_what_is_free() -> None:
    step, _, changed = CHARGE_ADDED[0]
    _check(step, [], changed)


# A broadband provider, a plumber, a tutoring service.
IF_NOT_BACK = [
    (
        "We then have 30 days to fix the problem.",
        [
            "From then on we have 30 days to put it right, and if we can't, you're able to "
            "end your contract early with no early termination fee to pay."
        ],
        [
            "From then on we don't have 30 days to put it right, and if we can't, you're "
            "able to end your contract early."
        ],
    ),
    (
        "The plumber will try to repair the boiler on the first visit.",
        [
            "On the first visit the plumber tries to repair the boiler, and if they can't, "
            "they order the part."
        ],
        [
            "The plumber won't try to repair the boiler on the first visit, and if not, they "
            "order the part."
        ],
    ),
    (
        "Your tutor replies to messages within 2 days.",
        ["Messages get a reply from your tutor within 2 days, and if not, email the office."],
        ["Your tutor never replies to messages within 2 days."],
    ),
]


@pytest.mark.parametrize(("step", "kept", "changed"), IF_NOT_BACK)
def test_a_condition_that_points_back_negates_nothing(
    step: str, kept: list[str], changed: list[str]
) -> None:
    _check(step, kept, changed)


def _stepped(answer: str, steps: list[str]) -> GoldenItem:
    return GoldenItem.model_validate(
        {
            "id": "t", "intent": "t", "agent": "a", "question": "?", "answer": answer,
            "steps": steps,
            "parameters": {"ref": {"value": "RM60251", "type": "alnum", "length": 7}},
        }
    )  # fmt: skip


@pytest.mark.parametrize(
    ("answer", "step", "optional"),
    [
        # a removals firm, a clinic, a hire shop
        (
            "Booking RM60251 can be moved to a new date free of charge once, if you ask at "
            "least 10 days before the move.",
            "can be moved to a new date free of charge once, if you ask at least 10 days "
            "before the move.",
            [],
        ),
        (
            "For RM60251, bring your photo ID and arrive 10 minutes early.",
            "bring your photo ID and arrive 10 minutes early.",
            [],
        ),
        (
            "If the tent comes back wet or muddy, RM60251 is charged a £20 drying fee.",
            "RM60251 is charged a £20 drying fee.",
            ["If the tent comes back wet or muddy, RM60251 is charged a £20 drying fee."],
        ),
    ],
)
def test_a_sentence_around_a_declared_step_is_no_second_step(
    answer: str, step: str, optional: list[str]
) -> None:
    steps = reference_steps(_stepped(answer, [step]))
    assert [s.text for s in steps if not s.required] == optional


def test_once_is_kept_by_one() -> None:
    step = (
        "It can be moved to a new date free of charge once, if you ask at least 10 days "
        "before the move."
    )
    _check(
        step,
        ["One date change is free if you request it 10 or more days before the move."],
        [
            "It can be moved to a new date for a fee once, if you ask at least 10 days "
            "before the move."
        ],
        ("free of charge once",),
    )
