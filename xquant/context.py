"""The one way to make an xDSL context that knows every dialect xquant uses."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.universe import Universe

from xquant.compat import install

__all__ = ["make_context"]


def make_context(*, allow_unregistered: bool = False) -> Context:
    """xDSL's dialects and every xquant dialect, registered (loaded lazily).

    Installs xquant's fixes to xDSL first (`xquant.compat.install`).
    """
    install()
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
