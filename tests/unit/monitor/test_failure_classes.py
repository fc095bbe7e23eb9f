"""Issue 19's failure classes, on hand-written cases from invented domains (none taken
from a bench seed): paraphrases that must pass, real changes that must be caught.

Classes: (1) a policy term "replaced" by ordinary rewording, (2) enum values used as
ordinary words read as claims, (3) greedy step alignment, (4) polarity cues without a
polarity change, (5) numbers and number words.
"""

from __future__ import annotations

import pytest

from monitor.judges.base import JudgeRequest, is_penalized
from monitor.judges.structural import StructuralJudge
from monitor.schemas import GoldenItem, Trace
from monitor.steps import StepVerifier
from tests.conftest import ACCEPTED, item_with_params


def item(ident: str, answer: str, steps: list[str], terms: tuple[str, ...] = ()) -> GoldenItem:
    return GoldenItem.model_validate(
        {
            "id": ident,
            "intent": ident,
            "agent": "a",
            "question": "how?",
            "answer": answer,
            "steps": steps,
            "policy_terms": list(terms),
        }
    )


BIKE = item(
    "bike_return",
    "Return the bike to any dock within 2 hours. Late returns are charged $5 per hour. "
    "The deposit is refunded by bank transfer.",
    ["Return the bike to any dock within 2 hours.", "Late returns are charged $5 per hour."],
    ("by bank transfer",),
)
GROOMING = item(
    "groom_cancel",
    "Cancel the grooming slot in the app no later than 24 hours before it starts. "
    "No fee is charged when you cancel in time. The groomer will call you to confirm.",
    [
        "Cancel the grooming slot in the app no later than 24 hours before it starts.",
        "No fee is charged when you cancel in time.",
    ],
)
MEALS = item(
    "meals_signup",
    "Sign up for school meals in the parent portal at least six weeks before term. "
    "The meal plan costs $259.01 per term. Children with allergies must bring a doctor's note.",
    [
        "Sign up for school meals in the parent portal at least six weeks before term.",
        "Children with allergies must bring a doctor's note.",
    ],
)
BOAT = item(
    "boat_hire",
    "Book the boat online at least 3 days ahead. Life jackets are included in the price. "
    "Bring a photo ID; it is checked at the pier.",
    ["Book the boat online at least 3 days ahead.", "Bring a photo ID; it is checked at the pier."],
)


def statuses(ref: GoldenItem, answer: str) -> dict[int, str]:
    return {s.index: s.status for s in StepVerifier().verify(ref, answer, [])}


def wrong(ref: GoldenItem, answer: str) -> bool:
    return any(s in ("negated", "altered") for s in statuses(ref, answer).values())


# (1) rewording is not a policy swap; a swapped channel or fee is.
@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            BIKE,
            "Please bring the bike back to a dock within 2 hours. A late return costs $5 for "
            "each hour. Your deposit comes back to you by bank transfer.",
        ),
        (
            GROOMING,
            "Use the app to cancel your grooming slot no later than 24 hours before it begins. "
            "Cancelling in time means no fee. Expect a call from the groomer to confirm.",
        ),
        pytest.param(
            BOAT,
            "Reserve the boat online at least 3 days ahead. The price includes life jackets. "
            "Please bring photo ID, which staff check at the pier.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="known gap: a verb swap outside the common-verb list in an otherwise "
                "unchanged sentence reads as a policy swap (a noun-only rule was tried and "
                "was not better on the held-out test domains)",
            ),
        ),
        (
            MEALS,
            "Register your child for school meals through the parent portal six weeks or more "
            "before term starts. The plan is USD 259.01 a term. If your child has allergies, "
            "a doctor's note must be brought.",
        ),
    ],
)
def test_rewording_is_not_a_policy_swap(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (BIKE, "by bank transfer", "as store credit"),
        (BOAT, "photo ID", "utility bill"),
        (MEALS, "a doctor's note", "a school letter"),
    ],
)
def test_a_swapped_policy_term_is_caught(ref: GoldenItem, old: str, new: str) -> None:
    assert old in ref.answer
    got = statuses(ref, ref.answer.replace(old, new))
    assert set(got.values()) != {"covered"}, got


# (4) equivalent phrasings with a negative word are not negations; an inserted "not" is.
@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            GROOMING,
            "Cancel the grooming slot in the app within 24 hours before it starts at the latest. "
            "Cancelling in time is free of charge. The groomer calls you to confirm.",
        ),
        (
            BIKE,
            "Return the bike to any dock in no more than 2 hours. Late returns are charged "
            "$5 per hour. The deposit is refunded by bank transfer.",
        ),
        (
            BOAT,
            "Book the boat online no later than 3 days before you sail, and at least 3 days "
            "ahead. Life jackets are included in the price. Bring a photo ID; it is checked "
            "at the pier.",
        ),
    ],
)
def test_negative_wording_without_a_polarity_change(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (GROOMING, "No fee is charged", "A fee is charged"),
        (MEALS, "must bring", "do not need to bring"),
        (BOAT, "are included in", "are not included in"),
    ],
)
def test_a_real_negation_is_caught(ref: GoldenItem, old: str, new: str) -> None:
    changed = ref.answer.replace(old, new)
    assert changed != ref.answer
    assert "negated" in statuses(ref, changed).values(), statuses(ref, changed)


# (5) numbers in words, other units, other currency spellings are the same numbers.
@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (MEALS, "six weeks", "6 weeks"),
        (MEALS, "$259.01", "USD 259.01"),
        (BIKE, "2 hours", "two hours"),
        (BOAT, "3 days", "three days"),
    ],
)
def test_the_same_quantity_written_differently(ref: GoldenItem, old: str, new: str) -> None:
    assert not wrong(ref, ref.answer.replace(old, new))


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (MEALS, "six weeks", "two weeks"),
        (BIKE, "2 hours", "5 hours"),
        (BIKE, "per hour", "per day"),
        (BOAT, "3 days", "3 hours"),
    ],
)
def test_a_changed_quantity_is_caught(ref: GoldenItem, old: str, new: str) -> None:
    assert "altered" in statuses(ref, ref.answer.replace(old, new)).values()


