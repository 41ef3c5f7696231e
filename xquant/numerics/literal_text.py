"""Whole-text checks of nested list literals, for the parsers' fast paths.

Two parsers read long nested lists without going token by token: dense
literals `dense<[[1, 2], [3, 4]]>` (`compat.dense_literal_arrays`) and the
scale lists of quantized types `{{0.5:1, 2.0}, ...}` (`dialects.quant.syntax`).
Both drop whitespace and hand the elements to numpy, so each first checks
that the text is a well-formed list with the expected number of elements;
only the bracket pair differs. That check lives here, once.
"""

from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["bracketed"]


@cache
def _marks(brackets: bytes) -> bytes:
    """A `bytes.translate` table: every element character as `x`, whitespace
    as a space, the brackets and commas as themselves."""
    keep = brackets + b","
    return bytes(
        c if c in keep else 32 if c in b" \t\r\n" else ord("x") for c in range(256)
    )


def bracketed(body: bytes, count: int, brackets: bytes) -> bool:
    """Whether `body` holds `count` elements that sit only between brackets and
    commas: no element right after a closing bracket or right before an
    opening one, one list, and no two elements with only whitespace between
    them (the fast paths drop whitespace, so `[1 2]` would otherwise read as
    `[12]`). `brackets` is the pair, `b"[]"` or `b"{}"`."""
    opening, closing = brackets[:1], brackets[1:]
    marks = body.translate(_marks(brackets))
    compact = marks.replace(b" ", b"")
    if not (
        compact[:1] == opening
        and compact[-1:] == closing
        and closing + b"x" not in compact
        and b"x" + opening not in compact
    ):
        return False
    element = np.frombuffer(marks, np.uint8) == ord("x")
    runs = int(element[0]) + int(np.count_nonzero(element[1:] & ~element[:-1]))
    return runs == count
