"""The seed format's newer fields: policy_terms, question_paraphrases and span markup in
answer paraphrases (issue 19), and that seeds without them load exactly as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from monitor.bench.generate import generate, read_instances, seeds_hash
from monitor.bench.seeds import (
    MarkupError,
    Seed,
    load_seeds,
    parse_markup,
    strip_markup,
)
from monitor.data import BENCH_DIR, BENCH_INSTANCES
from monitor.errors import GoldenSetError
from monitor.schemas import GoldenItem
from tests.conftest import FOREIGN_SEEDS, HELDOUT_SETS

HELDOUT = HELDOUT_SETS[0]
NEW_FIELDS = {"policy_terms", "question_paraphrases", "marked_paraphrases"}


def _seed(**over: Any) -> dict[str, Any]:
    """A valid procedural seed (as YAML would give it), with ``over`` applied."""
    base: dict[str, Any] = {
        "id": "s_refund",
        "intent": "refund",
        "agent": "billing",
        "question": "How do I get a refund for order {orderId}?",
        "answer": (
            "Open order {orderId} and choose Request refund. "
            "You must return the item within 30 days. "
            "Refunds go to the original payment method."
        ),
        "parameters": {"orderId": {"type": "digits", "length": 6, "label": "order"}},
        "golden": {"orderId": 123456},
        "observed_fields": ["orderId"],
        "steps": [
            "Open order {orderId} and choose Request refund.",
            "You must return the item within 30 days.",
        ],
        "policy_alternatives": [{"from": "within 30 days", "to": "within 1 year"}],
    }
    base.update(over)
    return base


GOOD_PARA = (
    "[[step:Choose Request refund on order {orderId}.]] "
    "[[step:Send the item back [[policy:within a month|within a year]]; this "
    "[[rule:is required|is optional]].]] The money goes back to the card you paid with."
)


def _problems(**over: Any) -> list[str]:
    return Seed.model_validate(_seed(**over)).problems()


# --------------------------------------------------------------------------- old seeds


@pytest.mark.parametrize("path", [BENCH_DIR, FOREIGN_SEEDS], ids=["bundled", "foreign"])
def test_old_seeds_load_and_serialise_as_before(path: Path) -> None:
    raw_by_id = {}
    for f in sorted(Path(path).glob("*.yaml")):
        for entry in yaml.safe_load(f.read_text(encoding="utf-8"))["seeds"]:
            raw_by_id[entry["id"]] = entry
    seeds = load_seeds(path)
    assert seeds
    for s in seeds:
        dumped = s.model_dump(mode="json", by_alias=True)
        assert not NEW_FIELDS & set(dumped), s.id
        assert s.paraphrases == tuple(raw_by_id[s.id].get("paraphrases", ())), s.id
        assert "policy_terms" not in s.golden_item().model_dump(mode="json")


def test_bundled_generation_still_matches_the_shipped_instances() -> None:
    seeds = load_seeds(BENCH_DIR)
    shipped = BENCH_INSTANCES.read_text(encoding="utf-8")
    header, _ = read_instances(shipped)
    assert seeds_hash(seeds) == header.seeds_hash
    assert generate(seeds, draws=5, gen_seed=2027).to_jsonl() == shipped


def test_a_seed_without_new_fields_hashes_like_one_that_never_had_them() -> None:
    plain = Seed.model_validate(_seed())
    explicit = Seed.model_validate(
        _seed(policy_terms=[], question_paraphrases=[], marked_paraphrases=[])
    )
    assert seeds_hash([plain]) == seeds_hash([explicit])
    with_terms = Seed.model_validate(_seed(policy_terms=["original payment method"]))
    assert seeds_hash([with_terms]) != seeds_hash([plain])


# --------------------------------------------------------------------------- policy_terms


def test_policy_terms_that_occur_in_the_golden_answer_are_valid() -> None:
    assert _problems(policy_terms=["within 30 days", "original payment method"]) == []
    seed = Seed.model_validate(_seed(policy_terms=["original payment method"]))
    assert seed.golden_item().policy_terms == ("original payment method",)


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        (["store credit"], "policy_terms.0: 'store credit' does not occur in the golden answer"),
        (["30 day"], "policy_terms.0: '30 day' does not occur"),  # not a whole-word match
        (["order {orderId}"], "policy_terms.0: 'order {orderId}' holds a placeholder"),
        ([" within 30 days"], "leading or trailing spaces"),
        (["  "], "policy_terms.0: empty term"),
        (["within 30 days", "within 30 days"], "is listed 2 times"),
    ],
)
def test_invalid_policy_terms_are_reported(terms: list[str], message: str) -> None:
    assert any(message in p for p in _problems(policy_terms=terms)), _problems(policy_terms=terms)


def test_golden_item_policy_terms_must_occur_and_are_omitted_when_empty() -> None:
    item = GoldenItem(
        id="g", intent="i", agent="a", question="q?", answer="Paid by direct deposit."
    )
    assert "policy_terms" not in item.model_dump()
    with_terms = item.model_copy(update={"policy_terms": ("direct deposit",)})
    assert with_terms.model_dump()["policy_terms"] == ("direct deposit",)
    with pytest.raises(ValueError, match="'cheque' does not occur in the answer"):
        GoldenItem(
            id="g",
            intent="i",
            agent="a",
            question="q?",
            answer="Paid by direct deposit.",
            policy_terms=("cheque",),
        )


# --------------------------------------------------------------------------- question_paraphrases


def test_question_paraphrases_with_the_same_placeholders_or_none_are_valid() -> None:
    qs = ["refund for {orderId}??", "how do refunds work", "Order {orderId}: money back?"]
    seed = Seed.model_validate(_seed(question_paraphrases=qs))
    assert seed.problems() == []
    assert seed.question_variants({"orderId": "987654"})[0] == "refund for 987654??"


@pytest.mark.parametrize(
    ("questions", "message"),
    [
        (["refund for {orderId} and {sku}?"], "placeholders {orderId, sku} differ"),
        (["How do I get a refund for order {orderId}?"], "the same as the template question"),
        (["[[rule:refund]] {orderId}?"], "questions take no span markup"),
        (["  "], "question_paraphrases.0: empty question"),
        (["refund {orderId}?", "refund {orderId}?"], "is listed 2 times"),
    ],
)
def test_invalid_question_paraphrases_are_reported(questions: list[str], message: str) -> None:
    problems = _problems(question_paraphrases=questions)
    assert any(message in p for p in problems), problems


# --------------------------------------------------------------------------- markup parsing


def test_markup_parses_to_plain_text_with_spans() -> None:
    m = parse_markup(GOOD_PARA)
    assert m.text == (
        "Choose Request refund on order {orderId}. Send the item back within a month; this "
        "is required. The money goes back to the card you paid with."
    )
    assert [(s.kind, s.step) for s in m.spans] == [
        ("step", 0),
        ("step", 1),
        ("policy", None),
        ("rule", None),
    ]
    for span in m.spans:
        assert m.text[span.start : span.end] == span.text
    assert m.of_kind("policy")[0].alt == "within a year"
    assert strip_markup(GOOD_PARA) == m.text


def test_numbered_steps_map_to_golden_steps_out_of_text_order() -> None:
    m = parse_markup("[[step2:Return it first.]] [[step1:Then open the order.]]")
    assert m.step_span(0) is not None and m.step_span(0).text == "Then open the order."  # type: ignore[union-attr]
    assert m.step_span(1) is not None and m.step_span(1).text == "Return it first."  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[step:open it", "unclosed step span"),
        ("open it]]", "closes no span"),
        ("[[stage:open it]]", "unknown span 'stage'"),
        ("[[rule2:must]]", "only a step span takes a number"),
        ("[[step:a [[step:b]]]]", "cannot sit inside a step span"),
        ("[[rule:a [[policy:b|c]]]]", "cannot sit inside a rule span"),
        ("[[step:open it|skip it]]", "a step span takes no '|' alternative"),
        ("[[rule:must|must not|may]]", "a second '|'"),
        ("[[rule:must|must]]", "has itself as alternative"),
        ("[[policy:]]", "empty policy span"),
        ("[[policy:a|]]", "empty alternative"),
        ("[[step1:a]] [[step:b]]", "number every step span"),
        ("[[step0:a]]", "step numbers start at 1"),
    ],
)
def test_malformed_markup_is_rejected(text: str, message: str) -> None:
    with pytest.raises(MarkupError, match=message.replace("|", r"\|").replace("[", r"\[")):
        parse_markup(text)


@pytest.mark.parametrize(
    ("text", "where", "near"),
    [
        # every position is the line and column of the source as written, markup and
        # all, with the text there (a newcomer's trial found "plain offset 36" for one
        # error and a raw offset for another)
        ("You can [[rule:cancel|not cancel]].\nThen [[step:go", "line 2, column 6", "[[step:go"),
        ("First.\nThen [[Step:go]]", "line 2, column 6", "[[Step:go"),
        ("Open it]] now", "line 1, column 8", "Open it]] now"),
    ],
)
def test_a_markup_error_says_the_line_and_column_as_written(
    text: str, where: str, near: str
) -> None:
    with pytest.raises(MarkupError) as err:
        parse_markup(text)
    message = str(err.value)
    assert where + ": " in message
    assert near in message.split(where + ": ", 1)[1]


def test_deleting_a_bulleted_step_removes_its_line() -> None:
    m = parse_markup("To return:\n- [[step:Pack it.]]\n- [[step:Ship it.]]\nDone.")
    first, second = m.of_kind("step")
    assert m.delete(first) == "To return:\n- Ship it.\nDone."
    assert m.delete(second) == "To return:\n- Pack it.\nDone."
    prose = parse_markup("Pack it[[step:, then ship it]]. Done.")
    assert prose.delete(prose.spans[0]) == "Pack it. Done."
    assert prose.replace(prose.spans[0], " and burn it") == "Pack it and burn it. Done."


# --------------------------------------------------------------------------- marked paraphrases


def test_a_marked_seed_keeps_plain_paraphrases_and_its_markup() -> None:
    seed = Seed.model_validate(_seed(paraphrases=[GOOD_PARA]))
    assert seed.problems() == []
    assert seed.paraphrases == (strip_markup(GOOD_PARA),)
    assert seed.marked_paraphrases == (GOOD_PARA,)
    (base,) = seed.paraphrase_bases()
    assert base.text == seed.paraphrases[0]
    rule = base.of_kind("rule")[0]
    assert seed.span_rewrites(rule) == ("is optional",)
    again = Seed.model_validate(seed.model_dump(mode="json", by_alias=True))
    assert again == seed


def test_rule_and_policy_spans_without_alternatives_use_the_rules_and_the_seed() -> None:
    para = (
        "[[step:Choose Request refund on order {orderId}.]] [[step:You [[rule:must]] send it "
        "back [[policy:within 30 days]].]] The money goes back to the card you paid with."
    )
    seed = Seed.model_validate(_seed(paraphrases=[para]))
    assert seed.problems() == []
    base = seed.paraphrase_bases()[0]
    assert seed.span_rewrites(base.of_kind("rule")[0]) == ("must not",)
    assert seed.span_rewrites(base.of_kind("policy")[0]) == ("within 1 year",)


@pytest.mark.parametrize(
    ("para", "message"),
    [
        (
            "[[step:Choose Request refund on order {orderId}.]] Send it back "
            "[[policy:within a month|within a year]]; this [[rule:is required|is optional]].",
            "each of the 2 golden steps needs exactly one",
        ),
        (
            "[[step2:Choose Request refund on order {orderId}.]] [[step2:Send it back "
            "[[policy:within a month|within a year]]; this [[rule:is required|is optional]].]]",
            "step spans state golden steps [2, 2]",
        ),
        (
            "[[step:Choose Request refund on order {orderId}.]] [[step:Send it back "
            "[[policy:within a month|within a year]].]]",
            "the golden answer can be negated; mark a [[rule:...]]",
        ),
        (
            "[[step:Choose Request refund on order {orderId}.]] [[step:Send it back within a "
            "month; this [[rule:is required|is optional]].]]",
            "the seed has policy_alternatives; mark a [[policy:...]]",
        ),
        (
            "[[step:Choose Request refund.]] [[step:Send it back [[policy:within a month|within "
            "a year]]; this [[rule:is required|is optional]].]]",
            "states the answer's values {orderId}, this one none",
        ),
        (
            "[[step:Choose Request refund on order {orderId}.]] [[step:Send it back "
            "[[policy:within a month]]; this [[rule:is required|is optional]].]]",
            "policy span 'within a month': it is no policy_alternatives 'from'",
        ),
        (
            "[[step:Choose Request refund on order {orderId}.]] [[step:Send it back "
            "[[policy:within a month|within a year]]; this is [[rule:needed today]].]]",
            "rule span 'needed today': no negation rule applies",
        ),
        (
            "Choose Request refund on order {orderId} and [[step:send it back]]. "
            "[[step:Return it [[policy:within a month|within a year]]; this "
            "[[rule:is required|is optional]].]]",
            "deleting step 'send it back' leaves a dangling conjunction",
        ),
        (
            "[[step:Choose Request refund on order {orderId}.]] [[step:Send it back "
            "[[policy:within a month|by {sku}]]; this [[rule:is required|is optional]].]]",
            "placeholder {sku} is not a parameter",
        ),
        ("[[step:Choose Request refund on order {orderId}.", "unclosed step span"),
    ],
)
def test_marked_paraphrase_problems_name_the_paraphrase(para: str, message: str) -> None:
    problems = _problems(paraphrases=[GOOD_PARA, para])
    assert any(p.startswith("paraphrases.1: ") and message in p for p in problems), problems
    assert not any(p.startswith("paraphrases.0") for p in problems), problems


def test_step_spans_on_a_seed_without_steps_are_reported() -> None:
    problems = _problems(steps=[], paraphrases=[GOOD_PARA])
    assert any("step spans, but the seed declares no steps" in p for p in problems), problems


def test_every_paraphrase_of_a_marked_seed_must_be_marked() -> None:
    unmarked = "Choose Request refund on order {orderId} and send it back within a month."
    problems = _problems(paraphrases=[GOOD_PARA, unmarked])
    assert any(p.startswith("paraphrases.1: step spans state golden steps []") for p in problems)


def test_load_seeds_names_file_seed_and_field(tmp_path: Path) -> None:
    f = tmp_path / "x.yaml"
    f.write_text(
        yaml.safe_dump({"seeds": [_seed(policy_terms=["store credit"], paraphrases=["[[x:y]]"])]}),
        encoding="utf-8",
    )
    with pytest.raises(GoldenSetError) as err:
        load_seeds(f)
    text = "\n".join(err.value.problems)
    assert f"{f}: seed 's_refund': policy_terms.0: 'store credit' does not occur" in text
    assert f"{f}: seed 's_refund': paraphrases.0: unknown span 'x'" in text


# --------------------------------------------------------------------------- held-out seeds


@pytest.mark.parametrize(
    ("folder", "least_seeds", "least_domains", "earlier"),
    # The first set: 24 seeds from 8 domains; each later one 18 from 6. None shares a
    # domain or a seed id with the foreign seeds or an earlier set.
    [
        (folder, 18 if k else 24, 6 if k else 8, (FOREIGN_SEEDS, *HELDOUT_SETS[:k]))
        for k, folder in enumerate(HELDOUT_SETS)
    ],
    ids=[f.name.removesuffix("_seeds") for f in HELDOUT_SETS],
)
def test_heldout_seeds_meet_the_protocol(
    folder: Path, least_seeds: int, least_domains: int, earlier: tuple[Path, ...]
) -> None:
    seeds = load_seeds(folder)
    domains = {f.stem for f in folder.glob("*.yaml")}
    existing = {f.stem for d in earlier for f in d.glob("*.yaml")}
    assert len(seeds) >= least_seeds and len(domains) >= least_domains
    assert not domains & existing
    ids = {s.id for s in seeds}
    assert not ids & {s.id for d in earlier for s in load_seeds(d)}
    for s in seeds:
        assert s.parameters and s.policy_terms, s.id
        assert len(s.paraphrases) >= 2 and len(s.marked_paraphrases) == len(s.paraphrases), s.id
        assert len(s.question_paraphrases) >= 2, s.id
        for base in s.paraphrase_bases():
            assert base.spans, s.id
            assert len(base.of_kind("step")) == len(s.steps), s.id


def test_heldout_generation_renders_plain_paraphrases() -> None:
    gen = generate(load_seeds(HELDOUT), draws=2, gen_seed=2027)
    assert not gen.problems
    p6 = [i for i in gen.instances if i.family == "P6"]
    assert p6
    for inst in gen.instances:
        assert "[[" not in inst.answer and "]]" not in inst.answer, inst.id


@pytest.mark.parametrize(
    ("golden", "needle"),
    [
        ({"orderId": "12345"}, "golden.orderId: '12345' has 5 characters, not its length 6"),
        ({"orderId": "12345A"}, "golden.orderId: '12345A' is not all digits"),
    ],
)
def test_a_golden_value_must_have_its_parameters_shape(golden: dict[str, str], needle: str) -> None:
    # The judge tells a field's values by their shape (a 6-digit order number): a
    # golden value of another length was accepted and then never read as the field's.
    assert needle in _problems(golden=golden)
    assert _problems() == []