# (5) whole answers, three more domains: a number stated in another form is the same
# number (hours of day, money in words, a month for 30 days, how often); a changed one,
# in any form, is caught.
GYM = item(
    "gym_cancel",
    "Cancel classes in the app at least 12 hours ahead. A late cancellation fee of GBP 30 "
    "applies. Members get a reminder by email.",
    [
        "Cancel classes in the app at least 12 hours ahead.",
        "A late cancellation fee of GBP 30 applies.",
    ],
    ("GBP 30",),
)
INVOICE = item(
    "invoice_terms",
    "Invoices are payable within 30 days. Pay by bank transfer quoting the invoice number. "
    "Statements are sent twice a year.",
    [
        "Invoices are payable within 30 days.",
        "Pay by bank transfer quoting the invoice number.",
        "Statements are sent twice a year.",
    ],
)
LIBRARY = item(
    "library_returns",
    "The return desk closes at 17:00. Books left in the drop box are checked in the next "
    "morning. A late fee of $1 per day applies.",
    ["The return desk closes at 17:00.", "A late fee of $1 per day applies."],
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            GYM,
            "Use the app to cancel a class 12 hours or more before it starts; if you cancel "
            "later, you pay a GBP 30 late fee. We email members a reminder.",
        ),
        (
            GYM,
            "Cancel in the app half a day ahead at the latest, otherwise the late fee is thirty "
            "pounds. Members are reminded by email.",
        ),
        (
            INVOICE,
            "Payment terms are net 30: pay by bank transfer and quote the invoice number. You "
            "get a statement every 6 months.",
        ),
        (
            INVOICE,
            "Each invoice must be paid within a month, by bank transfer with the invoice number "
            "as the reference; statements go out every six months.",
        ),
        (
            LIBRARY,
            "The return desk shuts at 5 in the afternoon, and late books cost one dollar a day. "
            "Books in the drop box are checked in the next morning.",
        ),
        (
            LIBRARY,
            "Return desk hours end at 5 pm. Anything in the drop box is checked in the following "
            "morning. Late returns are charged $1 for each day.",
        ),
    ],
)
def test_a_number_written_another_way_is_the_same_number(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            GYM,
            "Use the app to cancel a class 12 hours or more before it starts; if you cancel "
            "later, you pay a GBP 3 late fee. We email members a reminder.",
        ),
        (
            INVOICE,
            "Invoices are payable net 90; pay by bank transfer quoting the invoice number. "
            "Statements are sent every 6 months.",
        ),
        (
            INVOICE,
            "Each invoice must be paid within a month, by bank transfer with the invoice number "
            "as the reference; statements go out once a year.",
        ),
        (
            LIBRARY,
            "The return desk shuts at 4 in the afternoon, and late books cost one dollar a day. "
            "Books in the drop box are checked in the next morning.",
        ),
        (
            LIBRARY,
            "Return desk hours end at 5 pm. Anything in the drop box is checked in the following "
            "morning. A late fee of $1 applies for each week.",
        ),
    ],
)
def test_a_changed_number_in_any_form_is_caught(ref: GoldenItem, answer: str) -> None:
    # "altered" by the quantity rule, or "missing" where the step's policy words went
    # with the number ("within 30 days" -> "net 90").
    assert {"altered", "missing"} & set(statuses(ref, answer).values()), statuses(ref, answer)


# (2) an enum value used as an ordinary word is not a claim about the status.
PERMIT_STATUS = GoldenItem.model_validate(
    {
        "id": "kennel_licence",
        "intent": "licence_status",
        "agent": "a",
        "question": "What is the status of licence 55123409?",
        "answer": "Licence 55123409 is Pending. The fee is released once the form is approved.",
        "parameters": {
            "licence": {"value": "55123409", "type": "digits", "label": "licence"},
            "status": {
                "value": "Pending",
                "type": "enum",
                "values": ["Pending", "Approved", "Rejected"],
                "label": "status",
            },
        },
    }
)


def test_an_enum_word_in_a_procedure_sentence_is_not_a_status_claim() -> None:
    answer = "Licence 77001234 is Pending. The fee is released once the form is approved."
    trace = Trace(
        trace_id="t",
        question="?",
        answer=answer,
        context={"licence": "77001234", "status": "Pending"},
    )
    r = StructuralJudge().judge_sync(
        JudgeRequest(trace=trace, reference=PERMIT_STATUS, gate=ACCEPTED)
    )
    assert not is_penalized(r.scores), r.claims


# (2) a value the paraphrase moved away from its label is still a claim about the entity
# when it is the only field of its type: a wrong date, amount or code is contradicted.
STAY = GoldenItem.model_validate(
    {
        "id": "cabin_stay",
        "intent": "stay_status",
        "agent": "a",
        "question": "When is stay 4410 checking in?",
        "answer": "Stay 4410 checks in on 2026-08-14. Keys are in the lockbox.",
        "parameters": {
            "stay": {"value": "4410", "type": "digits", "label": "stay"},
            "checkIn": {"value": "2026-08-14", "type": "date", "label": "check-in"},
        },
    }
)


@pytest.mark.parametrize(
    ("answer", "status", "penalised"),
    [
        (
            "For stay 5120 you can arrive from 2026-09-03 - the keys wait in the lockbox.",
            "supported",
            False,
        ),
        (
            "For stay 5120 you can arrive from 2026-09-30 - the keys wait in the lockbox.",
            "contradicted",
            True,
        ),
    ],
)
def test_a_date_moved_away_from_its_label_is_still_checked(
    answer: str, status: str, penalised: bool
) -> None:
    trace = Trace(
        trace_id="t",
        question="?",
        answer=answer,
        context={"stay": "5120", "checkIn": "2026-09-03"},
    )
    r = StructuralJudge().judge_sync(JudgeRequest(trace=trace, reference=STAY, gate=ACCEPTED))
    assert [c.status for c in r.claims if c.field == "checkIn"] == [status], r.claims
    assert is_penalized(r.scores) is penalised, r.claims


