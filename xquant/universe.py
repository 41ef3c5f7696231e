"""The `xdsl.universe` entry point: every xquant dialect and pass, loaded lazily.

After `pip install`, stock `xdsl-opt` finds these through the entry point in
pyproject.toml; imports happen only when a dialect or pass is first used.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


def _quant() -> Dialect:
    from xquant.dialects.quant import Quant

    return Quant


DIALECTS: dict[str, Callable[[], Dialect]] = {
    "quant": _quant,
}

PASSES: dict[str, Callable[[], type[ModulePass]]] = {}

XQUANT_UNIVERSE = Universe(all_dialects=DIALECTS, all_passes=PASSES)
