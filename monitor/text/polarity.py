"""Polarity of English clauses: negation, antonyms and obligation vs permission.

A negation is read with its *scope*, the content words in the few words after the
negator (an answer's negation against a step with none: on to the end of its clause).
When a step and an answer disagree in the parity of their negations, a negation that
does not bear on the other text (neither its first scope word nor two of the others
occur there) is not evidence of a flip:
it is about something the other text does not talk about ("no action needed from
you" beside "rent is collected by direct debit"), or it is a rewording of a phrase
the other text says another way ("documents not in English" = "documents in another
language"). Nor is a negation the other text states with a negative prefix
("don't agree" = "disagree"). Bounds and costs written with a negator ("no later
than", "no more than", "at no cost") are rewritten to their plain form first.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Sequence
from types import MappingProxyType

from monitor.text.lexicon import (
    ANTONYM_PAIRS,
    ANTONYM_TRIGGERS,
    BOUND_PHRASES,
    COST_FREE_WORDS,
    COST_WORDS,
    LITOTES_VERBS,
    MONEY_BACK,
    NEGATIVE_PHRASES,
    NEGATIVE_PREFIXES,
    NEGATIVE_VERBS,
    NEGATORS,
    NUMBER_WORDS,
    OBLIGATION,
    PERMISSION,
    POLARITY_NEGATORS,
    SAME_CLASS_WORDS,
    STOPWORDS,
    TIMES_WORDS,
    VERB_NEGATORS,
    inflections,
)
from monitor.text.quantities import SPELLED_NUMBERS, quantities
from monitor.text.sentences import split_clauses
from monitor.text.tokens import content, same_word, singular, tokens

_SCOPE_WINDOW = 4
# How far back a "nor" looks for its "neither".
_NEITHER_SPAN = 8
# An answer's added negation on a reworded verb governs words further on ("won't
# narrow it down to a two-hour delivery window"): up to 10 words, to a clause break.
_WIDE_WINDOW = 10
_WIDE_MARK = "|"
_MEASURE_WORDS = frozenset(
    NUMBER_WORDS.keys()
    | {f"{u}{p}" for u in "minute hour day week month year item".split() for p in ("", "s")}
)
_CLAUSE_BREAKS = frozenset(
    """but unless if although however so because and or while whereas when whenever
    where once until before after since""".split()
)


# Words that make a zero amount a price: what is charged, and what the customer pays
# towards a claim or a booking ("Zero Excess cover $0", "excess £0", "you pay $0").
_FEE_WORDS = (
    r"costs?|fees?|charges?|prices?|surcharges?|excess(?:es)?|deductibles?|fares?"
    r"|premiums?|co-?pays?|deposits?|tolls?"
)
_COST_NOUN = re.compile(rf"\b(?:{_FEE_WORDS}|pay|pays|paying)\b", re.IGNORECASE)
# A zero amount that is compared or starts a range is no price ("above $0", "from
# $0", "between $0 and $50", "$0-$20"); nor is one that a balance, a card or an account
# comes down to or reads, with no cost word beside it ("pay the balance down to $0", "if
# the card shows $0", "until your balance is $0"). A price brought to zero or read out
# is one ("the fee is reduced to $0", "the booking fee comes down to $0", "the app shows
# $0 for the fee").
_ZERO_COMPARED = re.compile(
    r"\b(?:from|between|above|over|under|below|than|least|most)\s*$", re.IGNORECASE
)
_ZERO_OF_BALANCE = re.compile(
    r"\b(?:balance|card|account|owe|owed|owing|outstanding)\b.*$", re.IGNORECASE
)
# (What is charged, as a noun: "pay" is as often the balance's.)
_FEE_NOUN = re.compile(rf"\b(?:{_FEE_WORDS})\b", re.IGNORECASE)
_ZERO_STARTS_RANGE = re.compile(r"\s*(?:to|and|-|\u2013)\s*[£$€]\s?\d", re.IGNORECASE)
_ZERO_LOOK_BACK = 32
# "Carried forward" says what "rolled over" says ("carry on" does not).
_CARRY_PHRASES = tuple(
    (f"{c} {d}", r)
    for c, r in (("carry", "roll over"), ("carries", "rolls over"), ("carried", "rolled over"))
    for d in ("over", "forward")
)
# Word classes that tie a negation to the other text; "carry" only in the phrases above.
_GROUNDING_CLASSES = tuple(g - {"carry", "carries", "carried"} for g in SAME_CLASS_WORDS)
# A zero amount is a cost word's way of saying "free" ("Cost to you: £0").
ZERO_AMOUNT = re.compile(
    r"(?:[£$€]\s?|\b(?:USD|GBP|EUR)\s?)0(?:[.,]00)?(?![\d.,]*\d)|\b0(?:[.,]00)?\s?(?:dollars|pounds|euros)\b"
)


# "No" answering a yes/no question ("No: tickets can't be refunded ...", "No, you
# can't") is a reply, not a negation of the clause after it; "No. 5" is a number.
# What ends a reply: a mark, a full stop that is no number's, or a dash.
_REPLY_END = r"\s*(?:[,:;!]|\.(?!\s*\d)|\s[-\u2013\u2014])\s"
_ANSWER_NO = re.compile(r"(^|[.!?\n]\s*)(?:no|nope)" + _REPLY_END, re.I)
# One said with how sure or how sorry the reply is ("Normally, no: ...", "Sadly not.",
# "I'm afraid not -") is a reply too where the clause after it says the negation
# again ("Sadly not: day passes can't be transferred"); before a clause that does not
# ("Usually not. The class has spaces most days", "Sadly not: we deliver Monday to
# Saturday") the reply is the negation, and stays.
_ANSWER_NO_LEAD = re.compile(
    r"(^|[.!?\n]\s*)(?:normally|usually|generally|typically|mostly|sadly|unfortunately|"
    r"regrettably|alas|honestly|i['\u2019]?m afraid|i am afraid|in general|as a rule)"
    r"\s*[,:]?\s*(?:no|nope|not)" + _REPLY_END + r"(?=([^.!?\n]*))",
    re.I,
)
_ECHOED = re.compile(
    r"\b(?:not|no|never|cannot|can't|won't|don't|doesn't|isn't|aren't|wasn't|weren't|"
    r"shouldn't|mustn't|couldn't|wouldn't|nothing|nobody|none)\b|n['\u2019]t\b",
    re.I,
)


def _reply_echoed(m: re.Match[str]) -> str:
    """An :data:`_ANSWER_NO_LEAD` reply, dropped where its clause says it again."""
    return m.group(1) if _ECHOED.search(m.group(2)) else m.group(0)


# "No problem!", "no stress: you can ..." reassure; they negate nothing (not "if no
# problem is found", "we found no problem.", "the check-up came back: no problems."): at
# the start of a sentence or clause, with more to come after a mark (not "." or ";").
_NO_WORRIES = re.compile(
    r"(^|[.!?,;:\u2013\u2014-]\s*)(?:no|not a) (?:problems?|worries|stress|bother)"
    r"(?=\s*[,!:\u2013\u2014-]\s*\w)",
    re.I,
)


# "Beyond repair" says "cannot be repaired" without a negator.
_BEYOND = (
    ("beyond economical repair", "not economically repairable"),
    ("beyond economic repair", "not economically repairable"),
    ("beyond repair", "not repairable"),
)
# "Costs nothing" is "free": one "free" with the "free" said beside it ("samples from
# the free box cost nothing and are not returnable" / "free samples, no returns").
_COSTS_NOTHING = (
    ("costs nothing", "is free"),
    ("cost nothing", "are free"),
    ("costs you nothing", "is free"),
    ("cost you nothing", "are free"),
)
# "If the dock failed to lock" = "if the dock did not lock": a negation with the verb
# as its scope ("don't fail to" is litotes, so not the bare "fail to").
_FAILED = (
    ("failing to", "not"),
    ("failed to", "did not"),
    ("fails to", "does not"),
    ("fail to", "do not"),
)
# "We are unable to accept cash" = "we cannot accept cash" (and "is impossible to
# secure" = "cannot be secured"); "permanent colour is off limits for under-16s" = "...
# is not allowed"; "save where the supplier ..." = "unless the supplier ...".
_UNABLE = (
    ("unable to", "cannot"),
    ("impossible to", "cannot"),
    ("off limits", "not allowed"),
    ("off-limits", "not allowed"),
    ("save where", "unless"),
    ("except where", "unless"),
    ("except when", "unless"),
    ("except if", "unless"),
    ("with the exception of", "except"),
)
# "The only exception is if the teacher is ill" = "unless the teacher is ill"; "the only
# exception is the attic" = "except the attic". Not an exception that is made, given,
# granted or denied ("the only exception is made for late arrivals", "the exception is
# not guaranteed", "the exception is reviewed"), nor one said as a clause ("the
# exception is that ...").
_EXCEPTION_IS = re.compile(
    r" (?:the|our) (?:(?:only|1) )?exception (?:is|being) "
    r"(?!(?:not|never|n't|that|made|given|granted|allowed|approved|\S+ed) )(?:(if|when) )?"
)
# "The guarantee lets you switch once" = "you can switch once": a permission (not "we'll
# let you know", "let you in").
_LETS_YOU = re.compile(
    r" (?:lets|let|allows|allow|entitles|entitle) you (?:to )?(?!know |in |down )"
)


# Negations written short or as a zero: "w/o a mouthguard", "at 0% interest" (= "no
# interest"), "failure to pay" (= "not paying"; not "after a power failure, to restart
# it").
_WITHOUT = re.compile(r"\bw/o\b", re.I)
_ZERO_PERCENT = re.compile(r"(?<![\d.,])0(?:\.0+)?\s?%")
_FAILURE_TO = re.compile(r"\bfailure to\b", re.I)
# "If not, ..." is "otherwise" against a text that says "otherwise" (the other case of
# a condition, not a negation of the rule); against any other text it is a negation
# ("Is it in stock? If not, we post it today").
_IF_NOT = re.compile(r"\bif not(?=\s*[,;:\u2013\u2014-])", re.I)
# The other ways of naming the other case: "if you don't, ...", "failing that", and
# "without" a pronoun that stands for what the condition names ("bring your permit;
# without it we charge a fee"). Not "without" a noun, which says what is left out ("we
# can't refund without a receipt", "without this voucher"). Each is "otherwise" only
# where the clause it governs says what the "otherwise" text says happens in the other
# case (:func:`_other_case`).
_OTHER_CASE = re.compile(
    r"\bif (?:you|they|he|she|we|it|(?:the|your|this|that) [a-z]+) (?:don't|do not|doesn't"
    r"|does not|didn't|did not|can't|cannot|can not|won't|will not|aren't|are not|isn't"
    r"|is not|haven't|have not|hasn't|has not|wasn't|was not|weren't|were not)"
    # (Or the condition said in full, in a few words: "if it hasn't been paid by then,
    # we release the slot" for "..., otherwise the booking is released".)
    r"(?: [a-z]+){0,4}?"
    r"(?=\s*[,;:\u2013\u2014-])"
    r"|\bfailing (?:that|this|which)\b"
    r"|\bwithout (?:it|them|one)\b(?!\s+(?:of|or)\b)"
    r"|\bwithout (?:this|that|these|those)(?=\s*(?:[,;:.!?\u2013\u2014-]|$"
    r"|(?:we|you|they|he|she|it|there|the|your|our|a|an|no)\b))",
    re.I,
)
# How far each side of a name of the other case, and of an "otherwise", is read.
_CASE_WINDOW = 240
_OTHER_CASE_MAX = 8
_CASE_BREAK = re.compile(r"[,;:.!?\u2013\u2014]|\s-\s")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
_OTHERWISE = re.compile(r"\botherwise\b", re.I)
# A contrast that denies the other of two options: "per session, not per hour" =
# "per session rather than per hour" = "instead of per hour".
# (Also a denied doing: "call the desk; do not text your handler" = "call the desk
# rather than texting your handler".)
# (And a second predicate of the same subject denied: "is applied to your invoice and
# is not paid out" = "is applied to your invoice rather than paid out".)
_CONTRAST_NOT = re.compile(
    r"(?:[,;]\s+(?:and\s+|but\s+)?(?:please\s+)?|\s+and\s+(?:is|are|will|would)\s+(?=not\b)"
    # (", so you cannot X": "deducted from the payout, so you cannot pay them by card" =
    # "deducted from the payout rather than paid by card")
    r"|[,;]?\s+so\s+(?:you|we|they|it)\s+(?=cannot\b|can't|can’t))"
    r"(?:not|do\s+not|don't|don’t|never|cannot|can't|can’t)\s+(?:be\s+)?"
    r"((?:[\w'-]+\s*){1,3})",
    re.I,
)
_RATHER_THAN = re.compile(r"\b(?:rather than|instead of)\s+((?:[\w'-]+\s*){1,3})", re.I)


_ONE_LAST = re.compile(r"\bone\W*$", re.I)


def _own_words(option: str, before: str) -> list[str]:
    """The content words of ``option`` that the text before it does not have: what
    tells the denied option from the kept one ("partial" in "a full refund, not a
    partial refund")."""
    kept = content(tokens(before[-200:])[-4:])  # (the last words only)
    words = content(tokens(option))
    # (Not a closing "one", which stands for the noun: "a full refund, not a partial
    # one"; "zone 2, not zone 3" keeps its number.)
    if words and words[-1] == "1" and _ONE_LAST.search(option):
        words = words[:-1]
    return [w for w in words if not any(same_word(w, k, 4) for k in kept)]


def _contrast_as_rather(text: str, other: str) -> str:
    """``text`` with a contrastive ", not X" written "rather than X" where ``other``
    says "rather than" / "instead of" the same X, so that neither counts as a
    negation: a word that tells X from the option kept before it is in both (not "a
    full refund, not a partial refund" / "a partial refund rather than a full refund");
    only where that "not" is the text's one negator."""
    said = [
        _own_words(m.group(1), other[max(0, m.start() - 200) : m.start()])
        for m in _RATHER_THAN.finditer(other)
    ]
    if not any(said):
        return text
    # (Only as the text's one negation: beside another, which of them the other text
    # says, and how, is left to the count.)
    if sum(w in NEGATORS or w == "n't" for w in tokens(text)) != 1:
        return text

    def repl(m: re.Match[str]) -> str:
        ws = _own_words(m.group(1), text[max(0, m.start() - 200) : m.start()])
        if any(same_word(w, x, 4) for w in ws for ys in said for x in ys):
            return f"{m.group(0)[0]} rather than {m.group(1)}"
        return m.group(0)

    return _CONTRAST_NOT.sub(repl, text)


# "Free of any early repayment charge" = "without an early repayment charge": the
# same denial of the same charge (only against a "without" before the same noun).
_FREE_OF = re.compile(r"\bfree\s+(of|from)\s+(?:(?:any|all)\s+)?([\w'-]+)", re.I)
_WITHOUT_NOUN = re.compile(r"\bwithout\s+(?:(?:an?|any)\s+)?([\w'-]+)", re.I)


def _free_of_as_without(text: str, other: str) -> str:
    """``text`` with "free of (any) X" written "without X" where ``other`` says
    "without (a / any) X" of the same first word X."""
    said = {m.group(1).lower() for m in _WITHOUT_NOUN.finditer(other)}
    if not said:
        return text
    return _FREE_OF.sub(
        lambda m: f"without {m.group(2)}" if m.group(2).lower() in said else m.group(0), text
    )


# "Keep your Direct Debit in place" / "leave it alone" = "do not cancel your Direct
# Debit": against a denial of a verb that ends the thing, of the same thing.
_DENIED_ENDING = re.compile(
    r"\b(?:do\s+not|don't|don’t|never|must\s+not|should\s+not|shouldn't)\s+"
    r"(cancel|stop|remove|close|end|delete|switch\s+off|turn\s+off)\s+"
    r"(?:(?:your|the|this|that|any)\s+)?((?:[\w'-]+\s*){1,3})",
    re.I,
)
_KEPT_AS_IS = re.compile(
    r"(?P<neg>\b(?:do\s+not|don't|don’t|never|must\s+not|mustn't|should\s+not|shouldn't"
    r"|cannot|can't|can’t)\s+)?\b(?:keep|leave)\s+(?:(?:your|the|this|that)\s+)?"
    r"(?P<thing>(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+"
    r"(?:in\s+place|alone|active|running|going|switched\s+on|turned\s+on|as\s+it\s+is)\b",
    re.I,
)


def _kept_as_not_ended(text: str, other: str) -> str:
    """``text`` with "keep / leave X in place (alone, active, running)" written "do not
    V X" where ``other`` says "do not V X" of a verb that ends X (cancel, stop, close,
    remove, ...) and an X with a word in common; a denied keeping ("do not keep X
    active") written "V X"."""
    denied = [
        (m.group(1), set(content(tokens(m.group(2))))) for m in _DENIED_ENDING.finditer(other)
    ]
    if not denied:
        return text

    def repl(m: re.Match[str]) -> str:
        said = m.group("thing")
        kept = set(content(tokens(said)))
        for verb, thing in denied:
            if any(same_word(w, x, 4) for w in kept for x in thing):
                # ("Do not keep X active" is "V X".)
                return f"{verb} {said}" if m.group("neg") else f"do not {verb} {said}"
        return m.group(0)

    return _KEPT_AS_IS.sub(repl, text)


# A verb that keeps someone from doing a thing denies the doing: "a condition that
# prevents you from travelling by car" = "you cannot travel by car"; "stops you
# travelling", "bars members from entering", "keeps you from driving" (not "keeps you
# driving").
_KEPT_FROM = re.compile(
    r"(?P<neg>\b(?:nothing|nobody|no\s+one|(?:does|do|did|will|would|wo|ca|can)\s*(?:not|n't|n’t))"
    r"\s+)?"
    r"\b(?:prevents?|prevented|preventing|stops?|stopped|stopping|bars?|barred|keeps?|kept)"
    r"\s+((?:you|them|him|her|us|me|patients?|members?|players?|customers?|people|children"
    r"|anyone|someone))"
    r"\s+(from\s+)?([a-z]+ing)\b",
    re.IGNORECASE,
)


def _kept_from_against(text: str, other: str) -> str:
    """``text`` with "prevents / stops you (from) V-ing" written "means you cannot V"
    (or "can V", where the stopping is denied) where ``other`` says the same verb
    (a form of V): the rewrite meets a negation of V there; without one the stopping
    is left as written ("an injury stops you riding for more than 3 weeks" against "off
    riding for more than 3 weeks" is no "cannot ride")."""
    if not _KEPT_FROM.search(text):
        return text
    ws = tokens(other)
    theirs = [w for w in ws if len(w) >= 3]
    # (The words a negator of the other text governs: "you cannot travel by bus".)
    denied = [
        w
        for i, x in enumerate(ws)
        if x in NEGATORS or x in {"n't", "unable"}
        for w in ws[i + 1 : i + 4]
        if len(w) >= 3
    ]

    def repl(m: re.Match[str]) -> str:
        stem = m.group(4).casefold()[:-3]
        said = denied if not m.group("neg") else theirs
        if not any(same_word(stem, w, 4) or same_word(w, stem, 4) for w in said):
            return m.group(0)
        return _kept_from(m)

    return _KEPT_FROM.sub(repl, text)


def _kept_from(m: re.Match[str]) -> str:
    verb = m.group(0)[len(m.group("neg") or "") :].casefold()
    if not m.group(3) and verb.startswith(("keep", "kept", "bar")):
        return m.group(0)  # "keeps you driving" keeps the doing
    # ("Nothing stops you booking" / "doesn't stop you booking": you can.)
    return f"means {m.group(2)} {'can' if m.group('neg') else 'cannot'} {m.group(4)}"


# Who is meant, said by who is not, in brackets: "your club (not you) pays the fine"
# negates no statement.
_NOT_WHO = re.compile(
    r"\(\s*not\s+((?:you|me|us|them|him|her|(?:the|your|our|their)\s+[a-z]+))\s*\)", re.I
)


def _not_who(text: str, other: str) -> str:
    """``text`` without a bracketed "(not X)" whose X the other text does not name (it
    then says who is meant, no statement); one the other text names is left, a
    negation: "you pay the course fee (not your employer)" / "your employer pays"."""
    theirs = set(tokens(other))

    def repl(m: re.Match[str]) -> str:
        who = [w for w in tokens(m.group(1)) if w not in ("the", "our", "their")]
        named = who[-1:] if who[-1:] not in (["your"],) else []
        return m.group(0) if any(w in theirs for w in named) else " "

    return _NOT_WHO.sub(repl, text)


def _zero_as_free(m: re.Match[str]) -> str:
    """A zero amount as "free", unless it is compared, starts a range or is what a
    balance comes to (:data:`_ZERO_COMPARED`, :data:`_ZERO_STARTS_RANGE`,
    :data:`_ZERO_OF_BALANCE`)."""
    before = m.string[max(0, m.start() - _ZERO_LOOK_BACK) : m.start()]
    if _ZERO_COMPARED.search(before) or _ZERO_STARTS_RANGE.match(m.string, m.end()):
        return m.group(0)
    balance = _ZERO_OF_BALANCE.search(before)
    after = m.string[m.end() : m.end() + _ZERO_LOOK_BACK]
    if balance and not _FEE_NOUN.search(balance.group(0) + " " + after):
        return m.group(0)
    return " free "


# "Non-refundable", "non-transferable": the negation of what can be done, "not
# refundable" (against "can be refunded" as against "refundable"). Only on "-able" and
# "-ible" words: "non-members" names other people.
_NON_ABLE = re.compile(r"\bnon-?(?=([a-z]+(?:able|ible))\b)", re.IGNORECASE)


# A verb denied on a comparison with a number, one or two words before it: "we can't
# take more than 30 children", "don't pay less than £5". (The words between are no
# clause's or comparison's own.)
_DENIED_MORE = re.compile(
    r"\b(?:can't|can’t|cannot|can not|won't|won’t|will not|don't|don’t|do not|doesn't"
    r"|doesn’t|does not|mustn't|must not|may not|shouldn't|should not)"
    r"((?:\s+(?!(?:and|or|but|if|unless|than|more|less|fewer|no|not|never)\b)[a-z']+){0,3}?)"
    r"\s+(?:(more|less|fewer)\s+than|(exceed|go\s+over|go\s+beyond))\s+(\S+)(?:\s+([a-z]+))?",
    re.IGNORECASE,
)
# A bound said plainly right before the number ("at most 30", "up to 30", "a maximum of
# 30"), as padded tokens (plain_bounds wrote "no more than" as "at most").
_PLAIN_MAX = ("at most", "up to", "maximum of", "max", "maximum", "within")
_PLAIN_MIN = ("at least", "minimum of", "min", "minimum")


_COMPARED = (
    r"(?:(?:more|less|fewer|longer|later)\s+than|exceeds?|exceeding|go(?:es)?\s+(?:over|beyond))"
)
_NEGATED_LEAD = re.compile(r"(?:\b(?:not|never|no|cannot)\b|n['’]t\b)[^,;:.!?]{0,25}$")


def _affirms_comparison(low: str, amount: str) -> bool:
    """Whether ``low`` (casefolded) says "more than / exceed / go over" ``amount`` with
    no negator before it in its clause ("stays can exceed 28 nights")."""
    # (A masked amount, "<money>", is compared as written.)
    digits = re.sub(r"[^\d.]", "", amount).strip(".") or amount.casefold().strip(".,;:")
    if not digits:
        return False
    pattern = _COMPARED + r"\s+\S{0,2}" + re.escape(digits) + r"(?!\w)"
    return any(
        not _NEGATED_LEAD.search(low[max(0, m.start() - 40) : m.start()])
        for m in re.finditer(pattern, low)
    )


def _denied_bound(text: str, other: str) -> str:
    """``text`` with a verb denied on a comparison written as the bound it sets, without
    the negator ("we can't take more than 30 children" -> "we take at most 30
    children"), where ``other`` bounds the same number of the same thing that way in
    so many words ("the room holds at most 30 children"; "must be booked at least 48
    hours ahead" for "cannot be booked less than 48 hours ahead"). Against any other
    text the negator stays ("can be booked less than 48 hours ahead" is a flip)."""
    if not _DENIED_MORE.search(text):
        return text  # (most texts)
    theirs = plain_bounds(" " + " ".join(tokens(other)) + " ")

    low_other = other.casefold()

    def plain(m: re.Match[str]) -> str:
        verb, comparison, exceed, amount, unit = m.groups()
        if _affirms_comparison(low_other, amount):
            return m.group(0)  # the other text says the comparison itself, a flip
        if comparison is not None and not verb.strip():
            return m.group(0)  # ("more than" needs a verb before it; "cannot exceed" is one)
        number = tokens(amount)
        if not number:
            return m.group(0)
        noun = tokens(unit) if unit else []
        said = " ".join([number[0], *noun[:1]]) + " "
        upper = exceed is not None or comparison.casefold() == "more"
        ways = _PLAIN_MAX if upper else _PLAIN_MIN
        # (Or the bound word after the amount: "60 days max", "30 minimum".)
        after = ("max", "maximum", "at most") if upper else ("min", "minimum", "at least")
        if not any(f" {w} {said}" in theirs for w in ways) and not any(
            f" {said}{w} " in theirs or f" {number[0]} {w} " in theirs for w in after
        ):
            return m.group(0)
        way = "at most" if upper else "at least"
        return f"{verb.strip()} {way} {amount}" + (f" {unit}" if unit else "")

    return _DENIED_MORE.sub(plain, text)


# An exception beside the rule: "unless", "except".
HAS_EXCEPTION = re.compile(r"\b(?:unless|except)\b", re.IGNORECASE)


def _non_able(text: str, other: str) -> str:
    """``text`` with "non-X" written "not X" where ``other`` does not say X itself or
    no antonym pair has the two (:data:`_PAIRED_ABLE`): against "refundable" the
    antonym pair reads it ("non-transferable" / "transferable" is read as "not
    transferable"). Not beside an exception in one text only ("non-refundable unless
    the event is cancelled"): the "unless" counts as a negation too, and the two would
    cancel ("... / in all other cases the tickets are refundable") or flip a text that
    leaves the exception out ("... / tickets can't be refunded"). Where both state one
    exception (sharing a word), the two "unless" cancel and the prefix is read ("... /
    tickets can be refunded unless the event gets cancelled" is a flip)."""
    if not _NON_ABLE.search(text):
        return text  # (most texts: nothing to rewrite, nothing more to scan)
    low = other.casefold()
    mine, theirs = HAS_EXCEPTION.search(text), HAS_EXCEPTION.search(low)
    if (mine or theirs) and not (mine and theirs and _same_exception(text, low)):
        return text
    return _NON_ABLE.sub(
        lambda m: (
            m.group(0)
            if m.group(1).casefold() in _PAIRED_ABLE
            and re.search(rf"\b{m.group(1).casefold()}\b", low)
            else "not "
        ),
        text,
    )


# The words of an exception read for what it names ("unless the event is cancelled").
_EXCEPTION_WORDS = 6


def _same_exception(text: str, other: str) -> bool:
    """Whether the first exceptions of two texts share a content word ("unless the
    event is cancelled" / "unless the event gets cancelled"; not "except for medical
    reasons" / "except the $20 admin fee")."""

    def named(t: str) -> list[str]:
        m = HAS_EXCEPTION.search(t)
        # (A few words only: a long text is not tokenised to its end.)
        return (
            content(tokens(t[m.end() : m.end() + 40 * _EXCEPTION_WORDS])[:_EXCEPTION_WORDS])
            if m
            else []
        )

    theirs = named(other)
    return any(same_word(w, x, 4) for w in named(text) for x in theirs)


# A fee let go is a fee waived ("we can let it go once a year", "we'll write the fee
# off"): "it" / "that" / "this" in a text that talks of a fee, or the fee named; not
# what is let go somewhere ("let them go home", "let the car go") nor a car written off.
_FEE_NOUNS = r"(?:fees?|charges?|fines?|surcharges?|penalty|penalties)"
_LET_GO = re.compile(
    r"\b(?:let (it|that|this|the(?: \w+){0,2} " + _FEE_NOUNS + r") (?:go|slide)"
    r"|write (the(?: \w+){0,2} " + _FEE_NOUNS + r") off)\b"
    r"(?! (?:home|back|out|away|free|through|in|past|unpaid|overdue|to|up|over|by|beyond)\b)",
    re.I,
)
_FEE_TALK = re.compile(rf"\b{_FEE_NOUNS}\b|\bcharged\b", re.I)


def _let_go_as_waived(text: str) -> str:
    if not _FEE_TALK.search(text):
        return text
    return _LET_GO.sub(lambda m: f"waive {m.group(1) or m.group(2)}", text)


# "Fine-free", "interest-free", "gluten-free" said of the thing the sentence is about,
# after a verb of being ("children's books are fine-free", "the first £100 is
# interest-free for a year", "it will be completely nut-free."): without the thing
# named, "no fine". Not before a noun of its own, which is another thing ("use
# sugar-free jam, and add sugar to the batter"), nor as an adverb or a noun ("shop
# duty-free on board", "try it risk-free", "gluten-free is available"), nor a word of
# ease ("hassle-free" is "easy", no denial). (What follows is read up to the end of
# the sentence.)
_X_FREE = re.compile(r"\b([a-z]+)-free\b(?=[^\w.!?;:]*(\w*))", re.IGNORECASE)
_EASE_WORDS = frozenset("hassle worry stress trouble care fuss pain hands clutter".split())
_AFTER_FREE = frozenset("even up until during within throughout".split())
# Verbs of being that say what the thing is, right before it or before one adverb of
# degree ("is completely nut-free"; not "can be stored overnight free of the fee").
_BEING = frozenset("is are be been being was were remain remains stay stays become".split())
_DEGREE = frozenset("completely totally entirely fully all always also strictly 100".split())


def _said_of_it(m: re.Match[str]) -> bool:
    before = re.findall(r"[\w']+", m.string[max(0, m.start() - 60) : m.start()].casefold())
    if before[-1:] and before[-1] in _DEGREE:
        before = before[:-1]
    return bool(before) and (before[-1] in _BEING or before[-1].endswith(("'s", "'re")))


def _free_of(m: re.Match[str]) -> str:
    if m.group(1).casefold() in _EASE_WORDS or not _said_of_it(m):
        return m.group(0)
    following = m.group(2).casefold()
    if following and following not in STOPWORDS and following not in _AFTER_FREE:
        return m.group(0)
    return f"no {m.group(1)}"


# "Free from nuts", "free of gluten" said of the thing (after a verb of being): the
# same "no nuts" (so that "nut-free" says it too). Not a source ("download it free
# from the App Store", "a shuttle runs free from the station"), a cost ("free of
# charge" is read as a cost) or a time ("free from 6 pm", "free from Monday" say when
# something costs nothing).
_FREE_FROM = re.compile(r"\bfree\s+(?:from|of)\s+(?:(?:any|all|the)\s+)?([a-z][a-z-]*)", re.I)
_NOT_FREED = frozenset(
    """charge charges cost costs fee fees payment extra midnight noon midday today
    tomorrow tonight now then next this age birth dawn dusk sunrise sunset weekday
    weekdays weekend weekends monday tuesday wednesday thursday friday saturday sunday
    january february march april june july august september october november
    december""".split()
)


def _freed_of(m: re.Match[str]) -> str:
    word = m.group(1).casefold()
    if word in _NOT_FREED or word in STOPWORDS or not _said_of_it(m):
        return m.group(0)
    return f"no {m.group(1)}"


def _plain(text: str) -> str:
    """The text's tokens, space-joined and padded, with bound phrases rewritten."""
    if "free" in text.casefold():
        text = _FREE_FROM.sub(_freed_of, _X_FREE.sub(_free_of, text))
    text = _let_go_as_waived(text)
    if "neither" in text.casefold() or "nor" in text.casefold():
        text = _elliptic_neither(text)
    text = _NO_WORRIES.sub(r"\1", _ANSWER_NO.sub(r"\1", _ANSWER_NO_LEAD.sub(_reply_echoed, text)))
    text = _FAILURE_TO.sub("not", _ZERO_PERCENT.sub("no", _WITHOUT.sub("without", text)))
    if _COST_NOUN.search(text):  # "Cost to you: $0" (not "the balance down to $0")
        text = ZERO_AMOUNT.sub(_zero_as_free, text)
    low = plain_bounds(" " + " ".join(tokens(text)) + " ")
    for phrase, plain in (*_CARRY_PHRASES, *_FAILED, *_UNABLE, *_BEYOND, *_COSTS_NOTHING):
        low = low.replace(" " + phrase + " ", " " + plain + " ")
    if " exception " in low:
        low = _EXCEPTION_IS.sub(lambda m: " unless " if m.group(1) else " except ", low)
    return _LETS_YOU.sub(" you can ", low)


# "X isn't refundable, and neither are Y" / "nor is Y": the negation of the clause
# before, said again of one more thing, not a second negation ("X and Y are not
# refundable"). Read on the raw text, up to the clause's end: only a bare "be" and a noun
# phrase after it ("neither are setup fees or SSL certificates"), not a predicate of its
# own ("nor is the deposit refundable", "nor are drinks included", "nor can you sublet");
# and only after a negation.
_NEITHER_IS = re.compile(
    r"\b(?:and\s+)?(?:neither|nor)\s+(?=(?:are|is|was|were)\s+([^,.;:!?\n]{1,80}?)\s*(?:[,.;:!?\n]|$))",
    re.IGNORECASE,
)
_A_NEGATOR = re.compile(r"\b(?:not|no|never|cannot|none)\b|n't|n’t", re.IGNORECASE)
# The last word of a predicate, not of a noun phrase: an adjective or participle ending
# ("refundable", "included", "careful", "expensive", "available") or one of these.
_PREDICATE_END = re.compile(r"(?:able|ible|ed|ful|ive|ent|ant|ous|less)$")
_PREDICATE_WORDS = frozenset(
    "free allowed open closed possible necessary due ok okay fine late valid paid".split()
)


def _elliptic_neither(text: str) -> str:
    first = _A_NEGATOR.search(text)
    if first is None:
        return text
    out, at = [], 0
    for m in _NEITHER_IS.finditer(text, first.end()):
        said = m.group(1).split()
        last = said[-1].casefold() if said else ""
        if not last or _PREDICATE_END.search(last) or last in _PREDICATE_WORDS:
            continue  # a predicate of its own: a second negation
        out += [text[at : m.start()], "and "]
        at = m.end()
    return "".join(out) + text[at:]


def plain_bounds(padded: str) -> str:
    """A padded token string with its bounds and costs written with a negator in their
    plain form ("no larger than" -> "at most", "at no cost" -> "free")."""
    for phrase, plain in BOUND_PHRASES:
        padded = padded.replace(" " + phrase + " ", " " + plain + " ")
    return padded


# The negator of a "not ... until": its groups ("ca" / "wo" of "can't" / "won't",
# "cannot") tell _only_from which verb to keep, in both patterns that use it.
_DENY = r" (?:(ca|wo) n't|(cannot)|not|n't"
_NOT_UNTIL = re.compile(_DENY + r") ((?:\S+ ){0,3}?)until ")
# "Only" that sets when something starts ("only at 18:40", "only from 9 am", "only
# counts as cancelled once you have the email"), not when it ends ("only until 9 am" is
# the opposite of "not until 9 am").
_ONLY_FROM = re.compile(r" only (?:(?!until )\S+ ){0,3}?(?:at|from|after|once|when|on) ")
# An obligation to do one thing before another ("your instructor must sign you off
# before a test can be booked", "wait for the assessor to approve it before arranging
# repairs") sets the same order as the other thing denied until the first ("a test
# cannot be booked until your instructor has confirmed it", "no repairs before ...").
# (From a word's start only: tried inside a long token, "\S+ " read to its end from
# every letter, quadratic on one hostile 50,000-character word; and a match could start
# inside a word, "behave to" read as "have to".)
_MUST_BEFORE = re.compile(
    r"(?<!\S)((?:\S+ ){0,6}?)"
    r"(?:must|have to|has to|need to|needs to|required to|wait for|wait until) "
    r"((?:\S+ ){0,10}?)before ((?:\S+ ){1,8})"
)
_DENIED_UNTIL = re.compile(_DENY + r"|no) ((?:\S+ ){0,5}?)(?:until|before) ")
# A restriction with its alternative: "list only, or pay ...", "... only; otherwise".
_ONLY_OR = re.compile(r" only (?:\S+ ){0,3}?(?:or|otherwise|else) ")


# "Not final without it" / "not final unless you pay" is the "not final until ..." of
# the other text: one condition, said with a second negator ("without", "unless"), on
# the same verb ("don't collect the cake without paying" is no "don't pay until you've
# collected the cake").
_NOT_WITHOUT = re.compile(_DENY + r") ((?:\S+ ){0,3}?)(?:without|unless) ")
# What must happen "or" something "can't" happen is what must happen "so" that it can:
# "approve the proof within 48 hours or baking can't start" = "... so we can start
# baking". The negation is a verb's ("can't", "won't", "don't"), and what comes after
# the "or" a clause of its own: a subject pronoun or a determiner first ("or we can't",
# "or the slot won't"), or a gerund right before the verb ("or baking can't"). "Card or
# cash, not cheque" is a choice; "lost or damaged aids cannot be returned", "or missing
# items can't", "or booking online won't" are pairs of words.
_OR_DENIED = re.compile(
    r" or (?:else )?((?:(?:we|you|they|it|he|she|i|the|your|our|their|this|that|there)"
    r" (?:\S+ ){0,2}?)|\S+ing )(?:(ca|wo|do|does|will) n't|(cannot)|(will|can|do|does) not) "
)
# ... against a "so (that) ... can": not "just so you know, we can ...", "so far".
_SO_THAT = re.compile(
    r" so (?:that )?(?!you know |far |long |much |many )(?:\S+ ){1,3}?(?:can|will|could|may) "
)


# A "so" after a comma that follows a statement tells what follows, not what for ("the
# form is signed, so we can process it" is no "sign the form or we can't process it");
# after a request it is a purpose ("bring the receipt, so we can refund you", "you must
# sign the form, so we can process it"), and "so that" always is.
_CONSEQUENCE_SO = re.compile(r",\s*(?:and\s+)?so\b(?!\s+that\b)", re.IGNORECASE)
_SUBJECT_FIRST = frozenset(
    """the a an this that these those it its we you they he she i there my your our their
    his her everyone everything nothing all each every""".split()
)
_ASKING = re.compile(
    r"\b(?:must|need|needs|needed|have to|has to|should|please|ought|required|requires"
    r"|necessary|essential|mandatory|compulsory|important|make sure|remember)\b",
    re.IGNORECASE,
)
# A statement's verb among a clause's first words ("dogs are vaccinated, so ...",
# "today the pool is heated, so ..."); a request opens with its own verb ("bring the
# receipt, so ...", "call us if you are late, so ...").
_STATED = frozenset("is are was were has have had isn't aren't wasn't weren't".split())
_CLAUSE_END = re.compile(r"[.;:!?\n]")


def _stated_so(raw: str) -> str:
    """``raw`` with each "so" after a comma that follows a statement set aside (see
    ``_CONSEQUENCE_SO``)."""
    # (Where each clause starts and where a request word is, found once: a long text
    # with many a ", so" is read in one pass, not once per "so".)
    starts = [0, *(e.end() for e in _CLAUSE_END.finditer(raw))]
    asks = [e.start() for e in _ASKING.finditer(raw)]

    def one(m: re.Match[str]) -> str:
        start = starts[bisect.bisect_right(starts, m.start()) - 1]
        words = raw[start : min(m.start(), start + 60)].split()
        first = words[0].casefold() if words else ""
        stated = first in _SUBJECT_FIRST or any(w.casefold() in _STATED for w in words[1:4])
        asked = bisect.bisect_left(asks, start) < bisect.bisect_left(asks, m.start())
        if not stated or asked:
            return m.group(0)  # a request: what it is for
        return ", hence"

    return _CONSEQUENCE_SO.sub(one, raw)


def _so_that(padded: str, raw: str) -> bool:
    """Whether the padded text has a "so (that) ... can" of purpose: one its raw text
    still has once a "so" of consequence is set aside."""
    if not _SO_THAT.search(padded):
        return False
    if not raw or not _CONSEQUENCE_SO.search(raw):
        return True
    return bool(_SO_THAT.search(_plain(_stated_so(raw))))


def _denied_words(m: re.Match[str] | None) -> list[str]:
    """The content words a "not ... until/without" denies (between its negator and its
    condition word)."""
    return content(m.group(3).split()) if m else []


def _same_denied(s: str, a: str) -> bool:
    """Whether the "not ... until" of ``s`` and the "not ... without/unless" of ``a``
    deny the same verb or thing (a content word they share)."""
    ws, wa = _denied_words(_NOT_UNTIL.search(s)), _denied_words(_NOT_WITHOUT.search(a))
    return any(same_word(x, y, 4) for x in ws for y in wa)


def _until_for_without(m: re.Match[str]) -> str:
    return m.group(0).rsplit(" ", 2)[0] + " until "


def _so_for_or(m: re.Match[str]) -> str:
    aux = m.group(2) or m.group(3) or m.group(4) or ""
    verb = {"ca": "can", "cannot": "can", "wo": "will", "do": "", "does": ""}.get(aux, aux)
    return f" so {m.group(1)}{verb} ".replace("  ", " ")


def _one_condition(s: str, a: str, raw_s: str = "", raw_a: str = "") -> tuple[str, str]:
    """The two texts with a condition written the other text's way: a "not ...
    without/unless" against a "not ... until", and an "or ... can't" against a "so ...
    can" (see ``_NOT_WITHOUT`` and ``_OR_DENIED``)."""
    if (
        not _NOT_WITHOUT.search(s)
        and not _NOT_UNTIL.search(a)
        and _NOT_UNTIL.search(s)
        and _same_denied(s, a)
    ):
        a = _NOT_WITHOUT.sub(_until_for_without, a)
    elif (
        not _NOT_WITHOUT.search(a)
        and not _NOT_UNTIL.search(s)
        and _NOT_UNTIL.search(a)
        and _same_denied(a, s)
    ):
        s = _NOT_WITHOUT.sub(_until_for_without, s)
    if _so_that(s, raw_s) and _OR_DENIED.search(a) and not _OR_DENIED.search(s):
        a = _OR_DENIED.sub(_so_for_or, a)
    elif _so_that(a, raw_a) and _OR_DENIED.search(s) and not _OR_DENIED.search(a):
        s = _OR_DENIED.sub(_so_for_or, s)
    return s, a


def _only_from(m: re.Match[str]) -> str:
    verb = "can " if m.group(1) == "ca" or m.group(2) else "will " if m.group(1) else ""
    return f" {verb}{m.group(3)}only from "


def _must_before(text: str, other: str) -> bool:
    """Whether ``text`` obliges one thing before a second ("must A before B") that
    ``other`` denies until the first ("B cannot be booked until A"): the second
    thing's words are in ``other`` before its "until", more than after it, and the
    first thing's after it."""
    m = _MUST_BEFORE.search(text)
    u = _DENIED_UNTIL.search(other)
    if m is None or u is None:
        return False
    # The first thing with its subject ("your instructor ... sign you off"), the second.
    first = content((m.group(1) + m.group(2)).split())
    second = content(m.group(3).split())
    head, tail = other[: u.end()].split(), other[u.end() :].split()

    def shared(need: list[str], ws: list[str]) -> int:
        have = content(ws)
        return sum(any(same_word(w, x, 5) for x in have) for w in need)

    # The second thing is what is denied, and the first is what it waits for ("you do
    # not need to show your ID before you get on" denies the first thing instead).
    return shared(second, head) > shared(second, tail) and shared(first, tail) > 0


# What we undertake to do is a promise, not an obligation on the reader: "we ensure
# refunds are processed within 5 days" grants or denies the reader nothing.
_PROMISE = re.compile(r" (?:we|we'll|we will|our \S+) (?:ensure|ensures|make sure|makes sure) ")


# "Free to use" against a text that says "free" of a cost ("must be left in the
# cloakroom, which is free" / "the cloakroom is free to use") is that cost, not a
# permission; against any other text it may be one ("passengers are free to use the sun
# deck" / "passengers must use the sun deck").
_FREE_TO_COST_VERBS = frozenset("use enter join attend visit access download borrow".split())
# Who may be "free to" do something: a person said right before it ("you're free to
# leave your contract", "each guest is free to choose"; not "it's free to move", a cost,
# nor a bullet's "- Free to cancel: until 48h before").
_NOT_A_PERSON = (["it"], ["this"], ["that"])
_FREE_TO_SUBJECT = frozenset("you're you’re they're they’re we're we’re are".split())
_FREE_TO_USE = re.compile(r" free to (?=(?:" + "|".join(sorted(_FREE_TO_COST_VERBS)) + r") )")
_FREE_OF_COST = re.compile(
    r" (?:is|are|be|being|been|it's|stays?|remains?|comes?|totally|completely|entirely) free"
    r" (?!to )| free of (?:charge|cost) | for free | free $"
)


def _promises(padded: str, other: str = "") -> str:
    """The padded text without what grants or denies the reader nothing: our promises
    ("we ensure ...") and, against an ``other`` text that says "free" of a cost, a "free
    to use"."""
    padded = _PROMISE.sub(" we ", padded)
    if _FREE_OF_COST.search(other) and not _FREE_OF_COST.search(padded):
        padded = _FREE_TO_USE.sub(" free ", padded)
    return padded


def _negates(padded: str) -> bool:
    """Whether a padded text has a negator other than "unless"."""
    return any(w in NEGATORS for w in padded.split())


def _one_form(s: str, a: str) -> tuple[str, str]:
    """``s`` and ``a`` with "not refundable" written "nonrefundable" where one text
    has the prefixed form and both use the word: the antonym with a negator and with
    its prefix are one statement, neither a negation nor an antonym flip. Otherwise a
    negation stays one ("not covered" against "covered", or against "free of
    charge")."""
    for left, right in _PREFIXED.items():
        prefixed = (f" {right} ", f" non-{left} ", f" non{left} ", f" un{left} ")
        forms = (f" {left} ", *prefixed)
        if (
            any(f in s or f in a for f in prefixed)
            and any(f in s for f in forms)
            and any(f in a for f in forms)
        ):
            pattern = re.compile(r" (?:not|n't|never) " + re.escape(left) + " ")
            s, a = pattern.sub(f" {right} ", s), pattern.sub(f" {right} ", a)
    return s, a


# How far after an "only" the word it restricts to is looked for ("only paid-up
# members", "only for players who turn up").
_ONLY_REACH = 4
# What names those outside a group: "non-" before any word ("non-members"), "non" or
# "un" before a participle or an "-able" / "-ible" word ("nonperishable", "unpaid",
# "unregistered"; not "nonstop", "unlock", "unit", "until", "unless").
_OUTSIDE_ENDS = ("ed", "able", "ible", "paid", "known")


def _outside(w: str, x: str) -> bool:
    """Whether ``x`` names what is outside ``w`` by a negative prefix, or ``w`` what
    is outside ``x`` ("members" / "non-members", "unopened" / "opened"): the word
    without its prefix is the other word, or its plural, of four letters or more."""
    for inner, outer in ((w, x), (x, w)):
        if outer.startswith("non-"):
            bare = outer[4:]
        elif outer.startswith(("non", "un")) and outer.endswith(_OUTSIDE_ENDS):
            bare = outer[3:] if outer.startswith("non") else outer[2:]
        else:
            continue
        if len(bare) >= 4 and singular(bare) == singular(inner):
            return True
    return False


def _only_from_outside(s: str, a: str) -> tuple[str, str, tuple[str, str] | None]:
    """``s`` and ``a`` (padded, plain) where one text restricts a rule to a group with
    "only" and the other says it of those outside the group, by a negative prefix: the
    same rule said from the other side ("only members can book" = "non-members cannot
    book"; "we only refund unopened items" = "opened items are not refunded"). The
    "only" is read as a "not" and the outside group as the group, so that the
    negation of the one and the restriction of the other are one statement, and an
    outside group granted the rule ("non-members can book too") is a flip. One
    "only" text, the other with no "only" of its own. The third value: the answer's
    word for the outside group and the group's, where the answer's was replaced."""
    for one, other, swap in ((s, a, False), (a, s, True)):
        ow = one.split()
        if ow.count("only") != 1 or " only " in other:
            continue
        i = ow.index("only")
        group = [w for w in ow[i + 1 : i + 1 + _ONLY_REACH] if w not in STOPWORDS]
        xw = other.split()
        hit = next(
            ((j, g) for j, x in enumerate(xw) for g in group if _outside(g, x)),
            None,
        )
        if hit is None:
            continue
        j, g = hit
        outer = xw[j]
        ow[i] = "not"
        xw[j] = g
        one2, other2 = " " + " ".join(ow) + " ", " " + " ".join(xw) + " "
        return (other2, one2, None) if swap else (one2, other2, (outer, g))
    return s, a, None


# Antonyms that are their word with a negative prefix, and the negators that write
# them in two words ("not refundable", "isn't refundable").
_PREFIXED = {
    left: right
    for lefts, rights in ANTONYM_PAIRS
    for left in lefts
    for right in rights
    if " " not in left and right in {f"non-{left}", f"non{left}", f"un{left}"}
}


# The "-able" / "-ible" words whose "non-" form an antonym pair reads.
_PAIRED_ABLE = frozenset(
    left for left, right in _PREFIXED.items() if right in (f"non-{left}", f"non{left}")
)


# A negator that is the opposite of a quantifier: "never" against "always" negates
# the statement whatever verb either text uses ("are always discussed with you" ->
# "we never talk them through with you").
_OPPOSITE_QUANTIFIER = {"never": "always"}


_COST_TALK = COST_WORDS | {"refund", "refunds", "refunded"}


def _same_verb(a: str, b: str) -> bool:
    """One verb, from its first letters on ("skip" / "skipped", "forget" / "forgot"): not
    a compound's tail ("forget" / "gets")."""
    return a[:3] == b[:3] and bool(content([b])) and same_word(a, b, 4)


def _negations(
    padded: str, other: list[str] | None = None, wide: bool = False
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """One entry per negation of a clause: its negator (None for a negative phrase
    such as "not required") and its scope, the content words in the few words after
    the negator (None for a negative phrase, or a negator with no content word after
    it). ``wide``: the scope goes on, after ``_WIDE_MARK``, with the words further on
    up to ``_WIDE_WINDOW`` words or a clause break (not numbers or units), which count
    as the words the negation governs (:func:`_grounded`)."""
    k, low = _negative_phrases(padded)
    out: list[tuple[str | None, tuple[str, ...] | None]] = [(None, None)] * k
    ws = low.split()
    for i, w in enumerate(ws):
        if w not in POLARITY_NEGATORS:
            continue
        if (
            w == "free"
            and ws[i + 1 : i + 2] == ["to"]
            and ws[i + 2 : i + 3]
            and ws[i + 2] not in _FREE_TO_COST_VERBS
            and (
                (ws[i - 1 : i] and ws[i - 1] in _FREE_TO_SUBJECT)
                or (ws[i - 1 : i] == ["is"] and ws[i - 2 : i - 1] not in _NOT_A_PERSON)
            )
        ):
            # "Free to leave", "free to choose": a permission (as "can"), no cost denied.
            continue
        if w == "nor" and "neither" in ws[max(0, i - _NEITHER_SPAN) : i]:
            # "Neither returned nor extended" is one negation of a coordination, as
            # "not back or extended" is (and, counted once, it meets "no return and no
            # extension" as "not refunded or credited" does).
            continue
        after = [x for x in ws[i + 1 : i + 1 + _SCOPE_WINDOW] if x not in STOPWORDS]
        if (
            after
            and after[0] in LITOTES_VERBS
            and not any(_same_verb(after[0], x) for x in other or ())
        ):
            # "don't forget to bring it" affirms "bring it"; against "you can skip
            # it", "you cannot skip it" is still a negation.
            continue
        scope = tuple(x for x in content(after) if x not in POLARITY_NEGATORS)
        if (
            wide
            and scope
            and len(ws[i + 1 : i + 1 + _SCOPE_WINDOW]) == _SCOPE_WINDOW
            and not (set(ws[i + 1 : i + 1 + _SCOPE_WINDOW]) & _CLAUSE_BREAKS)
        ):
            further: list[str] = []
            for x in ws[i + 1 + _SCOPE_WINDOW : i + 1 + _WIDE_WINDOW]:
                if x in _CLAUSE_BREAKS:
                    break
                further.append(x)
            extra = tuple(
                x
                for x in content(further)
                if x.isalpha() and x not in POLARITY_NEGATORS and x not in _MEASURE_WORDS
            )
            if extra:
                scope = (*scope, _WIDE_MARK, *extra)
        modal = None
        if w == "cannot":
            modal = "can"
        elif w in ("not", "n't", "never") and i:
            modal = _MODAL_FORMS.get(ws[i - 1])
        out.append((f"{modal}+{w}" if modal else w, scope or None))
    return out


# Modals whose negation is read against the same modal ("cannot choose" against "can
# pick"); the tokenizer writes "can't" as "ca n't".
# "Will" is left out: it is how most answers say what happens next, so an affirmed
# "will" bears on a "won't" far less often (tried: as many negations lost as found).
# "Must" is left out too: "must not X" is said again as "must Y" ("must not leave bags
# unattended" = "must keep your bags with you").
_MODAL_FORMS = {"can": "can", "ca": "can", "could": "could", "may": "may"}


# What a permission is denied with ("not allowed", "not accepted") and the words that
# grant it without the same verb: a "can"/"may" (see _affirmed_modal) or a word of
# permission.
_PERMIT_HEADS = frozenset("allowed permitted accepted welcome".split())
_PERMIT_WORDS = frozenset("fine ok okay welcome allowed permitted accepted".split())
_PERMIT_MODALS = ("can", "may")
_PERMIT_MODAL_FORMS = frozenset(f for f, m in _MODAL_FORMS.items() if m in _PERMIT_MODALS)
# What accepting is said with, before what is accepted ("we also take cash").
_TAKE_VERBS = frozenset("take takes accept accepts".split())


_MAY = ("can", "may", "could")
# What says "free" without a negator: "complimentary"; and "included" ("removal is
# included up to 3 m3" / "we take away up to 3 m3 at no extra charge"), against a
# text that does not say "included" itself ("free of charge, including parts" / "you
# won't pay anything: parts are all included").
_SAID_FREE = COST_FREE_WORDS - POLARITY_NEGATORS
_INCLUDED = frozenset("include includes included including inclusive".split())


def _says_free(other: list[str], own: list[str]) -> bool:
    """Whether ``other`` says "free" without a negator, where ``own`` says it with one:
    "complimentary", "waived", or "included" where ``own`` does not say "included" of
    something else ("included free of charge" / "included" is one statement; "breakfast
    is included and parking is free" / "breakfast is included" is not)."""
    if _SAID_FREE & set(other):
        return True
    if not _INCLUDED & set(other):
        return False
    return not _INCLUDED & set(own) or any(
        w in _INCLUDED and nxt in COST_FREE_WORDS for w, nxt in itertools.pairwise(own)
    )


def _free_count(negs: list[tuple[str | None, tuple[str, ...] | None]]) -> int:
    """How many of ``negs`` are a "free" of cost."""
    return sum(n in COST_FREE_WORDS for n, _ in negs)


def _without_surplus_free(
    negs: list[tuple[str | None, tuple[str, ...] | None]], surplus: int
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``negs`` without its last ``surplus`` "free"s of cost."""
    keep = _free_count(negs) - surplus
    out = []
    for n in negs:
        if n[0] in COST_FREE_WORDS:
            if keep <= 0:
                continue
            keep -= 1
        out.append(n)
    return out


def _count(padded: str, ws: tuple[str, ...]) -> int:
    """How many times the padded text uses any of the words ``ws``."""
    return sum(padded.count(f" {w} ") for w in ws)


def _only_what_permitted(step: str, answer: str) -> bool:
    """Whether the word before the answer's "only" is a word of what the step permits,
    after its "can"/"may" ("... they can be exchanged for a voucher" / "voucher only"),
    not of what it denies ("lift passes are not refundable, but can be transferred" /
    "refunds only")."""
    sw, aw = step.split(), answer.split()
    granted = [w for i, m in enumerate(sw) if m in _MAY for w in content(sw[i + 1 : i + 8])]
    return any(
        w == "only" and i > 0 and any(same_word(aw[i - 1], g, 4) for g in granted)
        for i, w in enumerate(aw)
    )


def _affirmed_modal(modal: str, other: list[str]) -> bool:
    """Whether ``other`` uses ``modal`` without negating or restricting it ("you can
    pick the day"; not "you can no longer pick it", "can only be changed by phone",
    "may keep service animals only"). Only the same modal: "we may move you" grants
    nothing that "you cannot choose your seat" denies."""
    forms = {f for f, m in _MODAL_FORMS.items() if m == modal}
    return any(
        w in forms
        and (i + 1 == len(other) or other[i + 1] not in POLARITY_NEGATORS)
        and "only" not in other[i + 1 : i + 6]
        for i, w in enumerate(other)
    )


def _negative_phrases(padded: str) -> tuple[int, str]:
    """How many negative phrases ("not required", "does not have to") the padded text
    has, and the text without them."""
    k = 0
    for phrase in NEGATIVE_PHRASES:
        k += padded.count(" " + phrase + " ")
        padded = padded.replace(" " + phrase + " ", " ")
    return k, padded


def negation_count(text: str) -> int:
    """How many negations a clause has (negators and negative phrases)."""
    return len(_negations(_plain(text)))


def polarity(text: str) -> int:
    """Parity of negations in a clause: 0 affirmative, 1 negative."""
    return negation_count(text) % 2


def _own_facts(own: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """A negating text's words and the modals it affirms (:func:`_affirmed_modal`)."""
    modals = frozenset(m for m in set(_MODAL_FORMS.values()) if _affirmed_modal(m, own))
    return frozenset(own), modals


def _grounded(
    negation: tuple[str | None, tuple[str, ...] | None],
    other: list[str],
    own: list[str] | None = None,
    preds: dict[tuple[str, str], tuple[str, ...]] | None = None,
    more_no_shows: bool = False,
    own_facts: tuple[frozenset[str], frozenset[str]] | None = None,
) -> bool:
    """Whether a negation bears on the other text: the first word of its scope occurs
    there, not under a negative prefix, or two of its other scope words do ("not taken
    via direct debit" bears on "collected by direct debit"); or its negator is the
    opposite of a quantifier the other text uses ("never" / "always"); or it negates
    a modal that the other text affirms and ``own`` (the negating text) does not
    ("cannot choose" / "can pick"). ``own_facts``: ``own``'s words and affirmed modals
    (:func:`_own_facts`), read once by a caller that asks for many negations."""
    negator, scope = negation
    own_words, own_modals = own_facts or _own_facts(own or [])
    if negator and "+" in negator:
        modal, negator = negator.split("+")
        if _affirmed_modal(modal, other) and modal not in own_modals:
            # "you cannot choose the day" against "you can pick the day"; not when
            # the negating text affirms the modal too ("you can't bring food, but you
            # can buy snacks"): the other text's may be that one.
            return True
    if negator in _OPPOSITE_QUANTIFIER and _OPPOSITE_QUANTIFIER[negator] in other:
        return True
    if negator in COST_FREE_WORDS:
        # "Free" and "waived" say what something costs: they bear on a text that
        # speaks of cost ("may be transferred at no cost until 24 hours before" does
        # not negate "transfers close 24 hours before doors open").
        return any(w in _COST_TALK or w in COST_FREE_WORDS for w in other)
    if scope is None:
        return True
    if (
        scope[0] in _LIGHT_HEADS
        and len(scope) > 1
        and scope[1] != _WIDE_MARK
        and _grounded((negator, scope[1:]), other, own, preds, more_no_shows, own_facts)
    ):
        # "Not eligible for a refund" / "not able to accept" bears on the refund, the
        # accepting: "we will refund it", "we accept claims" (and, read as written, on
        # "is able to handle refunds").
        return True
    head = scope[0]
    if head in _COST_TALK and any(w in _COST_TALK or w in COST_FREE_WORDS for w in other):
        return True  # "no charge" bears on "costs $18"
    if (
        head in ANTONYM_TRIGGERS
        and _PAIR_WORDS.get(head, frozenset()) & set(other)
        and not _OTHER_SIDE.get(head, frozenset()) & own_words
    ):
        # An antonym's negation pairs with the other side ("not excluded"); not where
        # the negating text states that side itself, which the negation only says
        # again ("don't throw anything away: keep the item").
        return True
    if _prefixed(head, other, more_no_shows):
        return False
    if any(same_word(head, w, 4) for w in other):
        return True
    if any(head in group and group & set(other) for group in _GROUNDING_CLASSES):
        return True  # "does not roll over" bears on "is carried forward"
    if head in _PREDICATES and own and _before_predicate(negator, head, preds or {}, other):
        return True  # "Early release while the inspection is pending: not possible"
    # A reworded verb ("not taken via direct debit" for "collected by direct debit"):
    # two of the words it governs.
    said_again = head in ANTONYM_TRIGGERS and _OTHER_SIDE.get(head, frozenset()) & own_words
    governed = (_narrow(scope) or ())[1:] if said_again else scope[1:]
    return sum(any(same_word(x, w, 4) for w in other) for x in governed if x != _WIDE_MARK) >= 2


# Words a negation passes through to the word it governs ("not eligible for a refund",
# "not entitled to a refund", "not able to accept").
_LIGHT_HEADS = frozenset("eligible entitled able".split())


# Words that deny what comes before them ("early release while the inspection is
# pending: not possible" = "the hold cannot be released early while ...").
_PREDICATES = frozenset("possible allowed permitted".split())


def _back_to_break(ws: Sequence[str], i: int, span: int) -> list[str]:
    """The words before ``ws[i]``, nearest first, back to a clause-break word (left
    out) or at most ``span`` words."""
    before: list[str] = []
    for x in reversed(ws[max(0, i - span) : i]):
        if x in _CLAUSE_BREAKS:
            break
        before.append(x)
    return before


@functools.lru_cache(maxsize=1024)
def _predicate_index(padded: str) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each denied predicate of a padded text ("not possible"), keyed by negator
    and predicate, the content words before its first occurrence, back to a clause
    break (at most 8 words): read in one pass, so a text with many negations is not
    read again for each of them."""
    own = padded.split()
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for i in range(1, len(own) - 1):
        if own[i + 1] not in _PREDICATES or (own[i], own[i + 1]) in out:
            continue
        before = _back_to_break(own, i, 8)
        out[own[i], own[i + 1]] = tuple(w for w in content(before) if w not in _BE)
    return out


def _before_predicate(
    negator: str | None, head: str, own: dict[tuple[str, str], tuple[str, ...]], other: list[str]
) -> bool:
    """Whether two of the content words before a denied predicate ("... : not
    possible"), back to a clause break, occur in the other text (``own``: the negating
    text's :func:`_predicate_index`)."""
    said = own.get(((negator or "").split("+")[-1], head), ())
    return sum(any(same_word(w, x, 4) for x in other) for w in said) >= 2


# The negator keys of a "cannot" / "can't" (see _negations).
_CANNOT = frozenset({"can+cannot", "can+n't", "can+not"})
# Words that grant what a "cannot" denied, said after what it was denied to ("orders in
# the queue are eligible to be upgraded", "own paint: allowed"): the words of
# permission, and "eligible" (not "accepted", which says what is taken).
_GRANT_WORDS = (_PERMIT_WORDS - {"accepted"}) | {"eligible"}


def _can_granted(scope: tuple[str, ...], other: list[str]) -> bool:
    """Whether the other text grants, with a word of permission right after one of the
    denied verb's objects, what a "cannot" denied ("we cannot move an order already in
    the queue" / "orders already in the queue are eligible to be upgraded"; "players
    cannot bring their own paint" / "own paint: allowed"). Not in a clause with "only"
    or a negator, which restricts ("only our own paint is allowed")."""
    objects = set(scope[1:])
    if not objects:
        return False
    for i, w in enumerate(other):
        if w not in _GRANT_WORDS:
            continue
        before = other[max(0, i - 8) : i]
        if any(same_word(o, b, 4) for o in objects for b in before) and not (
            ({"only"} | POLARITY_NEGATORS | _CLAUSE_BREAKS) & set(before)
        ):
            return True
    return False


def _granted(
    negation: tuple[str | None, tuple[str, ...] | None], other: list[str], own: list[str]
) -> bool:
    """Whether a denied permission ("smoke machines are not allowed in the studio") is
    granted by the other text in other words, to what it was denied to: a "can"/"may"
    right after a word of the denied subject, which the denying text does not affirm
    ("... open flames can be used in the studio"), or a word of permission a few words
    after one ("... open flames are fine in the studio"), or for what is not accepted
    a "take" or "accept" before a word of it ("we also take cash"). Read on the other text
    itself, not its sentence: a "can" in a sibling clause grants something else, as
    does one after another subject ("dogs wait outside, where you can tie them up")."""
    scope = negation[1]
    if scope and negation[0] in _CANNOT and _can_granted(scope, other):
        return True
    if not scope or scope[0] not in _PERMIT_HEADS:
        return False
    first = next((i for i, w in enumerate(own) if w in POLARITY_NEGATORS), len(own))
    subject = {w for w in own[:first] if w not in STOPWORDS and w not in _PERMIT_HEADS}
    if not subject:
        return False
    for i, w in enumerate(other):
        if w in _PERMIT_WORDS and subject & set(other[max(0, i - 3) : i]):
            return True
        if (
            scope[0] == "accepted"
            and w in _TAKE_VERBS
            and subject & set(other[i + 1 : i + 4])
            and not POLARITY_NEGATORS & set(other[max(0, i - 2) : i])
        ):
            return True  # "cash is not accepted" / "we also take cash"
        if (
            w in _PERMIT_MODAL_FORMS
            and i > 0
            and other[i - 1] in subject
            and _affirmed_modal(_MODAL_FORMS[w], other[i - 1 :])
            and not _affirmed_modal(_MODAL_FORMS[w], own)
        ):
            return True
    return False


_MONEY = ANTONYM_PAIRS.index(MONEY_BACK)
_COVER = next(i for i, (left, _) in enumerate(ANTONYM_PAIRS) if "covered" in left)
_COVER_VERB = re.compile(
    r" (?:we|they|it|does|do|did|not|n't|will|also|only|still|plan|policy|guarantee|"
    r"warranty|insurance|cover) covers? "
)
_FORFEIT = re.compile(r"\bforfeit(?:s|ed)?\b")
_MONEY_NOUN = r"(?:deposit|deposits|fee|fees|payment|money|balance|credit)"
# "you lose the (£30) deposit", "the deposit is lost".
_LOSE_MONEY = re.compile(
    r"\blos(?:e|es|ing)\s+(?:(?:the|your|their|its|any|a|all)\s+)?(?:\S+\s+)?"
    + _MONEY_NOUN
    + r"\b|\b"
    + _MONEY_NOUN
    + r"\s+(?:is|are|gets|get|will\s+be|would\s+be)\s+lost\b"
)
# "... the deposit ..., you lose it": a pronoun after the money was named (two searches,
# not one pattern with ".*" between them, which would rescan the text from every noun).
_MONEY_WORD = re.compile(r"\b" + _MONEY_NOUN + r"\b")
_LOSE_IT = re.compile(r"\blos(?:e|es|ing)\s+(?:it|them)\b")
# A loss stated as what happens otherwise ("..., or you lose the deposit", "otherwise
# the fee is forfeited").
_LOSS_OTHERWISE = re.compile(
    r"\b(?:or|otherwise|else)\b(?:\s+\S+){0,3}?\s+(?:lose|loses|lost|forfeit|forfeits|forfeited)\b"
)
# Each one-word antonym with the words of its pair (both sides, split into words), and
# with the words of the other side only.
_PAIR_WORDS: dict[str, frozenset[str]] = {}
_OTHER_SIDE: dict[str, frozenset[str]] = {}
for _left, _right in ANTONYM_PAIRS:
    _all = frozenset(t for side in (_left, _right) for w in side for t in w.split())
    for _t in _all:
        _PAIR_WORDS[_t] = _PAIR_WORDS.get(_t, frozenset()) | _all
    for _one, _two in ((_left, _right), (_right, _left)):
        _twos = frozenset(t for w in _two for t in w.split())
        for _t in {t for w in _one for t in w.split()} - _twos:
            _OTHER_SIDE[_t] = _OTHER_SIDE.get(_t, frozenset()) | _twos


_ORDER = next(i for i, (left, _) in enumerate(ANTONYM_PAIRS) if "before" in left)
_ORDER_WORDS = ("before", "after")
_ORDER_SPAN = 5


def _order_sides(ws: list[str], past_pointer: bool = False) -> tuple[list[str], list[str]]:
    """The content words before a text's first order word and after it (``past_pointer``:
    after the word that points back, "after which", when there is one)."""
    i = next(i for i, w in enumerate(ws) if w in _ORDER_WORDS)
    k = i + 2 if past_pointer and ws[i + 1 : i + 2] and ws[i + 1] in _BACK_POINTERS else i + 1
    return content(ws[max(0, i - _ORDER_SPAN) : i]), content(ws[k : k + _ORDER_SPAN])


def _share_a_word(xs: list[str], ys: list[str]) -> bool:
    return any(same_word(x, y, 4) for x in xs for y in ys)


def _converse(step: list[str], answer: list[str]) -> bool:
    """Whether the two sides of the texts' order words are swapped: what comes before
    "after" in the step comes after "before" in the answer and the other way round
    ("renew after the ticket has lapsed" / "let it lapse before renewing": the same
    order; with the same word on both sides, "pay before you collect" / "collect before
    you pay", a changed one), and neither side stays where it was."""
    (s_pre, s_post), (a_pre, a_post) = _order_sides(step), _order_sides(answer)
    return (
        _share_a_word(s_pre, a_post)
        and _share_a_word(s_post, a_pre)
        and not (_share_a_word(s_pre, a_pre) and _share_a_word(s_post, a_post))
    )


_BACK_POINTERS = frozenset({"which", "that", "this", "then"})


def anaphoric_after(step: list[str], answer: list[str]) -> bool:
    """Whether one text orders two things with an "after" that points back ("stays
    active for up to 90 days, after which you must renew it") and the other puts the
    same two in the same order with a plain "before" ("stays active for up to 90 days
    before it needs renewing"): "A, after which B" is A then B, as "A before B" is.
    (Not "before which", which points back the other way, nor the two things crossed:
    "renew it before the 90 days are up".)"""

    def kind(ws: list[str]) -> str | None:
        at = [i for i, w in enumerate(ws) if w in _ORDER_WORDS]
        if len(at) != 1:
            return None
        i = at[0]
        back = ws[i + 1 : i + 2] and ws[i + 1] in _BACK_POINTERS
        if ws[i] == "after" and back:
            return "back"
        return "plain" if ws[i] == "before" and not back else None

    if {kind(step), kind(answer)} != {"back", "plain"}:
        return False
    (s_pre, s_post), (a_pre, a_post) = _order_sides(step, True), _order_sides(answer, True)
    return (
        (_share_a_word(s_pre, a_pre) or _share_a_word(s_post, a_post))
        and not _share_a_word(s_pre, a_post)
        and not _share_a_word(s_post, a_pre)
    )


# "Out of" that negates nothing: "out of hours", "out of season", "out of town", "out of
# date" (no "without a date"), "out of surgery" (back from it). "Out of stock", "out of
# print" and "out of use" are "not in stock", "not in print", "not in use".
_OUT_OF_IDIOMS = frozenset(
    """hours season town office area reach sight order time hand bounds range pocket place
    line control work date surgery""".split()
)
_DETERMINERS = frozenset("the its their your our his her a an".split())


@functools.lru_cache(maxsize=256)
def _out_of_heads(words: tuple[str, ...]) -> frozenset[str]:
    """The nouns a text puts after "out of", or after "out of" and a determiner, that
    end their noun ("out of water", "out of its box"; not "out of the life jacket
    area")."""
    heads = set()
    for i, w in enumerate(words):
        if w != "out" or words[i + 1 : i + 2] != ("of",):
            continue
        k = i + 3 if words[i + 2 : i + 3] and words[i + 2] in _DETERMINERS else i + 2
        rest = words[k + 1 : k + 2]
        if words[k : k + 1] and (not rest or not content(list(rest))):
            heads.add(words[k])
    return frozenset(heads)


# A negated participle right after a noun describes which things are meant, it states
# nothing of them: "items not collected within 90 days may be sold" = "if an item is
# still here at the end of the 90 days, we may sell it". (Not after an auxiliary or a
# modal, "items are not collected", nor a conjunction, "and not used".)
_DESCRIBED = re.compile(
    r"\b([a-z]+) not ([a-z]+(?:ed|en))\b(?:(?! (?:that|which|who) )[^.;:!?()\n]){0,60}?"
    r"\b(?:may|might|can|could|will|would|are|is|were|was|must|should|get|gets)\b"
)
# ("Pets not allowed in rooms that are carpeted" states a rule.)
_STATING = frozenset("allowed permitted accepted admitted required included covered".split())
# (Besides the function words :func:`content` drops.)
_NOT_A_NOUN = frozenset("need needs dare ought why whether whatever".split())


def _described(raw: str) -> frozenset[str]:
    """The participles of the text that a "not" right after a noun negates, in a
    clause whose verb comes after them."""
    return frozenset(
        m.group(2)
        for m in _DESCRIBED.finditer(raw.casefold())
        if m.group(1) not in _NOT_A_NOUN and content([m.group(1)]) and m.group(2) not in _STATING
    )


_NOT_YET = re.compile(r" not (\S+) yet ")
_UNTIL_WORDS = re.compile(r" (?:until|till|before) ((?:\S+ ){1,5})")


def _not_yet_until(
    negs: list[tuple[str | None, tuple[str, ...] | None]], padded: str, other: str
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``negs`` without each "not <done> yet" of the padded text whose verb the ``other``
    text has after an "until" or "before" ("not verified yet = we can't bill your
    policy" / "we cannot treat you under your policy until the code is verified")."""
    done = {m.group(1) for m in _NOT_YET.finditer(padded)}
    if not done:
        return negs
    # (Each text read once: a text may hold thousands of negations.)
    after = {w for m in _UNTIL_WORDS.finditer(other) for w in m.group(1).split()}
    kept = {h for h in done if not any(same_word(h, w, 4) for w in after)}
    return [n for n in negs if not (n[0] == "not" and n[1] and n[1][0] in done - kept)]


_WITHOUT_IT = re.compile(r" without (?:it|them|one|this|that|these|those) ")
_UN_WORD = re.compile(r"^(?:un|non-?)\S{3,}(?:ed|en|id)$")


def _without_it(padded: str, other: list[str], own: list[str]) -> bool:
    """Whether the padded text says "without" of a pronoun, and ``other`` has a word with
    a negative prefix ("unmarked", "unsigned", "unpaid") that ``own`` lacks, and no
    "without" of its own."""
    if "without" in other:
        return False
    # (On the noun the "without it" is said of: "rolls received without it" /
    # "any unmarked roll", not "unaccompanied minors".)
    said_of = {w for m in _WITHOUT_IT.finditer(padded) for w in padded[: m.start()].split()[-4:]}
    if not said_of:
        return False
    mine = set(own)
    return any(
        _UN_WORD.match(w)
        and w not in mine
        and any(same_word(nxt, x, 4) for x in said_of for nxt in other[i + 1 : i + 2])
        for i, w in enumerate(other)
    )


def _no_shows(ws: list[str]) -> int:
    return sum(w.startswith("no-show") for w in ws)


# Nouns of a cost a modifier names ("free from admin charges", "free of stamp duty").
_COST_NOUNS = COST_WORDS | frozenset("duty duties tax taxes".split())
# How far back a negator denies a "free" in its clause ("can't guarantee our cakes come
# free from nuts").
_FREE_DENIED_SPAN = 6


def _free_denied(ws: Sequence[str], i: int) -> bool:
    """Whether a negator stands before ``ws[i]`` in its clause (at most
    :data:`_FREE_DENIED_SPAN` words back)."""
    return any(x in NEGATORS or x == "n't" for x in _back_to_break(ws, i, _FREE_DENIED_SPAN))


# Words between "free of" and what it frees ("free of any added sugar").
_FREE_OF_FILLERS = frozenset("any all added extra".split())


def freed(ws: Sequence[str], own: Sequence[str] = ()) -> tuple[str, ...]:
    """The things ``ws`` says it is free of ("gluten" of "gluten-free", "free of
    gluten", "free from nuts", "free of any added sugar"; not "free from 6 pm") and
    names nowhere else ("salt-free herbs, then add salt" frees nothing). A "-free"
    before a noun frees that noun, which ``own`` (the words of the other text) must
    name: "an interest-free instalment plan" for "an instalment plan with no interest",
    not "salt-free herbs" for "no salt in the soup". This pairs a freed thing with the
    other text's "no X" so that neither is a flip; an "X-free" said of the thing after a
    verb of being is also a denial of its own (:func:`_plain` writes it "no X"), so
    that "books are fine-free" against "books are fined" is one.
    (Read once per text; more than :data:`_EXCEPTIONS_MAX` of them are read as
    nothing.)"""
    found: list[tuple[int, str]] = []
    for i, w in enumerate(ws):
        if w == "free" and _free_denied(ws, i):
            continue  # "we can't guarantee the cake comes free from nuts"
        if w.endswith("-free") and len(w) > len("-free"):
            # An adverb after it is no noun it frees ("fine-free even when overdue").
            noun = [x for x in content(ws[i + 1 : i + 2]) if x not in _AFTER_FREE]
            if not noun or any(same_word(noun[0], x, 4) for x in own):
                found.append((i, w[: -len("-free")]))
        elif w == "free" and ws[i + 1 : i + 2] in (["of"], ["from"]):
            k = i + 2
            while k < len(ws) and k < i + 4 and ws[k] in _FREE_OF_FILLERS:
                k += 1
            thing = content(ws[k : k + 1])
            # "Free from" a time or a number says when, not what ("free from 6 pm"); a
            # word before a cost noun names the cost, which "free" already says is
            # nothing ("free from admin charges" is no "no admin").
            if (
                thing
                and not (ws[i + 1] == "from" and (thing[0] in _NOT_FREED or not thing[0].isalpha()))
                and not (set(ws[k + 1 : k + 2]) & _COST_NOUNS)
            ):
                found.append((k, ws[k]))
        if len(found) > _EXCEPTIONS_MAX:
            return ()
    at = {k for k, _ in found}
    return tuple(
        t for _, t in found if not any(same_word(t, w, 4) for k, w in enumerate(ws) if k not in at)
    )


def free_of(things: Sequence[str], ws: Sequence[str], own: Sequence[str] = ()) -> bool:
    """Whether ``ws`` says it is free of one of ``things`` (:func:`freed`)."""
    return any(same_word(t, f, 4) for f in freed(ws, own) for t in things)


def _prefixed(
    head: str, other: list[str], more_no_shows: bool = False, other_freed: Sequence[str] = ()
) -> bool:
    """Whether the other text has ``head`` (or a word of its family) with a negative
    prefix: "not refund" against "non-refundable", "don't use" against "unused". A
    "no-show" the other text has where this one says it does not attend (``more_no_shows``:
    the other text has more of them, counted once per text by the caller):
    "failing to attend", "not turning up" (not where both say "no-show": "if you do not
    arrive in time, it counts as a no-show" / "if you arrive in time, ..."). Or a thing
    the other text says it is free of (``other_freed``, :func:`freed`): "without gluten"
    / "gluten-free"."""
    forms = {head, head + "d", head + "ed", head + "s"}
    if head in _ATTEND and more_no_shows:
        return True
    # "Out of" is the other text's negation of the noun after it: "left without water"
    # / "left out of water".
    if head not in _OUT_OF_IDIOMS and forms & _out_of_heads(tuple(other)):
        return True
    # A "-free" after it, or "free of" before it, and no mention of it of its own:
    # "without gluten" / "gluten-free", "with no commission" / "free of commission";
    # not "salt-free herbs, then add salt". (Not a cost word: "free of charge" is read
    # in its own clause, as every "free" is.)
    if head not in COST_WORDS and any(same_word(head, f, 4) for f in other_freed):
        return True
    return any(
        w.startswith(p)
        and (
            w[len(p) :] in forms
            or _family(w[len(p) :], head)
            or _stem(w[len(p) :]) == _stem(head) != ""
        )
        for w in other
        for p in NEGATIVE_PREFIXES
    )


# Verbs of being there that a "no-show" denies.
_ATTEND = frozenset(
    """attend attends attending show shows showing turn turns turning come comes coming
    appear appears appearing arrive arrives arriving""".split()
)

_SUFFIX = re.compile(r"(?:able|ible|ed|ing|es|s|e)$")


def _stem(w: str) -> str:
    """A word without its adjective or verb ending, when at least three letters are
    left ("fixable", "fixed" -> "fix"; "usable", "used" -> "us" is too short: "")."""
    s = _SUFFIX.sub("", w)
    return s if len(s) >= 3 else ""


def _family(a: str, b: str) -> bool:
    """One word family by a shared start of at least five letters ("refundable" /
    "refund", "transferable" / "transferred")."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 5 and n >= min(len(a), len(b)) - 3


# A "can" of a clause of time or purpose grants the reader nothing: "we'll need it paid
# before we can confirm the date" obliges as "it must be paid before we confirm" does;
# "so that you can", "until we can", "once they can" likewise. (Not a bare "so", which
# is as often "therefore": "... part of your time, so you can stay after it ends".)
_PERSON_MAY = r"(we|we'll|you|you'll|they|it|he|she|i|someone) (?:" + "|".join(_MAY) + r")(?= )"
_SUBORDINATE_MAY = re.compile(r" (before|until|till|once|so that|in order that) " + _PERSON_MAY)
_SO_MAY = re.compile(r" (so) " + _PERSON_MAY)


def _so_that_may(padded: str) -> bool:
    """Whether a padded text has a "so that ... can" of purpose."""
    return any(m.group(1) == "so that" for m in _SUBORDINATE_MAY.finditer(padded))


def _has(words_: str, phrase: str) -> bool:
    return f" {phrase} " in words_


_DENIED_MODAL = re.compile(
    r" (?:"
    + "|".join(re.escape(w) for w in sorted({*OBLIGATION, *PERMISSION}, key=len, reverse=True))
    + r") (?:not|never|n't)(?= )"
)


def _without_denied(words_: str) -> str:
    """The padded text without its negated modals ("may not", "must never")."""
    return _DENIED_MODAL.sub(" ", words_)


def _sides(text: str) -> list[tuple[bool, bool]]:
    """For each antonym pair: does the text use its left side, its right side?"""
    padded = " " + text + " "
    out = [
        (any(_has(padded, w) for w in left), any(_has(padded, w) for w in right))
        for left, right in ANTONYM_PAIRS
    ]
    left, _ = out[_MONEY]
    # Money lost: "forfeit", or "lose" with money as its object ("you lose the
    # deposit"; not "if you lose a locker key").
    money = _MONEY_WORD.search(padded)
    lost = bool(
        _FORFEIT.search(padded)
        or _LOSE_MONEY.search(padded)
        or (money and _LOSE_IT.search(padded, money.end()))
    )
    out[_MONEY] = (left, lost)
    # "Cover" as the verb ("we don't cover it", "the plan covers it"), not the noun
    # ("excluded from cover", "your cover ends").
    _, excluded = out[_COVER]
    covers = " covered " in padded or bool(_COVER_VERB.search(padded))
    out[_COVER] = (covers, excluded)
    if _LOSS_OTHERWISE.search(padded):
        # "Return the key or you lose the deposit" states "the deposit is refunded when
        # you return the key" from the other side: both sides, no flip.
        out[_MONEY] = (True, True)
    return out


def _one_for_coordinated(
    negs: list[tuple[str | None, tuple[str, ...] | None]],
    other: list[tuple[str | None, tuple[str, ...] | None]],
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``negs`` with two negations whose heads are the first two words of one negation
    of the other text counted once, when they are one negator said twice ("no refund and
    no credit" against "not refunded or credited"); not two negations of one word ("don't
    fail to return"), nor two of one clause ("no visits cannot be booked")."""
    for _, wide_scope in other:
        scope = _narrow(wide_scope)
        if not scope or len(scope) < 2:
            continue
        first = [k for k, (_, s) in enumerate(negs) if s and same_word(s[0], scope[0], 4)]
        second = [k for k, (_, s) in enumerate(negs) if s and same_word(s[0], scope[1], 4)]
        if (
            first
            and second
            and first[0] != second[0]
            and negs[first[0]][0] == negs[second[0]][0]
            and not same_word(scope[0], scope[1], 4)
        ):
            return [n for k, n in enumerate(negs) if k != second[0]]
    return negs


# Pairs of words compared by the "or" rules below at most: a text with more (hostile
# input, not a sentence) is left to the count of negations alone.
_OR_PAIRS_MAX = 10_000


_OWN_AUX = frozenset({"do", "does", "did"})


def _or_joins(words_: list[str]) -> dict[str, tuple[str, ...]]:
    """Each negated word and the content words (up to two) joined to it by "or" a few
    words on, in one clause ("not force the door or restart ..." -> "force":
    ("restart", ...); "not refunded or taken off" -> "refunded": ("taken", "off"));
    read in one pass. ("Nor" is a negator of its own, counted as one.)"""
    out: dict[str, tuple[str, ...]] = {}
    for i, w in enumerate(words_):
        # (A verb's negator: "without a care label or labelled ..." joins no verbs.)
        if w in out or not any(x in VERB_NEGATORS for x in words_[max(0, i - 3) : i]):
            continue
        for j in range(i + 1, min(i + 5, len(words_))):
            if words_[j] == "or":
                after = words_[j + 1 : j + 4]
                # (Not what has an auxiliary of its own: "or labelled do dry clean".)
                if not _OWN_AUX & set(after) and content(after):
                    out[w] = tuple(content(after)[:2])
                break
            if words_[j] in _CLAUSE_BREAKS or words_[j] == "nor":
                break
    return out


def _or_joins_raw(raw: str) -> dict[str, tuple[str, ...]]:
    """:func:`_or_joins` read in each part of the text as written, between its
    punctuation ("If you can't attend, cancel online or call us" joins nothing to
    "attend")."""
    out: dict[str, tuple[str, ...]] = {}
    for part in _RAW_BREAK.split(raw):
        for k, v in _or_joins(_plain(part).split()).items():
            out.setdefault(k, v)
    return out


def _by_verb_negator(n: str | None) -> bool:
    """Whether a negation's negator is a negator word ("not", "cannot"; not "free")."""
    return (n or "").split("+")[-1] in NEGATORS


def _one_over_or(
    negs: list[tuple[str | None, tuple[str, ...] | None]], joins: dict[str, tuple[str, ...]]
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``negs`` with a second negation (by a negator, not "free") counted once, when the
    other text negates the first one's head and joins the second one's head to it by
    "or" a few words on, under that one negator ("not force the door or restart the
    cycle" against "not be forced ... not be restarted"). ``joins``: the other text's
    (:func:`_or_joins_raw`)."""
    heads = [(k, s[0]) for k, (n, s) in enumerate(negs) if s and _by_verb_negator(n)]
    distinct = {h for _, h in heads}
    # (Read once per distinct head: what the other text joins to it.)
    if not joins or len(heads) ** 2 + len(distinct) * len(joins) > _OR_PAIRS_MAX:
        return negs
    joined = {h: [b for a, bs in joins.items() if same_word(a, h, 4) for b in bs] for h in distinct}
    drop: set[int] = set()
    for k1, h1 in heads:
        if not joined[h1]:
            continue
        for k2, h2 in heads:
            if (
                k2 > k1
                and k2 not in drop
                and not same_word(h1, h2, 4)
                and any(same_word(b, h2, 4) for b in joined[h1])
            ):
                drop.add(k2)
    return [n for k, n in enumerate(negs) if k not in drop]


_BE_FORMS = frozenset("is are be been being was were".split())
_MODAL_WORDS = frozenset(w for w in (*PERMISSION, *OBLIGATION) if " " not in w) | frozenset(
    {"should", "allowed", "welcome", "fine"}
)


def _said_affirmed(raw: str) -> set[str]:
    """The words a text says without a negator, as what is permitted, ordered or done:
    in a clause (cut at punctuation and at clause words: "but", "and", "so", ...) with
    no negator, every word where the clause has a modal ("but you can open the lid"),
    else its first word (an order: "Open the box carefully") and a word after a form of
    "be" ("they are taken off the fee"); not "opening the door lets the cold out", nor
    "if you write it down, keep it safe"."""
    out: set[str] = set()
    for part in _RAW_BREAK.split(raw):
        clause: list[str] = []
        for w in [*_plain(part).split(), "and"]:
            if w not in _CLAUSE_BREAKS:
                clause.append(w)
                continue
            if clause and not NEGATORS & set(clause):
                if _MODAL_WORDS & set(clause):
                    out.update(clause)
                else:
                    out.add(clause[0])
                    out.update(b for a, b in itertools.pairwise(clause) if a in _BE_FORMS)
            clause = []
    return out


def _or_half_kept(
    negs: list[tuple[str | None, tuple[str, ...] | None]],
    joins: dict[str, tuple[str, ...]],
    other_negs: list[tuple[str | None, tuple[str, ...] | None]],
    other_joins: dict[str, tuple[str, ...]],
    other_raw: str,
    own: str = "",
) -> bool:
    """Whether one of ``negs`` denies two verbs joined by "or", and the other text
    negates the first but says the second without a negator, as permitted, ordered or
    done (nor joined by "or" to a negated word there too). ``joins``, ``other_joins``:
    each text's (:func:`_or_joins_raw`). ``own``: this text, plain (:func:`_plain`).
    Not two nouns the other text coordinates too ("cannot change grade or instrument"
    / "grade and instrument stay the same; they can't be changed")."""
    if not joins or len(joins) > _OR_PAIRS_MAX:
        return False
    heads = {s[0] for n, s in negs if s and _by_verb_negator(n) and s[0] in joins}
    if not heads:
        return False
    other_heads = {m[1][0] for m in other_negs if m[1]}
    other_scoped = {x for m in other_negs if m[1] for x in m[1]}
    other_joined = {b for bs in other_joins.values() for b in bs}
    affirmed = _said_affirmed(other_raw)
    sizes = len(other_heads) + len(other_scoped) + len(other_joined) + len(affirmed)
    if len(heads) * sizes > _OR_PAIRS_MAX:
        return False
    for head in heads:
        if not any(same_word(h, head, 4) for h in other_heads):
            continue
        second = joins[head][0]
        if any(same_word(x, second, 4) for x in other_scoped | other_joined):
            continue
        if _coordinated_too(own, second, other_raw) and any(
            m[1] and same_word(m[1][0], head, 4) and _by_verb_negator(m[0]) for m in other_negs
        ):
            # (Where the other text denies that head with a negator word too: "free to
            # slew the telescope or ..." grants what "must not slew ... or" denies.)
            continue
        if any(same_word(w, second, 4) for w in affirmed):
            return True
    return False


def _coordinated_too(own: str, second: str, other_raw: str) -> bool:
    """Whether the word before "or <second>" in ``own`` (plain) is joined to ``second``
    in ``other_raw`` as well, by "and", "or", "&" or a comma, a determiner at most
    between ("grade or instrument" / "your grade and your instrument"): the "or" joins
    two things, not two verbs."""
    m = re.search(rf" (\S+) or {re.escape(second)} ", own)
    if m is None:
        return False
    first = re.escape(m.group(1))
    pattern = (
        rf"\b{first}\w{{0,2}}\s*(?:,|and|or|&)\s+(?:(?:the|your|their|his|her|its|our|a|an)\s+)?"
        rf"{re.escape(second)}"
    )
    return re.search(pattern, other_raw, re.IGNORECASE) is not None


# Where a clause ends in the text as written (the plain text has no punctuation): "It
# doesn't take long: bring your passport" governs nothing after the colon.
_RAW_BREAK = re.compile(r"[:;,.!?()\[\]\n]|\s[-\u2013\u2014]\s")


def _in_own_clause(
    negs: list[tuple[str | None, tuple[str, ...] | None]], answer: str, other: list[str]
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``negs`` with each wide scope cut to what its negation governs in its own clause
    of the text as written (the scope read there), or to its few words."""
    own: dict[tuple[str | None, tuple[str, ...] | None], list[tuple[str, ...] | None]] = {}
    for clause in _RAW_BREAK.split(answer):
        for n, sc in _negations(_plain(clause), other, wide=True):
            own.setdefault((n, _narrow(sc)), []).append(sc)
    out = []
    for n, sc in negs:
        cut = sc
        if sc and _WIDE_MARK in sc:
            there = own.get((n, _narrow(sc)))
            cut = there.pop(0) if there else _narrow(sc)
        out.append((n, cut))
    return out


def _narrow(scope: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """A scope without its wide part (the words after the few that make the scope)."""
    if scope is None or _WIDE_MARK not in scope:
        return scope
    return scope[: scope.index(_WIDE_MARK)]


# Verbs that keep from doing what follows them ("refrain from starting", "avoid using",
# "hold off starting" = "do not start", "do not use").
_AVOID_VERBS = frozenset(
    "refrain refrains refrained refraining avoid avoids avoided avoiding".split()
)


def _avoided(verb: str, other: list[str]) -> bool:
    """Whether ``other`` keeps from doing ``verb``: a form of it right after an
    avoiding verb or "hold off", itself not negated ("don't avoid ...")."""
    for i, w in enumerate(other):
        if w in _AVOID_VERBS or (w == "off" and i > 0 and other[i - 1] in ("hold", "holding")):
            if POLARITY_NEGATORS & set(other[max(0, i - 3) : i]):
                continue
            # The verb right after it, or after "from" / "on" ("refrain from starting",
            # "hold off on starting"; not "avoid waiting; start a new session").
            forms = inflections(verb)
            nxt = other[i + 1 : i + 3]
            if nxt[:1] and nxt[0] in ("from", "on"):
                nxt = nxt[1:]
            if nxt[:1] and (nxt[0] in forms or same_word(verb, nxt[0], 4)):
                return True
    return False


def _by_negative_verb(
    negation: tuple[str | None, tuple[str, ...] | None], other: list[str]
) -> bool:
    """Whether the other text says the negation with a verb that means "not do"
    ("do not attend three appointments in a row" / "miss 3 appointments in a row"):
    a negative verb followed by a word of the negation's scope other than its head."""
    scope = _narrow(negation[1])
    if scope and scope[0] not in NEGATIVE_VERBS and _avoided(scope[0], other):
        return True  # "please refrain from starting a new session" / "do not start ..."
    if not scope or len(scope) < 2 or scope[0] in NEGATIVE_VERBS:
        return False  # "cannot skip the briefing" / "can skip the briefing" is a flip
    if any(same_word(scope[0], w, 4) for w in other):
        return False  # the verb is there: "omit the copy and send the original by post"
    return _negative_verb_on(scope[1:], other)


# A denied comparative is the bound the other text states on the same verb: "a
# booking cannot be moved more than twice" = "may be moved a maximum of two times",
# "do not stay longer than 3 hours" = "stay 3 hours at most", "cannot be booked less
# than 24 hours ahead" = "at least 24 hours ahead". (An affirmed "more than" in the other
# text is no bound: "can be moved more than twice" keeps the flip.)
_DENIED_BOUNDS = (
    (
        frozenset("more longer over above later".split()),
        frozenset("most maximum max latest".split()),
    ),
    (
        frozenset("less fewer under below shorter earlier sooner".split()),
        frozenset("least minimum min earliest".split()),
    ),
)


def _number(w: str) -> str | None:
    """The number a word writes, as digits ("two", "twice" and "2" are "2")."""
    if w in TIMES_WORDS:
        return str(TIMES_WORDS[w])
    if w in NUMBER_WORDS:
        return NUMBER_WORDS[w]
    digits = "".join(c for c in w if c.isdigit() or c == ".")
    return digits or None


def _numbers(ws: list[str]) -> frozenset[str]:
    return frozenset(n for n in map(_number, set(ws)) if n)


def _bound_words(other: list[str]) -> tuple[dict[str, frozenset[str]], ...]:
    """For each class of ``_DENIED_BOUNDS``, the words of ``other`` a bound of that
    class is on, with no negator before it and a number beside it ("a maximum of two
    times", "3 hours at most", "can only move it twice"; not "can only be renewed
    online", "at least once a day, even less than 24 hours ahead"): the eight words
    before the bound word, and the two after an "only", with the number, each mapped to the
    nouns right after that number there (what it counts: "a maximum of five DVDs" maps
    "borrow 5" to "dvds"; "a maximum fine of 5" to nothing). Read once per text."""
    out = []
    for k, (_, bounds) in enumerate(_DENIED_BOUNDS):
        on: dict[str, frozenset[str]] = {}
        for i, w in enumerate(other):
            only = w == "only" and k == 0
            if w not in bounds and not only:
                continue
            before = other[max(0, i - 8) : i]
            if POLARITY_NEGATORS & set(before):
                continue
            counts: dict[str, set[str]] = {}
            for j in [*range(max(0, i - 4), i), *range(i + 1, min(i + 6, len(other)))]:
                n = _number(other[j])
                if n:
                    counts.setdefault(n, set()).update(_counted_at(other, j))
            for x in other[i + 1 : i + 3] if only else before:
                for n, nouns in counts.items():
                    on[f"{x} {n}"] = on.get(f"{x} {n}", frozenset()) | nouns
        out.append(on)
    return tuple(out)


def _counted_at(ws: list[str], j: int) -> list[str]:
    """The words right after the number at ``ws[j]`` that may name what it counts (the
    two after it: "five DVDs", "2 large bags"), if any."""
    return [x for x in content(ws[j + 1 : j + 3]) if not _number(x)]


def _counted(own: list[str], denied: frozenset[str]) -> list[str]:
    """The words that may name what the number a denied comparative of ``own`` is on
    counts ("more than five DVDs": ["dvds"]; "more than twice": [])."""
    for i, w in enumerate(own):
        if w not in denied:
            continue
        for j in range(i + 1, min(i + 4, len(own))):
            if _number(own[j]):
                return _counted_at(own, j)
    return []


def _bound_restated(
    negation: tuple[str | None, tuple[str, ...] | None],
    bound_words: tuple[dict[str, frozenset[str]], ...],
    numbers: frozenset[str],
    own: list[str],
) -> bool:
    """Whether the other text states as a bound, on the negation's verb, with a number
    the negating text (``own``, its ``numbers``) has and without a negator, the
    comparative the negation denies (see ``_DENIED_BOUNDS``; ``bound_words``:
    :func:`_bound_words` of the other text), on what the number counts where the
    negating text says ("cannot borrow more than five DVDs" / "borrow a maximum of five
    DVDs", not "... from a maximum of five branches")."""
    scope = negation[1]
    if not scope or len(scope) < 2 or negation[0] in COST_FREE_WORDS:
        return False
    verb = scope[0]
    for (denied, _), on in zip(_DENIED_BOUNDS, bound_words, strict=True):
        if not denied & set(scope[1:3]):
            continue
        nouns = _counted(own, denied)
        for pair, near in on.items():
            x, n = pair.split(" ", 1)
            if (
                same_word(verb, x, 4)
                and n in numbers
                and (not nouns or any(same_word(y, w, 4) for y in nouns for w in near))
            ):
                return True
    return False


def _negative_verb_on(words_: Sequence[str], other: list[str]) -> bool:
    """Whether ``other`` has a negative verb followed, within a few words, by one of
    ``words_``. Not a negated one, which is litotes ("don't forget to bring food"); nor
    one whose own text negates after it, where it only names something ("missed
    lessons are not refunded")."""
    for i, w in enumerate(other):
        if (
            w in NEGATIVE_VERBS
            and not POLARITY_NEGATORS & set(other[max(0, i - 2) : i])
            and not POLARITY_NEGATORS & set(other[i + 1 : i + 4])
        ):
            after = content(other[i + 1 : i + 1 + _SCOPE_WINDOW])
            if any(same_word(s, a, 4) for s in words_ for a in after):
                return True
    return False


_BE = frozenset("is are was were be been being".split())
_SUBJECT_BREAKS = _CLAUSE_BREAKS | {"that", "which", "who"}


@functools.lru_cache(maxsize=1024)
def _passive_index(padded: str) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each negated passive of a padded text ("the app notification was not
    seen"), keyed by negator and verb, the content words of its subject (the few
    before it, back to a clause break) at its first occurrence: read in one pass, so a
    text with many negations is not read again for each of them."""
    own = padded.split()
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for i, w in enumerate(own):
        if w not in POLARITY_NEGATORS:
            continue
        after = own[i + 1 : i + 1 + _SCOPE_WINDOW]
        lead = _BE & set(own[max(0, i - 2) : i])
        for j, verb in enumerate(after):
            if (w, verb) in out or not (lead or _BE & set(after[:j])):
                continue  # an active verb: its object follows ("we don't see it")
            subject: list[str] = []
            for x in reversed(own[max(0, i - 13) : max(0, i - 1)]):
                if x in _SUBJECT_BREAKS or len(subject) == _SCOPE_WINDOW:
                    break
                if x not in _BE:
                    subject += content([x])
            out[w, verb] = tuple(subject)
    return out


def _passive_by_negative_verb(
    negation: tuple[str | None, tuple[str, ...] | None],
    own: dict[tuple[str, str], tuple[str, ...]],
    other: list[str],
) -> bool:
    """Whether a negated passive ("the app notification was not seen") is what the
    other text says with a verb that means "not do" on its subject ("because you
    missed the app notification"): a negative verb, not itself negated, followed by a
    word of the few before the passive (``own``: the negating text's
    :func:`_passive_index`), and the other text without the passive's verb."""
    negator, scope = negation[0], _narrow(negation[1])
    if not negator or not scope or len(scope) > 2 or scope[0] in NEGATIVE_VERBS:
        return False
    subject = own.get((negator.split("+")[-1], scope[0]), ())
    if not subject or any(same_word(scope[0], w, 4) for w in other):
        return False  # no passive, or the verb is there: read as a negation of it
    return _negative_verb_on(subject, other)


_NOT_HEADS = frozenset("then ever again still also yet even".split())


def _verb_head(scope: tuple[str, ...]) -> str:
    """A negation scope's first word that is no adverb ("cannot subsequently be
    pushed" negates "pushed")."""
    return next((w for w in scope if not w.endswith("ly") and w not in _NOT_HEADS), scope[0])


def _stated_elsewhere(
    negation: tuple[str | None, tuple[str, ...] | None],
    own: list[tuple[str | None, tuple[str, ...] | None]],
    elsewhere: list[tuple[list[tuple[str | None, tuple[str, ...] | None]], list[str]]],
    step: str,
    here: list[str],
) -> bool:
    """Whether a negation of the step that the answer's text does not have is in
    another sentence of the answer: a negator (or a word of "free") with the same
    head, in a sentence that states the step's clause of that negation (at least half
    its content words) better than the answer's text does, or as well with every word
    of it the answer's text has ("There is no cancellation fee, but ..." / "No
    cancellation fee applies. However, ..."). A shared word further on is not enough
    ("we do not post renewed cards" is not stated by "a lapsed membership cannot be
    renewed"), nor the same negation about something else ("Sale items are not
    refunded" by "Gift cards are not refunded")."""
    negator, scope = negation
    if not scope:
        return False
    if any(m[1] and same_word(scope[0], m[1][0], 4) for m in own):
        return False
    clause = next(
        (
            c
            for c in split_clauses(step)
            if any(m[1] and m[1][0] == scope[0] for m in _negations(_plain(c)))
        ),
        step,
    )
    words_ = content(tokens(clause))

    def share(ws: list[str]) -> float:
        if not words_:
            return 0.0
        return sum(any(same_word(w, x, 4) for x in ws) for w in words_) / len(words_)

    def same_negator(a: str | None, b: str | None) -> bool:
        a, b = (a or "").split("+")[-1], (b or "").split("+")[-1]
        return (
            a == b
            or (a in COST_FREE_WORDS and b in COST_FREE_WORDS)
            or (a in NEGATORS and b in NEGATORS)
        )

    mine = share(here)
    said_here = [w for w in words_ if any(same_word(w, x, 4) for x in here)]

    def covers(ws: list[str]) -> bool:
        # (Every word of the clause that the answer's text says: on a tie, the other
        # sentence states the step as well as the matched one only if it says what that
        # one says, not one word of two where it says the other.)
        return all(any(same_word(w, x, 4) for x in ws) for w in said_here)

    return any(
        m[1]
        and same_negator(negator, m[0])
        and same_word(_verb_head(scope), _verb_head(m[1]), 4)
        and share(ws) >= 0.5
        and (share(ws) > mine or (share(ws) == mine and covers(ws)))
        for ms, ws in elsewhere
        for m in ms
    )


# An obligation whose verb comes right after it ("must bring", "has to be added"), and
# what sets a condition on a permission ("can collect if they bring ...").
_OBLIGED_VERB = re.compile(
    r" (?:(?:must|have to|has to|need to|needs to|required to|remember to|be sure to) "
    r"|(?:make sure|makes sure|ensure) (?:that )?(?:they|you|he|she|we|it|someone) )"
    r"(?:be |have |get )?(\S+)"
)
_OBLIGATION_WORDS = re.compile(r" (?:" + "|".join(re.escape(w) for w in OBLIGATION) + r") ")
_PERMITTED_VERB = re.compile(r" (?:can|may|could) (?:be |have |get )?(\S+)")
_CONDITION = re.compile(r" (?:if|provided|providing|as long as|so long as|once) ")


_CONDITION_WORDS = 40
_OBLIGED_MAX = 16


def _conditions_obliged(ms: str, ma: str) -> bool:
    """Whether every obligation of ``ma`` is on a verb that ``ms`` makes a condition
    of its permission: "someone else can collect if they bring the email and you have
    added their name" / "they must bring the email, and their name has to be added"
    restates the conditions, it obliges nothing the permission did not."""
    cond = _CONDITION.search(ms)
    if cond is None:
        return False
    # "Only if" is the condition said as a restriction: "you can add guests if there is
    # space" / "extra guests: only if there's space".
    if _OBLIGATION_WORDS.findall(ma) and all(
        m.group(0) == " only " and ma.startswith(("if ", "when "), m.end())
        for m in _OBLIGATION_WORDS.finditer(ma)
    ):
        return True
    # (A condition is a clause's few words; a text with more obligations than any
    # answer states is not read: hostile input would be compared pair by pair.)
    conditions = set(ms[cond.end() :].split()[:_CONDITION_WORDS])
    verbs = {m.group(1) for m in _OBLIGED_VERB.finditer(ma)}
    if (
        not verbs
        or len(verbs) > _OBLIGED_MAX
        or len(verbs) < len(set(_OBLIGATION_WORDS.findall(ma)))
    ):
        return False
    # (Not the permitted verb itself: "can collect if ..." / "must collect".)
    permitted = {m.group(1) for m in _PERMITTED_VERB.finditer(ms)}
    if len(permitted) > _OBLIGED_MAX:
        return False
    if any(same_word(v, p, 4) for v in verbs for p in permitted):
        return False
    return all(any(same_word(v, w, 4) for w in conditions) for v in verbs)


# A need in a condition is no duty: "if you need to cancel, do it 24 hours before" sets
# a deadline on a cancelling the reader may or may not want ("should you need to ...",
# "in case you have to ...").
_CONDITIONAL_NEED = re.compile(
    r" (if|should|in case) (you|we|they|someone|somebody|anyone|anybody)"
    r" ((?:ever |really |still |urgently )?)(?:need|needs|have|has) to "
)


def _without_conditional_need(padded: str) -> str:
    """``padded`` with the need of each conditional need said as a wish ("if you need
    to cancel" -> "if you want to cancel"), which neither obliges nor permits; as
    written where the text grants something ("if you need to cancel, you can do so up
    to 24 hours before" is that permission, against a "must")."""
    if any(_has(padded, w) for w in PERMISSION):
        return padded
    return _CONDITIONAL_NEED.sub(r" \1 \2 \3want to ", padded)


_ONLY_BOUND = re.compile(r" only (within|before|by|until|till|during|after) ")


def _modal_flip(ms: str, ma: str, s: str, same_change: bool) -> bool:
    """Whether the padded texts ``ms`` (the step) and ``ma`` (the answer), negated
    modals and promises left out, turn an obligation into a permission or back;
    ``s``: the step as read for negations; ``same_change``: the answer's permission
    is on a verb whose negation the step lost."""
    oblig_s = any(_has(ms, w) for w in OBLIGATION)
    obliging_a = [w for w in OBLIGATION if _has(ma, w)]
    oblig_a = bool(obliging_a)
    if oblig_a and not oblig_s and obliging_a == ["only"]:
        # An "only" on the step's own time bound stresses that bound, no duty: "can be
        # refunded within 30 days" / "allows a full refund only within 30 days".
        bound = _ONLY_BOUND.search(ma)
        oblig_a = bound is None or not _has(ms, bound.group(1)) or ma.count(" only ") > 1
    perm_a = any(_has(ma, w) for w in PERMISSION)
    perm_s = any(_has(ms, w) for w in PERMISSION)
    # An obligation turned into a permission the step does not word that way ("must
    # upload" -> "upload (optional)"); a permission word both use is the same clause
    # ("can be deferred ... only" -> "you can push it back"). A permission turned into
    # an obligation needs a step without one ("You must upload it before the change
    # can be made" -> "(required)" is no flip).
    # ("Can", "may" and "could" are one permission, counted: "each child can earn 2
    # credits" / "2 credits may be earned" is none new; "you must show ID, and you can
    # pay by card" / "you may show ID, and you can pay by card" is one.)
    perm_a_new = any(_has(ma, w) and not _has(ms, w) for w in PERMISSION if w not in _MAY) or (
        _count(ma, _MAY) > _count(ms, _MAY)
    )
    # A permission beside a denial is the one way left, which "only" says: "not
    # refundable in cash, although they can be exchanged for a voucher" = "no cash
    # refund, voucher only".
    only_way = perm_s and _negates(s) and obliging_a == ["only"] and _only_what_permitted(ms, ma)
    return (oblig_s and not oblig_a and perm_a_new and not same_change) or (
        perm_s
        and not oblig_s
        and not perm_a
        and oblig_a
        and not only_way
        and not _conditions_obliged(ms, ma)
    )


# A deadline on an act that changes or ends an arrangement, as the plain text writes
# it: a length of time or a clock time right after a word that bounds it ("up to 48
# hours before", "at least 2 days before", "within 14 days", "by 5 pm"; "no later than"
# reads "by"), or said as notice ("48 hours' notice", "two days in advance"). The acts
# are those a deadline is put on: "up to 2 hours before" on "check in" or "arrive" is
# the earliest time, "until 3 pm" on "stay" how long, and "within 14 days" on "return"
# as often a duty as a window.
_DEADLINE_ACTS = frozenset(
    """cancel cancels cancelled canceled change changes changed amend amends amended
    reschedule reschedules rescheduled rebook rebooks rebooked move moves moved modify
    modifies modified transfer transfers transferred withdraw withdraws withdrawn""".split()
)
# Words that end the clause of the act: a time after them is another act's.
_ACT_ENDS = frozenset("and or but then so while".split())
_DEADLINE_LEAD = re.compile(r" (within|until|till|by|up to|at least) $")
_COUNTED_BACK = frozenset("before ahead prior advance beforehand notice".split())
_AS_NOTICE = frozenset("notice advance ahead".split())
_COUNTED_FROM = frozenset("of from since after".split())
# A length the act lasts, or comes late by, is no deadline ("up to 15 minutes late",
# "after 30 days").
_NOT_DEADLINE_LEAD = re.compile(r" (?:for|after|over|past) $")
_NOT_DEADLINE_TAIL = frozenset("late later overdue after".split())
_DEADLINE_REACH = 8


def _deadlines(padded: str, verbs: set[str]) -> frozenset[tuple[str, str, str]]:
    """The deadlines a text puts on ``verbs``: for the first length of time or clock
    time within a few words after each of them, when a bound word right before it or a
    notice after it makes it a deadline, its quantities with how it is counted (back
    from an event, from one, or by the bound alone; "within" a time before an event is
    the last stretch before it, a way of its own) and the event or day named after it.
    The time is read in the act's clause: not past an "and", "or" or "but" ("cancel the
    order and pay within 2 days")."""
    ws = padded.split()
    out: set[tuple[str, str, str]] = set()
    for i, w in enumerate(ws):
        if w not in verbs:
            continue
        for j in range(i + 1, min(len(ws), i + _DEADLINE_REACH)):
            n = ws[j]
            if n in _ACT_ENDS:
                break
            if not (n[:1].isdigit() or n in SPELLED_NUMBERS):
                continue
            qs = [
                q for q in quantities(" ".join(ws[j : j + 3])) if q.startswith(("min:", "clock:"))
            ]
            if not qs:
                continue
            before = " " + " ".join(ws[max(0, j - 2) : j]) + " "
            after = ws[j + 1 : j + 6]
            if _NOT_DEADLINE_LEAD.search(before) or _NOT_DEADLINE_TAIL & set(after[:3]):
                break
            lead = _DEADLINE_LEAD.search(before)
            back = next((k for k, x in enumerate(after) if x in _COUNTED_BACK), None)
            since = next((k for k, x in enumerate(after[:3]) if x in _COUNTED_FROM), None)
            if not lead and not _AS_NOTICE & set(after[:3]):
                break
            if back is not None:
                way = "inside" if lead and lead.group(1) == "within" else "back"
                at = back
            elif since is not None:
                way, at = "from", since
            else:
                # (The day or event a bound time is on: "by 6 pm on Friday".)
                way, at = "bound", 0
            event = next((x for x in after[at + 1 :] if x not in STOPWORDS), "")
            out |= {(q, way, event) for q in qs}
            break
    return frozenset(out)


def _one_deadline(ms: str, ma: str) -> bool:
    """Whether the step's permission and the answer's obligation are one deadline said
    two ways: every verb the answer obliges is one the step permits, an act that
    changes or ends an arrangement (:data:`_DEADLINE_ACTS`), and both texts put the same
    deadline on it, the same length or clock time counted the same way from the same
    event ("you can cancel free of charge up to 48 hours before the class" / "you need
    to cancel at least 48 hours before the class"; "changes can be made until 6 pm the
    day before" / "you have to change it by 6 pm the day before"). Not the other way
    round (an obligation the answer turns into a permission, "must report it within 24
    hours" / "can report it within 24 hours", loses the duty), nor another time, another
    event ("within 24 hours of booking"), or another act ("can stay until 3 pm" / "must
    stay until 3 pm")."""
    permitted = {m.group(1) for m in _PERMITTED_VERB.finditer(ms)}
    obliged = {m.group(1) for m in _OBLIGED_VERB.finditer(ma)}
    if not obliged or len(permitted) > _OBLIGED_MAX or len(obliged) > _OBLIGED_MAX:
        return False
    for v in obliged:
        if v not in _DEADLINE_ACTS:
            return False
        mine = {w for w in permitted if w in _DEADLINE_ACTS and same_word(v, w, 5)}
        if not mine or not _deadlines(ms, mine) & _deadlines(ma, {v}):
            return False
    return True


# A warning not to do something, at the head of a text: "don't", "do not", "never"
# (after a "please"). The tokenizer writes "don't" as "do n't".
_WARNING = re.compile(r"^ (?:please )?(?:do n't|do not|never) (\w+)")
# A warning under a heading that names what it is about ("Casing: do not open (voids
# warranty)"), read as the warning said of it ("do not open casing ...").
_HEADED_WARNING = re.compile(
    r"^\s*(?:[-\u2022*]\s*)?((?:[A-Za-z][\w'-]*\s+){0,2}[A-Za-z][\w'-]*)\s*:\s*"
    r"((?:please\s+)?(?:do not|don't|don\u2019t|never)\s+\w+)",
    re.I,
)


def _warning_unheaded(m: re.Match[str]) -> str:
    """A :data:`_HEADED_WARNING` with its heading said after the warned verb."""
    return f"{m.group(2)} {m.group(1)}"


# How the other text states the act whose consequence it gives: "opening ...", "if you
# open ...", "when you open ...".
_ACT_AS_CONDITION = re.compile(r"^ (?:(\w+ing)|(?:if|when|once) you (\w+)) ")


# Words that grant what a text's act names: against them a warning is a flip.
_GRANTING = frozenset(
    "allowed permitted fine ok okay welcome encouraged acceptable possible optional".split()
)


def _without_warning(
    padded: str,
    negs: list[tuple[str | None, tuple[str, ...] | None]],
    own: list[str],
    other: list[str],
    granting: str | None = None,
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``negs`` without the negation of a warning at the head of ``padded`` ("please
    don't open the casing ...") when the other text (``other``, its words) states that
    act as the condition of its rule ("opening the casing voids ...", "if you open
    the casing, ...") and ``padded`` says that rule's outcome in the other text's
    words (half of them; the act and what it is done to left out): the warning is how
    one avoids the outcome, not its denial. Not against a text that grants the act
    ("parking there is allowed", "... is fine"; ``granting``: the sentence ``other``
    is part of, where that is said)."""
    m = _WARNING.match(padded)
    if not m or not negs:
        return negs
    c = _ACT_AS_CONDITION.match(" " + " ".join(other) + " ")
    if not c:
        return negs
    verb = m.group(1)
    if c.group(1):
        # A gerund, not a verb that ends so ("bring the record" is an order of its own).
        act = c.group(1)
        if act == verb or not same_word(verb, act[:-3], 3):
            return negs
    else:
        act = c.group(2)
        if not same_word(verb, act, 4):
            return negs
    if _GRANTING & set(other) or (granting and _GRANTING & set(_plain(granting).split())):
        return negs  # a permission, not an outcome: "parking there is allowed"
    # What the act is done to, the first words after it in both texts ("the casing
    # yourself"), is no outcome: the outcome is the rest of the other text's words.
    theirs = content(other)
    at = next((k for k, w in enumerate(theirs) if w == act), 0)
    mine = content(own)
    k = next((k for k, w in enumerate(mine) if w == verb), 0)
    obj = {
        w for w in theirs[at + 1 : at + 4] if any(same_word(w, x, 4) for x in mine[k + 1 : k + 4])
    }
    rest = [
        w
        for w in theirs
        if not same_word(w, act, 4) and w not in POLARITY_NEGATORS and w not in obj
    ]
    if not rest and c.group(2) is None:
        return negs
    # (A condition alone, "if you dive in the shallow end" as a clause of its own,
    # states no outcome to deny: the warning against it denies nothing it says.)
    if rest and 2 * sum(any(same_word(w, x, 4) for x in mine) for w in rest) < len(rest):
        return negs
    first = next((k for k, n in enumerate(negs) if n[1] and same_word(n[1][0], verb, 4)), None)
    return negs if first is None else [*negs[:first], *negs[first + 1 :]]


# The two sides of a threshold, as the plain text writes them (bound phrases such as
# "no more than" already read as "at most"): above it and below it. "Up to" or
# "within" a lead time ("up to 2 days before") is the lead time's floor, above it.
_ABOVE = ("more than", "over", "at least", "longer than", "beyond", "exceeding")
_BELOW = ("less than", "under", "up to", "at most", "within", "fewer than", "shorter than")
_THRESHOLD = re.compile(
    r" ("
    + "|".join(_ABOVE + _BELOW)
    + r") (\w+)(?=(?: (\w+))?(?: (\w+))?(?: (\w+))?(?: (\w+))?(?: (\w+))?)"
)
_LEAD = frozenset("before ahead notice prior advance".split())
# Words that make a threshold's other side a condition of its own ("within 15 minutes
# or you cannot play"): the two sides are then not one rule said twice.
_ALTERNATIVE = frozenset("or otherwise unless else only except".split())


def _alternative(ws: list[str]) -> bool:
    """Whether a text offers an alternative to its rule (:data:`_ALTERNATIVE`): not an
    "or" between two regular participles ("may be cancelled or moved"), which joins two
    acts under the same rule; an antonym, a word of money lost or a negative verb on
    either side is an alternative ("used or forfeited", "refunded or credited")."""
    for i, w in enumerate(ws):
        if w not in _ALTERNATIVE:
            continue
        if w == "or" and 0 < i < len(ws) - 1 and all(map(_plain_participle, ws[i - 1 : i + 2 : 2])):
            continue
        return True
    return False


def _plain_participle(w: str) -> bool:
    """A regular past participle that is no antonym, money word or negative verb
    ("cancelled", "moved"; not "need", "shed", "forfeited", "missed")."""
    return (
        len(w) >= 5
        and w.endswith("ed")
        and not w.endswith("eed")
        and w not in ANTONYM_TRIGGERS
        and w not in NEGATIVE_VERBS
        and not any(w in side for side in MONEY_BACK)
    )


def _sides_of(padded: str) -> list[tuple[str, frozenset[str], str | None]]:
    """The sides of a threshold (``above``, ``below``) a text states on a number, each
    with the quantities of the bound ("more than 15 minutes") and the event it is
    counted from, if one is named right after ("of booking", "before the class")."""
    out = []
    for m in _THRESHOLD.finditer(padded):
        n = m.group(2)
        if not (n[:1].isdigit() or n in SPELLED_NUMBERS):
            continue
        after = [w for w in m.groups()[2:] if w]
        side = "above" if m.group(1) in _ABOVE else "below"
        if m.group(1) in ("up to", "within") and _LEAD & set(after[:3]):
            side = "above"
        anchor = None
        for k, w in enumerate(after[:-1]):
            if w in _ANCHORS:
                anchor = next((x for x in after[k + 1 :] if x not in STOPWORDS), None)
                break
        out.append((side, quantities(" ".join([n, *after[:2]])), anchor))
    return out


# Words before the event a bound is counted from ("48 hours before the class").
_ANCHORS = frozenset("before after of from since".split())


def _other_side(s: str, a: str) -> bool:
    """Whether the two texts state one threshold from its two sides: each bounds one
    number from one side, not the same side, and the bounds are on the same measure
    ("more than 15 minutes" / "up to fifteen minutes"; "less than 72 hours' notice" /
    "at least three days' notice"; not a bare count or a percentage), counted from the
    same event where both name one ("before the class" / "of booking" is another
    rule), and neither offers an alternative ("or", "otherwise", "unless", "else",
    "only", "except")."""
    if any(_alternative(t.split()) for t in (s, a)):
        return False
    side_s, side_a = _sides_of(s), _sides_of(a)
    if len(side_s) != 1 or len(side_a) != 1:
        return False
    (one, q_s, at_s), (other, q_a, at_a) = side_s[0], side_a[0]
    if one == other or (at_s and at_a and not same_word(at_s, at_a, 4)):
        return False  # the same side, or counted from another event ("of booking")
    # The bound on the same quantity, a measure (not a bare count or a percentage).
    return any(not q.startswith(("n:", "pct:")) for q in q_s & q_a)


# What puts a condition or an exception on a rule, or speaks to one: a sentence with one
# of these may say an "unless" of the other text in its own words ("only with a flexible
# fare") or deny it ("always charged, even with a doctor's note").
_RESTRICTS = frozenset(
    """only except excepting if provided providing otherwise unless until till when
    whenever subject even regardless irrespective always still including included
    without""".split()
)
# How far an "unless" condition reads, in words (up to a clause break).
_UNLESS_SPAN = 6
# A text with more exceptions, let-offs or shut-outs than any answer sentence states is
# read as written: hostile input would be compared word by word with the other text.
_EXCEPTIONS_MAX = 8
_SIGNS = POLARITY_NEGATORS - {"unless"}
# The negator words, as the tokenizer writes them ("can't" is "ca" + "n't").
_NEGATOR_WORDS = NEGATORS | {"n't"}


def _signs(padded: str) -> tuple[bool, bool]:
    """Whether a padded text denies a verb ("not", "n't", "never", "cannot"), and
    whether it has any negator of polarity but "unless" ("no", "free", "without", ...):
    its rule's sign, read both ways ("you can cancel free of charge" turns "cannot be
    cancelled unless ..." as "you can cancel" does; "free with a doctor's note" is the
    exception of "charged in full unless you have a medical certificate")."""
    ws = padded.split()
    return any(w in VERB_NEGATORS for w in ws), any(w in _SIGNS or w == "n't" for w in ws)


def _unheard_unless(text: str, other: str, more: Sequence[str] = ()) -> str:
    """``text`` (padded, plain) without each "unless" whose condition neither the other
    sentence ``other`` nor the texts ``more`` speak of, where the two state the rule
    with the same sign (:func:`_signs`): an exception left out is no negation of the
    rule ("book 48 hours before, unless you are a member" / "sessions
    must be booked 48 hours before"; "tickets cannot be changed unless you bought the
    flexible fare" / "tickets cannot be changed"). Kept where the signs differ, as an
    exception is often said as the rule turned ("members cannot freeze unless they have
    a medical reason" / "you can freeze with a doctor's note"; "charged in full unless
    ..." / "free with a doctor's note"), and where the other sentence restricts the rule
    or speaks to its exceptions ("only", "except", "if", "until", "even", "always",
    ...). The condition is its content words up to a clause break."""
    if " unless " not in text or text.count(" unless ") > _EXCEPTIONS_MAX:
        return text
    ow = other.split()
    if _RESTRICTS & set(ow) or _signs(text) != _signs(other):
        return text
    said = {w for w in content([*ow, *(x for m in more for x in m.split())]) if w not in _SIGNS}
    # (Each condition word looked up once: a text may repeat its exceptions.)
    heard = functools.cache(lambda c: _heard(c, said))

    ws = text.split()
    out: list[str] = []
    i = 0
    while i < len(ws):
        if ws[i] != "unless":
            out.append(ws[i])
            i += 1
            continue
        j = i + 1
        while j < len(ws) and j <= i + _UNLESS_SPAN and ws[j] not in _CLAUSE_BREAKS:
            j += 1
        cond = [w for w in content(ws[i + 1 : j]) if w not in POLARITY_NEGATORS]
        if cond and not any(map(heard, cond)):
            i = j  # the exception, unheard of in the other text, left out
            continue
        out.append(ws[i])
        i += 1
    return " " + " ".join(out) + " "


def _one_exception_word(text: str, other: str) -> str:
    """``text`` (padded, plain) with its "except" read as the other text's "unless",
    where that text says "unless" and no "except" and this one no "unless": one
    exception in two words ("classes can't be moved except for teacher illness" /
    "cannot be moved unless the teacher is ill"). Not beside an "including", which is
    the antonym of "except"."""
    if (
        " except " not in text
        or " unless " in text
        or " unless " not in other
        or " except " in other
        or any(f" {w} " in text or f" {w} " in other for w in ("including", "included"))
    ):
        return text
    return text.replace(" except for ", " unless ").replace(" except ", " unless ")


# Where the condition of an "unless" ends, read as the way out of the rule.
_WAY_OUT_ENDS = frozenset("but however although though so because while whereas".split())
# An instruction that states the way out is short: a longer sentence is read as written
# (and hostile input is not compared word by word).
_WAY_OUT_WORDS = 24
# Particles and order words, which the way out says as its condition does (not the
# other particle after the same word: "opt in" is no "opt out").
_PARTICLES = MappingProxyType(
    {"in": "out", "out": "in", "on": "off", "off": "on", "up": "down", "down": "up"}
)
_WAY_OUT_MARKS = frozenset(_PARTICLES) | frozenset(
    "before after within by until over under more less".split()
)
# Words after which a sentence goes on to a purpose or a result of its own ("cancel 48
# hours ahead and you lose it", "... to trigger the siren").
_WAY_OUT_GOES_ON = frozenset("and or so then to otherwise else".split())


def _way_out(text: str, other: str) -> str:
    """``text`` (padded, plain) with its one "unless" read as an "if" where the other
    sentence only tells the reader to do what the "unless" names: "your plan renews
    each month unless you cancel at least 24 hours before the renewal date" / "cancel
    at least a day before the renewal date". Such a sentence states the way out, not
    the rule. Only where the "unless" follows its rule, and ``other`` is short
    (:data:`_WAY_OUT_WORDS`), has no negator and no word that restricts or speaks to
    exceptions (:data:`_RESTRICTS`), says at least half of the condition's content words
    and none of the rule's own (those of the rule's clause that the condition does not
    share, in a word of their family), and adds at most one word of its own, not after
    an "and", "to", "so", ... (:data:`_WAY_OUT_GOES_ON`), with no particle, order word or
    number the condition does not have (:data:`_WAY_OUT_MARKS`: "opt in" is no "opt
    out", "after 14 days" no "within 14 days"): "your plan renews each month if
    you cancel ...", "pay the deposit within 5 days and the place goes to the next
    student", "cancel 48 hours ahead and you lose it", "enter the code within 30 seconds
    to trigger the siren" keep the flip."""
    if text.count(" unless ") != 1 or " unless " in other:
        return text
    ow = other.split()
    if len(ow) > _WAY_OUT_WORDS or _RESTRICTS & set(ow) or _signs(other) != (False, False):
        return text
    rule, cond_text = text.split(" unless ", 1)
    rw = rule.split()
    start = max((k + 1 for k, w in enumerate(rw) if w in _CLAUSE_BREAKS), default=0)
    cw = cond_text.split()[:_WAY_OUT_WORDS]
    end = next((k for k, w in enumerate(cw) if w in _WAY_OUT_ENDS), len(cw))
    cond = {w for w in content(cw[:end]) if w not in POLARITY_NEGATORS}
    own = {
        w
        for w in content(rw[start:][-_WAY_OUT_WORDS:])
        if w not in POLARITY_NEGATORS and not any(same_word(w, c, 4) for c in cond)
    }
    if not cond or not own:
        return text
    if _only_the_way_out(ow, cond, own, cw[:end]):
        return text.replace(" unless ", " if ", 1)
    return text


def _heard(w: str, among: set[str]) -> bool:
    """Whether ``w`` or a word of its family (:func:`same_word`) is among ``among``."""
    return w in among or any(same_word(w, x, 4) for x in among)


def _only_the_way_out(ow: list[str], cond: set[str], own: set[str], marks: list[str]) -> bool:
    """Whether the plain words ``ow`` (short, with no negator nor restricting word:
    :func:`_way_out` has seen to that) only tell the reader to take the way out whose
    content words are ``cond``, saying none of the rule's ``own``."""
    said = set(content(ow))
    if any(_heard(w, said) for w in own) or 2 * sum(_heard(w, said) for w in cond) < len(cond):
        return False
    extra = [k for k, w in enumerate(ow) if w in said and not _heard(w, cond)]
    if len(extra) > 1 or (extra and _WAY_OUT_GOES_ON & set(ow[: extra[0]])):
        return False
    # Its particles, order words and numbers are the condition's: "opt in" is no "opt
    # out", "return the kit after 14 days" no "within 14 days".
    pairs = set(itertools.pairwise(marks))
    return not any(
        ((w in _WAY_OUT_MARKS or w[:1].isdigit()) and w not in marks)
        or (w in _PARTICLES and k and (ow[k - 1], _PARTICLES[w]) in pairs)
        for k, w in enumerate(ow)
    )


# Words that let someone off a step: "skip it if you are a beginner" is the "unless you
# are a beginner" of the other text.
_LET_OFF = frozenset("skip skips skipped skipping exempt exempted excused".split())
# A let-off that was, and no longer is ("members used to be exempt").
_BYGONE = frozenset("used was were previously formerly".split())
# A condition's bound word and its opposite: "under 40 years old" is no "over 40".
_BOUND_OPPOSITES = {
    "over": "under",
    "under": "over",
    "above": "below",
    "below": "above",
    "more": "less",
    "less": "more",
    "older": "younger",
    "younger": "older",
}
_PRONOUNS = frozenset("it them this that these those one".split())


def _unless_as_let_off(text: str, other: str) -> str:
    """``text`` (padded, plain) without the "unless" of an exception ``other`` states
    as a let-off: a "skip" / "exempt" / "excused", with no negator within four words
    either side, not said of the past nor followed by a "but" / "however", of what
    ``text`` names (a pronoun, or a word of ``text`` right after it: not "members can
    skip the queue" for "pay the deposit, unless you are a member"), with an "if" or
    "when" within the four words after it, or the three words right before it, that
    share a content word with the "unless" condition and no bound word turned ("take the
    placement test, unless you are a complete beginner" / "skip it only if you're a
    complete beginner"; "paddlers over 16 can skip them"; not "cars under 40 years old
    are exempt" for "unless your car is over 40 years old"). The condition's words stay.
    (A text with more than :data:`_EXCEPTIONS_MAX` let-offs or exceptions is read as
    written.)"""
    if " unless " not in text or text.count(" unless ") > _EXCEPTIONS_MAX:
        return text
    ow = other.split()
    offs = [i for i, w in enumerate(ow) if w in _LET_OFF]
    if not offs or len(offs) > _EXCEPTIONS_MAX:
        return text
    own = set(content(text.split()))
    heard: set[str] = set()
    heard_words: set[str] = set()
    last_but = max((i for i, w in enumerate(ow) if w in ("but", "however")), default=-1)
    for i in offs:
        near = set(ow[max(0, i - 4) : i + 5])
        if _NEGATOR_WORDS & near or _BYGONE & near or last_but > i:
            continue
        what = next((x for x in ow[i + 1 : i + 4] if x not in STOPWORDS or x in _PRONOUNS), None)
        if (
            what is not None
            and what not in _PRONOUNS
            and what not in ("if", "when")
            and not any(same_word(what, x, 4) for x in own)
        ):
            continue
        after = ow[i + 1 : i + 5]
        if_at = next((k for k, x in enumerate(after) if x in ("if", "when")), None)
        if if_at is not None:
            at = i + 1 + if_at
            heard.update(content(ow[at + 1 : at + 1 + _UNLESS_SPAN]))
            heard_words.update(ow[at + 1 : at + 1 + _UNLESS_SPAN])
        heard.update(content(ow[max(0, i - 3) : i]))
        heard_words.update(ow[max(0, i - 6) : i])
    if not heard:
        return text
    ws = text.split()
    out: list[str] = []
    for i, w in enumerate(ws):
        if w == "unless":
            cond = content(ws[i + 1 : i + 1 + _UNLESS_SPAN])
            bounds = {
                _BOUND_OPPOSITES[x]
                for x in ws[i + 1 : i + 1 + _UNLESS_SPAN]
                if x in _BOUND_OPPOSITES
            }
            if not bounds & heard_words and any(same_word(c, h, 4) for c in cond for h in heard):
                continue
        out.append(w)
    return " " + " ".join(out) + " "


# Words that say something is left out of what follows "from" / "for": "excluded from
# returns" is "not returnable".
_SHUT_OUT = frozenset("excluded exempt exempted barred".split())
# Words with which the other text says the exclusion itself, in its own words ("banned
# from the prize draw", "ineligible for the bonus", "only non-members pay").
_EXCLUDING = _SHUT_OUT | frozenset(
    """banned ineligible disqualified excused excluding except excepting unavailable only
    apart prohibited forbidden spared""".split()
)
# How far on a shut-out may be said again with a negator.
_RESTATED_SPAN = 8


def _shut_out(
    negs: list[tuple[str | None, tuple[str, ...] | None]], own: list[str], other: list[str]
) -> list[tuple[str | None, tuple[str, ...] | None]]:
    """``own``'s negations with its shut-outs read as negations of what they shut out:
    an "excluded" / "exempt" / "barred", then "from" or "for", then a first content word
    that ``other`` has ("excluded from returns" is "not returnable"; "exempt from the
    booking fee" is "do not pay the booking fee"; not "excluded from fare refunds" for
    "a refund of taxes"). A negated shut-out affirms it: its negator is dropped ("not
    excluded from returns" is "returnable"). Not where ``other`` has the word's antonym
    ("included", "covered"), which the antonym pair reads, or says the exclusion in a
    word of its own ("banned", "ineligible", "except", "only", "non-..."), nor where a
    negator follows within a few words ("exempt from the entry fee and won't be charged"
    says it twice)."""
    at = [i for i, w in enumerate(own[:-1]) if w in _SHUT_OUT and own[i + 1] in ("from", "for")]
    if not at or len(at) > _EXCEPTIONS_MAX:
        return negs
    if any(x in _EXCLUDING or x.startswith("non-") for x in other):
        return negs
    said = content(other)
    others = set(other)
    out = list(negs)
    for i in at:
        w = own[i]
        if _PAIR_WORDS.get(w, frozenset()) & others:
            continue
        # (A masked value is no word: "exempt from the <money> paper bill fee" shuts
        # out the paper bill fee.)
        target = next(iter(content(own[i + 2 : i + 5])), None)
        if target is None or not any(same_word(target, y, 4) for y in said):
            continue
        denied = next((k for k, n in enumerate(out) if n[0] and n[1] and n[1][0] == w), None)
        if denied is not None:
            del out[denied]
        elif not _NEGATOR_WORDS & set(own[i + 2 : i + 2 + _RESTATED_SPAN]):
            out.append((w, (target,)))
    return out


def _other_case(text: str, other: str) -> str:
    """``text`` with each way of naming the other case of a condition
    (:data:`_OTHER_CASE`) written "otherwise", where ``other`` says "otherwise" and the
    clause the name governs shares more words with what ``other`` says after its
    "otherwise" (what happens in the other case) than with what it says before it (the
    rule itself; for an "Otherwise" that opens its sentence, the sentence before):
    "bring your permit; otherwise we charge a fee" / "without it we charge a fee" is one
    statement, but "you can borrow books without it" against "bring your card to borrow
    books; otherwise use the reading room" says the rule does not hold, a negation, as
    it does where both sides share as many words. The clause governed: the one after
    "if you don't," and "failing that"; the one "without it" stands in. Each side is
    read within :data:`_CASE_WINDOW` characters of its word, and a text with more than
    :data:`_OTHER_CASE_MAX` names of the other case is read as written (hostile
    input)."""
    at = _OTHERWISE.search(other)
    if at is None:
        return text
    names = list(itertools.islice(_OTHER_CASE.finditer(text), _OTHER_CASE_MAX + 1))
    if not names or len(names) > _OTHER_CASE_MAX:
        return text
    ends = [
        m.end()
        for m in _SENTENCE_END.finditer(other, max(0, at.start() - _CASE_WINDOW), at.start())
    ]
    start = ends[-1] if ends else max(0, at.start() - _CASE_WINDOW)
    rule = content(tokens(other[start : at.start()]))
    if not rule and len(ends) > 1:
        rule = content(tokens(other[ends[-2] : at.start()]))
    elif not rule:
        rule = content(tokens(other[max(0, at.start() - _CASE_WINDOW) : at.start()]))
    after_at = other[at.end() : at.end() + _CASE_WINDOW]
    end = _SENTENCE_END.search(after_at)
    then = content(tokens(after_at[: end.start()] if end else after_at))

    def shared(ws: list[str], side: list[str]) -> int:
        return sum(any(same_word(w, x, 4) for x in side) for w in set(ws))

    out: list[str] = []
    done = 0
    for m in names:
        after = text[m.end() : m.end() + _CASE_WINDOW].lstrip(" ,;:\u2013\u2014-")
        governed = _CASE_BREAK.split(after, maxsplit=1)[0]
        if not m.group(0).casefold().startswith(("if ", "failing")):
            before = text[max(0, m.start() - _CASE_WINDOW) : m.start()]
            governed = _CASE_BREAK.split(before)[-1] + " " + governed
        ws = content(tokens(governed))
        here = shared(ws, then)
        out.append(text[done : m.start()])
        out.append("otherwise" if here > shared(ws, rule) else m.group(0))
        done = m.end()
    out.append(text[done:])
    return "".join(out)


def polarity_flip(
    step: str,
    answer: str,
    context: str | None = None,
    elsewhere: tuple[str, ...] = (),
    sides: bool = True,
) -> str | None:
    """Why ``answer`` has the opposite polarity of ``step`` (``negation``, ``antonym``,
    ``modal``, joined by `` + ``), or None. ``context``: the text ``answer`` is part
    of, where the step's negation scopes are looked up (default: ``answer``).
    ``elsewhere``: the answer's other sentences, where a negation of the step that
    ``answer`` lacks may be stated instead. ``sides``: a negation against the rule said
    from the other side of its threshold is no flip (:func:`_other_side`)."""
    step, answer = _contrast_as_rather(step, answer), _contrast_as_rather(answer, step)
    step, answer = _free_of_as_without(step, answer), _free_of_as_without(answer, step)
    step, answer = _kept_from_against(step, answer), _kept_from_against(answer, step)
    step, answer = _not_who(step, answer), _not_who(answer, step)
    step, answer = _kept_as_not_ended(step, answer), _kept_as_not_ended(answer, step)
    step, answer = (
        _HEADED_WARNING.sub(_warning_unheaded, step),
        _HEADED_WARNING.sub(_warning_unheaded, answer),
    )
    step, answer = _non_able(step, answer), _non_able(answer, step)
    step, answer = _denied_bound(step, answer), _denied_bound(answer, step)
    if _OTHERWISE.search(step):
        answer = _other_case(_IF_NOT.sub("otherwise", answer), step)
    elif _OTHERWISE.search(answer):
        step = _other_case(_IF_NOT.sub("otherwise", step), answer)
    s, a = _one_form(_plain(step), _plain(answer))
    s, a, outside = _only_from_outside(s, a)
    s, a = _one_condition(s, a, step, answer)
    s, a = _one_exception_word(s, a), _one_exception_word(a, s)
    # "Not ... until" against an "only at / from" sets the same time, it denies
    # nothing: "was not docked until 18:40" = "was docked only at 18:40" (against
    # another negation, "not before 18:40", or "only until", it stays one). Nor
    # against "must ... before", when what is denied is what comes second.
    if _ONLY_FROM.search(a) and " only " not in s:
        s = _NOT_UNTIL.sub(_only_from, s)
    elif _ONLY_FROM.search(s) and " only " not in a:
        a = _NOT_UNTIL.sub(_only_from, a)
    elif _must_before(a, s) and " only " not in s:
        s = _DENIED_UNTIL.sub(_only_from, s, count=1)
    elif _must_before(s, a) and " only " not in a:
        a = _DENIED_UNTIL.sub(_only_from, a, count=1)
    # "Must come from our list unless you pay a fee" = "our list only, or pay the fee":
    # the "unless" states the other way of the restriction, not a negation.
    # (Not when the "unless" text negates too: "you cannot park here unless ...".)
    if " unless " in s and " unless " not in a and _ONLY_OR.search(a) and not _negates(s):
        s = s.replace(" unless ", " or if ")
    elif " unless " in a and " unless " not in s and _ONLY_OR.search(s) and not _negates(a):
        a = a.replace(" unless ", " or if ")
    # A sentence that only tells the reader to take the way out an "unless" names
    # states no rule to negate.
    s, a = _way_out(s, a), _way_out(a, s)
    # An exception one text puts on the rule and the other leaves out is no negation.
    # (The answer's exception is looked for in the step; the step's in the answer,
    # its other sentences and its context, where it may be said apart.)
    if " unless " in s:
        more = [*(_plain(e) for e in elsewhere), *([_plain(context)] if context else [])]
        s = _unheard_unless(s, a, more)
    a = _unheard_unless(a, s)
    s, a = _unless_as_let_off(s, a), _unless_as_let_off(a, s)
    st, at = s.strip(), a.strip()
    sw, aw_own = st.split(), at.split()
    neg_s = _negations(s, aw_own)
    # An answer's negation bears on a step with none by the words it governs further
    # on ("we text you a two-hour window" -> "our message won't narrow it down to a
    # two-hour window"); against a step with negations of its own, which parts each
    # text negates is open, and the few words after the negator decide.
    neg_a = _negations(a, sw, wide=not neg_s)
    if any(n[1] and _WIDE_MARK in n[1] for n in neg_a):
        neg_a = _in_own_clause(neg_a, answer, sw)
    # A warning not to do what the other text says has a consequence is that rule
    # ("please don't open the casing, that voids the warranty" / "opening the casing
    # voids the warranty"; "never top it up yourself: doing so ..." / "if you top it up
    # yourself, ..."): the negation forbids the act, the consequence keeps its polarity.
    neg_s = _without_warning(s, neg_s, sw, aw_own, context)
    neg_a = _without_warning(a, neg_a, aw_own, sw)
    # A "not" that describes which things are meant bears on a text that uses the
    # same verb only ("items not collected within 90 days" / "items still here").
    # (Each text read once, as below: a text may hold thousands of negations.)
    desc_s = {h for h in _described(step) if not any(same_word(h, w, 4) for w in set(aw_own))}
    desc_a = {h for h in _described(answer) if not any(same_word(h, w, 4) for w in set(sw))}
    neg_s = [n for n in neg_s if not (n[0] == "not" and n[1] and n[1][0] in desc_s)]
    neg_a = [n for n in neg_a if not (n[0] == "not" and n[1] and n[1][0] in desc_a)]
    # "Not verified yet" is the other text's "until it is verified": one condition.
    neg_s, neg_a = _not_yet_until(neg_s, s, a), _not_yet_until(neg_a, a, s)
    # A "without it" is the other text's word with a negative prefix for what "it"
    # stands for ("rolls received without it [the speed] are developed at box speed" /
    # "we develop any unmarked roll at box speed").
    if _without_it(s, aw_own, sw):
        neg_s = [n for n in neg_s if n[0] != "without"]
    if _without_it(a, sw, aw_own):
        neg_a = [n for n in neg_a if n[0] != "without"]
    # A negation the other text writes with a negative prefix is the same statement,
    # whatever else either text negates: "if you don't use it" = "unused".
    shows_s, shows_a = _no_shows(sw), _no_shows(aw_own)
    freed_s, freed_a = freed(sw, aw_own), freed(aw_own, sw)
    neg_s = [
        n for n in neg_s if not (n[1] and _prefixed(n[1][0], aw_own, shows_a > shows_s, freed_a))
    ]
    neg_a = [n for n in neg_a if not (n[1] and _prefixed(n[1][0], sw, shows_s > shows_a, freed_s))]
    # ... or "free" said as "complimentary", which is no negator ("guests get a
    # complimentary drink" / "guests don't get a drink" is a flip). Only a "free" the
    # other text does not say too: "included free of charge" / "all free" is one
    # "free", and "included free" / "not free" keeps its "not".
    free_s, free_a = _free_count(neg_s), _free_count(neg_a)
    neg_s = [
        n
        for n in neg_s
        if not (n[0] in COST_FREE_WORDS and free_a < free_s and _says_free(aw_own, sw))
    ]
    neg_a = [
        n
        for n in neg_a
        if not (n[0] in COST_FREE_WORDS and free_s < free_a and _says_free(sw, aw_own))
    ]
    # A "free" said again in the same text ("includes a free screen protector, fitted
    # at no charge" / "screen protectors are fitted free") is one "free" against a text
    # that says "free" too and puts a cost on nothing ("parking is free, Wi-Fi costs
    # £5" against two frees is the flip).
    free_s, free_a = _free_count(neg_s), _free_count(neg_a)
    if free_s and free_a:
        if free_a > free_s and not COST_WORDS & set(sw):
            neg_a = _without_surplus_free(neg_a, free_a - free_s)
        elif free_s > free_a and not COST_WORDS & set(aw_own):
            neg_s = _without_surplus_free(neg_s, free_s - free_a)
    # One negation over two coordinated words is the two negations the other text
    # writes ("not refunded or credited" / "no refund and no credit").
    neg_s, neg_a = _one_for_coordinated(neg_s, neg_a), _one_for_coordinated(neg_a, neg_s)
    # ... or over two verbs joined by "or" ("do not force the door or restart the
    # cycle" / "the door must not be forced and the cycle must not be restarted").
    joins_s, joins_a = _or_joins_raw(step), _or_joins_raw(answer)
    neg_s, neg_a = _one_over_or(neg_s, joins_a), _one_over_or(neg_a, joins_s)
    # ... or with a verb that means "not do" ("miss" / "do not attend").
    # (A negated passive by one on its subject: "the notification was not seen" /
    # "you missed the notification".)
    pas_s, pas_a = _passive_index(st), _passive_index(at)
    bounds_s, bounds_a = _bound_words(sw), _bound_words(aw_own)
    nums_s, nums_a = _numbers(sw), _numbers(aw_own)
    neg_s = [
        n
        for n in neg_s
        if not (
            _by_negative_verb(n, aw_own)
            or _passive_by_negative_verb(n, pas_s, aw_own)
            or _bound_restated(n, bounds_a, nums_s, sw)
        )
    ]
    neg_a = [
        n
        for n in neg_a
        if not (
            _by_negative_verb(n, sw)
            or _passive_by_negative_verb(n, pas_a, sw)
            or _bound_restated(n, bounds_s, nums_a, aw_own)
        )
    ]
    neg_s, neg_a = _shut_out(neg_s, sw, aw_own), _shut_out(neg_a, aw_own, sw)
    if elsewhere and (len(neg_s) + len(neg_a)) % 2:
        there = [(_negations(_plain(e)), content(tokens(e))) for e in elsewhere]
        here = content(aw_own)
        neg_s = [n for n in neg_s if not _stated_elsewhere(n, neg_a, there, step, here)]
    flips = (len(neg_s) + len(neg_a)) % 2
    if flips:
        aw = _plain(context).split() if context is not None else aw_own
        if outside and context is not None:
            # (The answer's outside group read as the group, in its context too.)
            aw = [outside[1] if w == outside[0] else w for w in aw]
        # A negation against an "always" the negating text does not repeat denies it,
        # whatever verb each uses ("are always discussed with you by phone" -> "will
        # not call you about it").
        deny_s = "always" in aw and "always" not in sw
        deny_a = "always" in sw and "always" not in aw_own
        # (A denied predicate after what it denies counts in the answer's text only:
        # a step's "reselling above face value is not allowed" is said again as what
        # happens to those who do, "tickets resold above face value are voided".)
        more_a = _no_shows(aw) > shows_s
        kept_s = [
            n
            for n in neg_s
            if deny_s or _grounded(n, aw, sw, None, more_a) or _granted(n, aw_own, sw)
        ]
        preds_a = _predicate_index(at)
        # (The answer's words read once for all its negations: a long answer has many.)
        facts_a = _own_facts(aw_own)
        kept_a = [
            n
            for n in neg_a
            if deny_a or _grounded(n, sw, aw_own, preds_a, shows_s > shows_a, facts_a)
        ]
        flips = (len(kept_s) + len(kept_a)) % 2
    # One negation over two verbs joined by "or", of which the other text keeps the
    # first negated and states the second without one ("do not unplug the freezer or
    # open the lid" / "... must not be unplugged, but you can open the lid").
    if not flips and (
        _or_half_kept(neg_s, joins_s, neg_a, joins_a, answer, s)
        or _or_half_kept(neg_a, joins_a, neg_s, joins_s, step, a)
    ):
        flips = 1
    reasons = ["negation"] if flips else []
    # The verbs whose negation the step lost ("treatment does not start until ..." ->
    # "treatment can start ..."): a "can" the answer puts on one of them is that same
    # change, not a modal flip of its own.
    unnegated = {n[1][0] for n in neg_s if n[1]} if flips else set()
    # The texts without their negative phrases, which the negations counted: "are
    # optional" is one negation, not an antonym of "required" as well, nor a modal.
    s_np, a_np = _negative_phrases(s)[1], _negative_phrases(a)[1]
    if (set(sw) | set(aw_own)) & ANTONYM_TRIGGERS:
        st_sides = _sides(s_np.strip())
        at_sides = _sides(a_np.strip())
        for k, ((sl, sr), (al, ar)) in enumerate(zip(st_sides, at_sides, strict=True)):
            if (sl and not sr and ar and not al) or (sr and not sl and al and not ar):
                if k == _ORDER and (_converse(sw, aw_own) or anaphoric_after(sw, aw_own)):
                    continue  # "renew after it has lapsed" = "let it lapse before renewing"
                flips += 1
                reasons.append("antonym")
    # The same order word with its two sides swapped ("pay the balance before you
    # collect the cake" / "collect the cake before you pay the balance").
    for word in _ORDER_WORDS:
        if (
            sw.count(word) == 1
            and aw_own.count(word) == 1
            and not {*_ORDER_WORDS} - {word} & {*sw, *aw_own}
            and _converse(sw, aw_own)
        ):
            flips += 1
            reasons.append("order")
    # Modal words inside a negative phrase are that phrase's ("does not have to" is
    # counted as a negation, not as an obligation).
    # A negated modal is a prohibition whichever modal it is ("must never be left" =
    # "may not be left"); against another modal the negation count above decides
    # ("must not park" / "may park" is a flip). Only affirmed modals differ in force
    # ("must" / "may"): the negated ones are left out here.
    ms = _without_conditional_need(_without_denied(_promises(s_np, a)))
    ma = _without_conditional_need(_without_denied(_promises(a_np, s)))
    same_change = any(
        w in _MAY and any(same_word(x, h, 4) for x in aw_own[i + 1 : i + 3] for h in unnegated)
        for i, w in enumerate(aw_own)
    )
    # A "can" of a clause of time or purpose grants nothing ("we'll need it paid before
    # we can confirm" / "it must be paid before we confirm"; where either text has a
    # "so that ... can", a bare "so ... can" is that purpose too). Read without them as
    # well: a flip only when both readings show one, as the other text may word its own
    # such "can" another way ("before we can" / "then we can").
    sub = _SO_MAY if _so_that_may(s) or _so_that_may(a) else None

    def purposeless(padded: str) -> str:
        padded = _SUBORDINATE_MAY.sub(r" \1 \2 ", padded)
        return sub.sub(r" \1 \2 ", padded) if sub is not None else padded

    if (
        _modal_flip(ms, ma, s, same_change)
        and _modal_flip(purposeless(ms), purposeless(ma), s, same_change)
        and not _one_deadline(ms, ma)
    ):
        flips += 1
        reasons.append("modal")
    if sides and flips % 2 and reasons == ["negation"] and _other_side(s, a):
        # The rule said from the other side of its threshold: "more than 15 minutes
        # late cannot play" / "up to fifteen minutes late you still play".
        return None
    return " + ".join(reasons) if flips % 2 else None


# What grants or accepts what a denial refuses, said without the denied verb: "texts
# count as notice", "it is fine for towing", "it may be exchanged", "they remain
# eligible for a refund" (against "are not accepted as notice", "cannot be used for
# towing", "cannot be swapped", "cannot be returned for a refund"). A word of
# permission grants as a predicate, not before a noun it describes ("a valid ID", "the
# fine print").
_GRANT_WORDS = _PERMIT_WORDS | frozenset("suitable valid acceptable eligible possible".split())
_COUNTS_AS = frozenset("count counts counted".split())
# What a modal says that grants nothing: a sanction on those who break the rule ("cars
# left overnight may be removed", "may be billed in full"), a duty, a cost or a time
# ("may have to pay", "can take a week", "may incur the fee", "may be asked to leave").
_NO_GRANT_AFTER_MODAL = frozenset(
    """removed towed clamped impounded ticketed charged billed fined cancelled canceled
    deleted disposed discarded destroyed forfeited withheld refused rejected suspended
    terminated blocked banned penalised penalized reported recycled donated sold asked
    have has need needs take takes want incur cost costs expect require required""".split()
)
# How far after a modal its verb is read ("may be towed away", "may have to").
_MODAL_REACH = 3
# What the answer says the "not" with in a way of its own, beside its negations: a
# restriction, an exclusion, an alternative, a ban.
_OWN_NOT = (_RESTRICTS | _EXCLUDING | POLARITY_NEGATORS) - {"still"} | frozenset(
    "instead rather ban bans prohibit prohibits forbid forbids".split()
)


def _grants(sw: list[str], aw: list[str]) -> set[int]:
    """Where the answer (``aw``, plain words) grants what the step (``sw``) denies: a
    can / may / could that says no sanction, duty, cost or time; a word of permission
    not before a noun; a "counts as" that says of the step's subject what the step
    speaks of ("texting your instructor counts as notice" for "text messages to your
    instructor are not accepted as notice"; not "towing counts as misuse", nor "email
    counts as notice")."""
    at = _verb_denial_at(sw) or 0
    subject, rest = content(sw[:at]), content(sw[at:])
    out = set()
    for i, w in enumerate(aw):
        after = aw[i + 1 : i + 1 + _MODAL_REACH]
        if w in _MAY:
            ok = not _NO_GRANT_AFTER_MODAL & set(after)
        elif w in _GRANT_WORDS:
            ok = not after or after[0] in STOPWORDS
        elif w in _COUNTS_AS:
            said = content(aw[i + 2 : i + 5])
            ok = (
                after[:1] == ["as"]
                and any(same_word(x, y, 4) for x in said for y in rest)
                and any(same_word(x, y, 4) for x in content(aw[max(0, i - 4) : i]) for y in subject)
            )
        else:
            ok = False
        if ok:
            out.add(i)
    return out


def denial_granted(step: str, answer: str) -> bool:
    """Whether ``answer`` grants what ``step`` denies, in words that leave the
    negation no scope word to ground on, so that :func:`polarity_flip` finds no flip
    ("text messages to your instructor are not accepted as notice" / "texting your
    instructor counts as notice"; "it cannot be used for towing" / "it is fine for
    towing"). Positive evidence on both sides: the step denies once, a verb ("not",
    "n't", "never", "cannot"), with no restriction, condition or let-off beside it
    (:data:`_RESTRICTS`, "free", "waived"); the answer grants (:func:`_grants`) and
    has no negation, restriction ("only", "if", a "still" away from the grant),
    exclusion, alternative ("instead") or ban of its own, no antonym of a word of the
    step ("not accepted" / "rejected") and no word of the step with a negative prefix
    ("not collected" / "uncollected"). A rewording that says the "not" its own way
    ("must stay on the trails", "the cabins are pet-free", "get towed overnight")
    grants nothing and is no flip."""
    s, a = _plain(step), _plain(answer)
    if not _one_verb_denial(s):
        return False
    sw, aw = s.split(), a.split()
    # (The step's other words of polarity: what its negations do not count, "don't
    # forget", "neither ... nor", "free", "waived".)
    if set(sw) & (_RESTRICTS | POLARITY_NEGATORS) - VERB_NEGATORS:
        return False
    granted = _grants(sw, aw)
    # (A "still" right beside what grants says the grant holds on: "can still be paid
    # back", "are still valid".)
    if (
        not granted
        or _negations(a)
        or set(aw) & _OWN_NOT
        or any(w == "still" and not {i - 1, i + 1} & granted for i, w in enumerate(aw))
    ):
        return False
    return not _turned_in_words(s, a)


def _one_verb_denial(s: str) -> bool:
    """Whether a plain text has one negation, a verb's ("not", "n't", "never",
    "cannot")."""
    negs = _negations(s)
    return len(negs) == 1 and (negs[0][0] or "").split("+")[-1] in VERB_NEGATORS


def _turned_in_words(s: str, a: str) -> bool:
    """Whether a plain text ``a`` says the "not" of ``s`` in a word of its own: an
    antonym of a word of ``s`` ("not accepted" / "rejected") or a word of ``s`` with a
    negative prefix ("not collected" / "uncollected")."""
    sides = zip(_sides(s), _sides(a), strict=True)
    if any((ls and ra and not la) or (rs and la and not ra) for (ls, rs), (la, ra) in sides):
        return True
    aw = a.split()
    return any(_outside(w, x) for w in content(s.split()) for x in aw)


def denied_word(words: Sequence[str]) -> str | None:
    """The word a text's first verb negation governs: the first content word after
    its "not", "n't", "never" or "cannot" ("claims are not accepted after 48 hours" ->
    "accepted"); None where it has none."""
    at = _verb_denial_at(words)
    after = content(list(words[at + 1 :])) if at is not None else []
    return after[0] if after else None


def _verb_denial_at(words: Sequence[str]) -> int | None:
    """Where a text's first verb negation ("not", "n't", "never", "cannot") stands."""
    return next((i for i, w in enumerate(words) if w in VERB_NEGATORS), None)


def denial_affirmed(step: str, clause: str) -> bool:
    """Whether ``clause`` says, with no "not" of any kind, what ``step`` denies once,
    with a verb negation: the step's one negation is a verb's, and the clause has no
    negation, restriction or condition ("only", "even", "if", "when", "until"),
    exclusion, alternative or ban (:data:`_OWN_NOT`; a "still" is none), no
    antonym of a word of the step and no word of the step with a negative prefix
    ("we cannot load your things while anything is owing" / "the crew will still
    load your things"; not "the deposit is not refundable" / "the deposit is
    non-refundable", nor "texts are not accepted" / "texts are rejected", nor "we load
    your things if nothing is owing"). Not where both state a quantity: a bound is
    said from either side ("cannot be moved more than twice" / "may be moved a maximum
    of two times"), and the quantity rules read it. Whether the clause has the denied
    word (:func:`denied_word`) is the caller's to read: where it stands in the answer
    says whether the clause states the step."""
    s, a = _plain(step), _plain(clause)
    if not _one_verb_denial(s):
        return False
    if _negations(a) or set(a.split()) & _OWN_NOT or (quantities(step) and quantities(clause)):
        return False
    return not _turned_in_words(s, a)