# (5) a procedure amount changed in a reworded sentence: an amount tied to no field is
# the procedure's, not an instance value to mask.
DENTIST = GoldenItem.model_validate(
    {
        "id": "dentist_cancel",
        "intent": "cancel",
        "agent": "a",
        "question": "Can I cancel appointment 310774?",
        "answer": "Cancel appointment 310774 in the app. A $40 fee applies to cancellations "
        "made less than a day ahead.",
        "parameters": {"appointment": {"value": "310774", "type": "digits"}},
        "steps": ["A $40 fee applies to cancellations made less than a day ahead."],
    }
)
FERRY = GoldenItem.model_validate(
    {
        "id": "ferry_change",
        "intent": "change",
        "agent": "a",
        "question": "Can I change ferry booking 88213?",
        "answer": "Booking 88213 can be moved to another sailing online. Each change costs "
        "€25 per vehicle.",
        "parameters": {"booking": {"value": "88213", "type": "digits"}},
        "steps": ["Each change costs €25 per vehicle."],
    }
)
GALLERY = GoldenItem.model_validate(
    {
        "id": "gallery_hire",
        "intent": "hire",
        "agent": "a",
        "question": "How do I hire room 12?",
        "answer": "Rooms are hired through the events team. A £150 deposit secures the date.",
        "parameters": {"room": {"value": "12", "type": "digits"}},
        "steps": ["A £150 deposit secures the date."],
    }
)


@pytest.mark.parametrize(
    ("ref", "context", "answer", "penalised"),
    [
        (
            DENTIST,
            {"appointment": "552010"},
            "You can cancel 552010 in the app; cancelling less than a day ahead costs a $40 fee.",
            False,
        ),
        (
            DENTIST,
            {"appointment": "552010"},
            "You can cancel 552010 in the app; cancelling less than a day ahead costs a $4 fee.",
            True,
        ),
        (FERRY, {"booking": "47120"}, "Move 47120 online; every change is €25 a vehicle.", False),
        (FERRY, {"booking": "47120"}, "Move 47120 online; every change is €52 a vehicle.", True),
        (
            GALLERY,
            {"room": "7"},
            "The events team handles room 7; the date is held once you pay a £150 deposit.",
            False,
        ),
        (
            GALLERY,
            {"room": "7"},
            "The events team handles room 7; the date is held once you pay a £15 deposit.",
            True,
        ),
    ],
)
def test_a_procedure_amount_changed_in_other_words_is_caught(
    ref: GoldenItem, context: dict[str, str], answer: str, penalised: bool
) -> None:
    assert judged(ref, answer, context)[0] is penalised


# (5) the same noun counted differently is a changed policy; an article is no count.
LOUNGE = item(
    "lounge_guest",
    "Members may bring one guest into the lounge. Children under two enter free.",
    ["Members may bring one guest into the lounge."],
)
LOCKER = item(
    "locker_rent",
    "Each member can rent 2 lockers per season. Keys are returned at the front desk.",
    ["Each member can rent 2 lockers per season."],
)
PARCEL = item(
    "parcel_pickup",
    "Show a single ID card at the counter to collect the parcel.",
    ["Show a single ID card at the counter to collect the parcel."],
)


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (LOUNGE, "one guest", "three guests"),
        (LOCKER, "2 lockers", "four lockers"),
        (PARCEL, "a single ID card", "two ID cards"),
    ],
)
def test_a_changed_count_of_the_same_noun_is_caught(ref: GoldenItem, old: str, new: str) -> None:
    assert "altered" in statuses(ref, ref.answer.replace(old, new)).values()


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (LOUNGE, "one guest", "a guest"),
        (LOCKER, "2 lockers", "two lockers"),
        (PARCEL, "a single ID card", "one ID card"),
    ],
)
def test_the_same_count_written_differently(ref: GoldenItem, old: str, new: str) -> None:
    assert not wrong(ref, ref.answer.replace(old, new))


# (3) step alignment: clauses joined by ";" or ", and" are candidates of their own, and a
# step is matched to the clause that states it, not to a sentence that shares a word.
COURIER = item(
    "parcel_delivery",
    "Track the parcel in the app. Make sure someone can sign for it on the delivery day. "
    "If nobody is home, the courier leaves a card and tries again the next working day.",
    [
        "Track the parcel in the app.",
        "Make sure someone can sign for it on the delivery day.",
        "If nobody is home, the courier leaves a card and tries again the next working day.",
    ],
)
LIBRARY = item(
    "library_hold",
    "Place the hold from the catalogue page. Collect the book from the front desk within 7 "
    "days of the pickup notice. Bring your library card to collect it.",
    [
        "Place the hold from the catalogue page.",
        "Collect the book from the front desk within 7 days of the pickup notice.",
        "Bring your library card to collect it.",
    ],
)
GYM = item(
    "gym_freeze",
    "Request the freeze in the members' area. The freeze lasts at most 3 months. "
    "Your membership fee is paused while the account is frozen.",
    [
        "Request the freeze in the members' area.",
        "The freeze lasts at most 3 months.",
        "Your membership fee is paused while the account is frozen.",
    ],
)


def matched(ref: GoldenItem, answer: str) -> dict[int, tuple[str, str | None]]:
    return {s.index: (s.status, s.matched_sentence) for s in StepVerifier().verify(ref, answer, [])}


@pytest.mark.parametrize(
    ("ref", "answer", "clauses"),
    [
        (
            COURIER,
            "You can follow the parcel in the app; please have someone at home who can sign "
            "for it on the delivery day, and if nobody is in, the courier leaves a card and "
            "comes back the next working day.",
            {
                0: "You can follow the parcel in the app",
                1: "please have someone at home who can sign for it on the delivery day",
            },
        ),
        (
            LIBRARY,
            "Put the hold on from the catalogue page, and collect the book at the front desk "
            "within 7 days of the pickup notice; bring your library card when you collect it.",
            {
                0: "Put the hold on from the catalogue page",
                2: "bring your library card when you collect it.",
            },
        ),
        (
            GYM,
            "Ask for the freeze in the members' area; it can last at most 3 months, and your "
            "membership fee is paused while the account is frozen.",
            {
                0: "Ask for the freeze in the members' area",
                1: "it can last at most 3 months",
                2: "your membership fee is paused while the account is frozen.",
            },
        ),
    ],
)
def test_clauses_joined_by_semicolon_or_and_are_separate_candidates(
    ref: GoldenItem, answer: str, clauses: dict[int, str]
) -> None:
    got = matched(ref, answer)
    assert {s for s, _ in got.values()} == {"covered"}, got
    for k, clause in clauses.items():
        assert got[k][1] == clause, got[k]


