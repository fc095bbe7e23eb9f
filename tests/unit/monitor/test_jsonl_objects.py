"""`monitor.io.jsonl_objects`: the one JSONL reader behind `read_jsonl_models` (labels,
judgments, calibration rows) and `bench diff`'s `read_items`."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitor.bench.diff import read_items
from monitor.errors import ConfigError
from monitor.io import jsonl_objects


def test_lines_end_at_newline_only(tmp_path: Path) -> None:
    """A U+2028 kept raw inside a JSON string does not end the line; blank lines and a
    CRLF ending are read as usual."""
    f = tmp_path / "rows.jsonl"
    f.write_text('{"a": "one\u2028two"}\r\n\n{"a": 2}\n', encoding="utf-8")
    assert list(jsonl_objects(f, what="rows")) == [(1, {"a": "one\u2028two"}), (3, {"a": 2})]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1}\n{oops\n', "rows.jsonl:2: not JSON"),
        ('{"a": 1}\n[1, 2]\n', "rows.jsonl:2: not a JSON object"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "rows.jsonl"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        list(jsonl_objects(f, what="rows"))


def test_a_missing_file_is_named_and_a_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="rows file not found"):
        list(jsonl_objects(tmp_path / "nope.jsonl", what="rows"))
    with pytest.raises(ConfigError, match="items file not found"):
        read_items(tmp_path / "nope.jsonl")
    # (The CLI reports it as "PATH: Is a directory", as for every file it opens.)
    with pytest.raises(IsADirectoryError):
        read_items(tmp_path)
