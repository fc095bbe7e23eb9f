from __future__ import annotations

from pathlib import Path

import pytest

from monitor.errors import ConfigError
from pipelines.otel import DEFAULT_MAPPING, load_mapping, parse_mapping


def test_defaults_work_without_a_file() -> None:
    m = load_mapping(None)
    assert m == DEFAULT_MAPPING
    assert m.tool_results.as_context and m.tool_results.counts("anything")
    assert m.intent_attribute is None and m.citations_attribute is None


def test_a_full_file_loads(tmp_path: Path) -> None:
    p = tmp_path / "mapping.yaml"
    p.write_text(
        "version: 1\n"
        "intent_attribute: app.intent\n"
        "citations_attribute: app.citations\n"
        "context_attributes: {app.case_number: case_number}\n"
        "tool_results:\n"
        "  include: ['get_*']\n"
        "  exclude: [get_secret]\n"
        "  rename: {get_case: {state: status}}\n"
        "  max_depth: 3\n"
        "ignore_span_names: ['health*']\n",
        encoding="utf-8",
    )
    m = load_mapping(p)
    assert m.intent_attribute == "app.intent"
    assert m.tool_results.counts("get_case") and not m.tool_results.counts("get_secret")
    assert not m.tool_results.counts("search")
    assert m.ignored("healthcheck") and not m.ignored("chat")


@pytest.mark.parametrize(
    ("doc", "key"),
    [
        ({"intent_atribute": "x"}, "intent_atribute"),  # misspelt: named, not ignored
        ({"tool_results": {"include": "get_*"}}, "tool_results.include"),
        ({"tool_results": {"max_depth": 9}}, "tool_results.max_depth"),
        ({"tool_results": {"rename": {"t": {"a": ""}}}}, "tool_results.rename"),
        ({"tool_results": {"unknown": 1}}, "tool_results.unknown"),
        ({"version": 2}, "version"),
        ({"intent_attribute": ""}, "intent_attribute"),
    ],
)
def test_errors_name_the_key(doc: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as exc:
        parse_mapping(doc, source="m.yaml")
    assert f"{key}:" in str(exc.value)
    assert str(exc.value).startswith("m.yaml: invalid mapping")


def test_file_problems(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_mapping(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_mapping(bad)
    top = tmp_path / "list.yaml"
    top.write_text("- 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="YAML mapping at the top"):
        load_mapping(top)
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    assert load_mapping(empty) == DEFAULT_MAPPING