@pytest.mark.parametrize(
    ("ref", "answer", "k", "clause"),
    [
        pytest.param(
            COURIER,
            "Follow the parcel in the app, which also shows the delivery day. Have someone "
            "there to sign for it. If nobody is home, the courier leaves a card and tries "
            "again the next working day.",
            1,
            "Have someone there to sign for it.",
        ),
        (
            LIBRARY,
            "Place the hold from the catalogue page; your library card number is on the "
            "pickup notice. Collect the book from the front desk within 7 days of that "
            "notice. Bring the card itself to collect it.",
            2,
            "Bring the card itself to collect it.",
        ),
        (
            GYM,
            "Request the freeze in the members' area, where the freeze dates are shown. It "
            "lasts at most 3 months. The membership fee is paused while the account is frozen.",
            1,
            "It lasts at most 3 months.",
        ),
    ],
)
def test_a_step_is_matched_to_its_clause_not_to_a_sentence_sharing_a_word(
    ref: GoldenItem, answer: str, k: int, clause: str
) -> None:
    got = matched(ref, answer)
    assert got[k] == ("covered", clause), got


# One-to-one alignment (a global assignment of steps to answer sentences): a step is read
# from a sentence of its own, not from a clause or a window of a sentence that states
# another step. Greedy per-step matching read each of these from the neighbour's sentence.
MUSEUM = item(
    "museum_visit",
    "Buy the ticket in the museum app. Show the QR code at the entrance gate. Large bags go "
    "in the cloakroom by the shop.",
    [
        "Buy the ticket in the museum app.",
        "Show the QR code at the entrance gate.",
        "Large bags go in the cloakroom by the shop.",
    ],
)
KENNEL = item(
    "kennel_stay",
    "Book the kennel stay online. Bring the vaccination record at drop-off. Collect your dog "
    "before 6 pm on the last day.",
    [
        "Book the kennel stay online.",
        "Bring the vaccination record at drop-off.",
        "Collect your dog before 6 pm on the last day.",
    ],
)
WORKSHOP = item(
    "bike_repair",
    "Leave the bike at the workshop counter. The mechanic must call you before any extra "
    "repair. Pay when you collect the bike.",
    [
        "Leave the bike at the workshop counter.",
        "The mechanic must call you before any extra repair.",
        "Pay when you collect the bike.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "answer", "k", "segment"),
    [
        (
            MUSEUM,
            "Buy the ticket in the museum app, which also holds the QR code. Scan it at the "
            "entrance gate. Large bags go in the cloakroom by the shop.",
            1,
            "Scan it at the entrance gate.",
        ),
        (
            KENNEL,
            "Book the kennel stay online, where the vaccination rules are listed. Have the "
            "record with you when you drop your dog off. Collect your dog before 6 pm on the "
            "last day.",
            1,
            "Have the record with you when you drop your dog off.",
        ),
        (
            KENNEL,
            "Book the kennel stay online, and no record is checked at booking. At drop-off, "
            "bring the vaccination papers. Collect your dog before 6 pm on the last day.",
            1,
            "At drop-off, bring the vaccination papers.",
        ),
        (
            WORKSHOP,
            "Leave the bike at the workshop counter; no repair is started without a quote. "
            "Before doing any extra work, the mechanic phones you. Pay when you collect the "
            "bike.",
            1,
            "Before doing any extra work",
        ),
    ],
)
def test_a_step_is_read_from_its_own_sentence_not_a_neighbours(
    ref: GoldenItem, answer: str, k: int, segment: str
) -> None:
    got = matched(ref, answer)
    assert got[k] == ("covered", segment), got


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            MUSEUM,
            "Buy the ticket in the museum app; no QR code is printed. Scan it on your phone at "
            "the entrance gate. Large bags go in the cloakroom by the shop.",
        ),
        (
            WORKSHOP,
            "Leave the bike at the workshop counter; no extra repair is done there. The "
            "mechanic phones you before anything else is fixed. Pay when you collect the bike.",
        ),
        (
            KENNEL,
            "Book the kennel stay online; no vaccination record is needed to book. Have the "
            "record with you when you drop your dog off. Collect your dog before 6 pm on the "
            "last day.",
        ),
    ],
)
def test_a_negation_in_a_neighbours_sentence_is_not_this_steps(
    ref: GoldenItem, answer: str
) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer", "k"),
    [
        (
            MUSEUM,
            "Buy the ticket in the museum app, which also holds the QR code. Do not show it at "
            "the entrance gate. Large bags go in the cloakroom by the shop.",
            1,
        ),
        (
            KENNEL,
            "Book the kennel stay online, where the vaccination rules are listed. Do not bring "
            "the record when you drop your dog off. Collect your dog before 6 pm on the last "
            "day.",
            1,
        ),
        (
            WORKSHOP,
            "Leave the bike at the workshop counter; the mechanic calls you about the quote. "
            "The mechanic does not call you before any extra repair. Pay when you collect the "
            "bike.",
            1,
        ),
    ],
)
def test_a_negation_in_the_steps_own_sentence_is_still_caught(
    ref: GoldenItem, answer: str, k: int
) -> None:
    assert statuses(ref, answer)[k] == "negated", matched(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer", "k"),
    [
        # (Without an embedder, term recall alone finds the deleted "sign for it on the
        # delivery day" at 0.40 in the clause that states the next step: a stand-in.)
        (
            COURIER,
            "Follow the parcel in the app. On the delivery day the courier leaves a card if "
            "nobody is home and tries again the next working day.",
            1,
        ),
        (
            LIBRARY,
            "Put the hold on from the catalogue page and collect the book at the front desk "
            "within 7 days of the pickup notice.",
            2,
        ),
        (
            GYM,
            "Ask for the freeze in the members' area; the membership fee is paused while the "
            "account is frozen, and the freeze area is open daily.",
            1,
        ),
    ],
)
def test_a_deleted_step_is_not_found_in_a_clause_that_shares_a_word(
    ref: GoldenItem, answer: str, k: int
) -> None:
    assert matched(ref, answer)[k][0] == "missing", matched(ref, answer)


