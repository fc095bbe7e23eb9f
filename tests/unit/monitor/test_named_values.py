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
        (
            "Can I collect it from the locker at Mill Lane Co-op today?",
            "Can I collect it from the locker at today?",
        ),
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


def _enum_item(
    id_: str, question: str, field: str, spec: dict[str, Any], value: str
) -> dict[str, Any]:
    """A golden item whose question names ``value`` of the enum ``field``."""
    return {"id": id_, "question": question, "parameters": {field: {**spec, "value": value}}}


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
    assert named.remove("Is my Olive Tree coming from the Poole depot to Caen?") == (
        "Is my coming from the depot to?"
    )
    # A text value of another instance is not known: it stays.
    assert named.remove("Is my crossing from Plymouth to Cherbourg late?") == (
        "Is my crossing from to Cherbourg late?"
    )
    # Nothing much would be left: kept as asked.
    assert named.remove("Olive Tree?") == "Olive Tree?"
    assert named.remove("Is the Bay Laurel Standard hardy?") == "Is the Bay Laurel Standard hardy?"


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
            _enum_item("express", "What does the Express plan include?", "plan", plan, "Express"),
            _enum_item(
                "basic", "What does the Basic Flex plan include?", "plan", plan, "Basic Flex"
            ),
            _enum_item(
                "freeze", "How do I freeze my Family plan for a month?", "plan", plan, "Family"
            ),
        ]
    )
    named = named_values(golden)
    assert (
        named.remove("What does the Express plan include?") == "What does the Express plan include?"
    )
    assert named.remove("What does the basic flex plan include?") == (
        "What does the basic flex plan include?"
    )
    # The whole enum names procedures there: its other values are kept too.
    assert named.remove("How do I freeze my Family plan?") == "How do I freeze my Family plan?"
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


def test_a_golden_question_keeps_the_values_other_items_name() -> None:
    """A vet's emergency item says "out of hours", which is also a consultation type
    another item names: its row keeps the words, so other questions about a pet do not
    come nearer it than they did."""
    kinds = {"type": "enum", "values": ["Routine", "Emergency Visit", "Out of Hours"]}
    golden = _golden(
        [
            {
                "id": "emergency",
                "question": "What should I do if my pet has an emergency out of hours?",
            },
            _enum_item(
                "book", "How do I book a Routine consultation for my dog?", "kind", kinds, "Routine"
            ),
        ]
    )
    index = GoldenIndex(golden, HashingEmbedder())
    assert "What should I do if my pet has an emergency out of hours?" in index.row_texts()
    assert "How do I book a consultation for my dog?" in index.row_texts()
    got = index.retrieve(
        index.embed_questions(["How do I book an Emergency Visit consultation for my dog?"])
    )
    assert got[0] is not None and got[0].item.id == "book" and got[0].similarity > 0.9


def test_one_item_per_plan_in_other_words_keeps_the_plan_names() -> None:
    """Two items of one enum that ask with the same content words once their own values
    are gone ("What does Basic cover include?" / "What's included in Full Protection
    cover?") name procedures by it: a question about one goes to that one."""
    cover = {"type": "enum", "values": ["Basic", "Full Protection"]}
    golden = _golden(
        [
            _enum_item("basic", "What does Basic cover include?", "cover", cover, "Basic"),
            _enum_item(
                "full",
                "What's included in Full Protection cover?",
                "cover",
                cover,
                "Full Protection",
            ),
            HOURS,
        ]
    )
    index = GoldenIndex(golden, HashingEmbedder())
    assert index.row_texts()[:2] == [
        "What does Basic cover include?",
        "What's included in Full Protection cover?",
    ]
    got = index.retrieve(index.embed_questions(["What does Full Protection cover include?"]))
    assert got[0] is not None and got[0].item.id == "full"


def test_the_items_own_value_said_in_passing_meets_the_question_as_written() -> None:
    """ "still pending", typed in lower case, is the user's word, not a status to mask:
    it meets the golden question as the shape mask alone leaves it; another status, as
    the set writes it, meets the question without its own value."""
    status = {"type": "enum", "values": ["Pending", "Confirmed", "Cancelled"]}
    golden = _golden(
        [
            _enum_item(
                "still", "Why is my appointment still Pending?", "status", status, "Pending"
            ),
            HOURS,
        ]
    )
    index = GoldenIndex(golden, HashingEmbedder())
    assert index.row_texts()[:2] == [
        "Why is my appointment still?",
        "Why is my appointment still Pending?",
    ]
    asked = ["why is my appointment still pending?", "Why is my appointment still Confirmed?"]
    got = index.retrieve(index.embed_questions(asked))
    assert all(r is not None and r.item.id == "still" for r in got)
    assert all(r is not None and r.similarity == pytest.approx(1.0, abs=1e-6) for r in got)


