"""Entity values the golden set names (enum values, the reference's own text values) are
removed from questions before they are embedded, as identifiers and dates are: two
questions of one procedure about two instances ("the Deep Clean" / "the Spring Refresh")
retrieve their item alike. Invented domains: a cleaning firm, a garden centre, a ferry
operator, a support desk."""

from __future__ import annotations

from typing import Any

import pytest

from monitor.embeddings import HashingEmbedder
from monitor.golden import parse_golden
from monitor.retrieval import GoldenIndex, named_values
from monitor.values import NamedValues


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # A run of words, whatever its case; the longest first.
        ("How do I cancel the Deep Clean booked for?", "How do I cancel the booked for?"),
        ("How do I cancel the deep clean plus booked for?", "How do I cancel the booked for?"),
        ("locker at Mill Lane Co-op, please", "locker at, please"),
        # Whole words only.
        ("Do you do deep cleaning?", "Do you do deep cleaning?"),
        # A short or function-word value is kept.
        ("Is P2 the priority? No idea", "Is P2 the priority? No idea"),
        # An everyday verb as a value only as written: the status, not the verb.
        ("Why is case 12 Closed?", "Why is case 12?"),
        (
            "Can I reopen a case that was already closed?",
            "Can I reopen a case that was already closed?",
        ),
        ("How do I open a new case?", "How do I open a new case?"),
    ],
)
def test_strip_removes_the_named_values(text: str, want: str) -> None:
    named = NamedValues(
        ["Deep Clean", "Deep Clean Plus", "Mill Lane Co-op", "P2", "No", "Closed", "Open", "the"]
    )
    assert named.remove(text) == want


def test_nothing_named_leaves_the_text_as_it_is() -> None:
    assert not NamedValues([])
    assert NamedValues(["a", "of"]).remove("a cup of tea") == "a cup of tea"


def _golden(items: list[dict[str, Any]]) -> Any:
    raw = [{"intent": i["id"], "agent": "desk", "answer": "See the app.", **i} for i in items]
    return parse_golden({"version": "1", "items": raw})


PLANTS = {
    "id": "plant_delivery",
    "question": "Can you deliver the Japanese Maple I ordered on 2026-04-02?",
    "parameters": {
        "plant": {
            "value": "Japanese Maple",
            "type": "enum",
            "values": ["Japanese Maple", "Olive Tree", "Bay Laurel Standard"],
        },
        "orderedOn": {"value": "2026-04-02", "type": "date"},
    },
}
FERRY = {
    "id": "ferry_change",
    "question": "How do I change my crossing from Portsmouth to Caen?",
    "parameters": {
        "origin": {
            "value": "Portsmouth",
            "type": "enum",
            "values": ["Portsmouth", "Poole", "Plymouth"],
        },
        "port": {"value": "Caen", "type": "text"},
    },
}
HOURS = {"id": "hours", "question": "What are your opening hours on bank holidays?"}


def test_named_values_are_the_enum_values_and_the_references_text_values() -> None:
    named = named_values(_golden([PLANTS, FERRY, HOURS]))
    assert (
        named.remove("my Olive Tree and bay laurel standard from Poole to Caen") == "my and from to"
    )
    # A text value of another instance is not known: it stays.
    assert named.remove("from Plymouth to Cherbourg") == "from to Cherbourg"


def test_an_instance_with_another_enum_value_retrieves_its_item_as_the_reference_does() -> None:
    index = GoldenIndex(_golden([PLANTS, FERRY, HOURS]), HashingEmbedder())
    asked = [
        "Can you deliver the Olive Tree I ordered on 2027-01-15?",
        "How do I change my crossing from Poole to Caen?",
        "What are your opening hours on bank holidays?",
    ]
    got = index.retrieve(index.embed_questions(asked))
    assert [r.item.id if r else None for r in got] == ["plant_delivery", "ferry_change", "hours"]
    assert all(r is not None and r.similarity == pytest.approx(1.0, abs=1e-6) for r in got)


def test_without_the_golden_values_the_same_questions_score_lower() -> None:
    """What the named values change: the shape mask alone leaves the plant's name."""
    golden = _golden([PLANTS, FERRY, HOURS])
    index = GoldenIndex(golden, HashingEmbedder())
    index.named = NamedValues([])
    got = index.retrieve(
        index.embed_questions(["Can you deliver the Olive Tree I ordered on 2027-01-15?"])
    )
    assert got[0] is not None and got[0].similarity < 0.9


def test_mask_off_embeds_the_questions_as_written() -> None:
    index = GoldenIndex(_golden([PLANTS]), HashingEmbedder(), mask=False)
    assert index.prepare(["the Olive Tree on 2027-01-15"]) == ["the Olive Tree on 2027-01-15"]


def test_a_value_that_alone_tells_two_items_apart_is_kept() -> None:
    """A gym whose golden set has one item per plan: the plan names the procedure there.
    Removed, both questions would read "What does the plan include?" and tie."""
    plan = {"type": "enum", "values": ["Express", "Basic Flex", "Family"]}
    golden = _golden(
        [
            {
                "id": "express",
                "question": "What does the Express plan include?",
                "parameters": {"plan": {**plan, "value": "Express"}},
            },
            {
                "id": "basic",
                "question": "What does the Basic Flex plan include?",
                "parameters": {"plan": {**plan, "value": "Basic Flex"}},
            },
            {
                "id": "freeze",
                "question": "How do I freeze my Family plan for a month?",
                "parameters": {"plan": {**plan, "value": "Family"}},
            },
        ]
    )
    named = named_values(golden)
    assert (
        named.remove("What does the Express plan include?") == "What does the Express plan include?"
    )
    assert named.remove("What does the basic flex plan include?") == (
        "What does the basic flex plan include?"
    )
    # The value no two questions stand apart by is still removed.
    assert named.remove("How do I freeze my Family plan?") == "How do I freeze my plan?"
    index = GoldenIndex(golden, HashingEmbedder())
    got = index.retrieve(
        index.embed_questions(
            [
                "What does the Basic Flex plan include?",
                "How do I freeze my Express plan for a month?",
            ]
        )
    )
    assert [r.item.id if r else None for r in got] == ["basic", "freeze"]
    assert got[0] is not None and got[0].margin is not None and got[0].margin > 0.05