# (5) an amount the procedure states, changed in an otherwise verbatim answer: amounts are
# masked as entity slots for the wording comparison, so the verbatim shortcuts must not
# hide a changed amount.
DEPOSIT = item(
    "flat_deposit",
    "Pay the £200 deposit online before move-in. The deposit is returned within 30 days of "
    "move-out.",
    [
        "Pay the £200 deposit online before move-in.",
        "The deposit is returned within 30 days of move-out.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (DEPOSIT, "£200", "£20"),
        (BIKE, "$5 per hour", "$50 per hour"),
        (MEALS, "$259.01", "$25.90"),
    ],
)
def test_a_changed_amount_in_a_verbatim_answer_is_caught(
    ref: GoldenItem, old: str, new: str
) -> None:
    assert old in ref.answer
    got = statuses(ref, ref.answer.replace(old, new))
    assert "altered" in got.values(), got
    assert set(statuses(ref, ref.answer).values()) == {"covered"}


# A step that only states instance facts is covered by those facts in any wording,
# when none is contradicted; not when a fact is contradicted or left out.
KENNEL = item_with_params(
    "kennel_booking",
    "Kennel booking KB4471 is confirmed. Drop your dog off after 9 am on arrival day.",
    {
        "bookingRef": {"value": "KB4471", "type": "alnum", "label": "kennel booking"},
        "bookingStatus": {
            "value": "confirmed",
            "type": "enum",
            "values": ["confirmed", "waitlisted", "cancelled"],
            "label": "status",
        },
    },
)
PERMIT = item_with_params(
    "fishing_permit",
    "Fishing permit FP-20931 is under review. Permits are posted to your home address.",
    {
        "permitNo": {"value": "FP-20931", "type": "text", "label": "fishing permit"},
        "permitStatus": {
            "value": "under review",
            "type": "enum",
            "values": ["under review", "issued", "refused"],
            "label": "status",
        },
    },
)
REPAIR = item_with_params(
    "phone_repair",
    "Repair ticket R-5521 is awaiting parts. We text you when you can collect the phone.",
    {
        "ticket": {"value": "R-5521", "type": "text", "label": "repair ticket"},
        "repairStatus": {
            "value": "awaiting parts",
            "type": "enum",
            "values": ["awaiting parts", "in repair", "ready"],
            "label": "status",
        },
    },
)


def judged(ref: GoldenItem, answer: str, context: dict[str, str]) -> tuple[bool, list[str]]:
    trace = Trace(trace_id="t", question="q", answer=answer, context=context)
    r = StructuralJudge().judge_sync(JudgeRequest(trace, ref, ACCEPTED))
    return is_penalized(r.scores), [s.status for s in r.steps]


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        (
            KENNEL,
            "KB9012: waitlisted. Drop your dog off after 9 am on arrival day.",
            {"bookingRef": "KB9012", "bookingStatus": "waitlisted"},
        ),
        (
            PERMIT,
            "FP-11873 — issued. Permits are posted to your home address.",
            {"permitNo": "FP-11873", "permitStatus": "issued"},
        ),
        (
            REPAIR,
            "R-7730: in repair. We text you when you can collect the phone.",
            {"ticket": "R-7730", "repairStatus": "in repair"},
        ),
    ],
)
def test_a_fact_step_is_covered_by_the_supported_facts_in_any_wording(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    assert judged(ref, answer, context) == (False, ["covered", "covered"])


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        # the context holds only the identifier: the status is stated, unverifiable
        (
            KENNEL,
            "KB9012: waitlisted. Drop your dog off after 9 am on arrival day.",
            {"bookingRef": "KB9012"},
        ),
        (
            PERMIT,
            "FP-11873 — issued. Permits are posted to your home address.",
            {"permitNo": "FP-11873"},
        ),
        (
            REPAIR,
            "R-7730: in repair. We text you when you can collect the phone.",
            {"ticket": "R-7730"},
        ),
    ],
)
def test_a_fact_step_is_covered_by_stated_facts_the_context_does_not_hold(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    assert judged(ref, answer, context) == (False, ["covered", "covered"])


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        # a fact contradicted by the context
        (
            KENNEL,
            "KB9012: cancelled. Drop your dog off after 9 am on arrival day.",
            {"bookingRef": "KB9012", "bookingStatus": "waitlisted"},
        ),
        # a fact left out: the step is not stated
        (
            REPAIR,
            "R-7730. We text you when you can collect the phone.",
            {"ticket": "R-7730", "repairStatus": "in repair"},
        ),
    ],
)
def test_a_fact_step_is_not_covered_without_every_supported_fact(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    assert judged(ref, answer, context)[0]


def _now(ref: GoldenItem, old: str, new: str) -> GoldenItem:
    """``ref`` with its fact step said to hold now ("is currently confirmed")."""
    return ref.model_copy(update={"answer": ref.answer.replace(old, new, 1)})


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        (
            _now(KENNEL, "is confirmed", "is currently confirmed"),
            "KB9012: waitlisted. Drop your dog off after 9 am on arrival day.",
            {"bookingRef": "KB9012", "bookingStatus": "waitlisted"},
        ),
        (
            _now(PERMIT, "is under review", "is still under review"),
            "FP-11873 — issued. Permits are posted to your home address.",
            {"permitNo": "FP-11873", "permitStatus": "issued"},
        ),
        (
            _now(REPAIR, "is awaiting parts", "is at the moment awaiting parts"),
            "R-7730: in repair. We text you when you can collect the phone.",
            {"ticket": "R-7730", "repairStatus": "in repair"},
        ),
    ],
)
def test_a_fact_step_said_to_hold_now_is_still_a_fact_step(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    """Words such as "currently", "still", "at the moment" say no fact of their own: the step is
    covered by its facts as the plain one is, and not without them."""
    assert judged(ref, answer, context) == (False, ["covered", "covered"])
    # the identifier alone, the fact left out: not covered
    bare = answer.split(maxsplit=1)[0].rstrip(":") + "." + answer.split(".", 1)[1]
    assert judged(ref, bare, context)[0]


# (1)/(5) a quantity written another way inside a declared term or beside a reworded verb
# is the quantity rule's to judge: equal in canonical form, it is no policy swap.
UPLOAD = item(
    "visa_upload",
    "Upload the scan as a PDF in the applicant portal within 14 days.",
    ["Upload the scan as a PDF in the applicant portal within 14 days."],
    ("within 14 days",),
)
CHECKIN = item(
    "vet_checkin",
    "Please arrive 15 minutes early to check in at reception.",
    ["Please arrive 15 minutes early to check in at reception."],
)
HOLD = item(
    "locker_hold",
    "Items left in the locker are held for 48 hours at the service desk.",
    ["Items left in the locker are held for 48 hours at the service desk."],
    ("for 48 hours",),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (UPLOAD, "Please upload the scan to the applicant portal as a PDF in the next two weeks."),
        (CHECKIN, "Get there a quarter of an hour early so you can check in at reception."),
        (HOLD, "The service desk keeps anything left in the locker for two days."),
    ],
)
def test_a_quantity_written_another_way_is_not_a_policy_swap(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (UPLOAD, "Please upload the scan to the applicant portal as a PDF in the next two months."),
        (CHECKIN, "Get there half an hour early so you can check in at reception."),
        (HOLD, "The service desk keeps anything left in the locker for two weeks."),
        (CHECKIN, "Please arrive 15 minutes early to check in at the pharmacy."),
    ],
)
def test_a_changed_quantity_or_term_beside_it_is_still_caught(ref: GoldenItem, answer: str) -> None:
    assert wrong(ref, answer), statuses(ref, answer)


