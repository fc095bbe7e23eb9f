"""The contract every ``cargo-monitor`` command follows, and flags generated from settings.

A command is one module in ``pipelines/cli/`` exposing ``COMMAND``, an object with
``name``, ``help``, ``register(parser)`` (add its flags) and ``run(args) -> int`` (the exit
code). The dispatcher in ``pipelines/cli/__init__.py`` maps names to commands explicitly.
A command imports its heavy dependencies inside ``run`` so that ``--help`` stays fast.

Settings are declared once, as fields of a pydantic-settings model (``CargoSettings``,
``KafkaSettings``, ...). :func:`add_settings_flags` turns fields into argparse flags:

- flag name from the field name (``batch_size`` -> ``--batch-size``), or
  ``json_schema_extra={"flag": "--judge-request-timeout"}`` where it differs;
- help from the field's ``description`` plus the model's default
  (``json_schema_extra={"default_help": "..."}`` replaces a default that reads badly);
- choices from ``Literal`` annotations; the value is checked against the field's type and
  bounds at parse time, so ``--batch-size 0`` fails with the field's bound (exit 2);
- ``bool`` fields become ``--x / --no-x``; ``dict[str, T]`` fields become a repeatable
  ``KEY=VALUE`` flag;
- argument groups from ``json_schema_extra={"group": "judge"}`` (titles in :data:`GROUPS`);
- ``json_schema_extra={"cli": False}`` (or ``{"flag": None}``) keeps a field env-only;
- ``SecretStr`` fields never become flags. ``json_schema_extra={"env_flag": "--x-env"}``
  adds ``--x-env VAR``: the secret is read from the environment variable ``VAR``.

:func:`settings_from_args` is the reverse: environment (``CARGO_*``) first, then only the
flags the user gave.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal, Protocol, TypeVar, get_args, get_origin

from pydantic import SecretStr, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings

from monitor.errors import ConfigError, problem_lines

__all__ = [
    "GROUPS",
    "Command",
    "add_settings_flags",
    "flag_name",
    "non_negative",
    "option_group",
    "settings_flags",
    "settings_from_args",
    "share",
    "whole_at_least",
]


def whole_at_least(low: int, of: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low`` (``--repeats 0`` would judge
    nothing and report dashes); ``of`` names what is counted in the message ("at least 1
    draw per seed")."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"at least {low}{' ' + of if of else ''}, got {n}")
        return n

    return parse


def share(text: str) -> float:
    """An argparse type: a share of traces or items, above 0 and at most 1 (a coverage,
    a validity)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 < x <= 1.0:
        raise argparse.ArgumentTypeError(f"a share above 0 and at most 1, got {text}")
    return x


def non_negative(text: str) -> float:
    """An argparse type: a number of at least 0 (a cost)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0.0 <= x < float("inf"):  # (NaN and infinity too)
        raise argparse.ArgumentTypeError(f"at least 0, got {text}")
    return x


S = TypeVar("S", bound=BaseSettings)

_FLAGS_KEY = "_settings_flags_"
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Option-group titles in ``--help``, by the ``group`` key of a field.
GROUPS: dict[str, str] = {
    "input": "input",
    "Kafka": "Kafka",
    "gate": "retrieval and gate",
    "judge": "judge",
    "LLM endpoint": "LLM endpoint (--judge llm | hybrid)",
    "otel": "OpenTelemetry",
    "output": "output",
}


class Command(Protocol):
    """One ``cargo-monitor`` subcommand."""

    name: str
    help: str

    def register(self, parser: argparse.ArgumentParser) -> None:
        """Add this command's flags to its (sub)parser."""

    def run(self, args: argparse.Namespace) -> int:
        """Do the work; return the process exit code."""


def _extra(field: FieldInfo) -> dict[str, Any]:
    extra = field.json_schema_extra
    return dict(extra) if isinstance(extra, dict) else {}


def _is_secret(annotation: Any) -> bool:
    if annotation is SecretStr:
        return True
    return any(_is_secret(a) for a in get_args(annotation))