def test_a_paraphrase_is_reported_as_the_phrasing_it_is_with_values_masked() -> None:
    item = {
        **PLANTS,
        "question_paraphrases": [
            "is my Japanese Maple out for delivery yet?",
            "when will my tree arrive",
        ],
    }
    index = GoldenIndex(_golden([item, HOURS]), HashingEmbedder())
    # The question and the first paraphrase have two rows each (own value masked and not).
    assert len(index.row_texts()) == 2 + 2 + 1 + 1
    got = index.retrieve(index.embed_questions(["is my Olive Tree out for delivery yet?"]))
    assert got[0] is not None and got[0].item.id == "plant_delivery"
    assert got[0].phrasings[0] == 1


def test_a_value_said_in_a_reworded_question_is_read_both_ways() -> None:
    """ "I'd rather pay by direct debit" loses its topic once the payment method is
    removed; read as asked too, it meets the golden question that says it, as it did
    before values were named, and an instance question still meets the masked row."""
    pay = {"type": "enum", "values": ["Direct Debit", "Card Payment", "Cash at a PayPoint"]}
    golden = _golden(
        [
            _enum_item(
                "switch",
                "Can I switch my bills to Direct Debit from next month?",
                "method",
                pay,
                "Direct Debit",
            ),
            HOURS,
            FERRY,
        ]
    )
    index = GoldenIndex(golden, HashingEmbedder())
    reworded = "I'd rather pay by direct debit than by card, can I change my bills over?"
    vectors, asked = index.embed_queries(
        [reworded, "Can I switch my bills to Card Payment from next month?"]
    )
    assert asked is not None
    one_way = index.retrieve(vectors)
    both = index.retrieve(vectors, asked)
    assert both[0] is not None and one_way[0] is not None and both[0].item.id == "switch"
    assert both[0].similarity > one_way[0].similarity
    assert both[1] is not None and both[1].similarity == pytest.approx(1.0, abs=1e-6)
    sims = index.item_similarities(vectors, asked)
    assert sims[0].max() == pytest.approx(both[0].similarity, abs=1e-6)
    # No named value: one reading.
    assert index.embed_queries(["What are your opening hours on bank holidays?"])[1] is None


def test_odd_values_neither_crash_nor_match_what_they_do_not_say() -> None:
    long = "Grand " * 5000 + "Suite"
    named = NamedValues(["!!!", "(a+)+$", "Ünïcödé Ñame", long, "Room 1 Deluxe", "Room 12 Deluxe"])
    assert (
        named.remove("Is the Ünïcödé Ñame branch open on Sundays?")
        == "Is the branch open on Sundays?"
    )
    assert (
        named.remove("what about ünïcödé ñame then, open Sundays?")
        == "what about then, open Sundays?"
    )
    assert (
        named.remove("Can I move from Room 12 Deluxe to a quieter room?")
        == "Can I move from to a quieter room?"
    )
    assert named.remove("!!! (a+)+$ help me book a room") == "!!! (a+)+$ help me book a room"
    assert (
        named.remove(long + " upgrade for my family booking?") == "upgrade for my family booking?"
    )


@pytest.mark.parametrize(
    ("sports", "kids"),
    [
        # Text values: each item's own, no shared enum to tell.
        ({"type": "text", "value": "Sports Plus"}, {"type": "text", "value": "Kids Club"}),
        # Enums whose lists differ.
        (
            {
                "type": "enum",
                "values": ["Sports Plus", "Kids Club", "Movie Max"],
                "value": "Sports Plus",
            },
            {"type": "enum", "values": ["Sports Plus", "Kids Club"], "value": "Kids Club"},
        ),
    ],
)
def test_an_items_own_question_retrieves_it_where_removing_values_would_make_two_alike(
    sports: dict[str, Any], kids: dict[str, Any]
) -> None:
    """(From the code review.) Removed, both questions read "What channels come with the
    package?": the kids item's own question tied with the sports item at s* 1.0 and went
    to it. The values that make two items' rows alike are kept."""
    golden = _golden(
        [
            {
                "id": "sports",
                "question": "What channels come with the Sports Plus package?",
                "parameters": {"pkg": sports},
            },
            {
                "id": "kids",
                "question": "What channels come with the Kids Club package?",
                "parameters": {"pkg": kids},
            },
            HOURS,
        ]
    )
    index = GoldenIndex(golden, HashingEmbedder())
    (got,) = index.retrieve(
        *index.embed_queries(["What channels come with the Kids Club package?"])
    )
    assert got is not None and got.item.id == "kids"
    assert got.margin is not None and got.margin > 0