# (1) a declared policy term whose words are all reworded. A real swap of the term is
# caught; a paraphrase that loses the term's words is still read as a swap (known gap:
# the rule has no measure of whether the stand-in means the same; a MiniLM similarity
# between the term and its stand-in was tried and did not separate paraphrases from
# swaps on the held-out domains, e.g. "for free" -> "it costs nothing" scored below
# "original payment method" -> "store credit").
GYM_FEES = item(
    "gym_fees",
    "Membership fees are taken from the registered bank account on the first of each month. "
    "Classes can be booked in the app.",
    [
        "Membership fees are taken from the registered bank account on the first of each month.",
        "Classes can be booked in the app.",
    ],
    ("registered bank account",),
)
PARKING = item(
    "parking_permit",
    "Apply for a residents' parking permit on the council website. "
    "The permit is delivered by registered post within a week.",
    [
        "Apply for a residents' parking permit on the council website.",
        "The permit is delivered by registered post within a week.",
    ],
    ("registered post",),
)
LIBRARY = item(
    "library_fines",
    "Overdue fines are paid at the front desk of the branch. Books can be renewed online twice.",
    [
        "Overdue fines are paid at the front desk of the branch.",
        "Books can be renewed online twice.",
    ],
    ("front desk",),
)
_DECLARED_GAP = pytest.mark.xfail(
    strict=True,
    reason="known gap: a declared term reworded without its words reads as replaced",
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        pytest.param(
            GYM_FEES,
            "On the first of every month the membership fee comes out of the account you signed "
            "up with. You can book classes in the app.",
            marks=_DECLARED_GAP,
        ),
        pytest.param(
            PARKING,
            "Apply for a residents' parking permit on the council website. The permit is "
            "delivered as signed-for mail within a week.",
            marks=_DECLARED_GAP,
        ),
        pytest.param(
            LIBRARY,
            "Overdue fines are paid at the counter by the entrance of the branch. Books can be "
            "renewed online twice.",
            marks=_DECLARED_GAP,
        ),
    ],
)
def test_a_declared_term_reworded_is_not_a_swap(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "old", "new"),
    [
        (GYM_FEES, "the registered bank account", "your gift card balance"),
        (PARKING, "by registered post", "as a text message"),
        (LIBRARY, "at the front desk", "through the library app"),
    ],
)
def test_a_declared_term_swapped_for_another_policy_is_caught(
    ref: GoldenItem, old: str, new: str
) -> None:
    assert old in ref.answer
    got = statuses(ref, ref.answer.replace(old, new))
    assert "altered" in got.values(), got


# (1)/(4) a declared term whose words carry its polarity ("for free", "waived") is
# reworded, not replaced, when the sentence keeps the step's polarity ("costs nothing");
# a price in its place flips the polarity and is caught.
MUSEUM = item(
    "museum_garden",
    "Buy tickets online. Members enter the garden for free. Bags go in the cloakroom.",
    ["Members enter the garden for free."],
    ("for free",),
)
BADGE = item(
    "clinic_parking",
    "Park in the staff car park. The parking fee is waived for blue badge holders.",
    ["The parking fee is waived for blue badge holders."],
    ("waived",),
)
DISPUTE = item(
    "deposit_dispute",
    "Raise a dispute with the deposit scheme for free if you disagree with a deduction.",
    ["Raise a dispute with the deposit scheme for free if you disagree with a deduction."],
    ("for free",),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (MUSEUM, "Buy tickets online. Getting into the garden costs members nothing."),
        (BADGE, "Park in the staff car park. Blue badge holders pay no parking fee."),
        (
            DISPUTE,
            "Don't agree with a deduction? Open a dispute with the deposit scheme; it costs "
            "nothing.",
        ),
    ],
)
def test_a_declared_polarity_term_reworded_keeps_its_polarity(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (MUSEUM, "Buy tickets online. Getting into the garden costs members £4."),
        (BADGE, "Park in the staff car park. Blue badge holders pay the parking fee."),
        (
            DISPUTE,
            "Don't agree with a deduction? Open a dispute with the deposit scheme; it costs £25.",
        ),
    ],
)
def test_a_declared_polarity_term_replaced_by_a_price_is_caught(
    ref: GoldenItem, answer: str
) -> None:
    assert wrong(ref, answer), statuses(ref, answer)


# (4) a closing parenthetical qualifies the whole list item: "(optional)" against a
# step's "must" is a flip, "(required)" is not.
DEPOSIT_RULES = item(
    "deposit_rules",
    "Your deposit is held in a protection scheme. Any deductions must be itemised and "
    "supported by the check-out inventory.",
    ["Any deductions must be itemised and supported by the check-out inventory."],
)
VISA_RULES = item(
    "visa_rules",
    "You must upload a copy of the passport before the change can be made.",
    ["You must upload a copy of the passport before the change can be made."],
)
GYM_RULES = item(
    "gym_induction",
    "New members must book an induction before they can use the weights room.",
    ["New members must book an induction before they can use the weights room."],
)


