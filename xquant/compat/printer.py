"""A `Printer` that prints as MLIR where xDSL 0.74's printer differs only in output.

MLIR's `DictionaryAttr` keeps its entries sorted by name, so op attributes and
properties always print in name order (`{alpha = 2 : i64, zeta = 1 : i64}`, as
`mlir-opt` and `stablehlo-opt` write them). xDSL prints them in insertion order.
Reproducer:

    "test.op"() {zeta = 1 : i64, alpha = 2 : i64} : () -> ()

prints unchanged with xDSL's `Printer` and sorted with `XQuantPrinter`.

`XQuantPrinter` is a subclass, not a patch, and calls `super()`, so it combines
with other printers by multiple inheritance: `class P(MLIRPrinter, XQuantPrinter)`.
Stock `xdsl-opt` cannot be given a printer class, so for it (and only once one of
xquant's dialects or passes is loaded, see `xquant.universe`)
`sort_attr_dicts_in_xdsl_printer()` makes xDSL's own `Printer` sort too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xdsl.ir import Attribute
from xdsl.printer import Printer


def sorted_attr_dict(attr_dict: Mapping[str, Attribute]) -> dict[str, Attribute]:
    """`attr_dict` in name order, as MLIR's `DictionaryAttr` holds it."""
    return dict(sorted(attr_dict.items()))


@dataclass(eq=False, repr=False)
class XQuantPrinter(Printer):
    """xDSL's printer with MLIR's sorted attribute dictionaries."""

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(sorted_attr_dict(attr_dict))


_PrintAttrDict = Callable[[Printer, Mapping[str, Attribute]], None]


def _sorting(xdsl_print_attr_dict: _PrintAttrDict) -> _PrintAttrDict:
    def print_attr_dict(printer: Printer, attr_dict: Mapping[str, Attribute]) -> None:
        xdsl_print_attr_dict(printer, sorted_attr_dict(attr_dict))

    return print_attr_dict


_patched = False


def sort_attr_dicts_in_xdsl_printer() -> None:
    """Make xDSL's own `Printer` sort attribute dictionaries (idempotent).

    Only for tools that build xDSL's `Printer` themselves (stock `xdsl-opt`);
    xquant's own tools use `XQuantPrinter`.
    """
    global _patched
    if _patched:
        return
    setattr(Printer, "print_attr_dict", _sorting(Printer.print_attr_dict))
    _patched = True
