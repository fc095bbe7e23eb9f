"""Tokenisers and word comparison."""

from __future__ import annotations

from monitor.text import canon, content, policy_terms, raw_words, same_word, singular, tokens
from monitor.text.lexicon import COMMON_VERBS, inflections


def test_word_families() -> None:
    assert same_word("escalation", "escalate", 4)
    assert same_word("pay", "copay", 4) and same_word("id", "identification", 4)
    assert not same_word("light", "flight", 4)
    assert not same_word("5", "50", 4)


def test_tokens_split_negations_and_read_number_words() -> None:
    assert tokens("You don’t need two <date> visits, 1.5 h.") == [
        "you",
        "do",
        "n't",
        "need",
        "2",
        "<date>",
        "visits",
        "1.5",
        "h",
    ]


def test_raw_words_keep_case_and_inner_punctuation() -> None:
    assert raw_words("Work-order it's DONE") == ["Work-order", "it's", "DONE"]


def test_content_and_policy_terms() -> None:
    ws = tokens("You must not pay a fee to request the <value> refund")
    assert content(ws) == ["pay", "fee", "request", "refund"]
    assert policy_terms(ws) == ["fee", "refund"]


def test_singular_and_canon() -> None:
    assert [singular(w) for w in ("policies", "fees", "pass", "bus")] == [
        "policy",
        "fee",
        "pass",
        "bus",
    ]
    assert canon("refunds") == "refun" and canon("<date>") == "<date>" and canon("30") == "30"


def test_common_verbs_are_inflected() -> None:
    assert {"apply", "applies", "applied", "applying"} <= inflections("apply")
    assert {"closing", "closed", "closes"} <= COMMON_VERBS


def test_counted_agrees_with_its_number() -> None:
    from monitor.text.lexicon import counted

    assert [counted(n, "seed") for n in (0, 1, 2)] == ["0 seeds", "1 seed", "2 seeds"]
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(3, "entry", "entries") == "3 entries"