@pytest.mark.parametrize(
    ("ref", "answer", "flipped"),
    [
        (
            DEPOSIT_RULES,
            "- Deductions: itemised, with evidence from the check-out inventory (optional)",
            True,
        ),
        (
            DEPOSIT_RULES,
            "- Deductions: itemised, with evidence from the check-out inventory (required)",
            False,
        ),
        (VISA_RULES, "- Upload a passport copy first (optional)", True),
        (VISA_RULES, "- Upload a passport copy first (required)", False),
        (GYM_RULES, "- Induction: book one before using the weights room (optional)", True),
        (GYM_RULES, "- Induction: book one before using the weights room (required)", False),
    ],
)
def test_a_closing_parenthetical_qualifies_the_whole_item(
    ref: GoldenItem, answer: str, flipped: bool
) -> None:
    assert ("negated" in statuses(ref, answer).values()) is flipped, statuses(ref, answer)


def test_a_huge_number_in_the_answer_does_not_break_the_quantity_rule() -> None:
    ref = item(
        "refund_route",
        "Refunds arrive within 14 days by bank transfer to your account.",
        ["Refunds arrive within 14 days by bank transfer to your account."],
    )
    # It raised ValueError reading the 400-digit number back as a quantity.
    got = statuses(ref, "Refunds arrive by bank transfer to your account " + "9" * 400 + ".")
    assert set(got.values()) <= {"covered", "missing", "altered"}


# (4) a negation whose list the clause split cut off: "does not cover floods, storms or
# frost" is split at its commas, so no clause of the answer states the negated part
# well; the sentence still has its words, and the flip is read on the sentence. A
# prohibition said the other way round, sharing few of its words ("don't throw away
# ..." -> "keep ..."), is not read as a flip.
HOME_COVER = item(
    "home_cover",
    "The plan does not cover damage caused by floods, storms or frost. Claims are made in the app.",
    [
        "The plan does not cover damage caused by floods, storms or frost.",
        "Claims are made in the app.",
    ],
)
TOOL_HIRE = item(
    "tool_hire",
    "Don't throw away receipts, labels or boxes before the inspection, so we can check the tool. "
    "Return tools by 5 pm.",
    [
        "Don't throw away receipts, labels or boxes before the inspection, so we can check the "
        "tool.",
        "Return tools by 5 pm.",
    ],
)
LOCKERS = item(
    "gym_lockers",
    "Lockers are not emptied for members, guests or staff before closing. Keys go back to "
    "reception.",
    [
        "Lockers are not emptied for members, guests or staff before closing.",
        "Keys go back to reception.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "answer", "status"),
    [
        (
            HOME_COVER,
            "- Also covered: floods, storm damage, frost\n- Claims: in the app",
            "negated",
        ),
        (HOME_COVER, "- Not covered: floods, storm damage, frost\n- Claims: in the app", "covered"),
        (
            LOCKERS,
            "Lockers: emptied for members, guests and staff before closing. Keys: reception.",
            "negated",
        ),
        (
            LOCKERS,
            "Lockers: not emptied for members, guests or staff before closing. Keys: reception.",
            "covered",
        ),
        (
            TOOL_HIRE,
            "Keep receipts, labels and boxes until the inspector has seen the tool. Return tools "
            "by 5 pm.",
            "covered",
        ),
    ],
)
def test_a_negation_split_from_its_list_is_read_on_the_sentence(
    ref: GoldenItem, answer: str, status: str
) -> None:
    assert statuses(ref, answer)[0] == status, statuses(ref, answer)


# (4) a declared bound written with a negator ("no more than 6 members") is kept by the
# same bound in other words ("max 6", "6 or fewer", "within 3 days", "$20+"), and lost
# when the sentence states the other direction or no bound.
REHEARSAL = item(
    "rehearsal_room",
    "Book the rehearsal room in the members' app. Bands have no more than 6 members in the "
    "room. Leave the room tidy.",
    [
        "Book the rehearsal room in the members' app.",
        "Bands have no more than 6 members in the room.",
    ],
    ("no more than 6 members",),
)
TOOL_HIRE = item(
    "tool_hire",
    "Collect the drill from the counter. Tools must be returned no later than 3 days after "
    "pickup. Late returns are charged daily.",
    [
        "Collect the drill from the counter.",
        "Tools must be returned no later than 3 days after pickup.",
    ],
    ("no later than 3 days",),
)
GROCERY = item(
    "grocery_delivery",
    "Choose a delivery slot at checkout. Orders must total no less than $20 for delivery. "
    "The driver leaves bags at the door.",
    [
        "Choose a delivery slot at checkout.",
        "Orders must total no less than $20 for delivery.",
    ],
    ("no less than $20",),
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (REHEARSAL, "Book the rehearsal room in the members' app. Max 6 members in the room."),
        (REHEARSAL, "Book it in the members' app; the room takes 6 members or fewer per band."),
        (TOOL_HIRE, "Collect the drill from the counter and bring the tools back within 3 days."),
        (GROCERY, "Choose a delivery slot at checkout. Minimum order for delivery: $20."),
        (GROCERY, "Choose a delivery slot at checkout - delivery is for $20+ orders."),
    ],
)
def test_a_negated_bound_said_without_its_negator_is_kept(ref: GoldenItem, answer: str) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            REHEARSAL,
            "Book the rehearsal room in the members' app. Bands have more than 6 members in "
            "the room.",
        ),
        (REHEARSAL, "Book the rehearsal room in the members' app. Max 8 members in the room."),
        (
            TOOL_HIRE,
            "Collect the drill from the counter. Tools are returned later than 3 days after "
            "pickup.",
        ),
        (
            GROCERY,
            "Choose a delivery slot at checkout. Orders must total less than $20 for delivery.",
        ),
        # A bound word elsewhere in the sentence keeps nothing.
        (
            REHEARSAL,
            "Book the rehearsal room in the members' app. Bands can turn up with more than 6 "
            "members in the room.",
        ),
        (
            REHEARSAL,
            "Book the rehearsal room in the members' app. Most bands have more than 6 members "
            "in the room.",
        ),
        (
            GROCERY,
            "Choose a delivery slot at checkout. Orders must total less than $20 for delivery "
            "over the weekend.",
        ),
    ],
)
def test_a_negated_bound_turned_around_or_changed_is_caught(ref: GoldenItem, answer: str) -> None:
    penalised, steps = judged(ref, answer, {})
    assert penalised, steps


