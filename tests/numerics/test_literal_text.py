"""`bracketed`: the whole-text check of nested list literals, both bracket pairs."""

from __future__ import annotations

import pytest

from xquant.numerics.literal_text import bracketed


@pytest.mark.parametrize(
    ("body", "count", "expected"),
    [
        (b"[1, 2]", 2, True),
        (b" [[1,2], [3, 4]] ", 4, True),
        (b"[1, 2]", 3, False),
        # The callers count the elements of the text without whitespace, where
        # `[1 2]` reads as `[12]`: one element, and the body has two.
        (b"[1 2]", 1, False),
        (b"[[1]2]", 2, False),  # an element right after a `]`
        (b"[1[2]]", 2, False),  # an element right before a `[`
        (b"1, 2", 2, False),
        (b"", 0, False),
        (b"{1, 2}", 2, False),  # the other pair's brackets are elements here
    ],
)
def test_square_brackets(body: bytes, count: int, expected: bool) -> None:
    assert bracketed(body, count, b"[]") is expected


@pytest.mark.parametrize(
    ("body", "count", "expected"),
    [
        (b"{{0.5:1, 2.0}, {1.0, 3.0:-2}}", 4, True),
        (b"{0.5 1.0}", 1, False),
        (b"{{1}2}", 2, False),
        (b"[1, 2]", 2, False),
    ],
)
def test_braces(body: bytes, count: int, expected: bool) -> None:
    assert bracketed(body, count, b"{}") is expected
