"""The one error hierarchy of Cargo Monitor.

Every exception the library raises on purpose derives from :class:`CargoError`.
Adapters translate vendor exceptions (sentence-transformers, sklearn, HTTP clients)
into one of these at a single point with ``raise ... from exc``::

    CargoError
    ├── ConfigError                 bad settings, flags or a missing file
    │   └── ModelUnavailableError   the offline embedding model is not installed
    ├── GoldenSetError              a golden set failed validation (file + item id)
    ├── GateModelError              a calibrated gate model file is unreadable/invalid
    ├── TraceError                  one trace could not be turned into a Trace
    │   └── InvalidTraceError       missing/mistyped field or undecodable line
    ├── EmbeddingError              the embedder failed on a batch
    └── JudgeError                  an evaluation failed (timeout, bad output, ...)

A :class:`JudgeError` never becomes a score: the evaluator records it as a
``judge_error`` judgment with its ``kind`` and ``reason``.
"""

from __future__ import annotations


class CargoError(Exception):
    """Base of every error Cargo Monitor raises on purpose."""


class ConfigError(CargoError):
    """Invalid configuration: settings, CLI flags, or a required file is missing."""


class ModelUnavailableError(ConfigError):
    """The offline embedding model cannot be loaded from the installed packages."""


class GoldenSetError(CargoError):
    """A golden set failed validation.

    ``problems`` lists every problem found, each prefixed by ``file: item id:``
    so that a user can fix them all in one pass.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("golden set is invalid:\n  " + "\n  ".join(self.problems))


class GateModelError(CargoError):
    """A calibrated gate model could not be read, fitted or applied."""


class TraceError(CargoError):
    """A trace could not be decoded."""


class InvalidTraceError(TraceError):
    """A trace is malformed; ``field`` names the offending field when known."""

    def __init__(self, reason: str, *, field: str | None = None, detail: str = "") -> None:
        self.reason = reason
        self.field = field
        self.detail = detail
        where = f" (field {field!r})" if field else ""
        super().__init__(f"{reason}{where}: {detail}" if detail else f"{reason}{where}")


class EmbeddingError(CargoError):
    """The embedder failed on a batch of texts."""


class JudgeError(CargoError):
    """An evaluation failed. ``kind`` is a bounded label (timeout, bad_output, ...)."""

    KINDS = frozenset(
        {"timeout", "bad_output", "empty_output", "schema", "http", "rate_limit",
         "connection", "internal"}
    )

    def __init__(self, kind: str, reason: str) -> None:
        self.kind = kind if kind in self.KINDS else "internal"
        self.reason = reason
        super().__init__(f"{self.kind}: {reason}")
