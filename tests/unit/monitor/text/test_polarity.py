"""Negation, antonym and modal flips."""

from __future__ import annotations

from monitor.text import polarity, polarity_flip


def test_polarity_helpers() -> None:
    assert polarity("You must not pay.") == 1
    assert polarity("You can no longer pay.") == 1
    assert polarity("You don't pay and never will.") == 0
    assert polarity_flip("Do not throw away the receipt.", "Keep the receipt.") is None
    assert polarity_flip("Parts are covered.", "Parts are excluded.") == "antonym"
    assert polarity_flip("You must bring ID.", "You may bring ID.") == "modal"


def test_a_negated_antonym_is_two_flips() -> None:
    assert polarity_flip("Parts are covered.", "Parts are not covered.") == "negation"
    assert polarity_flip("Parts are covered.", "Parts are not excluded.") is None


def test_never_against_always_flips_whatever_the_verb() -> None:
    # The answer rewords the verb, so the negation's scope word is not in the step;
    # "never" is still the opposite of the step's "always".
    assert (
        polarity_flip(
            "Abnormal results are always discussed with you by phone.",
            "Abnormal findings: we never talk them through with you over the phone.",
        )
        == "negation"
    )
    assert (
        polarity_flip(
            "Keys are always returned at the front desk.",
            "You never hand keys back at the front desk.",
        )
        == "negation"
    )
    # "never" on both sides, or "always" reworded, is no flip.
    assert (
        polarity_flip("Fees are never charged on weekends.", "On weekends we never bill.") is None
    )
    assert polarity_flip("Staff always check your ID.", "Your ID is checked every time.") is None


def test_a_negated_reworded_verb_bears_on_the_step_through_two_of_its_words() -> None:
    # The negated verb is reworded ("taken" for "collected"), but two words it governs
    # are the step's: the negation is about the step.
    assert (
        polarity_flip(
            "Rent is collected by direct debit on the due date.",
            "The rent is not taken via direct debit on the day.",
        )
        == "negation"
    )
    assert (
        polarity_flip(
            "Loan renewals are processed online through the library account.",
            "Renewals are not handled online through your library account.",
        )
        == "negation"
    )
    assert (
        polarity_flip(
            "Visitors are given a parking permit at reception.",
            "Guests don't receive a parking permit at reception.",
        )
        == "negation"
    )
    # One shared word is not enough: "no action needed from you" does not negate
    # "the payment is collected from your account".
    assert (
        polarity_flip(
            "The payment is collected from your account.",
            "The payment is collected (no action needed from you).",
        )
        is None
    )


def test_a_negated_negative_verb_affirms() -> None:
    # Litotes: "don't forget to bring" is "bring"; "without delay" is "promptly".
    assert (
        polarity_flip(
            "Bring your driving licence to the inspection.",
            "Don't forget your driving licence at the inspection.",
        )
        is None
    )
    assert (
        polarity_flip(
            "Call the helpline for urgent repairs.",
            "Do not hesitate to call the helpline for urgent repairs.",
        )
        is None
    )
    assert (
        polarity_flip(
            "The deposit is returned promptly after check-out.",
            "You won't lose the deposit: it comes back without delay after check-out.",
        )
        is None
    )
    # A negated ordinary verb still flips.
    assert (
        polarity_flip(
            "Bring your driving licence to the inspection.",
            "Do not bring your driving licence to the inspection.",
        )
        == "negation"
    )


def test_a_modal_flip_needs_one_modality_on_each_side() -> None:
    # The step states both an obligation and a permission: no single modality to flip.
    assert (
        polarity_flip(
            "You must upload a copy of the passport before the change can be made.",
            "Upload a passport copy first (required).",
        )
        is None
    )
    assert (
        polarity_flip(
            "Offers can be deferred by one academic year only.",
            "You can push your start back by a single academic year.",
        )
        is None
    )
    assert (
        polarity_flip(
            "Tenants must give notice before a visit can be arranged.",
            "A visit is arranged once notice is given (required).",
        )
        is None
    )
    # One modality each side, opposite: a flip.
    assert polarity_flip("You must bring ID.", "You may bring ID.") == "modal"
    assert polarity_flip("Guests can use the pool.", "Guests must use the pool.") == "modal"