def _strip_none(annotation: Any) -> Any:
    """``X | None`` -> ``X`` (a flag always carries a value)."""
    origin = get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        rest = [a for a in get_args(annotation) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def flag_name(name: str, field: FieldInfo) -> str | None:
    """The flag for a field (``None``: env only, or a secret)."""
    if _is_secret(field.annotation):
        return None
    extra = _extra(field)
    if extra.get("cli") is False:
        return None
    if "flag" in extra:
        flag = extra["flag"]
        return None if flag is None else str(flag)
    return "--" + name.replace("_", "-")


def settings_flags(model_cls: type[BaseSettings]) -> dict[str, str]:
    """Field name -> flag, for every field of ``model_cls`` that has one."""
    out: dict[str, str] = {}
    for name, field in model_cls.model_fields.items():
        flag = flag_name(name, field)
        if flag is not None:
            out[name] = flag
    return out


def _error_text(exc: ValidationError) -> str:
    return "; ".join(str(e["msg"]) for e in exc.errors())


def _value_parser(annotation: Any, metadata: list[Any], label: str) -> Callable[[str], Any]:
    """Parse and check one flag value against the field's type and bounds."""
    target: Any = Annotated[(annotation, *metadata)] if metadata else annotation
    adapter: TypeAdapter[Any] = TypeAdapter(target)

    def parse(text: str) -> Any:
        try:
            return adapter.validate_python(text, strict=False)
        except ValidationError as exc:
            raise argparse.ArgumentTypeError(f"{text!r}: {_error_text(exc)}") from None

    parse.__name__ = label
    return parse


def _pair_parser(value_type: Any, metavar: str) -> Callable[[str], tuple[str, Any]]:
    adapter: TypeAdapter[Any] = TypeAdapter(value_type)

    def parse(text: str) -> tuple[str, Any]:
        key, sep, raw = text.partition("=")
        if not sep or not key.strip():
            raise argparse.ArgumentTypeError(f"expected {metavar}, got {text!r}")
        try:
            return key.strip(), adapter.validate_python(raw.strip(), strict=False)
        except ValidationError as exc:
            raise argparse.ArgumentTypeError(f"{text!r}: {_error_text(exc)}") from None

    return parse


def _default_text(field: FieldInfo) -> str | None:
    extra = _extra(field)
    if "default_help" in extra:
        return str(extra["default_help"])
    if field.default_factory is not None:
        try:
            value = field.default_factory()  # type: ignore[call-arg]
        except TypeError:
            return None
    else:
        value = field.default
    if value is None or value in ({}, []):
        return "none"
    return str(value)


def option_group(parser: argparse.ArgumentParser, key: str) -> argparse._ArgumentGroup:
    """The parser's option group for ``key`` (see :data:`GROUPS`), created on first use,
    so that a command's own flags and the generated ones share one group."""
    title = GROUPS.get(key, key)
    for existing in parser._action_groups:
        if existing.title == title:
            return existing
    return parser.add_argument_group(title)


def _group(
    parser: argparse.ArgumentParser, key: str | None
) -> argparse.ArgumentParser | argparse._ArgumentGroup:
    return parser if key is None else option_group(parser, key)


def add_settings_flags(
    parser: argparse.ArgumentParser,
    model_cls: type[BaseSettings],
    fields: Sequence[str] | None = None,
    *,
    exclude: Iterable[str] = (),
    help_overrides: dict[str, str] | None = None,
) -> list[str]:
    """Add one flag per field of ``model_cls`` (all with a flag, or ``fields`` in that order).

    The flag's ``dest`` is the field name and its default ``None``, so that
    :func:`settings_from_args` passes on only the flags the user gave. Returns the field
    names that got a flag (an ``env_flag`` counts under the secret field's name).
    """
    model_fields = model_cls.model_fields
    names = list(model_fields) if fields is None else list(fields)
    unknown = [n for n in names if n not in model_fields]
    if unknown:
        raise ValueError(f"{model_cls.__name__} has no field(s) {', '.join(unknown)}")
    skip = set(exclude)
    help_overrides = help_overrides or {}
    added: list[str] = []
    for name in names:
        if name in skip:
            continue
        field = model_fields[name]
        extra = _extra(field)
        target = _group(parser, extra.get("group"))
        if _is_secret(field.annotation):
            env_flag = extra.get("env_flag")
            if env_flag:
                env_var = f"{model_cls.model_config.get('env_prefix', '')}{name}".upper()
                target.add_argument(
                    str(env_flag),
                    dest=f"{name}__env",
                    metavar="VAR",
                    default=None,
                    help=help_overrides.get(name)
                    or f"read {(field.description or name)} from this environment variable "
                    f"(default: {env_var}); secrets are never taken as flag values",
                )
                added.append(name)
            continue
        flag = flag_name(name, field)
        if flag is None:
            continue
        added.append(name)
        text = help_overrides.get(name) or field.description or ""
        default = _default_text(field)
        annotation = _strip_none(field.annotation)
        if annotation is bool and default in ("True", "False"):
            default = "on" if default == "True" else "off"
        if get_origin(annotation) is dict:
            text = f"{text}; repeatable" if text else "repeatable"
        env_var = f"{model_cls.model_config.get('env_prefix', '')}{name}".upper()
        if env_var != "CARGO_" + flag.lstrip("-").replace("-", "_").upper():
            # Named where it is not the flag's name in capitals ("--batch-window" is
            # CARGO_BATCH_WINDOW_S, "--brokers" CARGO_KAFKA_BOOTSTRAP).
            default = f"{default}; env {env_var}"
        help_text = f"{text} (default: {default})" if text else f"default: {default}"
        help_text = help_text.replace("%", "%%")
        metavar = extra.get("metavar") or flag.lstrip("-").replace("-", "_").upper()
        kwargs: dict[str, Any] = {"dest": name, "default": None, "help": help_text}
        if annotation is bool:
            kwargs["action"] = argparse.BooleanOptionalAction
        elif get_origin(annotation) is dict:
            value_type = get_args(annotation)[1]
            metavar = extra.get("metavar") or "KEY=VALUE"
            kwargs.update(action="append", metavar=metavar, type=_pair_parser(value_type, metavar))
        else:
            kwargs["type"] = _value_parser(annotation, list(field.metadata), name)
            if get_origin(annotation) is Literal:
                kwargs["choices"] = list(get_args(annotation))
            else:
                kwargs["metavar"] = metavar
        target.add_argument(flag, **kwargs)
    key = _FLAGS_KEY + model_cls.__name__
    parser.set_defaults(**{key: [*(parser.get_default(key) or []), *added]})
    _order_groups(parser)
    return added


def _order_groups(parser: argparse.ArgumentParser) -> None:
    """Groups in :data:`GROUPS` order (input first, output last), after the built-in ones."""
    rank = {title: k for k, title in enumerate(GROUPS.values())}
    builtin = parser._action_groups[:2]
    rest = sorted(parser._action_groups[2:], key=lambda g: rank.get(g.title or "", len(rank)))
    parser._action_groups[:] = [*builtin, *rest]


_WARNED: set[str] = set()


def _settings_classes() -> list[type[BaseSettings]]:
    from monitor.settings import CargoSettings
    from pipelines.kafka.config import KafkaSettings, WorkerSettings
    from pipelines.otel.settings import OtelKafkaSettings, OtelSettings

    return [CargoSettings, KafkaSettings, WorkerSettings, OtelSettings, OtelKafkaSettings]


def setting_env_names() -> frozenset[str]:
    """The environment variables the settings read (``CARGO_TAU``,
    ``CARGO_KAFKA_BOOTSTRAP``, ...)."""
    return frozenset(
        f"{cls.model_config.get('env_prefix', '')}{name}".upper()
        for cls in _settings_classes()
        for name in cls.model_fields
    )


_DEPLOY_VARIABLES = frozenset(
    f"CARGO_OTEL_{x}"
    for x in (
        "BROKERS",
        "ENCODING",
        "GROUP_ID",
        "GRPC_ENDPOINT",
        "HTTP_ENDPOINT",
        "LOGS_ENCODING",
        "LOGS_TOPIC",
        "SPANS_TOPIC",
    )
)


def unknown_settings(environ: Mapping[str, str]) -> list[str]:
    """A line for each ``CARGO_*`` variable that is no setting but is close to one
    (``CARGO_BATCH_WINDOW`` for ``CARGO_BATCH_WINDOW_S``): a setting misspelt is
    otherwise ignored without a word. Variables near no setting (Rust's ``CARGO_HOME``)
    are not ours to judge."""
    known = setting_env_names()
    out = []
    # Not settings, but the project's own (deploy/otel/collector: the Collector's config).
    known |= _DEPLOY_VARIABLES
    for var in sorted(environ):
        if not var.startswith("CARGO_") or var in known:
            continue
        near = sorted(k for k in known if k.startswith(var + "_")) or difflib.get_close_matches(
            var, sorted(known), n=1, cutoff=0.85
        )
        if near:
            out.append(f"{var} is not a setting (did you mean {near[0]}?); it is ignored")
    return out


def settings_from_args(model_cls: type[S], args: argparse.Namespace, **extra: Any) -> S:
    """Build ``model_cls``: environment first, then the flags the user gave, then ``extra``.

    Raises :class:`~monitor.errors.ConfigError` when an ``env_flag`` names an unset
    variable, or when a value is out of bounds (naming its flag, or its environment
    variable when it came from one).
    """
    for line in unknown_settings(os.environ):
        if line not in _WARNED:
            _WARNED.add(line)
            print(f"cargo-monitor: warning: {line}", file=sys.stderr)
    overrides: dict[str, Any] = {}
    # Only the fields that add_settings_flags made flags of: a command's own flag with the
    # same dest (bench run's --tau, say) is not a setting.
    flagged = getattr(args, _FLAGS_KEY + model_cls.__name__, None)
    for name, field in model_cls.model_fields.items():
        if flagged is not None and name not in flagged:
            continue
        if _is_secret(field.annotation):
            var = getattr(args, f"{name}__env", None)
            if var:
                flag = _extra(field).get("env_flag", name)
                if not _ENV_NAME.fullmatch(var):
                    # Not echoed: a secret given here by mistake must not reach the logs.
                    raise ConfigError(
                        f"{flag} takes the name of an environment variable, not a value"
                    )
                if var not in os.environ:
                    raise ConfigError(f"{flag}: environment variable {var} is not set")
                overrides[name] = os.environ[var]
            continue
        value = getattr(args, name, None)
        if value is None:
            continue
        if get_origin(_strip_none(field.annotation)) is dict and isinstance(value, list):
            value = dict(value)
        overrides[name] = value
    overrides.update(extra)
    try:
        return model_cls(**overrides)
    except ValidationError as exc:
        raise ConfigError(_settings_problem(model_cls, exc, given=set(overrides))) from None


def _settings_problem(model_cls: type[BaseSettings], exc: ValidationError, given: set[str]) -> str:
    """One line per bad setting, named as the user set it: its flag when given as one,
    else its environment variable (``CARGO_TAU: ...``). The value is not echoed (it may
    be a secret), nor pydantic's documentation link."""
    prefix = str(model_cls.model_config.get("env_prefix", ""))

    def where(loc: tuple[int | str, ...]) -> str:
        name = loc[0] if loc and isinstance(loc[0], str) else None
        field = model_cls.model_fields.get(name) if name is not None else None
        if name is None or field is None:
            return ".".join(str(x) for x in loc) or model_cls.__name__
        if name in given:
            return flag_name(name, field) or str(_extra(field).get("env_flag") or name)
        return f"{prefix}{name}".upper()

    return "; ".join(problem_lines(exc, where))