# (4) two rules in one sentence: a flip in one part is not cancelled by a negation the
# other part keeps in other words.
KAYAK = item(
    "kayak_rebook",
    "Rebook in the app. Within 24 hours of the trip the booking cannot be moved, and if "
    "nobody turns up the deposit is kept.",
    [
        "Rebook in the app.",
        "Within 24 hours of the trip the booking cannot be moved, and if nobody turns up the "
        "deposit is kept.",
    ],
)
LOCKER = item(
    "locker_rules",
    "Pick a locker at the gym desk. Lockers are not kept overnight, and any lock left on is "
    "cut off.",
    [
        "Pick a locker at the gym desk.",
        "Lockers are not kept overnight, and any lock left on is cut off.",
    ],
)
PRINTS = item(
    "print_order",
    "Upload the photos on the website. Prints are not refundable once printed, and orders "
    "without payment are cancelled after 3 days.",
    [
        "Upload the photos on the website.",
        "Prints are not refundable once printed, and orders without payment are cancelled "
        "after 3 days.",
    ],
)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            KAYAK,
            "Rebook in the app. Under 24h it can't be moved any more, and no-shows lose the "
            "deposit.",
        ),
        (
            LOCKER,
            "Pick a locker at the gym desk. No overnight lockers, and locks left on get cut off.",
        ),
        (
            PRINTS,
            "Upload the photos on the website. No refunds on printed photos, and orders not "
            "paid for are cancelled after 3 days.",
        ),
        # A negation moved from one part's clause to the other's: two part flips.
        (
            LOCKER,
            "Pick a locker at the gym desk. Lockers are cleared overnight, and a lock that is "
            "not removed is cut off.",
        ),
        pytest.param(
            PRINTS,
            "Upload the photos on the website. No refunds on printed photos, and unpaid "
            "orders are cancelled after 3 days.",
            marks=pytest.mark.xfail(
                strict=True, reason="known gap: 'unpaid' against 'without payment' reads as a flip"
            ),
        ),
    ],
)
def test_two_rules_reworded_in_one_sentence_keep_their_polarity(
    ref: GoldenItem, answer: str
) -> None:
    assert not wrong(ref, answer), statuses(ref, answer)


@pytest.mark.parametrize(
    ("ref", "answer"),
    [
        (
            KAYAK,
            "Rebook in the app. Within 24 hours of the trip you can still move the booking, and "
            "no-shows lose the deposit.",
        ),
        (
            LOCKER,
            "Pick a locker at the gym desk. Lockers can be kept overnight, and no lock left "
            "on is cut off.",
        ),
        (
            PRINTS,
            "Upload the photos on the website. Printed photos can be refunded, and no unpaid "
            "order is kept after 3 days.",
        ),
    ],
)
def test_a_flip_in_one_of_two_rules_is_not_cancelled_by_the_other(
    ref: GoldenItem, answer: str
) -> None:
    assert wrong(ref, answer), statuses(ref, answer)


# A fact step's field the context does not hold is stated by a value of that field's
# shape that no field claimed ("H7B0PDSW: available." for "Lab order LB72K04Q is in
# analysis.", the lab order unobserved); fields of one shape only together, so one date
# does not stand for two (invented: a kennel, a furniture shop, a passport office).
SHOP = item_with_params(
    "sofa_delivery",
    "Order 55123 dispatch date: 2026-03-12. Order 55123 delivery date: 2026-03-14. "
    "Someone aged 18 or over must sign for it.",
    {
        "orderNo": {"value": "55123", "type": "digits", "length": 5, "label": "order"},
        "dispatchDate": {"value": "2026-03-12", "type": "date", "label": "dispatch date"},
        "deliveryDate": {"value": "2026-03-14", "type": "date", "label": "delivery date"},
    },
)
PASSPORT = item_with_params(
    "passport_status",
    "Passport application P8812345 decision date: 2026-08-01. "
    "Bring your old passport when you collect the new one.",
    {
        "appNo": {
            "value": "P8812345",
            "type": "alnum",
            "length": 8,
            "label": "passport application",
        },
        "decisionDate": {"value": "2026-08-01", "type": "date", "label": "decision date"},
    },
)


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        (
            KENNEL,
            "KB9012: waitlisted. Drop your dog off after 9 am on arrival day.",
            {"bookingStatus": "waitlisted"},
        ),
        (
            SHOP,
            "Order 78812: dispatched 2026-06-30, with you 2026-07-02. "
            "Someone aged 18 or over must sign for it.",
            {"orderNo": "78812"},
        ),
        (
            PASSPORT,
            "P7723456 - decision expected 2026-09-15. "
            "Bring your old passport when you collect the new one.",
            {},
        ),
    ],
)
def test_a_fact_step_is_covered_by_a_value_of_its_fields_shape(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    pen, got = judged(ref, answer, context)
    assert not pen and set(got) == {"covered"}, got


@pytest.mark.parametrize(
    ("ref", "answer", "context"),
    [
        # the delivery date left out: the one date states the dispatch date only
        (
            SHOP,
            "Order 78812 dispatch date: 2026-06-30. Someone aged 18 or over must sign for it.",
            {"orderNo": "78812"},
        ),
        # a reference of another shape (7 characters, not 8) states no application
        (
            PASSPORT,
            "P772345 - decision expected 2026-09-15. "
            "Bring your old passport when you collect the new one.",
            {},
        ),
        # the status left out, the identifier alone
        (KENNEL, "KB9012. Drop your dog off after 9 am on arrival day.", {}),
    ],
)
def test_a_fact_step_is_not_covered_by_a_value_of_another_shape_or_field(
    ref: GoldenItem, answer: str, context: dict[str, str]
) -> None:
    assert "missing" in judged(ref, answer, context)[1]