def test_a_negated_obligation_is_a_negation_not_an_obligation() -> None:
    assert (
        polarity_flip(
            "Any deductions must be itemised and supported by the check-out inventory.",
            "Each deduction does not have to be listed and backed up by the inventory.",
        )
        == "negation"
    )
    assert polarity_flip("Guests must sign the register.", "Guests don't have to sign.") == (
        "negation"
    )
    assert polarity_flip("Wearing a helmet is mandatory.", "A helmet is not mandatory.") == (
        "negation"
    )
    # ... and it agrees with "optional" (no modal flip read from its "have to").
    assert polarity_flip("You don't have to bring ID.", "ID is optional.") is None


def test_an_obligation_turned_into_a_permission_the_step_does_not_word() -> None:
    # The step's own "can" (a subordinate clause) does not hide "must" -> "optional".
    assert (
        polarity_flip(
            "You must upload a copy of the passport before the change can be made.",
            "Upload a passport copy first (optional).",
        )
        == "modal"
    )
    # A permission word both use is the same clause: no flip.
    assert (
        polarity_flip(
            "Offers can be deferred by one academic year only.",
            "You can push your start back by a single academic year.",
        )
        is None
    )


def test_a_litotes_verb_the_other_side_uses_is_a_real_negation() -> None:
    # "don't forget" affirms, but against "you can skip it", "you cannot skip it" is
    # a prohibition.
    assert (
        polarity_flip("You cannot skip the safety briefing.", "You can skip the safety briefing.")
        == "negation"
    )
    assert (
        polarity_flip(
            "You will lose your deposit if you cancel late.",
            "You won't lose your deposit if you cancel late.",
        )
        == "negation"
    )
    assert polarity_flip("Do not delay the payment.", "Delay the payment.") == "negation"


def test_voluntary_agrees_with_not_mandatory() -> None:
    assert polarity_flip("Attendance is not mandatory.", "Attendance is voluntary.") is None
    assert polarity_flip("Attendance is mandatory.", "Attendance is voluntary.") is not None


def test_unable_to_is_cannot() -> None:
    # Invented domains: a climbing wall, a museum cloakroom.
    assert (
        polarity_flip(
            "Staff cannot belay a climber who has not done the induction.",
            "We are unable to belay anyone who has not done the induction.",
        )
        is None
    )
    assert (
        polarity_flip(
            "Umbrellas are not accepted at the cloakroom.",
            "Sorry, the cloakroom is unable to accept umbrellas.",
        )
        is None
    )
    assert (
        polarity_flip(
            "The cloakroom accepts umbrellas.", "The cloakroom is unable to accept umbrellas."
        )
        == "negation"
    )


def test_no_before_a_symbol_is_a_number() -> None:
    # "locker no. + key card": the number of the locker, not a negation.
    assert (
        polarity_flip(
            "Bring your locker number and your key card to the desk.",
            "- Desk: locker no. + key card",
        )
        is None
    )
    assert polarity_flip("Bring your key card.", "No. You do not need a key card.") == "negation"


def test_no_at_the_end_of_a_sentence_is_still_no() -> None:
    assert (
        polarity_flip(
            "Guests can bring their own food.",
            "Can guests bring food? Our answer is no. (Food is sold at the bar.)",
        )
        == "negation"
    )


def test_a_negated_modal_is_a_prohibition_whichever_modal_it_is() -> None:
    # Two prohibitions in different modals are one rule.
    assert polarity_flip("Dogs must never be left alone.", "Dogs may not be left alone.") is None
    assert polarity_flip("Kayaks must not leave the bay.", "Kayaks can not leave the bay.") is None
    # A prohibition against a permission or an obligation is a flip, not two that cancel.
    assert polarity_flip("Dogs must never be left alone.", "Dogs may be left alone.") == "negation"
    assert polarity_flip("You must not park on the verge.", "You may park on the verge.")
    assert polarity_flip("Guests may not bring glass.", "Guests must bring glass.")
    assert polarity_flip(
        "Bikes must not be locked to the rail.", "Bikes are allowed to be locked to the rail."
    )
    # Two affirmed modals still differ in force, beside a negated one too.
    assert polarity_flip("You must book ahead.", "You may book ahead.") == "modal"
    assert (
        polarity_flip(
            "Visitors must sign the log and must not bring pets.",
            "Visitors may sign the log and may not bring pets.",
        )
        == "modal"
    )
