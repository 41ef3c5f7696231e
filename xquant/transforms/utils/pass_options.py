"""Pass options for the command line: value checks and one-line help.

xDSL turns `--pass=option=value` into a pass instance but checks only the
option's Python type, and a `str` option takes any string. A bad value then
surfaced as an exception inside the pass. Here every value is checked before
the pipeline is built, so it is an option error like a misspelled option name:

- a `bool` option takes `true` or `false`; an `int` option an integer;
- a `str` option whose default is the value of an `Enum` member visible in the
  pass's module (`rounding: str = Rounding.TOWARD_ZERO.value`) takes exactly
  that enum's values.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, fields
from enum import Enum
from typing import Any

from xdsl.passes import ModulePass

_BOOL_VALUES = ("true", "false")


def option_choices(pass_class: type[ModulePass], field_name: str) -> tuple[str, ...]:
    """The allowed values of a `str` option with enumerated values, else ()."""
    default = next(
        (f.default for f in fields(pass_class) if f.name == field_name), MISSING
    )
    if not isinstance(default, str):
        return ()
    module = sys.modules.get(pass_class.__module__)
    for value in vars(module).values() if module else ():
        if isinstance(value, type) and issubclass(value, Enum):
            values = tuple(str(m.value) for m in value)
            if default in values:
                return values
    return ()


def _shown(values: Sequence[Any]) -> str:
    return ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def check_option_values(
    pass_class: type[ModulePass], parameters: Mapping[str, Sequence[Any]]
) -> str | None:
    """mlir-opt's kind of message for the first bad option value, or None.

    `parameters` maps spelled option names (`rounding`, `enable-primitive-ops`)
    to xDSL's parsed values; unknown names are left to xDSL's own check."""
    hints = typing.get_type_hints(pass_class)
    for spelled, values in parameters.items():
        name = spelled.replace("-", "_")
        if name not in hints:
            continue
        hint = hints[name]
        option = spelled.replace("_", "-")
        if hint in (bool, bool | None):
            if not all(isinstance(v, bool) for v in values):
                return (
                    f"for the --{option} option: '{_shown(values)}' is not a valid "
                    f"value (allowed: {', '.join(_BOOL_VALUES)})"
                )
        elif hint in (int, int | None):
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                return (
                    f"for the --{option} option: '{_shown(values)}' is not a valid "
                    "value (allowed: an integer)"
                )
        elif hint in (str, str | None) and (
            choices := option_choices(pass_class, name)
        ):
            if len(values) != 1 or values[0] not in choices:
                return (
                    f"for the --{option} option: '{_shown(values)}' is not a valid "
                    f"value (allowed: {', '.join(choices)})"
                )
    return None


def description(pass_class: type[ModulePass]) -> str:
    """The first line of the pass's docstring (empty when it has none)."""
    doc = pass_class.__doc__ or ""
    if doc.startswith(pass_class.__name__ + "("):
        return ""  # the dataclass's generated signature, not a description
    first = " ".join(doc.strip().split("\n\n", 1)[0].split())
    return first.replace(" (see the module docstring)", "")


def options_summary(pass_class: type[ModulePass]) -> str:
    """`rounding=<str> (default toward-zero; one of toward-zero, nearest-even), ...`."""
    hints = typing.get_type_hints(pass_class)
    parts: list[str] = []
    for f in fields(pass_class):
        hint = hints.get(f.name)
        kind = getattr(hint, "__name__", str(hint))
        notes: list[str] = []
        if f.default is not MISSING:
            default = f.default
            notes.append(
                f"default {str(default).lower() if isinstance(default, bool) else default}"
            )
        if choices := option_choices(pass_class, f.name):
            notes.append(f"one of {', '.join(choices)}")
        part = f"{f.name.replace('_', '-')}=<{kind}>"
        parts.append(part + (f" ({'; '.join(notes)})" if notes else ""))
    return ", ".join(parts)
