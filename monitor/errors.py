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
    └── JudgeError                  an evaluation failed (timeout, unparseable output, ...)

A :class:`JudgeError` never becomes a score: the evaluator records it as a
``judge_error`` judgment with its ``kind`` and ``reason``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import ValidationError

    from monitor.schemas import LLMCall


# The prefixes pydantic puts before a validator's own message.
_PYDANTIC_PREFIXES = ("Value error, ", "Assertion failed, ")


def _message(msg: str) -> str:
    for prefix in _PYDANTIC_PREFIXES:
        if msg.startswith(prefix):
            return msg[len(prefix) :]
    return msg


def problem_lines(
    exc: ValidationError, name: Callable[[tuple[int | str, ...]], str] | None = None
) -> list[str]:
    """One line per pydantic error, ``where: message``: ``where`` is ``name(loc)``
    (default: the location joined with dots; left out when empty, as for a check of
    the whole model), the message without pydantic's "Value error, " prefix. Neither
    the input (it may be a secret) nor the documentation link."""
    out = []
    for e in exc.errors(include_input=False, include_url=False):
        where = name(e["loc"]) if name is not None else ".".join(str(x) for x in e["loc"])
        msg = _message(e["msg"])
        out.append(f"{where}: {msg}" if where else msg)
    return out


def first_problem(exc: ValidationError) -> str:
    """One line for a pydantic error: the first problem (:func:`problem_lines`) and how
    many more."""
    lines = problem_lines(exc)
    more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
    return f"{lines[0]}{more}"


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

    def __init__(self, problems: list[str], what: str = "golden set") -> None:
        self.problems = list(problems)
        super().__init__(f"{what} is invalid:\n  " + "\n  ".join(self.problems))


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
    """An evaluation failed. ``kind`` is a bounded label (a metric label value):

    ``unparseable``  no JSON object could be read from the judge's output
    ``empty``        the judge returned no content
    ``schema``       JSON that violates the output contract (missing field, out of range)
    ``refusal``      the model refused (structured-output refusal)
    ``timeout``      no answer within the request timeout or the evaluation deadline
    ``rate_limit``   HTTP 429 after every retry
    ``http``         another HTTP error status (5xx after every retry, 4xx at once)
    ``connection``   the endpoint could not be reached after every retry
    ``internal``     a bug in a judge (caught so that the stream goes on)

    ``call`` carries what the failed call cost (tokens, attempts, latency) when known,
    so that failures are accounted for like successes.
    """

    KINDS = frozenset(
        {
            "timeout",
            "unparseable",
            "empty",
            "schema",
            "refusal",
            "http",
            "rate_limit",
            "connection",
            "internal",
        }
    )

    def __init__(self, kind: str, reason: str, *, call: LLMCall | None = None) -> None:
        self.kind = kind if kind in self.KINDS else "internal"
        self.reason = reason
        self.call = call
        super().__init__(f"{self.kind}: {reason}")
